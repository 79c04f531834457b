/**
 * Fired reminders as a stack of cards between the conversation and the composer, in the page's
 * flow, so they cover nothing: each card with Done, Snooze (10 minutes, 1 hour, tomorrow 9:00)
 * and Dismiss, and Dismiss all when there are several. New cards are announced politely, and
 * what Done or Snooze did is said in a status line, since the card goes with it.
 */
import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from "react";

import type { Reminder } from "../api/types";
import { useAccountZone } from "../auth/useAuth";
import { useCurrentMinute } from "../tasks/clock";
import { addDays, clockTime, wallClockIn } from "../tasks/dueLabel";
import { BellIcon } from "../ui/icons";
import { NotificationOffer } from "./NotificationOffer";
import { reminderDetail } from "./reminderText";
import type { SnoozeChoice } from "./useReminders";
import "./reminders.css";

interface Props {
  reminders: Reminder[];
  onDismiss: (id: number) => void;
  onDismissAll: () => void;
  onSnooze: (id: number, choice: SnoozeChoice) => void;
  onDone: (reminder: Reminder) => void;
}

/** How long the status line says what was just done. */
const STATUS_MS = 6000;
const MORNING = "09:00";

interface SnoozeOption {
  /** On the button. */
  text: string;
  /** In its accessible name and the status line: "for 10 minutes", "until tomorrow 9:00 AM". */
  words: string;
  choice: SnoozeChoice;
}

/** The snooze choices at `now`; "tomorrow" is the account's (an instant on its clock, without an offset). */
export function snoozeOptions(zone: string, now: number): SnoozeOption[] {
  const tomorrow = addDays(wallClockIn(zone, now).date, 1);
  const morning = clockTime(MORNING);
  return [
    { text: "10 min", words: "for 10 minutes", choice: { minutes: 10 } },
    { text: "1 hour", words: "for 1 hour", choice: { minutes: 60 } },
    {
      text: `Tomorrow ${morning}`,
      words: `until tomorrow ${morning}`,
      choice: { until: `${tomorrow}T${MORNING}:00` },
    },
  ];
}

interface CardProps {
  reminder: Reminder;
  onDismiss: () => void;
  onDone: () => void;
  onSnooze: (option: SnoozeOption) => void;
}

function ReminderCard({ reminder, onDismiss, onDone, onSnooze }: CardProps) {
  const zone = useAccountZone();
  const now = useCurrentMinute();
  const [choosing, setChoosing] = useState(false);
  const snoozeButton = useRef<HTMLButtonElement>(null);
  const optionsId = useId();
  const { title } = reminder;

  function closeOnEscape(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    setChoosing(false);
    snoozeButton.current?.focus();
  }

  return (
    <li className="reminder-card">
      <BellIcon className="reminder-icon" width={16} height={16} />
      <div className="reminder-body">
        <div className="reminder-text">
          <p className="reminder-title">{title}</p>
          <p className="reminder-detail small">{reminderDetail(reminder, zone, now)}</p>
        </div>
        <div className="reminder-actions">
          <button
            type="button"
            className="button button-small"
            aria-label={`Mark done: ${title}`}
            onClick={onDone}
          >
            Done
          </button>
          <button
            type="button"
            ref={snoozeButton}
            className="button button-small"
            aria-label={`Snooze reminder: ${title}`}
            aria-expanded={choosing}
            aria-controls={optionsId}
            onClick={() => setChoosing((open) => !open)}
          >
            Snooze
          </button>
          <button
            type="button"
            className="button button-small button-ghost"
            // Where focus goes when a neighbour goes: an Enter pressed on it then never completes a task.
            data-reminder={reminder.id}
            aria-label={`Dismiss reminder: ${title}`}
            onClick={onDismiss}
          >
            Dismiss
          </button>
        </div>
        <div
          id={optionsId}
          role="group"
          aria-label={`Snooze options: ${title}`}
          className="reminder-snooze-options"
          hidden={!choosing}
          onKeyDown={closeOnEscape}
        >
          {choosing &&
            snoozeOptions(zone, now).map((option) => (
              <button
                key={option.text}
                type="button"
                className="button button-small"
                aria-label={`Snooze ${option.words}: ${title}`}
                onClick={() => onSnooze(option)}
              >
                {option.text}
              </button>
            ))}
        </div>
      </div>
    </li>
  );
}

export function ReminderStack({ reminders, onDismiss, onDismissAll, onSnooze, onDone }: Props) {
  const stack = useRef<HTMLDivElement>(null);
  // Where focus was before it came into the stack: it goes back there once the stack is empty.
  const cameFrom = useRef<HTMLElement | null>(null);
  // What Done or Snooze just did, for the card that went; not said once the card is back (it failed).
  const [status, setStatus] = useState<{ id: number; text: string } | null>(null);
  const said = status && !reminders.some((reminder) => reminder.id === status.id) ? status.text : "";

  useEffect(() => {
    if (!status) return undefined;
    const timer = setTimeout(() => setStatus(null), STATUS_MS);
    return () => clearTimeout(timer);
  }, [status]);

  function onFocus(event: FocusEvent<HTMLDivElement>) {
    const from = event.relatedTarget;
    if (from instanceof HTMLElement && !stack.current?.contains(from)) cameFrom.current = from;
  }

  /** A card that goes takes its buttons: move focus to a neighbour's, or back where it came from. */
  function placeFocus(goneIds: number[]) {
    if (!stack.current?.contains(document.activeElement)) return;
    const left = reminders.filter((reminder) => !goneIds.includes(reminder.id));
    const index = reminders.findIndex((reminder) => reminder.id === goneIds[0]);
    const neighbour = left[Math.min(index, left.length - 1)];
    requestAnimationFrame(() => {
      const target = neighbour
        ? stack.current?.querySelector<HTMLElement>(`[data-reminder="${neighbour.id}"]`)
        : cameFrom.current?.isConnected
          ? cameFrom.current
          : null;
      target?.focus();
    });
  }

  /** The offer answered: its buttons went, so focus the first card's rather than lose it. */
  function focusFirstCard() {
    requestAnimationFrame(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      stack.current?.querySelector<HTMLElement>("[data-reminder]")?.focus();
    });
  }

  const showing = reminders.length > 0;
  return (
    <div className={`reminder-stack${showing || said ? " is-showing" : ""}`} ref={stack} onFocus={onFocus}>
      {reminders.length > 1 && (
        <div className="reminder-stack-bar">
          <span className="small">{reminders.length} reminders</span>
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={() => {
              placeFocus(reminders.map((reminder) => reminder.id));
              onDismissAll();
            }}
          >
            Dismiss all
          </button>
        </div>
      )}
      {/* Always in the page, so a screen reader hears each card added to it. */}
      <ul className="reminder-list" aria-label="Reminders" aria-live="polite" aria-relevant="additions">
        {reminders.map((reminder) => (
          <ReminderCard
            key={reminder.id}
            reminder={reminder}
            onDismiss={() => {
              placeFocus([reminder.id]);
              onDismiss(reminder.id);
            }}
            onDone={() => {
              placeFocus([reminder.id]);
              setStatus({ id: reminder.id, text: `Done: “${reminder.title}”` });
              onDone(reminder);
            }}
            onSnooze={(option) => {
              placeFocus([reminder.id]);
              setStatus({ id: reminder.id, text: `Snoozed ${option.words}: “${reminder.title}”` });
              onSnooze(reminder.id, option.choice);
            }}
          />
        ))}
      </ul>
      <p className="reminder-status small" role="status">
        {said}
      </p>
      {showing && <NotificationOffer onAnswered={focusFirstCard} />}
    </div>
  );
}
