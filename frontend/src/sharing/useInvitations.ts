/**
 * Invitations to the signed-in person's email (GET /api/invitations) and answering them
 * (POST /api/invitations/{id}/accept | decline). An accepted list joins the lists at once;
 * a refusal (withdrawn meanwhile, say) is toasted with the server's words.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import type { TaskList } from "../api/types";
import { listsKey } from "../tasks/useLists";
import { refreshTasks } from "../tasks/useTasks";
import type { Membership } from "./useSharing";

export const invitationsKey = ["invitations"] as const;

export function useInvitations() {
  return useQuery({
    queryKey: invitationsKey,
    queryFn: ({ signal }) => unwrap(api.GET("/api/invitations", { signal })),
  });
}

function answered(queryClient: QueryClient, id: number): void {
  queryClient.setQueryData<Membership[]>(invitationsKey, (invitations) =>
    invitations?.filter((invitation) => invitation.id !== id),
  );
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.POST("/api/invitations/{invitation_id}/accept", { params: { path: { invitation_id: id } } }),
      ),
    onSuccess: (list, id) => {
      answered(queryClient, id);
      queryClient.setQueryData<TaskList[]>(listsKey, (lists) =>
        lists && !lists.some((known) => known.name === list.name) ? [...lists, list] : lists,
      );
    },
    onSettled: () => {
      refreshTasks(queryClient);
      void queryClient.invalidateQueries({ queryKey: invitationsKey });
    },
    meta: { errorMessage: "Couldn't accept the invitation" },
  });
}

export function useDeclineInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.POST("/api/invitations/{invitation_id}/decline", { params: { path: { invitation_id: id } } }),
      ),
    onSuccess: (_nothing, id) => answered(queryClient, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationsKey }),
    meta: { errorMessage: "Couldn't decline the invitation" },
  });
}
