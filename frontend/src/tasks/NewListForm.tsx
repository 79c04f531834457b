/** Name a new list; Escape or Cancel puts it away. */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";

import { useCreateList } from "./useLists";

interface Props {
  onCreated: (name: string) => void;
  onCancel: () => void;
}

export function NewListForm({ onCreated, onCancel }: Props) {
  const [name, setName] = useState("");
  const create = useCreateList();
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();

  useEffect(() => input.current?.focus(), []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    create.mutate(trimmed, { onSuccess: (list) => onCreated(list.name) });
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation(); // not the drawer's Escape
    onCancel();
  }

  return (
    <form className="new-list" onSubmit={submit} onKeyDown={onKeyDown}>
      <label htmlFor={inputId} className="visually-hidden">
        List name
      </label>
      <input
        ref={input}
        id={inputId}
        className="task-input"
        placeholder="List name"
        value={name}
        maxLength={60}
        onChange={(event) => setName(event.target.value)}
      />
      <button type="submit" className="button button-small button-primary" disabled={create.isPending}>
        Create
      </button>
      <button type="button" className="button button-small button-ghost" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
