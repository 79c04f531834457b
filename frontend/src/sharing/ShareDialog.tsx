/**
 * The Share dialog of one list, opened from the bar under the list switcher. Its owner
 * invites people by email, changes their roles, removes them or withdraws an invitation, and
 * can stop sharing; a member sees who else has the list and can leave it. A native modal
 * <dialog>, as Settings is: the browser traps focus, closes it on Escape and gives focus back.
 * Refusals are said inside it (a toast would sit behind the modal).
 */
import { useId, useRef, useState } from "react";

import type { TaskList } from "../api/types";
import { useSession } from "../auth/session";
import { CloseIcon } from "../ui/icons";
import { useModalDialog } from "../ui/useModalDialog";
import { InviteForm } from "./InviteForm";
import { sharedWithMe } from "./listAccess";
import { ManageMembers } from "./ManageMembers";
import { MemberView } from "./MemberView";
import "../settings/settings.css";
import "./sharing.css";

interface Props {
  list: TaskList;
  /** After the dialog has closed: unmount it. */
  onClose: () => void;
  /** The signed-in member left the list: it is gone from their lists. */
  onLeft: () => void;
}

export function ShareDialog({ list, onClose, onLeft }: Props) {
  const { dialog, backdrop } = useModalDialog();
  const emailInput = useRef<HTMLInputElement>(null);
  const [said, setSaid] = useState("");
  const me = useSession().session?.email ?? "";
  const titleId = useId();
  const owner = !sharedWithMe(list);

  function left() {
    dialog.current?.close();
    onLeft();
  }

  return (
    <dialog
      ref={dialog}
      className="settings-dialog share-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      // Escape closes the dialog only, not the drawer it was opened from.
      onKeyDown={(event) => {
        if (event.key === "Escape") event.stopPropagation();
      }}
      {...backdrop}
    >
      <div className="settings-frame">
        <div className="settings-header">
          <h2 id={titleId} className="settings-title share-title">
            {owner ? `Share “${list.name}”` : `Members of “${list.name}”`}
          </h2>
          <button type="button" className="icon-button" onClick={() => dialog.current?.close()}>
            <CloseIcon />
            <span className="visually-hidden">Close</span>
          </button>
        </div>
        <div className="settings-body">
          {owner ? (
            <>
              <section className="settings-section" aria-label="Invite">
                <InviteForm list={list.name} inputRef={emailInput} onInvited={setSaid} />
              </section>
              <ManageMembers
                list={list.name}
                me={me}
                onSaid={setSaid}
                onFocusLost={() => emailInput.current?.focus()}
              />
            </>
          ) : (
            <MemberView list={list} me={me} onLeft={left} />
          )}
        </div>
        <p className="visually-hidden" aria-live="polite">
          {said}
        </p>
      </div>
    </dialog>
  );
}
