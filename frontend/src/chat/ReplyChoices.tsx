/** The replies an assistant's question offers, as buttons: a click sends one as the next message. */
import type { Choice } from "../api/types";

interface Props {
  choices: readonly Choice[];
  onChoose: (message: string) => void;
  disabled: boolean;
}

export function ReplyChoices({ choices, onChoose, disabled }: Props) {
  if (choices.length === 0) return null;
  return (
    <div role="group" aria-label="Suggested replies" className="reply-choices">
      {choices.map((choice, index) => (
        <button
          key={index}
          type="button"
          className="reply-choice"
          onClick={() => onChoose(choice.message)}
          disabled={disabled}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}
