/** A task's priority as a flag and a word (colour alone would leave some people guessing). */
import type { Priority } from "../api/types";
import { FlagIcon } from "../ui/icons";
import { SpokenAs } from "../ui/SpokenAs";
import { PRIORITY_LABELS } from "./taskView";

export function PriorityFlag({ priority, id }: { priority: Priority; id: string }) {
  if (priority === "none") return null;
  return (
    <span id={id} className={`chip priority-flag is-${priority}`}>
      <FlagIcon width={13} height={13} />
      <SpokenAs spoken={`${PRIORITY_LABELS[priority]} priority`}>{PRIORITY_LABELS[priority]}</SpokenAs>
    </span>
  );
}
