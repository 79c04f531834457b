/** How a task repeats ("every month on the 1st"), as the server says it, with an icon. */
import { RepeatIcon } from "../ui/icons";
import { SpokenAs } from "../ui/SpokenAs";

export function RepeatChip({ text, id }: { text: string | null | undefined; id: string }) {
  if (!text) return null;
  return (
    <span id={id} className="chip repeat-chip">
      <RepeatIcon width={13} height={13} />
      <SpokenAs spoken={`Repeats ${text}`}>{text}</SpokenAs>
    </span>
  );
}
