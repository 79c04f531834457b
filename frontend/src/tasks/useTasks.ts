/**
 * The task list and its edits (GET/POST/PATCH/DELETE /api/tasks) as TanStack Query hooks.
 * Each view (list, filters, sort) is its own paged query under `tasksKey`, so one
 * invalidation refreshes them all (every page loaded); an edit changes the task in every
 * cached view at once.
 */
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import type { Task, TaskCreate, TaskUpdate } from "../api/types";
import { addToView, changeView, fetchTaskPage, loadedTasks, type TaskPages } from "./taskPages";
import { listsKey } from "./useLists";
import { queryParams, type TaskQueryParams, type TaskView } from "./taskView";

export const tasksKey = ["tasks"] as const;

const viewKey = (params: TaskQueryParams) => [...tasksKey, params] as const;

/** After anything that may have changed tasks: every view, and the lists' counts. */
export function refreshTasks(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: tasksKey });
  void queryClient.invalidateQueries({ queryKey: listsKey });
}

/**
 * The view's tasks a page at a time: the first page, then the next when `loadMore` is called
 * (the panel calls it as the list's end scrolls near, or from its "Load more" button).
 */
export function useTasks(view: TaskView) {
  const params = queryParams(view);
  const query = useInfiniteQuery({
    queryKey: viewKey(params),
    queryFn: ({ pageParam, signal }) => fetchTaskPage(params, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset ?? undefined,
    // Switching lists or filters keeps the old view in sight until the new one arrives.
    placeholderData: keepPreviousData,
  });
  const tasks = loadedTasks(query.data);
  const total = query.data?.pages.at(-1)?.total ?? null;
  return {
    ...query,
    tasks,
    /** Tasks in the view in all (the loaded ones if the server did not say). */
    total: total ?? tasks.length,
    loadMore: () => {
      if (query.hasNextPage && !query.isFetchingNextPage && !query.isPlaceholderData) {
        void query.fetchNextPage();
      }
    },
  };
}

type Snapshot = Array<[QueryKey, TaskPages | undefined]>;

/** Show an edit at once in every cached view; put them back if the server refuses it. */
async function optimistic(
  queryClient: QueryClient,
  change: (tasks: Task[]) => Task[],
): Promise<{ previous: Snapshot }> {
  await queryClient.cancelQueries({ queryKey: tasksKey });
  const previous = queryClient.getQueriesData<TaskPages>({ queryKey: tasksKey });
  queryClient.setQueriesData<TaskPages>(
    { queryKey: tasksKey },
    (pages) => pages && changeView(pages, change),
  );
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
      queryClient.setQueryData<TaskPages>(viewKey(queryParams(view)), (pages) => addToView(pages, task));
    },
    onSettled: () => refreshTasks(queryClient),
    meta: { errorMessage: "Couldn't add the task" },
  });
}
