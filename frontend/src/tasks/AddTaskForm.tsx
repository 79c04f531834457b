/** Add a task directly, without asking the assistant, to the view the panel shows. */
import { useId, useState, type FormEvent } from "react";

import { useAccountZone } from "../auth/useAuth";
import { PlusIcon } from "../ui/icons";
import { wallClockIn } from "./dueLabel";
import { newTaskFields, type TaskView } from "./taskView";
import { useCreateTask } from "./useTasks";

export function AddTaskForm({ view }: { view: TaskView }) {
  const [title, setTitle] = useState("");
  const create = useCreateTask(view);
  const zone = useAccountZone();
  const inputId = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) return;
    const today = wallClockIn(zone, Date.now()).date;
    create.mutate({ title: trimmed, ...newTaskFields(view, today) }, { onSuccess: () => setTitle("") });
  }

  return (
    <form className="add-task" onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        New task
      </label>
      <input
        id={inputId}
        className="add-task-input"
        placeholder={view.list === null ? "Add a task…" : `Add a task to ${view.list}…`}
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
