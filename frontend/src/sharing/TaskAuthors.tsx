/**
 * On a task of a shared list: who added it, and who completed it once done ("you" for the
 * signed-in person), in small secondary text among the task's chips.
 */
import type { Task } from "../api/types";
import { useSession } from "../auth/session";
import "./sharing.css";

/** "added by you · completed by sam@example.com", or null when there is nothing to say. */
export function authorsText(task: Task, me: string | null): string | null {
  if (!task.shared) return null;
  const who = (email: string) => (me !== null && email.toLowerCase() === me.toLowerCase() ? "you" : email);
  const parts = [
    task.added_by && `added by ${who(task.added_by)}`,
    task.completed && task.completed_by && `completed by ${who(task.completed_by)}`,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  const text = parts.join(" · ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

export function TaskAuthors({ task, id }: { task: Task; id: string }) {
  const me = useSession().session?.email ?? null;
  const text = authorsText(task, me);
  if (text === null) return null;
  return (
    <span id={id} className="task-authors">
      {text}
    </span>
  );
}
