/**
 * The second press of a change that cannot be taken back from here (stop sharing, leave):
 * what it does, the change (focused, so the keyboard lands on it) and the way back.
 */
import type { ReactNode } from "react";

import { focusOnMount } from "../ui/focusOnMount";

interface Props {
  /** The question, as the group's accessible name ("Stop sharing?"). */
  label: string;
  confirm: ReactNode;
  cancel: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** What the change does. */
  children: ReactNode;
}

export function ConfirmAction({ label, confirm, cancel, pending, onConfirm, onCancel, children }: Props) {
  return (
    <div className="share-stop" role="group" aria-label={label}>
      <p className="small">{children}</p>
      <div className="settings-actions">
        <button
          ref={focusOnMount}
          type="button"
          className="button button-small share-danger"
          disabled={pending}
          onClick={onConfirm}
        >
          {confirm}
        </button>
        <button type="button" className="button button-small button-ghost" onClick={onCancel}>
          {cancel}
        </button>
      </div>
    </div>
  );
}
