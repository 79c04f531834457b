import { describe, expect, it } from "vitest";

import { reminder } from "../test/fixtures";
import { sse } from "../test/fetchMock";
import { readReminders, toReminder } from "./reminderStream";

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
});
