import { describe, expect, it } from "vitest";

import { addDays, clockTime, daysBetween, dueLabel, usesTwelveHours, wallClockIn } from "./dueLabel";

// Thursday 26 November 2026, 12:00 UTC: already Friday 02:00 in Kiritimati (UTC+14).
const NOW = Date.parse("2026-11-26T12:00:00Z");

const due = (due_date: string | null, due_time: string | null = null, fields = {}) => ({
  completed: false,
  due_date,
  due_time,
  due_at: null,
  ...fields,
});

describe("dueLabel", () => {
  it("has no label for a task without a due date", () => {
    expect(dueLabel(due(null), "UTC", NOW)).toBeNull();
  });

  it("says Today with the time, Tomorrow, and a short day name further out", () => {
    expect(dueLabel(due("2026-11-26", "18:30"), "UTC", NOW)).toMatchObject({
      text: "Today 18:30",
      spoken: "Due today 18:30",
      tone: "today",
    });
    expect(dueLabel(due("2026-11-27"), "UTC", NOW)).toMatchObject({ text: "Tomorrow", tone: "soon" });
    expect(dueLabel(due("2026-11-27", "09:00"), "UTC", NOW)?.text).toBe("Tomorrow 09:00");
    expect(dueLabel(due("2026-12-04"), "UTC", NOW)).toMatchObject({ text: "Fri 4 Dec", tone: "later" });
  });

  it("adds the year to a day in another year", () => {
    expect(dueLabel(due("2027-01-08", "07:15"), "UTC", NOW)).toMatchObject({
      text: "Fri 8 Jan 2027 07:15",
      full: "Fri 8 Jan 2027 07:15",
    });
  });

  it("counts the days a pending task is overdue", () => {
    expect(dueLabel(due("2026-11-24"), "UTC", NOW)).toMatchObject({
      text: "Overdue by 2 days",
      spoken: "Overdue by 2 days, due Tue 24 Nov",
      tone: "overdue",
    });
    expect(dueLabel(due("2026-11-25", "09:00"), "UTC", NOW)?.text).toBe("Overdue by 1 day");
  });

  it("makes a task due earlier today overdue once its time has passed, by its instant", () => {
    const passed = due("2026-11-26", "11:59", { due_at: "2026-11-26T11:59:00Z" });
    expect(dueLabel(passed, "UTC", NOW)).toMatchObject({
      text: "Today 11:59",
      spoken: "Due today 11:59, overdue",
      tone: "overdue",
    });
    // Just edited, before the server worked out its instant: the wall clock decides.
    expect(dueLabel(due("2026-11-26", "11:59"), "UTC", NOW)?.tone).toBe("overdue");
    expect(dueLabel(due("2026-11-26", "12:01"), "UTC", NOW)?.tone).toBe("today");
  });

  it("never calls a completed task overdue", () => {
    expect(dueLabel(due("2026-11-24", null, { completed: true }), "UTC", NOW)).toMatchObject({
      text: "Tue 24 Nov",
      spoken: "Was due Tue 24 Nov",
      tone: "done",
    });
    expect(dueLabel(due("2026-11-25", null, { completed: true }), "UTC", NOW)?.text).toBe("Yesterday");
  });

  it("counts days in the account's zone, not the browser's (account in Kiritimati, browser in UTC)", () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe("UTC");
    expect(wallClockIn("Pacific/Kiritimati", NOW)).toEqual({ date: "2026-11-27", time: "02:00" });

    const kiritimati = (day: string, time: string | null = null) =>
      dueLabel(due(day, time), "Pacific/Kiritimati", NOW);
    expect(kiritimati("2026-11-27", "09:00")).toMatchObject({ text: "Today 09:00", tone: "today" });
    expect(kiritimati("2026-11-28")).toMatchObject({ text: "Tomorrow", tone: "soon" });
    expect(kiritimati("2026-11-26")).toMatchObject({ text: "Overdue by 1 day", tone: "overdue" });
    // The same tasks, seen from the browser's own zone, would be a day off.
    expect(dueLabel(due("2026-11-27", "09:00"), "UTC", NOW)?.text).toBe("Tomorrow 09:00");
    expect(dueLabel(due("2026-11-26"), "UTC", NOW)?.text).toBe("Today");
  });

  it("is still on the previous day far west of the browser (Pago Pago, UTC-11)", () => {
    const morningInUtc = Date.parse("2026-11-26T08:00:00Z"); // 21:00 on the 25th in Pago Pago
    expect(dueLabel(due("2026-11-25"), "Pacific/Pago_Pago", morningInUtc)?.text).toBe("Today");
    expect(dueLabel(due("2026-11-26"), "Pacific/Pago_Pago", morningInUtc)?.text).toBe("Tomorrow");
  });

  it("keeps whole days across a daylight-saving change", () => {
    expect(daysBetween("2026-03-28", "2026-03-30")).toBe(2);
    expect(addDays("2026-10-24", 2)).toBe("2026-10-26");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});

describe("clockTime", () => {
  it("writes a time as the browser's locale does, as its own time inputs show it", () => {
    expect(usesTwelveHours("en-US")).toBe(true);
    expect(usesTwelveHours("en-GB")).toBe(false);
    expect(usesTwelveHours("de-DE")).toBe(false);
    expect(clockTime("09:05", false)).toBe("09:05");
    expect(["00:00", "09:05", "12:30", "23:59"].map((time) => clockTime(time, true))).toEqual([
      "12:00 AM",
      "9:05 AM",
      "12:30 PM",
      "11:59 PM",
    ]);
  });

  it("is what the due chip shows", () => {
    expect(
      dueLabel({ completed: false, due_date: "2026-11-27", due_time: "18:30", due_at: null }, "UTC", 0)?.text,
    ).toMatch(/18:30$/);
  });
});
