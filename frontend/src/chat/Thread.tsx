/** The message log: history, the turn in flight, and what went wrong with the last one. */
import { useLayoutEffect, useRef, type ReactNode } from "react";

import type { ChatMessage } from "./messages";
import { MessageBubble } from "./MessageBubble";
import { TypingIndicator } from "./TypingIndicator";
import type { PendingTurn, TurnFailure } from "./useChatTurn";

interface Props {
  messages: readonly ChatMessage[];
  pending: PendingTurn | null;
  failure: TurnFailure | null;
  onRetry: (text: string) => void;
  onDismiss: () => void;
  /** Send a reply's choice, or "undo", as the next message (as if typed). */
  onChoose: (message: string) => void;
  /** A turn is under way (the choices and the undo wait for it). */
  sending: boolean;
  /** Shown above the (empty) log, e.g. the suggested prompts. */
  children?: ReactNode;
}

interface ThreadMessage extends ChatMessage {
  streaming: boolean;
}

function withPending(messages: readonly ChatMessage[], pending: PendingTurn | null): ThreadMessage[] {
  const thread = messages.map((message) => ({ ...message, streaming: false }));
  if (pending) {
    thread.push({
      role: "user",
      text: pending.userText,
      toolCalls: [],
      choices: [],
      undoable: false,
      streaming: false,
    });
  }
  if (pending?.replyText) {
    thread.push({
      role: "assistant",
      text: pending.replyText,
      toolCalls: pending.toolCalls,
      choices: [],
      undoable: false,
      streaming: true,
    });
  }
  return thread;
}

/** Follow new text only while the reader is at (or near) the bottom; sending a message
 * always brings the reader back down to it (and to the reply that follows). */
function useStickToBottom({ messages, pending, failure }: Pick<Props, "messages" | "pending" | "failure">) {
  const sending = pending !== null;
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const wasSending = useRef(sending);

  useLayoutEffect(() => {
    if (sending && !wasSending.current) atBottom.current = true;
    wasSending.current = sending;
  }, [sending]);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [messages, pending, failure]); // whatever the thread shows: each change may grow it

  function onScroll() {
    const element = scroller.current;
    if (element) atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
  }

  return { scroller, onScroll };
}

function Failure({
  failure,
  onRetry,
  onDismiss,
}: { failure: TurnFailure } & Pick<Props, "onRetry" | "onDismiss">) {
  return (
    <div role="alert" className="turn-error">
      <p>{failure.canRetry ? <>Your message wasn't sent. {failure.message}</> : failure.message}</p>
      {failure.canRetry && failure.text && (
        // What the user wrote stays in sight (the composer was cleared when it was sent).
        <blockquote className="turn-error-text" aria-label="Unsent message">
          {failure.text}
        </blockquote>
      )}
      <div className="turn-error-actions">
        {failure.canRetry && (
          <button type="button" className="button button-small" onClick={() => onRetry(failure.text)}>
            Try again
          </button>
        )}
        <button type="button" className="button button-small button-ghost" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </div>
  );
}

export function Thread({
  messages,
  pending,
  failure,
  onRetry,
  onDismiss,
  onChoose,
  sending,
  children,
}: Props) {
  const { scroller, onScroll } = useStickToBottom({ messages, pending, failure });
  const thread = withPending(messages, pending);

  return (
    <div className="thread-scroll" ref={scroller} onScroll={onScroll}>
      <div className="thread-inner">
        {children}
        <div
          role="log"
          aria-live="polite"
          aria-label="Conversation"
          aria-busy={pending !== null}
          className="thread"
        >
          {/* One list keyed by position: a conversation only grows, so the turn in flight, the
              cached turn and the server's copy of it reuse the same elements (nothing re-announced). */}
          {thread.map((message, index) => (
            <MessageBubble
              key={index}
              role={message.role}
              text={message.text}
              toolCalls={message.toolCalls}
              streaming={message.streaming}
              // Only the last reply's choices and undo still apply: any later message answers it
              // (and "undo" then reverses the last change still standing, not this one's).
              choices={index === thread.length - 1 ? message.choices : []}
              undoable={index === thread.length - 1 && message.undoable}
              onChoose={onChoose}
              choosingDisabled={sending}
            />
          ))}
        </div>
        {pending && !pending.replyText && <TypingIndicator />}
        {failure && <Failure failure={failure} onRetry={onRetry} onDismiss={onDismiss} />}
      </div>
    </div>
  );
}
