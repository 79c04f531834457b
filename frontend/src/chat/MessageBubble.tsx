/**
 * One message: "You" on the right, "Assistant" on the left with what its tools did and, under
 * the last reply, the replies its question offers and the button that undoes its change.
 */
import type { Choice, ToolCallRecord } from "../api/types";
import { MessageText } from "./MessageText";
import type { Role } from "./messages";
import { ReplyChoices } from "./ReplyChoices";
import { UNDO_MESSAGE, UndoButton } from "./UndoButton";
import { summarizeToolCall } from "./toolCallSummary";

interface Props {
  role: Role;
  text: string;
  toolCalls?: readonly ToolCallRecord[];
  streaming?: boolean;
  /** Shown as buttons while they still apply (the thread's last message, no turn in flight). */
  choices?: readonly Choice[];
  /** Offer the Undo button (the thread's last message, when its change can be undone). */
  undoable?: boolean;
  /** Sends a choice's message, or "undo", as the next message. */
  onChoose?: (message: string) => void;
  choosingDisabled?: boolean;
}

function ToolCalls({ calls }: { calls: readonly ToolCallRecord[] }) {
  const summaries = calls.map(summarizeToolCall).filter((summary) => summary.kind !== "lookup");
  if (summaries.length === 0) return null;
  return (
    <ul className="tool-calls" aria-label="Task changes">
      {summaries.map((summary, index) => (
        <li key={index} className={`tool-chip tool-${summary.kind}`}>
          {summary.text}
        </li>
      ))}
    </ul>
  );
}

export function MessageBubble({
  role,
  text,
  toolCalls = [],
  streaming = false,
  choices = [],
  undoable = false,
  onChoose,
  choosingDisabled = false,
}: Props) {
  const name = role === "user" ? "You" : "Assistant";
  return (
    <div className={`msg-row msg-row-${role}`}>
      {role === "assistant" && (
        <span className="avatar" aria-hidden="true">
          AI
        </span>
      )}
      <div className="msg-stack">
        <article
          aria-label={name}
          className={`bubble bubble-${role}`}
          data-streaming={streaming || undefined}
        >
          {role === "user" ? <p className="msg-paragraph">{text}</p> : <MessageText text={text} />}
        </article>
        {role === "assistant" && <ToolCalls calls={toolCalls} />}
        {role === "assistant" && onChoose && (
          <ReplyChoices choices={choices} onChoose={onChoose} disabled={choosingDisabled} />
        )}
        {role === "assistant" && onChoose && undoable && (
          <UndoButton onUndo={() => onChoose(UNDO_MESSAGE)} disabled={choosingDisabled} />
        )}
      </div>
    </div>
  );
}
