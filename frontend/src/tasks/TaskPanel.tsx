/** The task list beside the chat: pending and completed, each task editable in place. */
import { useEffect, useRef, type ReactNode } from "react";

import { describeError } from "../api/errors";
import type { Task } from "../api/types";
import { AddTaskForm } from "./AddTaskForm";
import { TaskItem } from "./TaskItem";
import { useTasks } from "./useTasks";
import "./tasks.css";

const byNumber = (a: Task, b: Task) => a.id - b.id;

interface GroupProps {
  title: string;
  tasks: Task[];
  empty: ReactNode;
  onDeleted: (id: number) => void;
  onMoved: (id: number) => void;
}

function TaskGroup({ title, tasks, empty, onDeleted, onMoved }: GroupProps) {
  return (
    <div className="task-group">
      <div className="task-group-header">
        <h3>{title}</h3>
        <span className="count-badge" aria-hidden="true">
          {tasks.length}
        </span>
      </div>
      {tasks.length > 0 ? (
        <ul className="task-list">
          {tasks.map((task) => (
            <TaskItem key={task.id} task={task} onDeleted={onDeleted} onMoved={onMoved} />
          ))}
        </ul>
      ) : (
        <div className="task-empty">{empty}</div>
      )}
    </div>
  );
}

export function TaskPanel() {
  const tasks = useTasks();
  const section = useRef<HTMLElement>(null);
  const all = [...(tasks.data ?? [])].sort(byNumber);
  const pending = all.filter((task) => !task.completed);
  const completed = all.filter((task) => task.completed);
  const moved = useRef<number | null>(null);

  // A toggled task changes section (and element): keep keyboard focus on its checkbox.
  useEffect(() => {
    if (moved.current === null) return;
    const checkbox = section.current?.querySelector<HTMLElement>(`[data-task="${moved.current}"]`);
    if (checkbox && checkbox !== document.activeElement) {
      checkbox.focus();
      moved.current = null;
    }
  }, [tasks.data]);

  /** Focus the next task (or the add box) so keyboard users aren't dropped at the top of the page. */
  function onDeleted(id: number) {
    const index = all.findIndex((task) => task.id === id);
    const neighbour = all[index + 1] ?? all[index - 1];
    requestAnimationFrame(() => {
      const root = section.current;
      const target = neighbour ? root?.querySelector<HTMLElement>(`[data-task="${neighbour.id}"]`) : null;
      (target ?? root?.querySelector<HTMLElement>("[data-add-task]"))?.focus();
    });
  }

  return (
    <section className="tasks" aria-labelledby="tasks-heading" ref={section}>
      <div className="panel-header">
        <h2 id="tasks-heading" className="panel-title">
          Tasks
        </h2>
        {tasks.data && (
          <span className="muted small">
            {pending.length} pending · {completed.length} done
          </span>
        )}
      </div>
      <AddTaskForm />
      {tasks.isPending && <p className="muted small">Loading tasks…</p>}
      {tasks.isError && (
        <div className="panel-error">
          <p>Couldn't load your tasks. {describeError(tasks.error)}</p>
          <button type="button" className="button button-small" onClick={() => void tasks.refetch()}>
            Try again
          </button>
        </div>
      )}
      {tasks.data && (
        <>
          <TaskGroup
            title="Pending"
            tasks={pending}
            empty={
              all.length === 0 ? (
                <>
                  <p className="task-empty-title">No tasks yet</p>
                  <p>Ask the assistant to add one, or type it above.</p>
                </>
              ) : (
                <p>Nothing pending. Nice work!</p>
              )
            }
            onDeleted={onDeleted}
            onMoved={(id) => (moved.current = id)}
          />
          <TaskGroup
            title="Completed"
            tasks={completed}
            empty={<p>Nothing completed yet.</p>}
            onDeleted={onDeleted}
            onMoved={(id) => (moved.current = id)}
          />
        </>
      )}
    </section>
  );
}
