/**
 * Settings' email part: reminders by email, and a daily digest (what is due today, overdue,
 * and repeating today) at a time of the person's choosing, in the account's zone. When the
 * server cannot send email, both are shown switched off, with the reason.
 */
import { useId, useState } from "react";

import { describeError } from "../api/errors";
import { useDeliverySettings, useUpdateDeliverySettings } from "../pwa/usePush";

export const DEFAULT_DIGEST_TIME = "08:00";
export const EMAIL_UNAVAILABLE =
  "Email isn't set up on this server, so reminders and the digest can't be emailed. Its operator can set it up.";

export function EmailSettings() {
  const id = useId();
  const settings = useDeliverySettings();
  const update = useUpdateDeliverySettings();
  // The time being typed, until it is a whole time to save.
  const [draftTime, setDraftTime] = useState<string | null>(null);

  if (settings.isPending) return <p className="muted small">Loading email settings…</p>;
  if (settings.isError) {
    return <p className="small">Couldn't load the email settings. {describeError(settings.error)}</p>;
  }
  const { email_reminders, digest_time, email, email_available } = settings.data;
  const disabled = !email_available || update.isPending;
  const time = draftTime ?? digest_time ?? DEFAULT_DIGEST_TIME;

  return (
    <>
      <div className="settings-field">
        <label className="settings-toggle" htmlFor={`${id}-email`}>
          <input
            id={`${id}-email`}
            type="checkbox"
            checked={email_available && email_reminders}
            disabled={disabled}
            aria-describedby={`${id}-email-hint`}
            onChange={(event) => update.mutate({ email_reminders: event.target.checked })}
          />
          Email reminders
        </label>
        <p id={`${id}-email-hint`} className="muted small">
          Each reminder is also emailed to <strong>{email}</strong>, with Done and Snooze links.
        </p>
      </div>
      <div className="settings-field">
        <label className="settings-toggle" htmlFor={`${id}-digest`}>
          <input
            id={`${id}-digest`}
            type="checkbox"
            checked={email_available && digest_time !== null}
            disabled={disabled}
            onChange={(event) => update.mutate({ digest_time: event.target.checked ? time : null })}
          />
          Daily digest
        </label>
        <div className="settings-digest-time">
          <label htmlFor={`${id}-digest-time`} className="muted small">
            Sent at
          </label>
          <input
            id={`${id}-digest-time`}
            className="settings-input settings-time"
            type="time"
            value={time}
            disabled={disabled || digest_time === null}
            aria-describedby={`${id}-digest-hint`}
            onChange={(event) => {
              const value = event.target.value;
              setDraftTime(value);
              if (/^\d{2}:\d{2}$/.test(value) && value !== digest_time) {
                update.mutate({ digest_time: value }, { onSettled: () => setDraftTime(null) });
              }
            }}
          />
        </div>
        <p id={`${id}-digest-hint`} className="muted small">
          One email a day, in your time zone: what's due today, what's overdue and what repeats today.
        </p>
      </div>
      {!email_available && <p className="small">{EMAIL_UNAVAILABLE}</p>}
    </>
  );
}
