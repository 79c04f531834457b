import { act, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import type { Reminder } from "../api/types";
import { TaskPanel } from "../tasks/TaskPanel";
import {
  controlledEventStream,
  eventStream,
  json,
  noContent,
  quietEventStream,
  sse,
} from "../test/fetchMock";
import { reminder, signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { task } from "../test/taskServer";
import { Toaster } from "../ui/Toaster";
import { ReminderStack } from "./ReminderStack";
import { DISMISSED_KEY, useReminders, type StreamTiming } from "./useReminders";

const STREAM = "GET /api/reminders/stream";
// Quick, so reconnects happen within a test; the stall guard well above a busy render.
const FAST: StreamTiming = { firstRetryMs: 5, maxRetryMs: 20, stallMs: 300, steadyMs: 60_000 };

function Harness({ onArrived }: { onArrived?: (reminder: Reminder) => void }) {
  const { reminders, dismiss, dismissAll, snooze, done } = useReminders({
    timing: FAST,
    ...(onArrived && { onArrived }),
  });
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

/** Each connection to the stream gets the next answer; once they run out, a quiet open stream. */
function connections(...answers: Array<() => Response>) {
  return () => (answers.shift() ?? quietEventStream)();
}

const cards = () =>
  within(screen.getByRole("list", { name: "Reminders" }))
    .queryAllByRole("listitem")
    .map((card) => card.querySelector(".reminder-title")?.textContent);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("useReminders", () => {
  beforeEach(signInAsTester);

  it("shows each reminder once, oldest first, however often and in whatever order it comes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-26T09:00:05Z"));
    const [rent, mom] = [
      reminder(1, "Pay rent"),
      reminder(2, "Call mom", { due_at: "2026-11-27T00:00:00Z" }),
    ];
    signedInServer({
      "GET /api/auth/me": () => json({ id: 1, email: "tester@example.com", timezone: "UTC" }),
      [STREAM]: connections(() =>
        eventStream([sse("reminder", mom), sse("reminder", rent), sse("reminder", mom)]),
      ),
    });
    const arrived: number[] = [];
    renderWithClient(<Harness onArrived={(found) => arrived.push(found.id)} />);

    await waitFor(() => expect(cards()).toEqual(["Pay rent", "Call mom"]));
    expect(arrived).toEqual([2, 1]);
    // In the account's zone; an all-day task (due at the start of its day) has no time.
    await waitFor(() =>
      expect(screen.getAllByText(/^Due /).map((line) => line.textContent)).toEqual([
        "Due today 09:00",
        "Due tomorrow",
      ]),
    );
    vi.useRealTimers();
  });

  it("reconnects after the stream ends, is refused or can't connect, and a replay adds nothing twice", async () => {
    const [rent, bins] = [reminder(1, "Pay rent"), reminder(3, "Bins out")];
    const later = controlledEventStream();
    const server = signedInServer({
      [STREAM]: connections(
        () => eventStream([sse("reminder", rent)]),
        () => json({ detail: "Service unavailable" }, 503),
        () => {
          throw new TypeError("Failed to fetch");
        },
        () => later.response,
      ),
    });
    const arrived: number[] = [];
    renderWithClient(<Harness onArrived={(found) => arrived.push(found.id)} />);

    await waitFor(() => expect(server.callsTo(STREAM)).toHaveLength(4));
    later.send(sse("reminder", rent) + ": ping\r\n\r\n" + sse("reminder", bins));
    await waitFor(() => expect(cards()).toEqual(["Pay rent", "Bins out"]));
    expect(arrived).toEqual([1, 3]);
    // Each connection carries the bearer token (EventSource could not).
    expect(server.callsTo(STREAM)[3]?.headers.get("Authorization")).toBe("Bearer test-token");
  });

  it("reconnects when the stream goes quiet for longer than its pings allow", async () => {
    const server = signedInServer({
      [STREAM]: connections(quietEventStream, () => eventStream([sse("reminder", reminder(1, "Pay rent"))])),
    });
    renderWithClient(<Harness />);

    await waitFor(() => expect(cards()).toEqual(["Pay rent"]));
    expect(server.callsTo(STREAM).length).toBeGreaterThanOrEqual(2);
  });

  it("stops following when the session is refused, and when it unmounts", async () => {
    const refused = signedInServer({ [STREAM]: () => json({ detail: "Not authenticated" }, 401) });
    const first = renderWithClient(<Harness />);
    await waitFor(() => expect(refused.callsTo(STREAM)).toHaveLength(1));
    await pause(100);
    expect(refused.callsTo(STREAM)).toHaveLength(1);
    first.unmount();

    signInAsTester();
    const ending = signedInServer({ [STREAM]: () => eventStream([]) });
    const second = renderWithClient(<Harness />);
    await waitFor(() => expect(ending.callsTo(STREAM).length).toBeGreaterThanOrEqual(2));
    second.unmount();
    const made = ending.callsTo(STREAM).length;
    await pause(100);
    expect(ending.callsTo(STREAM)).toHaveLength(made);
  });

  it("dismisses one (focus moves to the next), then all up to the newest shown", async () => {
    const server = signedInServer({
      [STREAM]: connections(() => {
        const stream = controlledEventStream();
        stream.send([1, 2, 3].map((id) => sse("reminder", reminder(id, `Task ${id}`))).join(""));
        return stream.response;
      }),
      "DELETE /api/reminders/2": () => noContent(),
      "DELETE /api/reminders": () => json({ dismissed: 2 }),
    });
    const { user } = renderWithClient(<Harness />);
    await waitFor(() => expect(cards()).toHaveLength(3));

    await user.click(screen.getByRole("button", { name: "Dismiss reminder: Task 2" }));
    expect(cards()).toEqual(["Task 1", "Task 3"]);
    expect(server.callsTo("DELETE /api/reminders/2")).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Dismiss reminder: Task 3" })).toHaveFocus(),
    );

    await user.click(screen.getByRole("button", { name: "Dismiss all" }));
    expect(cards()).toEqual([]);
    expect(server.callsTo("DELETE /api/reminders")[0]?.search).toBe("?through=3");
    expect(screen.queryByRole("button", { name: "Dismiss all" })).not.toBeInTheDocument();
  });

  it("tells other open tabs what it dismissed, and hears what they dismissed", async () => {
    signedInServer({
      [STREAM]: connections(() =>
        eventStream([1, 2, 3].map((id) => sse("reminder", reminder(id, `Task ${id}`)))),
      ),
      "DELETE /api/reminders/1": () => noContent(),
    });
    const { user } = renderWithClient(<Harness />);
    await user.click(await screen.findByRole("button", { name: "Dismiss reminder: Task 1" }));
    await waitFor(() => expect(JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? "{}").ids).toEqual([1]));

    // Another tab dismissed the other two (its storage event).
    const newValue = JSON.stringify({ ids: [2, 3], at: Date.now() });
    act(() => void window.dispatchEvent(new StorageEvent("storage", { key: DISMISSED_KEY, newValue })));
    expect(cards()).toEqual([]);
  });

  it("puts a reminder back, with a notice, when the server can't dismiss it", async () => {
    signedInServer({
      [STREAM]: connections(() => eventStream([sse("reminder", reminder(1, "Pay rent"))])),
      "DELETE /api/reminders/1": () => json({ detail: "Oops" }, 500),
    });
    const { user } = renderWithClient(<Harness />);
    await user.click(await screen.findByRole("button", { name: "Dismiss reminder: Pay rent" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't dismiss the reminder. Oops");
    expect(cards()).toEqual(["Pay rent"]);
  });

  it("never brings back a dismissed reminder that a reconnect replays", async () => {
    const first = controlledEventStream();
    const server = signedInServer({
      [STREAM]: connections(
        () => first.response,
        // The server hadn't recorded the dismissal yet.
        () => eventStream([sse("reminder", reminder(1, "Pay rent"))]),
      ),
      "DELETE /api/reminders/1": () => noContent(),
    });
    const { user } = renderWithClient(<Harness />);
    first.send(sse("reminder", reminder(1, "Pay rent")));
    await user.click(await screen.findByRole("button", { name: "Dismiss reminder: Pay rent" }));
    first.close();

    await waitFor(() => expect(server.callsTo(STREAM).length).toBeGreaterThanOrEqual(3));
    expect(cards()).toEqual([]);
  });

  it("refreshes the task list when a reminder fires: the task's bell goes", async () => {
    let fired = false;
    const stream = controlledEventStream();
    const tomorrow = { due_date: "2031-05-02", due_time: "09:00", remind_before: 0 };
    signedInServer({
      [STREAM]: connections(() => stream.response),
      "GET /api/tasks": () =>
        json([task(1, "Pay rent", { ...tomorrow, remind_at: fired ? null : "2031-05-02T09:00:00Z" })]),
    });
    renderWithClient(
      <>
        <Harness />
        <TaskPanel />
      </>,
    );
    const rent = await screen.findByRole("checkbox", { name: "Pay rent" });
    await waitFor(() => expect(rent).toHaveAccessibleDescription(/Reminder/));

    fired = true;
    stream.send(sse("reminder", reminder(1, "Pay rent")));
    await waitFor(() => expect(rent).not.toHaveAccessibleDescription(/Reminder/));
  });

  it("drops a card the server no longer shows once the tasks are refreshed (snoozed in chat), keeping one that fired since", async () => {
    const [snoozed, later] = [reminder(1, "Call mom"), reminder(2, "Pay rent")];
    let listed: Reminder[] = [snoozed];
    const stream = controlledEventStream();
    signedInServer({
      [STREAM]: connections(() => stream.response),
      "GET /api/reminders": () => json({ reminders: listed }),
    });
    const { queryClient } = renderWithClient(<Harness />);
    act(() => stream.send(sse("reminder", snoozed)));
    await waitFor(() => expect(cards()).toEqual(["Call mom"]));

    // The chat snoozed it (the server no longer lists it), and the turn refreshes the tasks.
    listed = [];
    await act(() => queryClient.invalidateQueries({ queryKey: ["tasks"] }));
    await waitFor(() => expect(cards()).toEqual([]));

    // One that arrives after the server was asked is kept until the server is asked again.
    act(() => stream.send(sse("reminder", later)));
    await waitFor(() => expect(cards()).toEqual(["Pay rent"]));
    listed = [later];
    await act(() => queryClient.invalidateQueries({ queryKey: ["tasks"] }));
    await pause(20);
    expect(cards()).toEqual(["Pay rent"]);
  });

  it("hands each `changed` event to onChanged, and shows no card for it", async () => {
    const stream = controlledEventStream();
    signedInServer({ [STREAM]: connections(() => stream.response) });
    const heard: string[][] = [];
    function Listening() {
      const { reminders } = useReminders({ timing: FAST, onChanged: (kinds) => heard.push(kinds) });
      return <p>{reminders.length} reminders</p>;
    }
    renderWithClient(<Listening />);

    await act(async () => {
      stream.send(sse("changed", { kinds: ["tasks", "lists"] }) + sse("reminder", reminder(1, "Pay rent")));
      stream.send(sse("changed", { kinds: ["invitations"] }));
      await pause(0);
    });

    await waitFor(() => expect(heard).toEqual([["tasks", "lists"], ["invitations"]]));
    expect(screen.getByText("1 reminders")).toBeInTheDocument();
  });

  it("asks for everything again after a reconnect: changes meanwhile were said to no one", async () => {
    const server = signedInServer({ [STREAM]: connections(() => eventStream([": ping\r\n\r\n"])) });
    const heard: string[][] = [];
    function Listening() {
      useReminders({ timing: FAST, onChanged: (kinds) => heard.push(kinds) });
      return null;
    }
    renderWithClient(<Listening />);

    await waitFor(() => expect(server.callsTo(STREAM)).toHaveLength(2));
    await waitFor(() => expect(heard).toEqual([["tasks", "lists", "invitations"]]));
  });
});
