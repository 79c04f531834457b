/** Invite someone to a list by email, as an editor (the default) or a viewer. */
import { useId, useState, type FormEvent, type RefObject } from "react";

import { describeError } from "../api/errors";
import { useInvite, type MemberRole } from "./useSharing";

export const ROLE_LABELS: Readonly<Record<MemberRole, string>> = { editor: "Editor", viewer: "Viewer" };

interface Props {
  list: string;
  inputRef: RefObject<HTMLInputElement | null>;
  /** What to announce once the invitation is sent. */
  onInvited: (said: string) => void;
}

export function InviteForm({ list, inputRef, onInvited }: Props) {
  const invite = useInvite(list);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>("editor");
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!address) return;
    invite.mutate(
      { email: address, role },
      {
        onSuccess: (invited) => {
          setEmail("");
          onInvited(`Invited ${invited.email} as ${invited.role === "editor" ? "an editor" : "a viewer"}.`);
          inputRef.current?.focus();
        },
      },
    );
  }

  return (
    <form className="share-invite" onSubmit={submit} aria-label="Invite someone">
      <div className="settings-field share-invite-email">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          ref={inputRef}
          id={`${id}-email`}
          type="email"
          className="settings-input"
          autoComplete="email"
          required
          maxLength={320}
          placeholder="name@example.com"
          value={email}
          aria-describedby={`${id}-roles`}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div className="settings-field">
        <label htmlFor={`${id}-role`}>Role</label>
        <select
          id={`${id}-role`}
          className="settings-input"
          value={role}
          onChange={(event) => setRole(event.target.value as MemberRole)}
        >
          <option value="editor">{ROLE_LABELS.editor}</option>
          <option value="viewer">{ROLE_LABELS.viewer}</option>
        </select>
      </div>
      <button
        type="submit"
        className="button button-small button-primary share-invite-button"
        disabled={invite.isPending || !email.trim()}
      >
        Invite
      </button>
      <p id={`${id}-roles`} className="muted small share-invite-hint">
        Editors add, complete, change and delete tasks; viewers only see them.
      </p>
      {invite.isError && (
        <p role="alert" className="settings-problem small share-invite-hint">
          Couldn't invite {invite.variables?.email ?? "them"}. {describeError(invite.error)}
        </p>
      )}
    </form>
  );
}
