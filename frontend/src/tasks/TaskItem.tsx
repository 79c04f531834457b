/**
 * One task: a checkbox to complete or reopen it, inline rename, delete; its due chip,
 * priority, list and tags, and a details form to change them. On a shared list, who added and
 * completed it; on a list the person may only view, nothing to change it with.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

import type { Task } from "../api/types";
import { useListAccess } from "../sharing/listAccess";
import { TaskAuthors, authorsText } from "../sharing/TaskAuthors";
import { PencilIcon, SlidersIcon, TrashIcon } from "../ui/icons";
import { SpokenAs } from "../ui/SpokenAs";
import { DueChip } from "./DueChip";
import { PriorityFlag } from "./PriorityFlag";
import { ReminderChip } from "./ReminderChip";
import { RepeatChip } from "./RepeatChip";
import { TagChips } from "./TagChips";
import { TaskDetailsForm } from "./TaskDetailsForm";
import { takeTaskLink } from "./taskLink";
import { useDeleteTask, useUpdateTask } from "./useTasks";

const INBOX = "Inbox";

interface Props {
  task: Task;
  /** The panel shows every list: name the task's own, unless it's the Inbox. */
  showList: boolean;
  activeTag: string | null;
  onTagPicked: (tag: string | null) => void;
  /** Called after the task is deleted, to place keyboard focus. */
  onDeleted: (id: number) => void;
  /** Called when a focused checkbox is toggled: the task moves to the other section. */
  onMoved: (id: number) => void;
}

export function TaskItem({ task, showList, activeTag, onTagPicked, onDeleted, onMoved }: Props) {
  const update = useUpdateTask();
  const remove = useDeleteTask();
  const { editable } = useListAccess(task.list);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(task.title);
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const detailsButton = useRef<HTMLButtonElement>(null);
  // Opened by a reminder notification's link (/?task=<n>): its details show at once.
  const [editingDetails, setEditingDetails] = useState(() => takeTaskLink(task.id));
  const item = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (editingDetails) item.current?.scrollIntoView?.({ block: "nearest" });
    // Only as it mounts: a link opened the details, so they are brought into view once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const finished = useRef(false);
  const checkboxId = useId();
  // Shown from the click on, before the optimistic cache update lands a moment later.
  const [checkedNow, setCheckedNow] = useState<boolean | null>(null);

  useEffect(() => {
    if (editing) {
      input.current?.focus();
      input.current?.select();
    }
  }, [editing]);

  function startEditing() {
    finished.current = false;
    setDraft(task.title);
    setEditing(true);
  }

  function stopEditing(save: boolean, refocus: boolean) {
    if (finished.current) return;
    finished.current = true;
    const title = draft.trim();
    if (save && title && title !== task.title) update.mutate({ id: task.id, changes: { title } });
    setEditing(false);
    if (refocus) requestAnimationFrame(() => renameButton.current?.focus());
  }

  function closeDetails() {
    setEditingDetails(false);
    requestAnimationFrame(() => detailsButton.current?.focus());
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") {
      event.preventDefault();
      stopEditing(true, true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      stopEditing(false, true);
    }
  }

  const descriptionId = `${checkboxId}-description`;
  const dueId = `${checkboxId}-due`;
  const priorityId = `${checkboxId}-priority`;
  const repeatId = `${checkboxId}-repeat`;
  const reminderId = `${checkboxId}-reminder`;
  const authorsId = `${checkboxId}-authors`;
  const viewOnlyId = `${checkboxId}-view-only`;
  const authored = authorsText(task, null) !== null;
  const reminding = Boolean(task.remind_at) && !task.completed;
  // What a screen reader says after the title: the note, when it's due and its reminder, how
  // it repeats, how urgent.
  const describedBy = [
    task.description && descriptionId,
    task.due_date && dueId,
    reminding && reminderId,
    task.repeat_text && repeatId,
    task.priority !== "none" && priorityId,
    authored && authorsId,
    !editable && viewOnlyId,
  ].filter(Boolean);
  const tags = task.tags ?? [];
  const listShown = showList && task.list !== INBOX;
  const hasMeta =
    Boolean(task.due_date) ||
    reminding ||
    Boolean(task.repeat_text) ||
    task.priority !== "none" ||
    tags.length > 0 ||
    listShown ||
    authored ||
    (!editable && showList);

  return (
    <li
      ref={item}
      className={`task${task.completed ? " is-completed" : ""}${editingDetails ? " is-editing" : ""}`}
    >
      <input
        id={checkboxId}
        type="checkbox"
        className="task-check"
        data-task={task.id}
        checked={checkedNow ?? task.completed}
        disabled={!editable}
        aria-describedby={describedBy.length > 0 ? describedBy.join(" ") : undefined}
        onChange={(event) => {
          const completed = event.target.checked;
          setCheckedNow(completed);
          if (document.activeElement === event.target) onMoved(task.id);
          update.mutate({ id: task.id, changes: { completed } }, { onSettled: () => setCheckedNow(null) });
        }}
      />
      <div className="task-body">
        <label htmlFor={checkboxId} className={editing ? "visually-hidden" : "task-title"}>
          {task.title}
          {task.description && (
            // Seen under the title; announced as the checkbox's description, not its name.
            <span id={descriptionId} className="task-description" aria-hidden="true">
              {task.description}
            </span>
          )}
        </label>
        {editing && (
          <input
            ref={input}
            className="task-rename"
            aria-label={`New title for ${task.title}`}
            value={draft}
            maxLength={200}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            onBlur={() => stopEditing(true, false)}
          />
        )}
        {!editable && !showList && (
          // The list's bar says so already; a screen reader hears it with each task.
          <span id={viewOnlyId} className="visually-hidden">
            View only
          </span>
        )}
      </div>
      <span className="task-number">#{task.id}</span>
      <span className="task-actions" hidden={!editable}>
        <button
          ref={detailsButton}
          type="button"
          className="icon-button"
          aria-label={`Edit details of ${task.title}`}
          aria-expanded={editingDetails}
          title="Due date, reminder, priority, list, tags"
          onClick={() => (editingDetails ? closeDetails() : setEditingDetails(true))}
        >
          <SlidersIcon />
        </button>
        <button
          ref={renameButton}
          type="button"
          className="icon-button"
          aria-label={`Rename ${task.title}`}
          title="Rename"
          onClick={startEditing}
          hidden={editing}
        >
          <PencilIcon />
        </button>
        <button
          type="button"
          className="icon-button icon-button-danger"
          aria-label={`Delete ${task.title}`}
          title="Delete"
          onClick={() => {
            remove.mutate(task.id);
            onDeleted(task.id);
          }}
        >
          <TrashIcon />
        </button>
      </span>
      {hasMeta && (
        <div className="task-meta">
          <DueChip task={task} id={dueId} />
          <ReminderChip task={task} id={reminderId} />
          <RepeatChip text={task.repeat_text} id={repeatId} />
          <PriorityFlag priority={task.priority} id={priorityId} />
          {listShown && (
            <span className="task-list-name">
              <SpokenAs spoken={`List: ${task.list}`}>{task.list}</SpokenAs>
            </span>
          )}
          <TagChips tags={tags} activeTag={activeTag} onPick={onTagPicked} />
          <TaskAuthors task={task} id={authorsId} />
          {!editable && showList && (
            <span id={viewOnlyId} className="task-authors">
              View only
            </span>
          )}
        </div>
      )}
      {editingDetails && editable && <TaskDetailsForm task={task} onClose={closeDetails} />}
    </li>
  );
}
