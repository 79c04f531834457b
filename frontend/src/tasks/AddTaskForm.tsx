/** Add a task directly, without asking the assistant. */
import { useId, useState, type FormEvent } from "react";

import { PlusIcon } from "../ui/icons";
import { useCreateTask } from "./useTasks";

export function AddTaskForm() {
  const [title, setTitle] = useState("");
  const create = useCreateTask();
  const inputId = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) return;
    create.mutate(trimmed, { onSuccess: () => setTitle("") });
  }

  return (
    <form className="add-task" onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        New task
      </label>
      <input
        id={inputId}
        className="add-task-input"
        placeholder="Add a task…"
        value={title}
        maxLength={200}
        onChange={(event) => setTitle(event.target.value)}
        data-add-task
      />
      <button
        type="submit"
        className="icon-button icon-button-filled"
        aria-label="Add task"
        title="Add task"
        disabled={create.isPending}
      >
        <PlusIcon />
      </button>
    </form>
  );
}
