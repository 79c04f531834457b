/** Shown while the assistant works on a reply and no text has arrived yet. */
export function TypingIndicator() {
  return (
    <div className="msg-row msg-row-assistant">
      <span className="avatar" aria-hidden="true">
        AI
      </span>
      <div role="status" className="typing">
        <span className="typing-dots" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
        <span className="typing-label">Assistant is typing…</span>
      </div>
    </div>
  );
}
