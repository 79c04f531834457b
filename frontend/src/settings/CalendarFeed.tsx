/**
 * Settings' "Calendar feed": a secret link calendar apps subscribe to (due tasks as events,
 * repeating ones with their rule). Making a new link retires the old one; turning it off
 * retires it too. The link is shown once: the server keeps only a hash of it.
 */
import { useId, useState } from "react";

import { describeError } from "../api/errors";
import { useCloseFeed, useFeedState, useOpenFeed } from "./useCalendarFeed";

export function CalendarFeed() {
  const state = useFeedState();
  const open = useOpenFeed();
  const close = useCloseFeed();
  const [url, setUrl] = useState<string | null>(null);
  const [said, setSaid] = useState("");
  const id = useId();
  const active = state.data?.active === true;
  const failed = open.isError
    ? `Couldn't make a calendar link. ${describeError(open.error)}`
    : close.isError
      ? `Couldn't turn the calendar link off. ${describeError(close.error)}`
      : state.isError
        ? `Couldn't check the calendar link. ${describeError(state.error)}`
        : null;

  function makeLink() {
    close.reset();
    open.mutate(undefined, {
      onSuccess: (opened) => {
        setUrl(opened.url);
        setSaid(active ? "New calendar link made; the old one no longer works." : "Calendar link made.");
      },
    });
  }

  function turnOff() {
    open.reset();
    close.mutate(undefined, {
      onSuccess: () => {
        setUrl(null);
        setSaid("Calendar link turned off.");
      },
    });
  }

  async function copy() {
    if (url === null || !navigator.clipboard) return;
    await navigator.clipboard.writeText(url);
    setSaid("Calendar link copied.");
  }

  return (
    <>
      <p className="muted small">
        Subscribe to this link in a calendar app to see your due tasks there. Anyone with the link can see
        them, so keep it to yourself.
      </p>
      {url !== null && (
        <div className="settings-field">
          <label htmlFor={`${id}-url`}>Your calendar link</label>
          <div className="settings-copy-row">
            <input
              id={`${id}-url`}
              className="settings-input"
              readOnly
              value={url}
              onFocus={(event) => event.target.select()}
            />
            <button
              type="button"
              className="button button-small"
              aria-label="Copy the calendar link"
              onClick={() => void copy()}
            >
              Copy
            </button>
          </div>
        </div>
      )}
      {url === null && active && (
        <p className="small">
          A calendar link is on. Make a new one to see it again (the old one then stops working).
        </p>
      )}
      {failed && (
        <p role="alert" className="settings-problem small">
          {failed}
        </p>
      )}
      <div className="settings-actions">
        <button type="button" className="button button-small" disabled={open.isPending} onClick={makeLink}>
          {active ? "Make a new link" : "Get a calendar link"}
        </button>
        {active && (
          <button
            type="button"
            className="button button-small button-ghost"
            disabled={close.isPending}
            onClick={turnOff}
          >
            Turn the link off
          </button>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </>
  );
}
