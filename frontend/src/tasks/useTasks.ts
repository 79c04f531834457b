/** The task list and its edits (GET/POST/PATCH/DELETE /api/tasks) as TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import type { Task, TaskUpdate } from "../api/types";

export const tasksKey = ["tasks"] as const;

export function useTasks() {
  return useQuery({
    queryKey: tasksKey,
    queryFn: () => unwrap(api.GET("/api/tasks", { params: { query: { status: "all" } } })),
  });
}

/** Show an edit at once; put the list back if the server refuses it. */
async function optimistic(
  queryClient: QueryClient,
  change: (tasks: Task[]) => Task[],
): Promise<{ previous: Task[] | undefined }> {
  await queryClient.cancelQueries({ queryKey: tasksKey });
  const previous = queryClient.getQueryData<Task[]>(tasksKey);
  if (previous) queryClient.setQueryData<Task[]>(tasksKey, change(previous));
  return { previous };
}

function useTaskMutation<Variables>(
  request: (variables: Variables) => Promise<unknown>,
  change: (tasks: Task[], variables: Variables) => Task[],
  errorMessage: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onMutate: (variables: Variables) => optimistic(queryClient, (tasks) => change(tasks, variables)),
    onError: (_error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(tasksKey, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: tasksKey }),
    meta: { errorMessage },
  });
}

export interface TaskEdit {
  id: number;
  changes: TaskUpdate;
}

export function useUpdateTask() {
  return useTaskMutation(
    ({ id, changes }: TaskEdit) =>
      unwrap(api.PATCH("/api/tasks/{task_id}", { params: { path: { task_id: id } }, body: changes })),
    (tasks, { id, changes }) =>
      tasks.map((task) =>
        task.id === id
          ? {
              ...task,
              ...(changes.title != null && { title: changes.title }),
              ...(changes.completed != null && { completed: changes.completed }),
            }
          : task,
      ),
    "Couldn't update the task",
  );
}

export function useDeleteTask() {
  return useTaskMutation(
    (id: number) => unwrap(api.DELETE("/api/tasks/{task_id}", { params: { path: { task_id: id } } })),
    (tasks, id) => tasks.filter((task) => task.id !== id),
    "Couldn't delete the task",
  );
}

export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title: string) => unwrap(api.POST("/api/tasks", { body: { title } })),
    onSuccess: (task) => {
      queryClient.setQueryData<Task[]>(tasksKey, (tasks) => (tasks ? [...tasks, task] : [task]));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: tasksKey }),
    meta: { errorMessage: "Couldn't add the task" },
  });
}
