import { describe, expect, it } from "vitest";

import { SseParser, type SseEvent } from "./sse";

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
