/**
 * The details form's reminder: a select (none, at its time, N minutes before, a set time)
 * and, for a set time, a date-and-time input on the account's clock. Choices counted from
 * the due time need a due date: without one they are disabled, and the hint says why.
 */
import type { Task } from "../api/types";
import { before, BEFORE_CHOICES, choiceLabel, minutesOf, type ReminderChoice } from "./reminderChoice";
import type { DetailsDraft } from "./taskDetails";

interface Props {
  id: string;
  task: Task;
  draft: DetailsDraft;
  /** What the select shows: the choice picked, or what the task will have. */
  shown: ReminderChoice;
  problem: string | null;
  /** The earliest set time: now, on the account's clock. */
  min: string;
  onChange: (changes: Partial<DetailsDraft>) => void;
}

/** The offered choices, with the task's own offset among them if it is another (said in chat). */
function choicesFor(task: Task, shown: ReminderChoice): ReminderChoice[] {
  const minutes = new Set(BEFORE_CHOICES);
  for (const own of [task.remind_before, minutesOf(shown)]) if (own != null) minutes.add(own);
  return ["none", ...[...minutes].sort((a, b) => a - b).map(before), "at"];
}

export function ReminderField({ id, task, draft, shown, problem, min, onChange }: Props) {
  const noDay = draft.date === "";
  const hint = noDay
    ? "Reminders before the task need a due date."
    : draft.time === "" && minutesOf(shown) !== null
      ? "A task with no time counts back from 09:00 on its day."
      : null;
  const describedBy = problem ? `${id}-problem` : hint ? `${id}-hint` : undefined;
  return (
    <div className="task-field">
      <label htmlFor={id}>Reminder</label>
      <select
        id={id}
        className="task-input"
        value={shown}
        aria-describedby={describedBy}
        aria-invalid={problem !== null || undefined}
        onChange={(event) => onChange({ reminder: event.target.value as ReminderChoice })}
      >
        {choicesFor(task, shown).map((choice) => (
          <option
            key={choice}
            value={choice}
            disabled={noDay && minutesOf(choice) !== null && choice !== shown}
          >
            {choiceLabel(choice)}
          </option>
        ))}
      </select>
      {shown === "at" && (
        <>
          <label className="visually-hidden" htmlFor={`${id}-at`}>
            Remind at
          </label>
          <input
            id={`${id}-at`}
            type="datetime-local"
            className="task-input"
            value={draft.remindAt}
            min={min}
            aria-describedby={describedBy}
            aria-invalid={problem !== null || undefined}
            onChange={(event) => onChange({ reminder: "at", remindAt: event.target.value })}
          />
        </>
      )}
      {problem ? (
        <p id={`${id}-problem`} className="task-field-problem small">
          {problem}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="muted small">
            {hint}
          </p>
        )
      )}
    </div>
  );
}
