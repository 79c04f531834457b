/**
 * The empty conversation: a greeting and a few prompts to start with. Besides adding a task
 * and asking for help, it offers two of the things people do not guess a todo chat can do
 * (dates, lists, tags, repeats, reminders), two others each time a new chat opens.
 */
import { useState } from "react";

import { Logo } from "../ui/Logo";

export const FIRST_PROMPT = "Add buy groceries";
export const LAST_PROMPT = "What can you do?";
export const ROTATING_PROMPTS = [
  "Remind me to call mom tomorrow at 9",
  "What's due this week?",
  "Add milk to my Shopping list",
  "Add water the plants every Monday",
  "What lists do I have?",
  "Add call dad #family",
] as const;

const SHOWN_KEY = "todo-chatbot.prompts-shown";

/** The prompts for the `turn`th empty chat on this browser: two rotating ones a time. */
export function promptsFor(turn: number): string[] {
  const at = (turn * 2) % ROTATING_PROMPTS.length;
  const pair = [ROTATING_PROMPTS[at], ROTATING_PROMPTS[(at + 1) % ROTATING_PROMPTS.length]];
  return [FIRST_PROMPT, ...pair.filter((prompt) => prompt !== undefined), LAST_PROMPT];
}

/** Counts the empty chats shown here, so the next one offers the next two prompts. */
function nextTurn(): number {
  try {
    const turn = Number(localStorage.getItem(SHOWN_KEY) ?? "0") || 0;
    localStorage.setItem(SHOWN_KEY, String(turn + 1));
    return turn;
  } catch {
    return 0;
  }
}

interface Props {
  onPick: (prompt: string) => void;
  disabled: boolean;
}

export function SuggestedPrompts({ onPick, disabled }: Props) {
  const [prompts] = useState(() => promptsFor(nextTurn()));
  return (
    <div className="empty-chat">
      <Logo size={44} />
      <h2 className="empty-title">What needs doing?</h2>
      <p className="empty-text">
        Tell me in your own words: tasks with dates and times, lists, tags, repeats and reminders; and
        &ldquo;undo&rdquo; takes back my last change. Try one of these:
      </p>
      <ul className="prompts" aria-label="Suggested prompts">
        {prompts.map((prompt) => (
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
