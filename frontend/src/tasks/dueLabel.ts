/**
 * A task's due chip text ("Today 09:00", "Tomorrow", "Fri 27 Nov", "Overdue by 2 days").
 * "Today" is the account's today, in the account's time zone: never the browser's, which may
 * be a day apart (a traveller, or an account set up elsewhere).
 */
import type { Task } from "../api/types";

/** overdue: red; today: highlighted; soon (tomorrow) and later: plain; done: completed tasks. */
export type DueTone = "overdue" | "today" | "soon" | "later" | "done";

export interface DueLabel {
  /** What the chip shows. */
  text: string;
  /** What a screen reader says instead: the short text with its meaning spelt out. */
  spoken: string;
  /** The day (and time) in full, for a tooltip. */
  full: string;
  tone: DueTone;
}

type DueFields = Pick<Task, "completed" | "due_date" | "due_time" | "due_at">;

const DAY_MS = 86_400_000;

function parts(format: Intl.DateTimeFormat, date: Date): Record<string, string> {
  return Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
}

// One formatter per zone: every due chip asks, every minute, and building one is the slow part.
const wallClocks = new Map<string, Intl.DateTimeFormat>();

function wallClock(zone: string): Intl.DateTimeFormat {
  let format = wallClocks.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    wallClocks.set(zone, format);
  }
  return format;
}

/** The calendar date ("YYYY-MM-DD") and wall-clock time ("HH:MM") at `now` in `zone`. */
export function wallClockIn(zone: string, now: number): { date: string; time: string } {
  const p = parts(wallClock(zone), new Date(now));
  return { date: `${p["year"]}-${p["month"]}-${p["day"]}`, time: `${p["hour"]}:${p["minute"]}` };
}

/**
 * Whether `locale` writes the time of day on a 12-hour clock. The browser's own date and time
 * inputs follow its locale, so the chips do too: "9:30 AM" beside a 12-hour time picker,
 * "09:30" beside a 24-hour one.
 */
export function usesTwelveHours(locale: string): boolean {
  const cycle = new Intl.DateTimeFormat(locale, { hour: "numeric" }).resolvedOptions().hourCycle;
  return cycle === "h11" || cycle === "h12";
}

let browserTwelveHours: boolean | undefined;

/** A wall-clock "HH:MM" as this browser's locale writes it ("09:30" or "9:30 AM"). */
export function clockTime(time: string, twelveHours?: boolean): string {
  browserTwelveHours ??= usesTwelveHours(navigator.language);
  if (!(twelveHours ?? browserTwelveHours)) return time;
  const [hour = 0, minute = 0] = time.split(":").map(Number);
  return `${hour % 12 || 12}:${String(minute).padStart(2, "0")} ${hour < 12 ? "AM" : "PM"}`;
}

/** A "YYYY-MM-DD" day as a UTC midnight, so day arithmetic never meets a DST change. */
function dayStart(day: string): number {
  const [year = 0, month = 1, date = 1] = day.split("-").map(Number);
  return Date.UTC(year, month - 1, date);
}

/** Whole days from `from` to `to`, both "YYYY-MM-DD". */
export function daysBetween(from: string, to: string): number {
  return Math.round((dayStart(to) - dayStart(from)) / DAY_MS);
}

/** "YYYY-MM-DD" plus `days`. */
export function addDays(day: string, days: number): string {
  return new Date(dayStart(day) + days * DAY_MS).toISOString().slice(0, 10);
}

// A calendar date has no zone: format its UTC midnight in UTC. Built from parts, so every
// browser says "Fri 27 Nov" (some ICU versions put a comma after the weekday).
const dayFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

function dayName(day: string, withYear: boolean): string {
  const p = parts(dayFormat, new Date(dayStart(day)));
  const name = `${p["weekday"]} ${p["day"]} ${p["month"]}`;
  return withYear ? `${name} ${p["year"]}` : name;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

function relativeDay(days: number, due: string, today: string): string {
  if (days === 0) return "Today";
  if (days === 1) return "Tomorrow";
  if (days === -1) return "Yesterday";
  return dayName(due, due.slice(0, 4) !== today.slice(0, 4));
}

/** "Today 09:00" -> "today 09:00": the relative words read lower-case inside a sentence. */
export function inSentence(label: string): string {
  return /^(Today|Tomorrow|Yesterday)\b/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

/**
 * An instant (a reminder's) as the account's clock shows it, relative to its today:
 * "Today 09:00", "Tomorrow 08:30", "Fri 27 Nov 18:00" (with the year when it differs).
 */
export function instantLabel(instant: string, zone: string, now: number): string {
  const at = wallClockIn(zone, Date.parse(instant));
  const today = wallClockIn(zone, now).date;
  return `${relativeDay(daysBetween(today, at.date), at.date, today)} ${clockTime(at.time)}`;
}

/** The same instant in full, for a tooltip: "Fri 27 Nov 2026 08:30". */
export function instantInFull(instant: string, zone: string): string {
  const at = wallClockIn(zone, Date.parse(instant));
  return `${dayName(at.date, true)} ${clockTime(at.time)}`;
}

/** A timed task due today is overdue once its instant has passed, as the server decides. */
function timePassed(task: DueFields, zone: string, now: number): boolean {
  if (task.due_at) return Date.parse(task.due_at) < now;
  // Just edited (the instant is the server's to compute): compare wall-clock times.
  return Boolean(task.due_time) && (task.due_time ?? "") < wallClockIn(zone, now).time;
}

export function dueLabel(task: DueFields, zone: string, now: number): DueLabel | null {
  if (!task.due_date) return null;
  const today = wallClockIn(zone, now).date;
  const days = daysBetween(today, task.due_date);
  const at = task.due_time ? ` ${clockTime(task.due_time)}` : "";
  const full = `${dayName(task.due_date, true)}${at}`;
  const day = relativeDay(days, task.due_date, today);
  const text = `${day}${at}`;
  const spokenDay = days >= -1 && days <= 1 ? day.toLowerCase() : day;

  if (task.completed) return { text, spoken: `Was due ${spokenDay}${at}`, full, tone: "done" };
  if (days < 0) {
    const late = `Overdue by ${plural(-days, "day")}`;
    return {
      text: late,
      spoken: `${late}, due ${dayName(task.due_date, false)}${at}`,
      full,
      tone: "overdue",
    };
  }
  if (days === 0) {
    const overdue = timePassed(task, zone, now);
    return {
      text,
      spoken: `Due ${spokenDay}${at}${overdue ? ", overdue" : ""}`,
      full,
      tone: overdue ? "overdue" : "today",
    };
  }
  return { text, spoken: `Due ${spokenDay}${at}`, full, tone: days === 1 ? "soon" : "later" };
}
