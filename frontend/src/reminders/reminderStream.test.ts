import { describe, expect, it } from "vitest";

import { reminder } from "../test/fixtures";
import { sse } from "../test/fetchMock";
import { readLiveEvents, readReminders, toReminder } from "./reminderStream";

function bytesIn(text: string, cut: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice(0, cut));
      controller.enqueue(bytes.slice(cut));
      controller.close();
    },
  });
}

describe("the reminder stream", () => {
  it("reads the reminders, skipping pings and other events, and reports activity", async () => {
    const first = reminder(1, "Pay rent ✓");
    const second = reminder(2, "Call mom");
    const text = `${sse("reminder", first)}: ping\r\n\r\n${sse("other", { a: 1 })}${sse("reminder", second)}`;
    const seen = [];
    let activity = 0;
    for await (const found of readReminders(
      bytesIn(text, 20),
      new AbortController().signal,
      () => (activity += 1),
    )) {
      seen.push(found);
    }
    expect(seen).toEqual([first, second]);
    expect(activity).toBeGreaterThanOrEqual(2);
  });

  it("skips malformed payloads", () => {
    expect(toReminder({ event: "reminder", data: "not json" })).toBeNull();
    expect(toReminder({ event: "reminder", data: JSON.stringify({ id: "1", title: "x" }) })).toBeNull();
    expect(toReminder({ event: "reminder", data: JSON.stringify(reminder(3, "ok")) })).toEqual(
      reminder(3, "ok"),
    );
  });

  it("hands on `changed` events with their kinds, in order among the reminders", async () => {
    const first = reminder(1, "Pay rent");
    const text = [
      sse("changed", { kinds: ["tasks", "lists"] }),
      sse("reminder", first),
      ": ping\r\n\r\n",
      sse("changed", { kinds: ["invitations"] }),
    ].join("");
    const seen = [];
    for await (const event of readLiveEvents(bytesIn(text, 31), new AbortController().signal)) {
      seen.push(event);
    }
    expect(seen).toEqual([
      { changed: ["tasks", "lists"] },
      { reminder: first },
      { changed: ["invitations"] },
    ]);
  });

  it("skips `changed` events it can't read, and kinds it doesn't know", async () => {
    const text = [
      "event: changed\r\ndata: not json\r\n\r\n",
      sse("changed", { kinds: "tasks" }),
      sse("changed", { kinds: ["calendars"] }),
      sse("changed", { kinds: ["calendars", "tasks", "tasks"] }),
      sse("other", { kinds: ["lists"] }),
    ].join("");
    const seen = [];
    for await (const event of readLiveEvents(bytesIn(text, 7), new AbortController().signal)) {
      seen.push(event);
    }
    expect(seen).toEqual([{ changed: ["tasks"] }]);
  });

  it("reads only the reminders when asked for reminders, whatever else comes", async () => {
    const first = reminder(1, "Pay rent");
    const text = `${sse("changed", { kinds: ["tasks"] })}${sse("reminder", first)}`;
    const seen = [];
    for await (const found of readReminders(bytesIn(text, 5), new AbortController().signal)) seen.push(found);
    expect(seen).toEqual([first]);
  });
});
