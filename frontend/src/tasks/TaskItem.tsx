/** One task: a checkbox to complete or reopen it, inline rename, delete. */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

import type { Task } from "../api/types";
import { PencilIcon, TrashIcon } from "../ui/icons";
import { useDeleteTask, useUpdateTask } from "./useTasks";

interface Props {
  task: Task;
  /** Called after the task is deleted, to place keyboard focus. */
  onDeleted: (id: number) => void;
  /** Called when a focused checkbox is toggled: the task moves to the other section. */
  onMoved: (id: number) => void;
}

export function TaskItem({ task, onDeleted, onMoved }: Props) {
  const update = useUpdateTask();
  const remove = useDeleteTask();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(task.title);
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
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

  return (
    <li className={task.completed ? "task is-completed" : "task"}>
      <input
        id={checkboxId}
        type="checkbox"
        className="task-check"
        data-task={task.id}
        checked={checkedNow ?? task.completed}
        aria-describedby={task.description ? `${checkboxId}-description` : undefined}
        onChange={(event) => {
          const completed = event.target.checked;
          setCheckedNow(completed);
          if (document.activeElement === event.target) onMoved(task.id);
          update.mutate({ id: task.id, changes: { completed } }, { onSettled: () => setCheckedNow(null) });
        }}
      />
      <label htmlFor={checkboxId} className={editing ? "visually-hidden" : "task-title"}>
        {task.title}
        {task.description && (
          // Seen under the title; announced as the checkbox's description, not its name.
          <span id={`${checkboxId}-description`} className="task-description" aria-hidden="true">
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
      <span className="task-number">#{task.id}</span>
      <span className="task-actions">
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
    </li>
  );
}
