/** Turning the details form's fields into the smallest PATCH that says what changed. */
import type { Priority, Task, TaskUpdate } from "../api/types";

export interface DetailsDraft {
  /** "YYYY-MM-DD", or "" for no date. */
  date: string;
  /** "HH:MM", or "" for no time. */
  time: string;
  priority: Priority;
  list: string;
  /** As typed: words separated by spaces or commas, with or without "#". */
  tags: string;
  /** How it repeats, in words ("every month on the 1st"), or "" for not at all. */
  repeat: string;
}

export function draftOf(task: Task): DetailsDraft {
  return {
    date: task.due_date ?? "",
    time: task.due_time ?? "",
    priority: task.priority,
    list: task.list,
    tags: (task.tags ?? []).join(" "),
    repeat: task.repeat_text ?? "",
  };
}

/** Lower-case words, "#" dropped, each once: as the server stores them. */
export function parseTags(text: string): string[] {
  const words = text
    .split(/[\s,]+/)
    .map((word) => word.replace(/^#+/, "").toLowerCase())
    .filter(Boolean);
  return [...new Set(words)];
}

const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag, index) => tag === b[index]);

/** Only the fields that differ from the task; an empty object when nothing did. */
export function detailChanges(task: Task, draft: DetailsDraft): TaskUpdate {
  const changes: TaskUpdate = {};
  if (draft.date !== (task.due_date ?? "") || draft.time !== (task.due_time ?? "")) {
    // No day clears the time with it; a day without a time is an all-day task.
    if (draft.date === "") changes.due_date = null;
    else {
      changes.due_date = draft.date;
      changes.due_time = draft.time === "" ? null : draft.time;
    }
  }
  if (draft.priority !== task.priority) changes.priority = draft.priority;
  if (draft.list !== task.list) changes.list = draft.list;
  const tags = parseTags(draft.tags);
  if (!sameTags(tags, task.tags ?? [])) changes.tags = tags;
  // The server reads the words ("every monday"); unchanged words send nothing, empty stops it.
  const repeat = draft.repeat.trim();
  if (repeat !== (task.repeat_text ?? "")) changes.repeat = repeat === "" ? null : repeat;
  return changes;
}
