/**
 * The owner's side of the Share dialog: who has the list and who is invited (pending), each
 * with a role to change and Remove (or Withdraw) after a second press, then Stop sharing,
 * likewise asked twice.
 */
import { useId, useState } from "react";

import { describeError } from "../api/errors";
import { ROLE_LABELS } from "./InviteForm";
import { useChangeRole, useMembers, useRemoveMember, useStopSharing, type Membership } from "./useSharing";
import { focusOnMount } from "../ui/focusOnMount";
import { ConfirmAction } from "./ConfirmAction";

interface Props {
  list: string;
  me: string;
  onSaid: (said: string) => void;
  /** The focused control went with what it removed: focus somewhere that stays. */
  onFocusLost: () => void;
}

/** Focuses an element as it appears: the next control after the one that went away. */
const pending = (member: Membership) => member.status === "pending";

export function ManageMembers({ list, me, onSaid, onFocusLost }: Props) {
  const members = useMembers(list);
  const changeRole = useChangeRole(list);
  const remove = useRemoveMember(list);
  const stop = useStopSharing(list);
  // A member's id, or "all" for Stop sharing: the action asked to be confirmed.
  const [confirming, setConfirming] = useState<number | "all" | null>(null);
  // Where focus goes back after "Keep".
  const [kept, setKept] = useState<number | "all" | null>(null);
  const all = members.data ?? [];
  const headingId = useId();
  const failed = remove.isError
    ? `Couldn't remove them. ${describeError(remove.error)}`
    : changeRole.isError
      ? `Couldn't change the role. ${describeError(changeRole.error)}`
      : stop.isError
        ? `Couldn't stop sharing. ${describeError(stop.error)}`
        : members.isError
          ? `Couldn't load who has this list. ${describeError(members.error)}`
          : null;

  function keep(what: number | "all") {
    setConfirming(null);
    setKept(what);
  }

  function ask(what: number | "all") {
    setKept(null);
    setConfirming(what);
  }

  function removeMember(member: Membership) {
    changeRole.reset();
    stop.reset();
    remove.mutate(member.id, {
      onSuccess: () => {
        setConfirming(null);
        onSaid(pending(member) ? `Invitation to ${member.email} withdrawn.` : `${member.email} removed.`);
        onFocusLost();
      },
    });
  }

  function stopSharing() {
    changeRole.reset();
    remove.reset();
    stop.mutate(undefined, {
      onSuccess: () => {
        setConfirming(null);
        onSaid(`“${list}” is no longer shared.`);
        onFocusLost();
      },
    });
  }

  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h3 id={headingId}>People with access</h3>
      {members.isPending && <p className="muted small">Loading…</p>}
      <ul className="share-members" aria-label="People with access">
        <li className="share-member">
          <span className="share-member-name">
            <span className="share-member-email">{me}</span>
            <span className="muted small">You, the owner</span>
          </span>
        </li>
        {all.map((member) => (
          <li key={member.id} className="share-member">
            <span className="share-member-name">
              <span className="share-member-email">{member.email}</span>
              {pending(member) && <span className="share-pending small">Invited, not answered yet</span>}
            </span>
            <label className="visually-hidden" htmlFor={`share-role-${member.id}`}>
              Role for {member.email}
            </label>
            <select
              id={`share-role-${member.id}`}
              className="settings-input share-role"
              value={member.role}
              disabled={changeRole.isPending && changeRole.variables?.id === member.id}
              onChange={(event) => {
                const role = event.target.value === "viewer" ? "viewer" : "editor";
                remove.reset();
                stop.reset();
                changeRole.mutate(
                  { id: member.id, role },
                  {
                    onSuccess: () =>
                      onSaid(`${member.email} is now ${role === "editor" ? "an editor" : "a viewer"}.`),
                  },
                );
              }}
            >
              <option value="editor">{ROLE_LABELS.editor}</option>
              <option value="viewer">{ROLE_LABELS.viewer}</option>
            </select>
            {confirming === member.id ? (
              <span className="share-confirm">
                <button
                  ref={focusOnMount}
                  type="button"
                  className="button button-small share-danger"
                  disabled={remove.isPending}
                  onClick={() => removeMember(member)}
                >
                  {pending(member) ? "Withdraw now" : `Remove ${member.email} now`}
                </button>
                <button
                  type="button"
                  className="button button-small button-ghost"
                  onClick={() => keep(member.id)}
                >
                  Keep
                </button>
              </span>
            ) : (
              <button
                ref={kept === member.id ? focusOnMount : undefined}
                type="button"
                className="button button-small button-ghost"
                aria-label={
                  pending(member) ? `Withdraw the invitation to ${member.email}` : `Remove ${member.email}`
                }
                onClick={() => ask(member.id)}
              >
                {pending(member) ? "Withdraw" : "Remove"}
              </button>
            )}
          </li>
        ))}
      </ul>
      {members.isSuccess && all.length === 0 && (
        <p className="muted small">Not shared yet: only you have this list.</p>
      )}
      {failed && (
        <p role="alert" className="settings-problem small">
          {failed}
        </p>
      )}
      {all.length > 0 &&
        (confirming === "all" ? (
          <ConfirmAction
            label="Stop sharing?"
            confirm="Stop sharing now"
            cancel="Keep sharing"
            pending={stop.isPending}
            onConfirm={stopSharing}
            onCancel={() => keep("all")}
          >
            Everyone above loses the list at once, and the invitations not answered yet are withdrawn. Its
            tasks stay yours.
          </ConfirmAction>
        ) : (
          <div className="settings-actions">
            <button
              ref={kept === "all" ? focusOnMount : undefined}
              type="button"
              className="button button-small button-ghost share-danger-text"
              onClick={() => ask("all")}
            >
              Stop sharing
            </button>
          </div>
        ))}
    </section>
  );
}
