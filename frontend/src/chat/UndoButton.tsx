/** Under the last reply that changed tasks: one click sends "undo", as if typed. */
import { UndoIcon } from "../ui/icons";

/** What the button sends: the word the assistant takes for "reverse the last change". */
export const UNDO_MESSAGE = "undo";

interface Props {
  onUndo: () => void;
  disabled: boolean;
}

export function UndoButton({ onUndo, disabled }: Props) {
  return (
    <button
      type="button"
      className="reply-undo"
      aria-label="Undo this change"
      onClick={onUndo}
      disabled={disabled}
    >
      <UndoIcon width="14" height="14" />
      Undo
    </button>
  );
}
