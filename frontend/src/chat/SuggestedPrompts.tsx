/** The empty conversation: a greeting and a few prompts to start with. */
import { Logo } from "../ui/Logo";

export const SUGGESTED_PROMPTS = [
  "Add buy groceries",
  "What's pending?",
  "What's on my list?",
  "What can you do?",
] as const;

interface Props {
  onPick: (prompt: string) => void;
  disabled: boolean;
}

export function SuggestedPrompts({ onPick, disabled }: Props) {
  return (
    <div className="empty-chat">
      <Logo size={44} />
      <h2 className="empty-title">What needs doing?</h2>
      <p className="empty-text">
        Tell me in your own words: add, list, complete, rename or delete tasks. Try one of these:
      </p>
      <ul className="prompts" aria-label="Suggested prompts">
        {SUGGESTED_PROMPTS.map((prompt) => (
          <li key={prompt}>
            <button type="button" className="prompt" onClick={() => onPick(prompt)} disabled={disabled}>
              {prompt}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
