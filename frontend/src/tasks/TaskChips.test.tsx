import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { renderWithClient, signInAsTester } from "../test/render";
import { task, taskServer } from "../test/taskServer";
import { TaskPanel } from "./TaskPanel";

// Thursday 26 November 2026, 12:00 in the browser (UTC): Friday 02:00 in Kiritimati.
const NOW = "2026-11-26T12:00:00Z";

const itemOf = (name: string) => screen.getByRole("checkbox", { name }).closest("li") as HTMLElement;

describe("Task chips", () => {
  beforeEach(() => {
    signInAsTester();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(NOW));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("labels due dates relative to the account's today, not the browser's (Kiritimati vs UTC)", async () => {
    taskServer(
      [
        task(1, "Pay rent", { due_date: "2026-11-27", due_time: "09:00", due_at: "2026-11-26T19:00:00Z" }),
        task(2, "Water plants", { due_date: "2026-11-28" }),
        task(3, "File taxes", { due_date: "2026-11-25" }),
        task(4, "Book flights", { due_date: "2026-12-04" }),
      ],
      { timezone: "Pacific/Kiritimati" },
    );
    renderWithClient(<TaskPanel />);

    const rent = await screen.findByRole("checkbox", { name: "Pay rent" });
    // In the browser's zone this would be "Tomorrow 09:00"; the account's today is already the 27th.
    await vi.waitFor(() => expect(rent).toHaveAccessibleDescription("Due today 09:00"));
    expect(itemOf("Pay rent")).toHaveTextContent("Today 09:00");
    expect(itemOf("Water plants")).toHaveTextContent("Tomorrow");
    expect(itemOf("File taxes")).toHaveTextContent("Overdue by 2 days");
    expect(itemOf("Book flights")).toHaveTextContent("Fri 4 Dec");
  });

  it("shows overdue chips in the overdue style with a warning said aloud, and today's highlighted", async () => {
    taskServer([
      task(1, "File taxes", { due_date: "2026-11-24" }),
      task(2, "Call mom", { due_date: "2026-11-26", due_time: "18:00", due_at: "2026-11-26T18:00:00Z" }),
      task(3, "Stand-up", { due_date: "2026-11-26", due_time: "09:30", due_at: "2026-11-26T09:30:00Z" }),
      task(4, "Old and done", { due_date: "2026-11-20", completed: true }),
    ]);
    renderWithClient(<TaskPanel />);

    const taxes = await screen.findByRole("checkbox", { name: "File taxes" });
    expect(taxes).toHaveAccessibleDescription("Overdue by 2 days, due Tue 24 Nov");
    expect(itemOf("File taxes").querySelector(".due-chip")).toHaveClass("is-overdue");
    expect(itemOf("Call mom").querySelector(".due-chip")).toHaveClass("is-today");
    // Due at 09:30 today, and it is past noon.
    expect(screen.getByRole("checkbox", { name: "Stand-up" })).toHaveAccessibleDescription(
      "Due today 09:30, overdue",
    );
    expect(itemOf("Stand-up").querySelector(".due-chip")).toHaveClass("is-overdue");
    // A completed task is never overdue.
    expect(itemOf("Old and done").querySelector(".due-chip")).toHaveClass("is-done");
    expect(itemOf("Old and done")).not.toHaveTextContent(/overdue/i);
  });

  it("shows a priority as a flag with a word, and nothing for no priority", async () => {
    taskServer([
      task(1, "Fix the roof", { priority: "high" }),
      task(2, "Tidy the shed", { priority: "low" }),
      task(3, "Read a book"),
    ]);
    renderWithClient(<TaskPanel />);

    const roof = await screen.findByRole("checkbox", { name: "Fix the roof" });
    expect(roof).toHaveAccessibleDescription("High priority");
    expect(screen.getByRole("checkbox", { name: "Tidy the shed" })).toHaveAccessibleDescription(
      "Low priority",
    );
    expect(itemOf("Read a book").querySelector(".priority-flag")).toBeNull();
    expect(screen.getByRole("checkbox", { name: "Read a book" })).not.toHaveAccessibleDescription();
  });

  it("names a task's list in the All view (but not the Inbox), and shows its tags", async () => {
    taskServer([task(1, "Buy milk", { list: "Shopping", tags: ["dairy", "weekly"] }), task(2, "Call mom")]);
    renderWithClient(<TaskPanel />);

    await screen.findByRole("checkbox", { name: "Buy milk" });
    const milk = itemOf("Buy milk");
    expect(milk).toHaveTextContent("Shopping");
    expect(within(milk).getByText("List: Shopping")).toHaveClass("visually-hidden");
    expect(within(milk).getByRole("button", { name: "Filter by tag #dairy" })).toBeInTheDocument();
    expect(within(milk).getByRole("button", { name: "Filter by tag #weekly" })).toBeInTheDocument();
    expect(itemOf("Call mom")).not.toHaveTextContent("Inbox");
  });
});

describe("Repeat chip", () => {
  it("says how a task repeats, in words and to a screen reader", async () => {
    signInAsTester();
    taskServer([
      task(1, "Pay rent", {
        due_date: "2030-02-01",
        repeat: "FREQ=MONTHLY;BYMONTHDAY=1",
        repeat_text: "every month on the 1st",
      }),
      task(2, "Buy milk"),
    ]);
    renderWithClient(<TaskPanel />);
    const rent = await screen.findByRole("checkbox", { name: "Pay rent" });
    expect(itemOf("Pay rent")).toHaveTextContent("every month on the 1st");
    await vi.waitFor(() => expect(rent).toHaveAccessibleDescription(/Repeats every month on the 1st/));
    expect(within(itemOf("Buy milk")).queryByText(/every/)).toBeNull();
  });
});

describe("Reminder chip", () => {
  beforeEach(() => {
    signInAsTester();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(NOW));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("rings a bell on a task with a reminder to come, said with when it comes in the account's zone", async () => {
    // Kiritimati is UTC+14: it is Friday 27th there, and Thursday 18:30 UTC is its 08:30 today.
    taskServer(
      [
        task(1, "Pay rent", {
          due_date: "2026-11-28",
          due_time: "09:00",
          due_at: "2026-11-27T19:00:00Z",
          remind_at: "2026-11-26T18:30:00Z",
          remind_before: 1470,
        }),
        task(2, "Stand-up", {
          due_date: "2026-11-27",
          due_time: "09:30",
          due_at: "2026-11-26T19:30:00Z",
          remind_at: "2026-11-26T19:30:00Z",
          remind_before: 0,
        }),
        task(3, "Call the bank", { remind_at: "2026-12-04T01:00:00Z" }),
        task(4, "Fired already", { due_date: "2026-11-27", remind_before: 15 }),
        task(5, "Done", { completed: true, remind_at: "2026-11-26T18:30:00Z" }),
      ],
      { timezone: "Pacific/Kiritimati" },
    );
    renderWithClient(<TaskPanel />);

    const rent = await screen.findByRole("checkbox", { name: "Pay rent" });
    await vi.waitFor(() =>
      expect(rent).toHaveAccessibleDescription("Due tomorrow 09:00 Reminder today 08:30"),
    );
    const bell = itemOf("Pay rent").querySelector(".reminder-chip");
    expect(bell).toHaveTextContent("Today 08:30");
    expect(bell).toHaveAttribute("title", "Reminder 1 day 30 minutes before: Fri 27 Nov 2026 08:30");

    // At its time: the bell alone (the due chip says when), still said in full.
    const standUp = itemOf("Stand-up").querySelector(".reminder-chip");
    expect(within(standUp as HTMLElement).getByText("Reminder today 09:30")).toHaveClass("visually-hidden");
    expect(standUp?.querySelector("span[aria-hidden=true]")).toBeEmptyDOMElement();
    expect(screen.getByRole("checkbox", { name: "Call the bank" })).toHaveAccessibleDescription(
      "Reminder Fri 4 Dec 15:00",
    );

    // None once it has fired (remind_at cleared), nor on a done task.
    expect(itemOf("Fired already").querySelector(".reminder-chip")).toBeNull();
    expect(itemOf("Done").querySelector(".reminder-chip")).toBeNull();
  });
});
