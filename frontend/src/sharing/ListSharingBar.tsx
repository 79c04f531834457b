/**
 * Under the list switcher, for the list shown: how it is shared (with how many, or by whom and
 * whether the signed-in person may change it) and the button that opens its Share dialog.
 * Nothing for Inbox, which is never shared. Says when the list has gone (its owner removed
 * the person, stopped sharing or deleted it) so the panel can go back to every list.
 */
import { useEffect, useRef, useState } from "react";

import type { TaskList } from "../api/types";
import { useLists } from "../tasks/useLists";
import { UsersIcon } from "../ui/icons";
import { canShare, findList, sharedWithMe } from "./listAccess";
import { ShareDialog } from "./ShareDialog";
import "./sharing.css";

interface Props {
  /** The list shown; null: every list. */
  name: string | null;
  /** The list shown is no longer the person's (left here, or taken away elsewhere). */
  onGone: () => void;
}

function status(list: TaskList): string {
  if (list.role === "viewer") return `Shared by ${list.owner ?? "its owner"} · You can view this list`;
  if (list.role === "editor") return `Shared by ${list.owner ?? "its owner"} · You can edit this list`;
  const invited = list.invited ?? 0;
  const waiting = invited === 1 ? "1 invitation pending" : `${invited} invitations pending`;
  if (!list.shared) return invited > 0 ? `Only you so far · ${waiting}` : "Only you have this list";
  const shared = list.members === 1 ? "Shared with 1 person" : `Shared with ${list.members} people`;
  return invited > 0 ? `${shared} · ${waiting}` : shared;
}

export function ListSharingBar({ name, onGone }: Props) {
  const lists = useLists();
  const list = findList(lists.data, name);
  // Kept while the dialog is open, even if the list goes meanwhile.
  const [dialogFor, setDialogFor] = useState<TaskList | null>(null);
  const seen = useRef<string | null>(null);

  useEffect(() => {
    if (list) seen.current = list.name;
    else if (seen.current !== null && seen.current === name && lists.isSuccess) {
      seen.current = null;
      onGone();
    }
  }, [list, name, lists.isSuccess, onGone]);

  const shown = list && (canShare(list) || sharedWithMe(list)) ? list : null;
  return (
    <>
      {shown && (
        <div className={`list-sharing${shown.role === "viewer" ? " is-view-only" : ""}`}>
          <UsersIcon className="list-sharing-icon" width={16} height={16} />
          <p className="list-sharing-status small">{status(shown)}</p>
          <button
            type="button"
            className="button button-small button-ghost"
            aria-haspopup="dialog"
            aria-label={sharedWithMe(shown) ? `Members of ${shown.name}` : `Share ${shown.name}`}
            onClick={() => setDialogFor(shown)}
          >
            {sharedWithMe(shown) ? "Members" : "Share"}
          </button>
        </div>
      )}
      {dialogFor && (
        <ShareDialog
          list={list ?? dialogFor}
          onClose={() => setDialogFor(null)}
          onLeft={() => {
            setDialogFor(null);
            onGone();
          }}
        />
      )}
    </>
  );
}
