/**
 * A member's side of the Share dialog: whose list it is, what they may do with it, who else
 * has it (read only), and Leave, after a second press.
 */
import { useId, useState } from "react";

import { describeError } from "../api/errors";
import type { TaskList } from "../api/types";
import { useLeaveList, useMembers } from "./useSharing";
import { focusOnMount } from "../ui/focusOnMount";
import { ConfirmAction } from "./ConfirmAction";

interface Props {
  list: TaskList;
  me: string;
  /** Left: the list is no longer theirs. */
  onLeft: () => void;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function MemberView({ list, me, onLeft }: Props) {
  const members = useMembers(list.name);
  const leave = useLeaveList(list.name);
  const [confirming, setConfirming] = useState(false);
  const [kept, setKept] = useState(false);
  const headingId = useId();
  const accepted = (members.data ?? []).filter((member) => member.status === "accepted");
  const mine = members.data?.find((member) => same(member.email, me));
  const owner = list.owner ?? accepted[0]?.owner ?? "its owner";
  const failed = leave.isError
    ? `Couldn't leave the list. ${describeError(leave.error)}`
    : members.isError
      ? `Couldn't load who has this list. ${describeError(members.error)}`
      : null;

  return (
    <>
      <section className="settings-section" aria-labelledby={headingId}>
        <p className="small">
          {list.role === "viewer"
            ? `You can view this list: ${owner} shared it with you to see, not to change.`
            : `You can edit this list: ${owner} shared it with you to add, complete, change and delete its tasks.`}
        </p>
        <h3 id={headingId}>People with access</h3>
        {members.isPending && <p className="muted small">Loading…</p>}
        <ul className="share-members" aria-label="People with access">
          <li className="share-member">
            <span className="share-member-name">
              <span className="share-member-email">{owner}</span>
              <span className="muted small">Owner</span>
            </span>
          </li>
          {accepted.map((member) => (
            <li key={member.id} className="share-member">
              <span className="share-member-name">
                <span className="share-member-email">{member.email}</span>
                <span className="muted small">
                  {same(member.email, me) ? "You, " : ""}
                  {member.role === "editor" ? "editor" : "viewer"}
                </span>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section className="settings-section" aria-label="Leave">
        {failed && (
          <p role="alert" className="settings-problem small">
            {failed}
          </p>
        )}
        {confirming && mine ? (
          <ConfirmAction
            label="Leave the list?"
            confirm={<>Leave “{list.name}” now</>}
            cancel="Stay"
            pending={leave.isPending}
            onConfirm={() => leave.mutate(mine.id, { onSuccess: onLeft })}
            onCancel={() => {
              setConfirming(false);
              setKept(true);
            }}
          >
            Its tasks leave your lists, with any reminders you set on them. {owner} can invite you again.
          </ConfirmAction>
        ) : (
          <div className="settings-actions">
            <button
              ref={kept ? focusOnMount : undefined}
              type="button"
              className="button button-small button-ghost share-danger-text"
              disabled={!mine}
              onClick={() => {
                setKept(false);
                setConfirming(true);
              }}
            >
              Leave list
            </button>
          </div>
        )}
      </section>
    </>
  );
}
