/** The message box: Enter sends, Shift+Enter starts a new line, disabled while a reply is on its way. */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";

import { SendIcon } from "../ui/icons";

export const MAX_MESSAGE_CHARS = 4000;

interface Props {
  onSend: (text: string) => void;
  disabled: boolean;
}

function fitHeight(textarea: HTMLTextAreaElement) {
  textarea.style.height = "auto";
  textarea.style.height = `${Math.min(textarea.scrollHeight, 200)}px`;
}

export function Composer({ onSend, disabled }: Props) {
  const [text, setText] = useState("");
  const textarea = useRef<HTMLTextAreaElement>(null);
  const wasDisabled = useRef(disabled);
  const ids = { input: useId(), hint: useId() };

  // Give focus back once the reply is in, unless the user has moved on to something else.
  useEffect(() => {
    const element = textarea.current;
    if (wasDisabled.current && !disabled && element) {
      const active = document.activeElement;
      if (active === null || active === document.body) element.focus();
    }
    wasDisabled.current = disabled;
  }, [disabled]);

  useEffect(() => {
    if (textarea.current) fitHeight(textarea.current);
  }, [text]);

  function send() {
    const message = text.trim();
    if (disabled || !message) return;
    onSend(message);
    setText("");
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  }

  const empty = text.trim() === "";
  const nearLimit = text.length > MAX_MESSAGE_CHARS - 200;

  return (
    <form className="composer" onSubmit={onSubmit}>
      <label htmlFor={ids.input} className="visually-hidden">
        Message
      </label>
      <div className="composer-box">
        <textarea
          id={ids.input}
          ref={textarea}
          rows={1}
          value={text}
          placeholder="Message the assistant…"
          maxLength={MAX_MESSAGE_CHARS}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          aria-describedby={ids.hint}
          enterKeyHint="send"
        />
        <button
          type="submit"
          className={empty ? "send-button is-empty" : "send-button"}
          disabled={disabled}
          aria-label="Send"
          title="Send"
        >
          <SendIcon />
        </button>
      </div>
      <p id={ids.hint} className="composer-hint">
        {nearLimit
          ? `${MAX_MESSAGE_CHARS - text.length} characters left`
          : "Enter to send · Shift+Enter for a new line"}
      </p>
    </form>
  );
}
