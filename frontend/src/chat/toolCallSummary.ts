/** A short line for each tool call under an assistant message ("Added #3 · Buy milk"). */
import type { ToolCallRecord } from "../api/types";

const VERBS: Record<string, string> = {
  created: "Added",
  completed: "Completed",
  deleted: "Deleted",
  updated: "Updated",
};

const FAILED: Record<string, string> = {
  add_task: "Couldn't add a task",
  complete_task: "Couldn't complete a task",
  delete_task: "Couldn't delete a task",
  update_task: "Couldn't update a task",
  list_tasks: "Couldn't look up tasks",
};

export interface ToolSummary {
  text: string;
  kind: "change" | "lookup" | "error";
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

export function summarizeToolCall(call: ToolCallRecord): ToolSummary {
  const { result } = call;
  if (field(result, "error") !== undefined) {
    return { text: FAILED[call.name] ?? `${call.name} failed`, kind: "error" };
  }
  if (call.name === "list_tasks") {
    const count = Array.isArray(result) ? result.length : 0;
    return { text: `Looked up ${count} ${count === 1 ? "task" : "tasks"}`, kind: "lookup" };
  }
  const verb = VERBS[String(field(result, "status"))];
  const id = field(result, "task_id");
  const title = field(result, "title");
  if (verb && typeof id === "number") {
    return { text: `${verb} #${id}${typeof title === "string" ? ` · ${title}` : ""}`, kind: "change" };
  }
  return { text: call.name.replace(/_/g, " "), kind: "lookup" };
}
