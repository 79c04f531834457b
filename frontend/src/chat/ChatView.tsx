/** The middle column: the open conversation's thread and the composer. */
import { useEffect, useEffectEvent, type ReactNode } from "react";

import { ApiError, describeError } from "../api/errors";
import { Composer } from "./Composer";
import { useEarlierMessages, useMessages, type ChatMessage } from "./messages";
import { useMessageLimit } from "./useMessageLimit";
import { SuggestedPrompts } from "./SuggestedPrompts";
import { Thread } from "./Thread";
import type { useChatTurn } from "./useChatTurn";
import "./chat.css";

const NONE: readonly ChatMessage[] = [];

interface Props {
  conversationId: number | null;
  title: string;
  /** Changes when the user opens another conversation (not when a new one gets its id). */
  viewKey: number;
  turn: ReturnType<typeof useChatTurn>;
  /** The conversation doesn't exist (deleted elsewhere, or an old link). */
  onMissing: () => void;
  /**
   * Shown between the thread and the composer, in the page's flow (the reminder cards): the
   * thread gives up the room, so they cover no title, list pill or button.
   */
  notices?: ReactNode;
}

export function ChatView({ conversationId, title, viewKey, turn, onMissing, notices }: Props) {
  const history = useMessages(conversationId);
  const maxChars = useMessageLimit();
  const missing = history.error instanceof ApiError && history.error.status === 404;

  // The latest onMissing, without re-running the effect whenever the parent re-renders.
  const reportMissing = useEffectEvent(onMissing);
  useEffect(() => {
    if (missing) reportMissing();
  }, [missing]);

  const pending = turn.pending?.conversationId === conversationId ? turn.pending : null;
  const failure = turn.failure?.conversationId === conversationId ? turn.failure : null;
  const newest = conversationId === null ? NONE : (history.data ?? NONE);
  const earlier = useEarlierMessages(conversationId, newest);
  const messages = earlier.messages;
  const loading = conversationId !== null && history.isPending;
  const empty = messages.length === 0 && !pending && !loading && !history.isError;

  return (
    <section className="chat" aria-labelledby="chat-title">
      <div className="chat-header">
        <h2 id="chat-title" className="chat-title">
          {title}
        </h2>
      </div>
      <Thread
        key={viewKey}
        messages={messages}
        pending={pending}
        failure={failure}
        onRetry={(text) => void turn.send(text)}
        onDismiss={turn.dismissFailure}
        onChoose={(message) => void turn.send(message)}
        sending={turn.sending}
      >
        {earlier.hasMore && (
          <div className="thread-note">
            <button
              type="button"
              className="button button-small"
              onClick={() => void earlier.loadEarlier()}
              disabled={earlier.loading}
            >
              {earlier.loading ? "Loading…" : "Show earlier messages"}
            </button>
            {earlier.failed && <span role="alert">Couldn't load earlier messages.</span>}
          </div>
        )}
        {loading && (
          <p className="thread-note">
            <span className="spinner" aria-hidden="true" /> Loading conversation…
          </p>
        )}
        {history.isError && !missing && (
          <div role="alert" className="thread-note thread-note-error">
            <p>Couldn't load this conversation. {describeError(history.error)}</p>
            <button type="button" className="button button-small" onClick={() => void history.refetch()}>
              Try again
            </button>
          </div>
        )}
        {empty && <SuggestedPrompts onPick={(prompt) => void turn.send(prompt)} disabled={turn.sending} />}
      </Thread>
      {notices}
      <Composer onSend={(text) => void turn.send(text)} disabled={turn.sending} maxChars={maxChars} />
    </section>
  );
}
