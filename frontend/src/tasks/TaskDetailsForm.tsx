/**
 * Edit a task's due day and time, reminder, priority, list, tags and repeat in place; each can
 * be cleared. A save closes the form at once (the edit shows optimistically), except one that
 * sets a reminder: the server judges those (in the future? a due date to count from?), so the
 * form waits for its answer and shows a refusal in place.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";

import { describeError } from "../api/errors";
import type { Priority, Task } from "../api/types";
import { useAccountZone } from "../auth/useAuth";
import { movableLists } from "../sharing/listAccess";
import { useCurrentMinute } from "./clock";
import { ReminderField } from "./ReminderField";
import { localInput } from "./reminderChoice";
import { detailChanges, draftOf, reminderProblem, shownReminder, type DetailsDraft } from "./taskDetails";
import { PRIORITIES, PRIORITY_LABELS } from "./taskView";
import { useLists } from "./useLists";
import { useUpdateTask } from "./useTasks";

interface Props {
  task: Task;
  /** Saved or cancelled: the form goes away. */
  onClose: () => void;
}

/**
 * The lists the task can move to (its owner's, that the person may add to), and the task's own
 * even if the list query hasn't caught up with it.
 */
function useListNames(current: string): string[] {
  const lists = useLists();
  const names = movableLists(lists.data ?? [], current).map((list) => list.name);
  return names.some((name) => name.toLowerCase() === current.toLowerCase()) ? names : [current, ...names];
}

export function TaskDetailsForm({ task, onClose }: Props) {
  const update = useUpdateTask();
  const updateHere = useUpdateTask({ toastErrors: false });
  const zone = useAccountZone();
  const now = useCurrentMinute();
  const [draft, setDraft] = useState<DetailsDraft>(() => draftOf(task, zone));
  const [refused, setRefused] = useState<string | null>(null);
  const listNames = useListNames(draft.list);
  const dateInput = useRef<HTMLInputElement>(null);
  const id = useId();
  const timeWithoutDay = draft.time !== "" && draft.date === "";
  const reminderIssue = reminderProblem(draft, zone, now);
  const blocked = timeWithoutDay || reminderIssue !== null || updateHere.isPending;

  useEffect(() => dateInput.current?.focus(), []);

  const set = (changes: Partial<DetailsDraft>) => setDraft((current) => ({ ...current, ...changes }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blocked) return;
    const changes = detailChanges(task, draft, zone);
    if ("remind_at" in changes || "remind_before" in changes) {
      setRefused(null);
      updateHere.mutate(
        { id: task.id, changes },
        { onSuccess: onClose, onError: (error) => setRefused(`Couldn't save: ${describeError(error)}`) },
      );
      return;
    }
    if (Object.keys(changes).length > 0) update.mutate({ id: task.id, changes });
    onClose();
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation(); // not the drawer's Escape
    onClose();
  }

  return (
    <form
      className="task-details"
      aria-label={`Details of ${task.title}`}
      onSubmit={submit}
      onKeyDown={onKeyDown}
    >
      <fieldset className="details-due">
        <legend>Due</legend>
        <div className="details-due-fields">
          <label className="visually-hidden" htmlFor={`${id}-date`}>
            Due date
          </label>
          <input
            ref={dateInput}
            id={`${id}-date`}
            type="date"
            className="task-input"
            value={draft.date}
            onChange={(event) => set({ date: event.target.value })}
          />
          <label className="visually-hidden" htmlFor={`${id}-time`}>
            Due time
          </label>
          <input
            id={`${id}-time`}
            type="time"
            className="task-input"
            value={draft.time}
            aria-describedby={timeWithoutDay ? `${id}-time-problem` : undefined}
            aria-invalid={timeWithoutDay || undefined}
            onChange={(event) => set({ time: event.target.value })}
          />
          <button
            type="button"
            className="button button-small button-ghost"
            disabled={draft.date === "" && draft.time === ""}
            onClick={() => {
              set({ date: "", time: "" });
              dateInput.current?.focus();
            }}
          >
            Clear due date
          </button>
        </div>
        {timeWithoutDay && (
          <p id={`${id}-time-problem`} className="task-field-problem small">
            Pick a day for that time, or clear it.
          </p>
        )}
      </fieldset>
      <ReminderField
        id={`${id}-reminder`}
        task={task}
        draft={draft}
        shown={shownReminder(task, draft)}
        problem={reminderIssue}
        min={localInput(now, zone)}
        onChange={(changes) => {
          setRefused(null);
          set(changes);
        }}
      />
      <div className="details-row">
        <div className="task-field">
          <label htmlFor={`${id}-priority`}>Priority</label>
          <select
            id={`${id}-priority`}
            className="task-input"
            value={draft.priority}
            onChange={(event) => set({ priority: event.target.value as Priority })}
          >
            {PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {PRIORITY_LABELS[priority]}
              </option>
            ))}
          </select>
        </div>
        <div className="task-field">
          <label htmlFor={`${id}-list`}>List</label>
          <select
            id={`${id}-list`}
            className="task-input"
            value={draft.list}
            onChange={(event) => set({ list: event.target.value })}
          >
            {listNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="task-field">
        <label htmlFor={`${id}-tags`}>Tags</label>
        <input
          id={`${id}-tags`}
          className="task-input"
          placeholder="e.g. home errands"
          aria-describedby={`${id}-tags-hint`}
          value={draft.tags}
          onChange={(event) => set({ tags: event.target.value })}
        />
        <p id={`${id}-tags-hint`} className="muted small">
          Words separated by spaces; empty for none.
        </p>
      </div>
      <div className="task-field">
        <label htmlFor={`${id}-repeat`}>Repeats</label>
        <input
          id={`${id}-repeat`}
          className="task-input"
          placeholder="e.g. every monday"
          aria-describedby={`${id}-repeat-hint`}
          value={draft.repeat}
          onChange={(event) => set({ repeat: event.target.value })}
        />
        <p id={`${id}-repeat-hint`} className="muted small">
          In words: every day, every other tuesday, every 1st of the month, 3 days after I finish it; empty
          for never.
        </p>
      </div>
      {refused && (
        <p role="alert" className="task-field-problem small">
          {refused}
        </p>
      )}
      <div className="details-actions">
        <button type="button" className="button button-small button-ghost" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button-small button-primary" disabled={blocked}>
          {updateHere.isPending ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}
