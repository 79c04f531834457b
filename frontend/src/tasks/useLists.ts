/** The account's lists with their counts (GET/POST /api/lists) as TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import type { TaskList } from "../api/types";

export const listsKey = ["lists"] as const;

export function useLists() {
  return useQuery({
    queryKey: listsKey,
    queryFn: () => unwrap(api.GET("/api/lists")),
  });
}

export function useCreateList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => unwrap(api.POST("/api/lists", { body: { name } })),
    onSuccess: (list) => {
      queryClient.setQueryData<TaskList[]>(listsKey, (lists) => (lists ? [...lists, list] : [list]));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: listsKey }),
    meta: { errorMessage: "Couldn't create the list" },
  });
}
