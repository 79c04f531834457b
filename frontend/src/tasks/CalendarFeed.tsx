/**
 * The calendar feed's controls: a secret link calendar apps subscribe to (due tasks as
 * events, repeating ones with their rule). Making a new link retires the old one; turning it
 * off retires it too. The link is shown once: the server keeps only a hash of it.
 */
import { useId, useState } from "react";

import { CalendarIcon } from "../ui/icons";
import { useCloseFeed, useFeedState, useOpenFeed } from "./useCalendarFeed";

export function CalendarFeed() {
  const state = useFeedState();
  const open = useOpenFeed();
  const close = useCloseFeed();
  const [url, setUrl] = useState<string | null>(null);
  const [said, setSaid] = useState("");
  const id = useId();
  const active = state.data?.active === true;

  function makeLink() {
    open.mutate(undefined, {
      onSuccess: (opened) => {
        setUrl(opened.url);
        setSaid(active ? "New calendar link made; the old one no longer works." : "Calendar link made.");
      },
    });
  }

  function turnOff() {
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
    <details className="calendar-feed">
      <summary>
        <CalendarIcon width={14} height={14} /> Calendar feed
      </summary>
      <p className="muted small">
        Subscribe to this link in a calendar app to see your due tasks there. Anyone with the link can see
        them, so keep it to yourself.
      </p>
      {url !== null && (
        <div className="task-field">
          <label htmlFor={`${id}-url`}>Your calendar link</label>
          <div className="calendar-feed-link">
            <input
              id={`${id}-url`}
              className="task-input"
              readOnly
              value={url}
              onFocus={(event) => event.target.select()}
            />
            <button type="button" className="button button-small" onClick={() => void copy()}>
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
      <div className="details-actions">
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
    </details>
  );
}
