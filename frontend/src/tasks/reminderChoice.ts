/**
 * The details form's reminder select: none, N minutes before the due time, or a set time
 * (a datetime-local value on the account's clock). And what the server will do with a
 * reminder nobody touched, so the form shows that rather than a stale choice.
 */
import type { Task } from "../api/types";
import { describeBefore } from "../reminders/reminderText";
import { wallClockIn } from "./dueLabel";

export type ReminderChoice = "none" | "at" | `before:${number}`;

/** The offsets offered; a task may have another (said in chat), which is offered too. */
export const BEFORE_CHOICES: readonly number[] = [0, 5, 15, 30, 60, 1440];

export const before = (minutes: number): ReminderChoice => `before:${minutes}`;

/** The minutes of a "before" choice; null for none or a set time. */
export function minutesOf(choice: ReminderChoice): number | null {
  return choice.startsWith("before:") ? Number(choice.slice("before:".length)) : null;
}

export function choiceLabel(choice: ReminderChoice): string {
  if (choice === "none") return "None";
  if (choice === "at") return "At a set time…";
  const said = describeBefore(minutesOf(choice) ?? 0);
  return said.charAt(0).toUpperCase() + said.slice(1);
}

/** The task's reminder as a choice. One relative to the due stays so even after it fired. */
export function choiceOf(task: Pick<Task, "remind_at" | "remind_before">): ReminderChoice {
  if (task.remind_before != null) return before(task.remind_before);
  return task.remind_at ? "at" : "none";
}

/** An instant as a datetime-local value ("YYYY-MM-DDTHH:MM") on the account's clock. */
export function localInput(instant: string | number, zone: string): string {
  const at = wallClockIn(zone, typeof instant === "number" ? instant : Date.parse(instant));
  return `${at.date}T${at.time}`;
}

/** A first value for "At a set time…": the reminder's own time, else the due day at its time (or 09:00). */
export function suggestedTime(task: Task, zone: string): string {
  if (task.remind_at) return localInput(task.remind_at, zone);
  return task.due_date ? `${task.due_date}T${task.due_time ?? "09:00"}` : "";
}

/**
 * The reminder the task will have after a save that leaves it alone, as the server works it
 * out: a relative one goes with a cleared due date; a task given its first time reminds at
 * its time; anything else stays.
 */
export function untouchedChoice(task: Task, due: { date: string; time: string }): ReminderChoice {
  const now = choiceOf(task);
  if (minutesOf(now) !== null && due.date === "") return "none";
  const firstTime = !task.due_time && due.date !== "" && due.time !== "";
  if (now === "none" && !task.remind_at && firstTime) return before(0);
  return now;
}
