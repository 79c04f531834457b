import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { controlledEventStream, json, noContent, sse } from "../test/fetchMock";
import { reminder, signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { Toaster } from "../ui/Toaster";
import { ReminderStack, snoozeOptions } from "./ReminderStack";
import { DISMISSED_KEY, useReminders, type StreamTiming } from "./useReminders";

const STREAM = "GET /api/reminders/stream";
const FAST: StreamTiming = { firstRetryMs: 5, maxRetryMs: 20, stallMs: 300, steadyMs: 60_000 };

function Harness() {
  const { reminders, dismiss, dismissAll, snooze, done } = useReminders({ timing: FAST });
  return (
    <>
      <ReminderStack
        reminders={reminders}
        onDismiss={dismiss}
        onDismissAll={dismissAll}
        onSnooze={snooze}
        onDone={done}
      />
      <Toaster />
    </>
  );
}

const cards = () =>
  within(screen.getByRole("list", { name: "Reminders" }))
    .queryAllByRole("listitem")
    .map((card) => card.querySelector(".reminder-title")?.textContent);

/** A server whose stream sends these reminders, and answers the other routes given. */
function streaming(ids: number[], routes: Parameters<typeof signedInServer>[0] = {}) {
  return signedInServer({
    [STREAM]: () => {
      const stream = controlledEventStream();
      stream.send(ids.map((id) => sse("reminder", reminder(id, `Task ${id}`))).join(""));
      return stream.response;
    },
    ...routes,
  });
}

describe("a reminder card's actions", () => {
  beforeEach(signInAsTester);
  afterEach(() => vi.useRealTimers());

  it("has Done, Snooze and Dismiss, each naming its reminder, and Snooze opens three choices", async () => {
    streaming([1]);
    const { user } = renderWithClient(<Harness />);
    await waitFor(() => expect(cards()).toEqual(["Task 1"]));

    const card = screen.getByRole("listitem");
    expect(
      within(card)
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual(["Done", "Snooze", "Dismiss"]);
    const snooze = screen.getByRole("button", { name: "Snooze reminder: Task 1" });
    expect(snooze).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("group", { name: "Snooze options: Task 1" })).not.toBeInTheDocument();

    await user.click(snooze);
    expect(snooze).toHaveAttribute("aria-expanded", "true");
    const options = screen.getByRole("group", { name: "Snooze options: Task 1" });
    expect(snooze).toHaveAttribute("aria-controls", options.id);
    expect(
      within(options)
        .getAllByRole("button")
        .map((button) => button.getAttribute("aria-label")),
    ).toEqual([
      "Snooze for 10 minutes: Task 1",
      "Snooze for 1 hour: Task 1",
      expect.stringMatching(/^Snooze until tomorrow (09:00|9:00 AM): Task 1$/),
    ]);

    // Escape closes them, and focus goes back to Snooze.
    within(options).getByRole("button", { name: "Snooze for 10 minutes: Task 1" }).focus();
    await user.keyboard("{Escape}");
    expect(snooze).toHaveAttribute("aria-expanded", "false");
    expect(snooze).toHaveFocus();
  });

  it("snoozes for 10 minutes: the card goes, the server and other tabs are told, and it says so", async () => {
    const server = streaming([1, 2], { "POST /api/reminders/1/snooze": () => json({ id: 1 }) });
    const { user } = renderWithClient(<Harness />);
    await waitFor(() => expect(cards()).toEqual(["Task 1", "Task 2"]));

    await user.click(screen.getByRole("button", { name: "Snooze reminder: Task 1" }));
    await user.click(screen.getByRole("button", { name: "Snooze for 10 minutes: Task 1" }));

    expect(cards()).toEqual(["Task 2"]);
    expect(server.callsTo("POST /api/reminders/1/snooze").map((call) => call.body)).toEqual([
      { minutes: 10 },
    ]);
    expect(screen.getByRole("status")).toHaveTextContent("Snoozed for 10 minutes: “Task 1”");
    await waitFor(() => expect(JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? "{}").ids).toEqual([1]));
    // Focus goes to the neighbour's Dismiss, never to a button that would complete a task.
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Dismiss reminder: Task 2" })).toHaveFocus(),
    );
  });

  it("snoozes until tomorrow 9:00 on the account's clock, whatever the browser's", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // 08:30 on Friday 27 November in Tokyo, still Thursday in UTC (the tests' zone).
    vi.setSystemTime(new Date("2026-11-26T23:30:00Z"));
    const server = streaming([1], {
      "GET /api/auth/me": () => json({ id: 1, email: "tester@example.com", timezone: "Asia/Tokyo" }),
      "POST /api/reminders/1/snooze": () => json({ id: 1 }),
    });
    const { user } = renderWithClient(<Harness />);
    await waitFor(() => expect(cards()).toEqual(["Task 1"]));
    // The account's zone has arrived: its today is Friday (the task was due Thursday 18:00 there).
    await waitFor(() => expect(screen.getByText(/^Due /)).toHaveTextContent("Due yesterday 18:00"));

    await user.click(screen.getByRole("button", { name: "Snooze reminder: Task 1" }));
    await user.click(screen.getByRole("button", { name: /^Snooze until tomorrow .*: Task 1$/ }));
    expect(server.callsTo("POST /api/reminders/1/snooze").map((call) => call.body)).toEqual([
      { until: "2026-11-28T09:00:00" },
    ]);
  });

  it("puts the card back, with a notice, when the server can't snooze it", async () => {
    streaming([1], { "POST /api/reminders/1/snooze": () => json({ detail: "Oops" }, 500) });
    const { user } = renderWithClient(<Harness />);
    await waitFor(() => expect(cards()).toEqual(["Task 1"]));

    await user.click(screen.getByRole("button", { name: "Snooze reminder: Task 1" }));
    await user.click(screen.getByRole("button", { name: "Snooze for 1 hour: Task 1" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't snooze the reminder. Oops");
    expect(cards()).toEqual(["Task 1"]);
    expect(screen.getByRole("status")).toHaveTextContent(""); // it did not happen
  });

  it("takes a reminder dismissed or done elsewhere (404, 409) as snoozed", async () => {
    streaming([1, 2], {
      "POST /api/reminders/1/snooze": () => json({ detail: "Reminder not found" }, 404),
      "POST /api/reminders/2/snooze": () => json({ detail: "The reminder's task is done" }, 409),
    });
    const { user } = renderWithClient(<Harness />);
    await waitFor(() => expect(cards()).toEqual(["Task 1", "Task 2"]));
    for (const id of [1, 2]) {
      await user.click(screen.getByRole("button", { name: `Snooze reminder: Task ${id}` }));
      await user.click(screen.getByRole("button", { name: `Snooze for 10 minutes: Task ${id}` }));
    }
    await waitFor(() => expect(cards()).toEqual([]));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("shows a snoozed reminder again when it fires again, as the new reminder it is", async () => {
    const stream = controlledEventStream();
    signedInServer({
      [STREAM]: () => stream.response,
      "POST /api/reminders/1/snooze": () => json({ id: 1 }),
    });
    const { user } = renderWithClient(<Harness />);
    stream.send(sse("reminder", reminder(1, "Stretch")));
    await waitFor(() => expect(cards()).toEqual(["Stretch"]));
    await user.click(screen.getByRole("button", { name: "Snooze reminder: Stretch" }));
    await user.click(screen.getByRole("button", { name: "Snooze for 10 minutes: Stretch" }));
    expect(cards()).toEqual([]);

    stream.send(
      sse("reminder", reminder(1, "Stretch")) + sse("reminder", reminder(7, "Stretch", { task_id: 1 })),
    );
    await waitFor(() => expect(cards()).toEqual(["Stretch"]));
    expect(screen.getByRole("button", { name: "Dismiss reminder: Stretch" })).toHaveAttribute(
      "data-reminder",
      "7",
    );
  });

  it("Done dismisses the reminder, then completes its task, and the task list refreshes", async () => {
    const server = streaming([3], {
      "DELETE /api/reminders/3": () => noContent(),
      "PATCH /api/tasks/3": () => json({}),
    });
    const { user } = renderWithClient(<Harness />);
    await waitFor(() => expect(cards()).toEqual(["Task 3"]));

    await user.click(screen.getByRole("button", { name: "Mark done: Task 3" }));
    expect(cards()).toEqual([]);
    await waitFor(() => expect(server.callsTo("PATCH /api/tasks/3")).toHaveLength(1));
    const order = server.calls
      .map((call) => `${call.method} ${call.path}`)
      .filter((call) => !call.startsWith("GET"));
    expect(order).toEqual(["DELETE /api/reminders/3", "PATCH /api/tasks/3"]);
    expect(server.callsTo("PATCH /api/tasks/3")[0]?.body).toEqual({ completed: true });
    expect(screen.getByRole("status")).toHaveTextContent("Done: “Task 3”");
    await waitFor(() => expect(JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? "{}").ids).toEqual([3]));
  });

  it("Done on a task deleted meanwhile is as good as done", async () => {
    streaming([3], {
      "DELETE /api/reminders/3": () => json({ detail: "Reminder not found" }, 404),
      "PATCH /api/tasks/3": () => json({ detail: "Task not found" }, 404),
    });
    const { user } = renderWithClient(<Harness />);
    await waitFor(() => expect(cards()).toEqual(["Task 3"]));
    await user.click(screen.getByRole("button", { name: "Mark done: Task 3" }));
    await waitFor(() => expect(JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? "{}").ids).toEqual([3]));
    expect(cards()).toEqual([]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("puts the card back when the task can't be completed, and a retry completes it once", async () => {
    let failing = true;
    const server = streaming([3], {
      "DELETE /api/reminders/3": () => noContent(),
      "PATCH /api/tasks/3": () => (failing ? json({ detail: "Oops" }, 500) : json({})),
    });
    const { user } = renderWithClient(<Harness />);
    await waitFor(() => expect(cards()).toEqual(["Task 3"]));

    await user.click(screen.getByRole("button", { name: "Mark done: Task 3" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't mark the task done. Oops");
    expect(cards()).toEqual(["Task 3"]);

    failing = false;
    await user.click(screen.getByRole("button", { name: "Mark done: Task 3" }));
    await waitFor(() => expect(cards()).toEqual([]));
    await waitFor(() => expect(server.callsTo("PATCH /api/tasks/3")).toHaveLength(2));
    expect(server.callsTo("DELETE /api/reminders/3")).toHaveLength(2); // harmless to repeat
  });
});

describe("snoozeOptions", () => {
  it("offers 10 minutes, 1 hour and tomorrow 09:00 on the account's clock", () => {
    // 23:30 on 31 December in New York is already 1 January in UTC.
    const options = snoozeOptions("America/New_York", Date.parse("2027-01-01T04:30:00Z"));
    expect(options.map((option) => option.choice)).toEqual([
      { minutes: 10 },
      { minutes: 60 },
      { until: "2027-01-01T09:00:00" },
    ]);
  });
});
