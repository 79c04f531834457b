import { beforeEach, describe, expect, it } from "vitest";

import { ApiError } from "../api/errors";
import { signIn } from "../auth/session";
import { eventStream, json, mockServer, sse } from "../test/fetchMock";
import { readChatEvents, ReplyError, streamChat, type ChatStreamEvent } from "./chatStream";

const DONE = {
  conversation_id: 4,
  response: "I've added 'Buy milk' to your list.",
  tool_calls: [
    { name: "add_task", arguments: { title: "buy milk" }, result: { task_id: 3, status: "created" } },
  ],
  choices: [],
  undoable: true,
};

function bytesIn(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of readChatEvents(stream)) events.push(event);
  return events;
}

describe("readChatEvents", () => {
  it("types the tool calls, text and final reply of the stream", async () => {
    const text =
      sse("tool_call", DONE.tool_calls[0]) + sse("delta", { text: "1. ✓ Call mom" }) + sse("done", DONE);
    const events = await collect(bytesIn([new TextEncoder().encode(text)]));
    expect(events).toEqual([
      { type: "tool_call", call: DONE.tool_calls[0] },
      { type: "delta", text: "1. ✓ Call mom" },
      { type: "done", result: DONE },
    ]);
  });

  it("skips unknown events and malformed payloads", async () => {
    const text = sse("mystery", { a: 1 }) + "event: delta\ndata: not json\n\n" + sse("delta", { text: "ok" });
    const events = await collect(bytesIn([new TextEncoder().encode(text)]));
    expect(events).toEqual([{ type: "delta", text: "ok" }]);
  });
});

describe("streamChat", () => {
  beforeEach(() => signIn({ token: "t0ken", email: "me@example.com" }));

  it("posts the message with the bearer token, reports events in order and resolves with done", async () => {
    const server = mockServer({
      "POST /api/chat/stream": () =>
        eventStream([sse("delta", { text: "I've " }), sse("delta", { text: "added" }), sse("done", DONE)]),
    });
    const seen: string[] = [];
    const result = await streamChat({ message: "Add buy milk", conversation_id: null }, (event) =>
      seen.push(event.type),
    );

    expect(result).toEqual(DONE);
    expect(seen).toEqual(["delta", "delta", "done"]);
    const [call] = server.callsTo("POST /api/chat/stream");
    expect(call?.body).toEqual({ message: "Add buy milk", conversation_id: null });
    expect(call?.headers.get("Authorization")).toBe("Bearer t0ken");
  });

  it("rejects with the server's detail when the turn is refused", async () => {
    mockServer({ "POST /api/chat/stream": () => json({ detail: "Conversation not found" }, 404) });
    const failure = streamChat({ message: "hi", conversation_id: 99 }, () => undefined);
    await expect(failure).rejects.toEqual(new ApiError(404, "Conversation not found"));
  });

  it("rejects with a ReplyError on an error event", async () => {
    const detail = "Your message was saved but the reply could not be; please try again";
    mockServer({
      "POST /api/chat/stream": () => eventStream([sse("delta", { text: "Hel" }), sse("error", { detail })]),
    });
    const failure = streamChat({ message: "hi", conversation_id: 1 }, () => undefined);
    await expect(failure).rejects.toBeInstanceOf(ReplyError);
    await expect(failure).rejects.toThrow(detail);
  });

  it("rejects when the stream ends without done", async () => {
    mockServer({ "POST /api/chat/stream": () => eventStream([sse("delta", { text: "Hel" })]) });
    await expect(streamChat({ message: "hi", conversation_id: 1 }, () => undefined)).rejects.toThrow(
      /interrupted/,
    );
  });
});
