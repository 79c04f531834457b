/** Which of the assistant's tool calls change the task list. */
import type { ToolCallRecord } from "../api/types";

const TASK_CHANGING_TOOLS: ReadonlySet<string> = new Set([
  "add_task",
  "complete_task",
  "delete_task",
  "update_task",
]);

export function changesTasks(calls: readonly ToolCallRecord[]): boolean {
  return calls.some((call) => TASK_CHANGING_TOOLS.has(call.name));
}
