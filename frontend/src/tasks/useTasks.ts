/**
 * The task list and its edits (GET/POST/PATCH/DELETE /api/tasks) as TanStack Query hooks.
 * Each view (list, filters, sort) is its own query under `tasksKey`, so one invalidation
 * refreshes them all; an edit changes the task in every cached view at once.
 */
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import type { Task, TaskCreate, TaskUpdate } from "../api/types";
import { listsKey } from "./useLists";
import { queryParams, type TaskQueryParams, type TaskView } from "./taskView";

export const tasksKey = ["tasks"] as const;

const viewKey = (params: TaskQueryParams) => [...tasksKey, params] as const;

/** After anything that may have changed tasks: every view, and the lists' counts. */
export function refreshTasks(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: tasksKey });
  void queryClient.invalidateQueries({ queryKey: listsKey });
}

/** The most tasks GET /api/tasks answers in one page (the server's TASK_PAGE_MAX). */
export const TASK_PAGE_MAX = 1000;

/**
 * Every task of the view, a page at a time: the server answers at most TASK_PAGE_MAX tasks a
 * request (100 unless asked for more), so a long list takes several requests, not one huge one.
 */
export async function fetchAllTasks(params: TaskQueryParams, pageSize = TASK_PAGE_MAX): Promise<Task[]> {
  const tasks: Task[] = [];
  for (;;) {
    const offset = tasks.length;
    const query = { status: "all" as const, ...params, limit: pageSize, ...(offset > 0 && { offset }) };
    const page = await unwrap(api.GET("/api/tasks", { params: { query } }));
    tasks.push(...page);
    // A short page is the last one.
    if (page.length < pageSize) return tasks;
  }
}

export function useTasks(view: TaskView) {
  const params = queryParams(view);
  return useQuery({
    queryKey: viewKey(params),
    queryFn: () => fetchAllTasks(params),
    // Switching lists or filters keeps the old view in sight until the new one arrives.
    placeholderData: keepPreviousData,
  });
}

type Snapshot = Array<[QueryKey, Task[] | undefined]>;

/** Show an edit at once in every cached view; put them back if the server refuses it. */
async function optimistic(
  queryClient: QueryClient,
  change: (tasks: Task[]) => Task[],
): Promise<{ previous: Snapshot }> {
  await queryClient.cancelQueries({ queryKey: tasksKey });
  const previous = queryClient.getQueriesData<Task[]>({ queryKey: tasksKey });
  queryClient.setQueriesData<Task[]>({ queryKey: tasksKey }, (tasks) => tasks && change(tasks));
  return { previous };
}

function useTaskMutation<Variables>(
  request: (variables: Variables) => Promise<unknown>,
  change: (tasks: Task[], variables: Variables) => Task[],
  /** The toast's words when the server refuses; null: the caller shows the error itself. */
  errorMessage: string | null,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onMutate: (variables: Variables) => optimistic(queryClient, (tasks) => change(tasks, variables)),
    onError: (_error, _variables, context) => {
      for (const [key, tasks] of context?.previous ?? []) queryClient.setQueryData(key, tasks);
    },
    onSettled: () => refreshTasks(queryClient),
    meta: errorMessage === null ? {} : { errorMessage },
  });
}

export interface TaskEdit {
  id: number;
  changes: TaskUpdate;
}

/** The task as it will be once the server has the edit (its due instant is the server's to work out). */
export function applyEdit(task: Task, changes: TaskUpdate): Task {
  const dueChanged = changes.due_date !== undefined || changes.due_time !== undefined;
  const dueDate = changes.due_date !== undefined ? changes.due_date : (task.due_date ?? null);
  // Turned off, or a reminder relative to a due that went: none. Any other is the server's to work out.
  const reminderOff =
    changes.remind_at === null ||
    changes.remind_before === null ||
    (dueDate === null && task.remind_before != null && changes.remind_at === undefined);
  return {
    ...task,
    ...(changes.title != null && { title: changes.title }),
    ...(changes.completed != null && { completed: changes.completed }),
    ...(changes.priority != null && { priority: changes.priority }),
    ...(changes.list != null && { list: changes.list }),
    ...(changes.tags != null && { tags: changes.tags }),
    ...(dueChanged && {
      due_date: dueDate,
      // A cleared day clears its time too.
      due_time: dueDate === null ? null : changes.due_time !== undefined ? changes.due_time : task.due_time,
      due_at: null,
    }),
    ...(reminderOff && { remind_at: null, remind_before: null }),
  };
}

/** `toastErrors: false` when the caller shows a refusal itself (the details form, for a reminder). */
export function useUpdateTask({ toastErrors = true }: { toastErrors?: boolean } = {}) {
  return useTaskMutation(
    ({ id, changes }: TaskEdit) =>
      unwrap(api.PATCH("/api/tasks/{task_id}", { params: { path: { task_id: id } }, body: changes })),
    (tasks, { id, changes }) => tasks.map((task) => (task.id === id ? applyEdit(task, changes) : task)),
    toastErrors ? "Couldn't update the task" : null,
  );
}

export function useDeleteTask() {
  return useTaskMutation(
    (id: number) => unwrap(api.DELETE("/api/tasks/{task_id}", { params: { path: { task_id: id } } })),
    (tasks, id) => tasks.filter((task) => task.id !== id),
    "Couldn't delete the task",
  );
}

/** Adds to the view it was typed in (`fields` make it belong there: see newTaskFields). */
export function useCreateTask(view: TaskView) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TaskCreate) => unwrap(api.POST("/api/tasks", { body })),
    onSuccess: (task) => {
      queryClient.setQueryData<Task[]>(viewKey(queryParams(view)), (tasks) =>
        tasks ? [...tasks, task] : [task],
      );
    },
    onSettled: () => refreshTasks(queryClient),
    meta: { errorMessage: "Couldn't add the task" },
  });
}
