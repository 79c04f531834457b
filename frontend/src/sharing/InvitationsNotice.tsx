/**
 * A slim notice under the header while invitations to the signed-in person's email wait:
 * each says which list, who invited them and as what, with Accept and Decline. An
 * invitation link (`/?invitation=<id>`) puts that one first, marked and focused, or says why
 * it isn't there; the link then leaves the address. What an answer did stays said (and
 * focusable) until dismissed, since the invitation goes with it.
 */
import { useEffect, useRef, useState } from "react";

import { describeError } from "../api/errors";
import { CloseIcon, UsersIcon } from "../ui/icons";
import { forgetInvitationLink, linkedInvitation } from "./invitationLink";
import { useAcceptInvitation, useDeclineInvitation, useInvitations } from "./useInvitations";
import type { Membership } from "./useSharing";
import "./sharing.css";
import { focusOnMount } from "../ui/focusOnMount";

const asWhat = (invitation: Membership) => (invitation.role === "viewer" ? "a viewer" : "an editor");

export function InvitationsNotice() {
  const invitations = useInvitations();
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  // Read once: the address loses the link as soon as the app has it.
  const [linked, setLinked] = useState(linkedInvitation);
  const [note, setNote] = useState<string | null>(null);
  const root = useRef<HTMLElement>(null);
  const busy = accept.isPending || decline.isPending;

  useEffect(() => forgetInvitationLink(), []);

  const all = invitations.data ?? [];
  const shown = [...all].sort((a, b) => Number(b.id === linked) - Number(a.id === linked));
  const linkedMissing = linked !== null && invitations.isSuccess && !all.some((i) => i.id === linked);
  const linkedFailed = linked !== null && invitations.isError;

  /** Before answering: the link has done its job, and focus is noted (the card will go). */
  function answering(invitation: Membership): boolean {
    if (invitation.id === linked) setLinked(null);
    setNote(null);
    return root.current?.contains(document.activeElement) ?? false;
  }

  /** The card answered is gone: focus the next one's Accept, else the note saying what happened. */
  function answered(said: string, hadFocus: boolean) {
    setNote(said);
    if (!hadFocus) return;
    requestAnimationFrame(() => {
      const next =
        root.current?.querySelector<HTMLElement>("[data-accept]") ??
        root.current?.querySelector<HTMLElement>("[data-note-dismiss]");
      next?.focus();
    });
  }

  function onAccept(invitation: Membership) {
    const hadFocus = answering(invitation);
    accept.mutate(invitation.id, {
      onSuccess: (list) => answered(`You joined “${list.name}”: it's in your lists now.`, hadFocus),
    });
  }

  function onDecline(invitation: Membership) {
    const hadFocus = answering(invitation);
    decline.mutate(invitation.id, {
      onSuccess: () => answered(`Declined the invitation to “${invitation.list}”.`, hadFocus),
    });
  }

  const visible = shown.length > 0 || note !== null || linkedMissing || linkedFailed;
  return (
    <>
      {visible && (
        <section ref={root} className="invitations" aria-label="Invitations">
          {shown.length > 0 && (
            <ul className="invitation-list">
              {shown.map((invitation) => {
                const isLinked = invitation.id === linked;
                return (
                  <li
                    key={invitation.id}
                    ref={isLinked ? focusOnMount : undefined}
                    tabIndex={isLinked ? -1 : undefined}
                    className={`invitation${isLinked ? " is-linked" : ""}`}
                    aria-label={isLinked ? `Invitation to ${invitation.list}` : undefined}
                  >
                    <UsersIcon className="invitation-icon" width={16} height={16} />
                    <p className="invitation-text">
                      {isLinked && <span className="invitation-kicker">You're invited · </span>}
                      <strong className="invitation-who">{invitation.owner}</strong> invited you to{" "}
                      <strong>{invitation.list}</strong> as {asWhat(invitation)}
                      {invitation.role === "viewer" ? " (view only)." : "."}
                    </p>
                    <span className="invitation-actions">
                      <button
                        type="button"
                        className="button button-small button-primary"
                        aria-label={`Accept the invitation to ${invitation.list}`}
                        disabled={busy}
                        onClick={() => onAccept(invitation)}
                        data-accept
                      >
                        Accept
                      </button>
                      <button
                        type="button"
                        className="button button-small button-ghost"
                        aria-label={`Decline the invitation to ${invitation.list}`}
                        disabled={busy}
                        onClick={() => onDecline(invitation)}
                      >
                        Decline
                      </button>
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
          {(linkedMissing || linkedFailed) && (
            <div className="invitation-note" role="status">
              <p>
                {linkedFailed
                  ? `Couldn't open the invitation. ${describeError(invitations.error)}`
                  : "That invitation isn't waiting for this account: it was answered or withdrawn already, or sent to another email."}
              </p>
              <button
                ref={focusOnMount}
                type="button"
                className="icon-button"
                aria-label="Dismiss"
                onClick={() => setLinked(null)}
              >
                <CloseIcon />
              </button>
            </div>
          )}
          {note !== null && (
            <div className="invitation-note">
              <p>{note}</p>
              <button
                type="button"
                className="icon-button"
                aria-label="Dismiss"
                onClick={() => setNote(null)}
                data-note-dismiss
              >
                <CloseIcon />
              </button>
            </div>
          )}
        </section>
      )}
      <p className="visually-hidden" aria-live="polite">
        {note ?? ""}
      </p>
    </>
  );
}
