/**
 * What the task panel shows: one list (or all), the filters, the order. Each maps to a
 * GET /api/tasks query parameter, so the server does the filtering in the account's zone.
 */
import type { DueFilter, Priority, TaskCreate, TaskSort } from "../api/types";
import { addDays } from "./dueLabel";

export interface TaskView {
  /** null: every list. */
  list: string | null;
  tag: string | null;
  priority: Priority | null;
  due: DueFilter | null;
  sort: TaskSort;
}

export const EVERY_TASK: TaskView = { list: null, tag: null, priority: null, due: null, sort: "number" };

export const DUE_FILTERS: ReadonlyArray<{ value: DueFilter; label: string }> = [
  { value: "overdue", label: "Overdue" },
  { value: "today", label: "Today" },
  { value: "tomorrow", label: "Tomorrow" },
  { value: "this_week", label: "This week" },
  { value: "next_7_days", label: "Next 7 days" },
  { value: "no_date", label: "No date" },
];

export const PRIORITY_LABELS: Readonly<Record<Priority, string>> = {
  high: "High",
  medium: "Medium",
  low: "Low",
  none: "None",
};

/** Highest first, as the priority sort orders them. */
export const PRIORITIES: readonly Priority[] = ["high", "medium", "low", "none"];

// By task number, which is the order tasks were made in (a task brought back by undo keeps
// its number and its place). The API's "created" orders the same but for such tasks: not offered.
export const SORTS: ReadonlyArray<{ value: TaskSort; label: string }> = [
  { value: "number", label: "Creation order" },
  { value: "due", label: "Due date" },
  { value: "priority", label: "Priority" },
  { value: "title", label: "Title" },
];

export type TaskQueryParams = Partial<{
  list: string;
  tag: string;
  priority: Priority;
  due: DueFilter;
  sort: TaskSort;
}>;

/** Only what is set, so the default view asks for plain GET /api/tasks?status=all. */
export function queryParams(view: TaskView): TaskQueryParams {
  return {
    ...(view.list !== null && { list: view.list }),
    ...(view.tag !== null && { tag: view.tag }),
    ...(view.priority !== null && { priority: view.priority }),
    ...(view.due !== null && { due: view.due }),
    ...(view.sort !== "number" && { sort: view.sort }),
  };
}

/** Filters beyond the list switcher's choice (which has its own control). */
export function hasFilters(view: TaskView): boolean {
  return view.tag !== null || view.priority !== null || view.due !== null;
}

/**
 * A task typed into the panel joins the view it was typed in: its list, tag and priority,
 * and a day when the due filter names one (today also falls in "this week" and "next 7 days").
 * In the Overdue view it is added undated: no new task is overdue.
 */
export function newTaskFields(view: TaskView, today: string): Omit<TaskCreate, "title"> {
  const day =
    view.due === "tomorrow"
      ? addDays(today, 1)
      : view.due === "today" || view.due === "this_week" || view.due === "next_7_days"
        ? today
        : null;
  return {
    ...(view.list !== null && { list: view.list }),
    ...(view.tag !== null && { tags: [view.tag] }),
    ...(view.priority !== null && view.priority !== "none" && { priority: view.priority }),
    ...(day !== null && { due_date: day }),
  };
}

/** "Shopping, due today, high priority, tagged #home": what the panel shows, in words. */
export function describeView(view: TaskView): string {
  const due = DUE_FILTERS.find((filter) => filter.value === view.due)?.label.toLowerCase();
  return [
    view.list ?? "All lists",
    due && (view.due === "overdue" || view.due === "no_date" ? due : `due ${due}`),
    view.priority && `${PRIORITY_LABELS[view.priority].toLowerCase()} priority`,
    view.tag && `tagged #${view.tag}`,
  ]
    .filter(Boolean)
    .join(", ");
}
