/** Turning the details form's fields into the smallest PATCH that says what changed. */
import type { Priority, Task, TaskUpdate } from "../api/types";
import { localInput, minutesOf, suggestedTime, untouchedChoice, type ReminderChoice } from "./reminderChoice";

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
  /** The reminder picked; null until the person picks one (see shownReminder). */
  reminder: ReminderChoice | null;
  /** "At a set time…": "YYYY-MM-DDTHH:MM" on the account's clock, or "". */
  remindAt: string;
}

export function draftOf(task: Task, zone: string): DetailsDraft {
  return {
    reminder: null,
    remindAt: suggestedTime(task, zone),
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

/** The reminder the form shows: the one picked, else what the task will have after the save. */
export function shownReminder(task: Task, draft: DetailsDraft): ReminderChoice {
  return draft.reminder ?? untouchedChoice(task, draft);
}

/** Why the reminder picked can't be saved (checked again by the server), or null. */
export function reminderProblem(draft: DetailsDraft, zone: string, now: number): string | null {
  if (draft.reminder === null) return null;
  if (minutesOf(draft.reminder) !== null && draft.date === "") {
    return "A reminder before the task needs a due date. Pick a day, or a set time.";
  }
  if (draft.reminder === "at" && draft.remindAt === "") return "Pick when to be reminded.";
  if (draft.reminder === "at" && draft.remindAt <= localInput(now, zone)) return "Pick a time in the future.";
  return null;
}

/** The reminder part of the PATCH: only when one was picked that differs from what the save would leave. */
function reminderChanges(task: Task, draft: DetailsDraft, zone: string): TaskUpdate {
  const picked = draft.reminder;
  if (picked === null) return {};
  const otherwise = untouchedChoice(task, draft);
  if (picked === "at") {
    const same = otherwise === "at" && task.remind_at && draft.remindAt === localInput(task.remind_at, zone);
    // No offset: the server reads it on the account's clock.
    return same ? {} : { remind_at: `${draft.remindAt}:00` };
  }
  if (picked === otherwise) return {};
  return picked === "none" ? { remind_at: null } : { remind_before: minutesOf(picked) };
}

/** Only the fields that differ from the task; an empty object when nothing did. */
export function detailChanges(task: Task, draft: DetailsDraft, zone: string): TaskUpdate {
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
  return { ...changes, ...reminderChanges(task, draft, zone) };
}
