/** The words for a reminder: when its task is due, and how long before it a reminder comes. */
import type { Reminder } from "../api/types";
import { inSentence, instantLabel, wallClockIn } from "../tasks/dueLabel";

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** "at its time", "30 minutes before", "1 hour 30 minutes before", "1 day before" (as the server says). */
export function describeBefore(minutes: number): string {
  if (minutes === 0) return "at its time";
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts = [
    days > 0 && plural(days, "day"),
    hours > 0 && plural(hours, "hour"),
    rest > 0 && plural(rest, "minute"),
  ].filter(Boolean);
  return `${parts.join(" ")} before`;
}

/**
 * What a reminder says under its title: "Due today 09:00", "Due tomorrow" (an all-day task,
 * whose due instant is the start of its day), or for a task with no due date when the
 * reminder was for. In the account's zone.
 */
export function reminderDetail(reminder: Reminder, zone: string, now: number): string {
  if (!reminder.due_at) return `Reminder for ${inSentence(instantLabel(reminder.remind_at, zone, now))}`;
  const label = instantLabel(reminder.due_at, zone, now);
  const allDay = wallClockIn(zone, Date.parse(reminder.due_at)).time === "00:00";
  return `Due ${inSentence(allDay ? label.replace(/ 00:00$/, "") : label)}`;
}
