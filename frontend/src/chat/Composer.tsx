/**
 * The message box: Enter sends, Shift+Enter starts a new line, disabled while a reply is on its
 * way. It takes no more than the server's limit (`maxChars`), says how much is left near it,
 * and refuses to send a message over it (the limit may drop after the text was typed).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";

import { SendIcon } from "../ui/icons";

/** Characters left below which the hint counts them down. */
const COUNTDOWN_FROM = 200;

interface Props {
  onSend: (text: string) => void;
  disabled: boolean;
  /** The longest message the server takes. */
  maxChars: number;
}

function limitHint(length: number, maxChars: number): string | null {
  const left = maxChars - length;
  if (left < 0) return `${-left} characters over the ${maxChars.toLocaleString("en")}-character limit`;
  if (left === 0) return `Limit reached: ${maxChars.toLocaleString("en")} characters`;
  if (left <= COUNTDOWN_FROM) return `${left} characters left`;
  return null;
}

function fitHeight(textarea: HTMLTextAreaElement) {
  textarea.style.height = "auto";
  textarea.style.height = `${Math.min(textarea.scrollHeight, 200)}px`;
}

export function Composer({ onSend, disabled, maxChars }: Props) {
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
    if (disabled || !message || message.length > maxChars) return;
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
  const limit = limitHint(text.trim().length, maxChars);
  const over = text.trim().length > maxChars;

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
          maxLength={maxChars}
          aria-invalid={over || undefined}
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
      <p
        id={ids.hint}
        className={limit ? "composer-hint is-limit" : "composer-hint"}
        aria-live={limit ? "polite" : undefined}
      >
        {limit ?? "Enter to send · Shift+Enter for a new line"}
      </p>
    </form>
  );
}
