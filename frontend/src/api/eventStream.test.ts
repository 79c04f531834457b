import { describe, expect, it } from "vitest";

import { readEventStream, SseParser, type SseEvent } from "./eventStream";

function parseInChunks(text: string, cuts: number[]): SseEvent[] {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  let start = 0;
  for (const cut of [...cuts, text.length]) {
    events.push(...parser.push(text.slice(start, cut)));
    start = cut;
  }
  return [...events, ...parser.end()];
}

const STREAM =
  'event: tool_call\r\ndata: {"name": "add_task"}\r\n\r\n' +
  'event: delta\r\ndata: {"text": "Hi "}\r\n\r\n' +
  ": ping - keep-alive comment\r\n\r\n" +
  'event: delta\ndata: {"text": "there"}\n\n' +
  'event: done\rdata: {"conversation_id": 1}\r\r';

const EXPECTED: SseEvent[] = [
  { event: "tool_call", data: '{"name": "add_task"}' },
  { event: "delta", data: '{"text": "Hi "}' },
  { event: "delta", data: '{"text": "there"}' },
  { event: "done", data: '{"conversation_id": 1}' },
];

describe("SseParser", () => {
  it("parses several events from one chunk, with CRLF, LF and CR line endings", () => {
    expect(parseInChunks(STREAM, [])).toEqual(EXPECTED);
  });

  it("gives the same events however the text is split into two chunks", () => {
    for (let cut = 0; cut <= STREAM.length; cut += 1) {
      expect(parseInChunks(STREAM, [cut])).toEqual(EXPECTED);
    }
  });

  it("gives the same events when every character arrives on its own", () => {
    const everyChar = Array.from({ length: STREAM.length }, (_, index) => index);
    expect(parseInChunks(STREAM, everyChar)).toEqual(EXPECTED);
  });

  it("waits for the blank line before dispatching an event", () => {
    const parser = new SseParser();
    expect(parser.push('event: delta\r\ndata: {"text": "a"}\r\n')).toEqual([]);
    expect(parser.push("\r\n")).toEqual([{ event: "delta", data: '{"text": "a"}' }]);
  });

  it("joins multi-line data, defaults the event name and keeps the id", () => {
    expect(parseInChunks("id: 7\ndata: one\ndata:two\n\n", [])).toEqual([
      { event: "message", data: "one\ntwo", id: "7" },
    ]);
  });

  it("skips events without data and ignores unknown fields", () => {
    expect(parseInChunks("event: ping\n\nretry: 10\nfoo: bar\nevent: x\ndata: y\n\n", [])).toEqual([
      { event: "x", data: "y" },
    ]);
  });

  it("dispatches a last event that is missing its blank line when the stream ends", () => {
    expect(parseInChunks("event: done\ndata: {}", [])).toEqual([{ event: "done", data: "{}" }]);
  });
});

function bytesIn(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function readAll(
  body: ReadableStream<Uint8Array>,
  options: Parameters<typeof readEventStream>[1] = {},
): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readEventStream(body, options)) events.push(event);
  return events;
}

describe("readEventStream", () => {
  const text = 'event: delta\ndata: {"text": "1. ✓ Call mom"}\n\n: ping\r\n\r\nevent: done\ndata: {}\n\n';
  const bytes = new TextEncoder().encode(text);
  const expected: SseEvent[] = [
    { event: "delta", data: '{"text": "1. ✓ Call mom"}' },
    { event: "done", data: "{}" },
  ];

  it("decodes events from bytes split anywhere, even inside a multi-byte character", async () => {
    const checkMark = bytes.indexOf(0xe2); // the first byte of "✓"
    for (const cut of [1, 17, checkMark + 1, checkMark + 2, bytes.length - 3]) {
      expect(await readAll(bytesIn([bytes.slice(0, cut), bytes.slice(cut)]))).toEqual(expected);
    }
  });

  it("reports every chunk as activity, keep-alive comments included", async () => {
    let activity = 0;
    const ping = new TextEncoder().encode(": ping\r\n\r\n");
    const events = await readAll(bytesIn([ping, ping, bytes]), { onActivity: () => (activity += 1) });
    expect(events).toEqual(expected);
    expect(activity).toBe(4); // three chunks and the end
  });

  it("stops reading and cancels the download when aborted", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: first\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const seen: SseEvent[] = [];
    for await (const event of readEventStream(body, { signal: controller.signal })) {
      seen.push(event);
      controller.abort();
    }
    expect(seen).toEqual([{ event: "message", data: "first" }]);
    expect(cancelled).toBe(true);
  });

  it("cancels the download when the reader stops early", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: one\n\ndata: two\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readEventStream(body)) {
      expect(event.data).toBe("one");
      break;
    }
    expect(cancelled).toBe(true);
  });
});
