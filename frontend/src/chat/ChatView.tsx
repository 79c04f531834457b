/** The middle column: the open conversation's thread and the composer. */
import { useEffect, useRef } from "react";

import { ApiError, describeError } from "../api/errors";
import { Composer } from "./Composer";
import { useMessages } from "./messages";
import { SuggestedPrompts } from "./SuggestedPrompts";
import { Thread } from "./Thread";
import type { useChatTurn } from "./useChatTurn";
import "./chat.css";

interface Props {
  conversationId: number | null;
  title: string;
  /** Changes when the user opens another conversation (not when a new one gets its id). */
  viewKey: number;
  turn: ReturnType<typeof useChatTurn>;
  /** The conversation doesn't exist (deleted elsewhere, or an old link). */
  onMissing: () => void;
}

export function ChatView({ conversationId, title, viewKey, turn, onMissing }: Props) {
  const history = useMessages(conversationId);
  const missing = history.error instanceof ApiError && history.error.status === 404;

  const onMissingRef = useRef(onMissing);
  onMissingRef.current = onMissing;
  useEffect(() => {
    if (missing) onMissingRef.current();
  }, [missing]);

  const pending = turn.pending?.conversationId === conversationId ? turn.pending : null;
  const failure = turn.failure?.conversationId === conversationId ? turn.failure : null;
  const messages = conversationId === null ? [] : (history.data ?? []);
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
      >
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
      <Composer onSend={(text) => void turn.send(text)} disabled={turn.sending} />
    </section>
  );
}
