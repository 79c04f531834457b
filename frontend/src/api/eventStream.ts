/**
 * Server-Sent Events read from a fetch body (the WHATWG "event stream" format), for both of
 * the API's streams: EventSource can neither POST (the chat) nor send the bearer token (the
 * reminders). `readEventStream` decodes the bytes; `SseParser` turns text split anywhere into
 * complete events.
 */

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export class SseParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];
  private id: string | undefined;

  /** Parse a chunk; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const end = this.lineEnd();
      if (end === null) break;
      const line = this.buffer.slice(0, end.index);
      this.buffer = this.buffer.slice(end.index + end.length);
      const dispatched = this.line(line);
      if (dispatched) events.push(dispatched);
    }
    return events;
  }

  /** The stream ended: a final event without its blank line still counts. */
  end(): SseEvent[] {
    const events = this.buffer ? this.push("\n\n") : this.push("\n");
    this.buffer = "";
    return events;
  }

  /** The next line ending (CRLF, LF or CR). A trailing CR waits: an LF may follow in the next chunk. */
  private lineEnd(): { index: number; length: number } | null {
    const lf = this.buffer.indexOf("\n");
    const cr = this.buffer.indexOf("\r");
    if (cr !== -1 && (lf === -1 || cr < lf)) {
      if (cr === this.buffer.length - 1) return null;
      return { index: cr, length: this.buffer[cr + 1] === "\n" ? 2 : 1 };
    }
    return lf === -1 ? null : { index: lf, length: 1 };
  }

  private line(line: string): SseEvent | null {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null; // a comment, e.g. a keep-alive ping
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.id = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    const { event, data, id } = this;
    this.event = "";
    this.data = [];
    if (data.length === 0) return null;
    const dispatched: SseEvent = { event: event || "message", data: data.join("\n") };
    if (id !== undefined) dispatched.id = id;
    return dispatched;
  }
}

export interface ReadOptions {
  /** Aborting cancels the download; the events already read are still given. */
  signal?: AbortSignal | undefined;
  /** Hears every chunk, keep-alive comments included: a quiet stream is not a dead one. */
  onActivity?: () => void;
}

/** The events in a byte stream, in order, as the bytes arrive, until it ends or is aborted. */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
  { signal, onActivity }: ReadOptions = {},
): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", stop);
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      onActivity?.();
      const events = done
        ? [...parser.push(decoder.decode()), ...parser.end()]
        : parser.push(decoder.decode(value, { stream: true }));
      yield* events;
      if (done || signal?.aborted) return;
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    // Stops the download if the caller stopped early (e.g. signed out mid-reply).
    stop();
  }
}
