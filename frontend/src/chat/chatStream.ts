/**
 * POST /api/chat/stream, read as it arrives. The only hand-written part of the API
 * client: OpenAPI can't describe the events, so they are typed here with the generated
 * ChatResponse and ToolCallRecord types.
 */
import { api } from "../api/client";
import { apiErrorFrom, UserFacingError } from "../api/errors";
import type { ChatRequest, ChatResponse, Choice, ToolCallRecord } from "../api/types";
import { readEventStream, type SseEvent } from "../api/eventStream";

export type ChatStreamEvent =
  | { type: "tool_call"; call: ToolCallRecord }
  | { type: "delta"; text: string }
  | { type: "done"; result: ChatResponse }
  | { type: "error"; detail: string };

const CUT_OFF = "The reply was interrupted. Please try again.";

/** The turn started (the message is stored) but no reply came: an `error` event or a cut-off stream. */
export class ReplyError extends UserFacingError {
  override readonly name = "ReplyError";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isToolCall(value: unknown): value is ToolCallRecord {
  return isRecord(value) && typeof value["name"] === "string" && isRecord(value["arguments"]);
}

/** The most choices a reply offers (the API's limit). */
export const MAX_CHOICES = 3;

function isChoice(value: unknown): value is Choice {
  return isRecord(value) && typeof value["label"] === "string" && typeof value["message"] === "string";
}

/** A reply's choices as sent: only well-formed ones, at most three; none if there are none. */
export function toChoices(value: unknown): Choice[] {
  return Array.isArray(value) ? value.filter(isChoice).slice(0, MAX_CHOICES) : [];
}

function isChatResponse(
  value: unknown,
): value is Omit<ChatResponse, "choices" | "undoable"> & { choices?: unknown; undoable?: unknown } {
  return (
    isRecord(value) &&
    typeof value["conversation_id"] === "number" &&
    typeof value["response"] === "string" &&
    Array.isArray(value["tool_calls"]) &&
    value["tool_calls"].every(isToolCall)
  );
}

/** One SSE event as a typed chat event; unknown or malformed events are skipped. */
export function toChatEvent({ event, data }: SseEvent): ChatStreamEvent | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  switch (event) {
    case "tool_call":
      return isToolCall(payload) ? { type: "tool_call", call: payload } : null;
    case "delta":
      return isRecord(payload) && typeof payload["text"] === "string"
        ? { type: "delta", text: payload["text"] }
        : null;
    case "done":
      return isChatResponse(payload)
        ? {
            type: "done",
            result: { ...payload, choices: toChoices(payload.choices), undoable: payload.undoable === true },
          }
        : null;
    case "error":
      return {
        type: "error",
        detail: isRecord(payload) && typeof payload["detail"] === "string" ? payload["detail"] : CUT_OFF,
      };
    default:
      return null;
  }
}

/** Decode a byte stream into chat events, in order, as the bytes arrive. */
export async function* readChatEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<ChatStreamEvent> {
  for await (const event of readEventStream(body, { signal })) {
    const chatEvent = toChatEvent(event);
    if (chatEvent) yield chatEvent;
  }
}

/**
 * Send one message and report each event to `onEvent`. Resolves with the `done` body
 * (whose text is authoritative). Rejects with an ApiError when the server refused the
 * message, or a ReplyError after an `error` event or a stream that ends without `done`.
 */
export async function streamChat(
  request: ChatRequest,
  onEvent: (event: ChatStreamEvent) => void,
  signal?: AbortSignal,
): Promise<ChatResponse> {
  const { data, error, response } = await api.POST("/api/chat/stream", {
    body: request,
    parseAs: "stream",
    headers: { Accept: "text/event-stream" },
  });
  if (!response.ok || !data) throw apiErrorFrom(response, error);
  for await (const event of readChatEvents(data, signal)) {
    onEvent(event);
    if (event.type === "done") return event.result;
    if (event.type === "error") throw new ReplyError(event.detail);
  }
  if (signal?.aborted) throw new DOMException("The reply was cancelled.", "AbortError");
  throw new ReplyError(CUT_OFF);
}
