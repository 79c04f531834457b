/**
 * Fired reminders as a stack of cards in the top corner, each with Dismiss, and Dismiss all
 * when there are several. New cards are announced politely; the stack sits right after the
 * header in the page order, so the keyboard reaches it early.
 */
import { useRef, type FocusEvent } from "react";

import type { Reminder } from "../api/types";
import { useAccountZone } from "../auth/useAuth";
import { useCurrentMinute } from "../tasks/clock";
import { BellIcon } from "../ui/icons";
import { NotificationOffer } from "./NotificationOffer";
import { reminderDetail } from "./reminderText";
import "./reminders.css";

interface Props {
  reminders: Reminder[];
  onDismiss: (id: number) => void;
  onDismissAll: () => void;
}

function ReminderCard({ reminder, onDismiss }: { reminder: Reminder; onDismiss: () => void }) {
  const zone = useAccountZone();
  const now = useCurrentMinute();
  return (
    <li className="reminder-card">
      <BellIcon className="reminder-icon" width={16} height={16} />
      <div className="reminder-text">
        <p className="reminder-title">{reminder.title}</p>
        <p className="reminder-detail small">{reminderDetail(reminder, zone, now)}</p>
      </div>
      <button
        type="button"
        className="button button-small"
        data-reminder={reminder.id}
        aria-label={`Dismiss reminder: ${reminder.title}`}
        onClick={onDismiss}
      >
        Dismiss
      </button>
    </li>
  );
}

export function ReminderStack({ reminders, onDismiss, onDismissAll }: Props) {
  const stack = useRef<HTMLDivElement>(null);
  // Where focus was before it came into the stack: it goes back there once the stack is empty.
  const cameFrom = useRef<HTMLElement | null>(null);

  function onFocus(event: FocusEvent<HTMLDivElement>) {
    const from = event.relatedTarget;
    if (from instanceof HTMLElement && !stack.current?.contains(from)) cameFrom.current = from;
  }

  /** A dismissed card's button goes away: move focus to a neighbour's, or back where it came from. */
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

  return (
    <div className="reminder-stack" ref={stack} onFocus={onFocus}>
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
          />
        ))}
      </ul>
      {reminders.length > 0 && <NotificationOffer onAnswered={focusFirstCard} />}
    </div>
  );
}
