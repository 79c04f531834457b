/**
 * All / Inbox / Shopping / ...: which list the panel shows, each with its pending count, and
 * a mark on shared lists (whose, and "view only", said and shown as its tooltip).
 */
import { useRef, useState } from "react";

import type { TaskList } from "../api/types";
import { sharingWords } from "../sharing/listAccess";
import { PlusIcon, UsersIcon } from "../ui/icons";
import { SpokenAs } from "../ui/SpokenAs";
import { NewListForm } from "./NewListForm";
import { useLists } from "./useLists";

interface Props {
  /** null: every list. */
  selected: string | null;
  onSelect: (list: string | null) => void;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function ListButton({
  name,
  pending,
  pressed,
  onClick,
  sharing = null,
}: {
  name: string;
  pending: number | undefined;
  pressed: boolean;
  onClick: () => void;
  sharing?: { spoken: string; tooltip: string } | null;
}) {
  const spoken = [name, pending !== undefined && `${pending} pending`, sharing?.spoken].filter(Boolean);
  return (
    <button
      type="button"
      className="list-button"
      aria-pressed={pressed}
      onClick={onClick}
      data-list={name}
      title={sharing?.tooltip}
    >
      <SpokenAs spoken={spoken.join(", ")}>
        {name}
        {sharing && <UsersIcon className="list-shared" width={14} height={14} />}
        {pending !== undefined && <span className="list-count">{pending}</span>}
      </SpokenAs>
    </button>
  );
}

export function ListSwitcher({ selected, onSelect }: Props) {
  const lists = useLists();
  const [adding, setAdding] = useState(false);
  const group = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const all: TaskList[] = lists.data ?? [];
  const pendingEverywhere = lists.data ? all.reduce((sum, list) => sum + list.pending, 0) : undefined;

  function created(name: string) {
    setAdding(false);
    onSelect(name);
    requestAnimationFrame(() =>
      group.current?.querySelector<HTMLElement>(`[data-list="${CSS.escape(name)}"]`)?.focus(),
    );
  }

  function cancelled() {
    setAdding(false);
    requestAnimationFrame(() => addButton.current?.focus());
  }

  return (
    <div className="list-switcher">
      <div role="group" aria-label="Lists" className="list-buttons" ref={group}>
        <ListButton
          name="All"
          pending={pendingEverywhere}
          pressed={selected === null}
          onClick={() => onSelect(null)}
        />
        {all.map((list) => (
          <ListButton
            key={list.name}
            name={list.name}
            pending={list.pending}
            pressed={selected !== null && sameName(selected, list.name)}
            onClick={() => onSelect(list.name)}
            sharing={sharingWords(list)}
          />
        ))}
        <button
          ref={addButton}
          type="button"
          className="list-button list-add"
          aria-expanded={adding}
          onClick={() => setAdding((open) => !open)}
        >
          <PlusIcon />
          New list
        </button>
      </div>
      {lists.isError && <p className="muted small">Couldn't load your lists.</p>}
      {adding && <NewListForm onCreated={created} onCancel={cancelled} />}
    </div>
  );
}
