/**
 * GET /api/reminders/stream, read as it arrives: each `reminder` event is one fired
 * reminder (every undismissed one first, then each as it fires); each `changed` event names
 * what someone else changed (sharing/liveChanges.ts). Read with fetch, not EventSource,
 * because EventSource can't send the bearer token.
 */
import { api } from "../api/client";
import { apiErrorFrom } from "../api/errors";
import type { Reminder } from "../api/types";
import { readEventStream, type SseEvent } from "../api/eventStream";
import { toChange, type ChangeKind } from "../sharing/liveChanges";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isReminder(value: unknown): value is Reminder {
  return (
    isRecord(value) &&
    typeof value["id"] === "number" &&
    typeof value["task_id"] === "number" &&
    typeof value["title"] === "string" &&
    typeof value["remind_at"] === "string" &&
    typeof value["fired_at"] === "string" &&
    (value["due_at"] === null || typeof value["due_at"] === "string")
  );
}

/** One SSE event as a reminder; other events and malformed payloads are skipped. */
export function toReminder({ event, data }: SseEvent): Reminder | null {
  if (event !== "reminder") return null;
  try {
    const payload: unknown = JSON.parse(data);
    return isReminder(payload) ? payload : null;
  } catch {
    return null;
  }
}

export interface OpenStream {
  body: ReadableStream<Uint8Array>;
  /** The server's clock minus ours (from the Date header), to judge how old a reminder is. */
  skewMs: number;
}

function skewOf(response: Response): number {
  const serverNow = Date.parse(response.headers.get("Date") ?? "");
  return Number.isNaN(serverNow) ? 0 : serverNow - Date.now();
}

/** Connect; rejects with an ApiError when the server refuses (401 signs out, in the client). */
export async function openReminderStream(signal: AbortSignal): Promise<OpenStream> {
  const { data, error, response } = await api.GET("/api/reminders/stream", {
    parseAs: "stream",
    headers: { Accept: "text/event-stream" },
    signal,
  });
  if (!response.ok || !data) throw apiErrorFrom(response, error);
  return { body: data, skewMs: skewOf(response) };
}

/** What the stream carries that the app acts on; any other event is skipped. */
export type LiveEvent = { reminder: Reminder } | { changed: ChangeKind[] };

/**
 * The reminders and changes in a byte stream, in order, until it ends. `onActivity` hears
 * every chunk, keep-alive comments included, so a caller can tell a quiet stream from a dead one.
 */
export async function* readLiveEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onActivity: () => void = () => undefined,
): AsyncGenerator<LiveEvent> {
  for await (const event of readEventStream(body, { signal, onActivity })) {
    const reminder = toReminder(event);
    if (reminder) {
      yield { reminder };
      continue;
    }
    const changed = toChange(event);
    if (changed) yield { changed };
  }
}

/** The reminders alone. */
export async function* readReminders(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onActivity: () => void = () => undefined,
): AsyncGenerator<Reminder> {
  for await (const event of readLiveEvents(body, signal, onActivity)) {
    if ("reminder" in event) yield event.reminder;
  }
}
