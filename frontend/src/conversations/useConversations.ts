/** The user's conversations (GET/DELETE /api/conversations) as TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import type { Conversation } from "../api/types";
import { messagesKey } from "../chat/messages";

export const conversationsKey = ["conversations"] as const;

export function useConversations() {
  return useQuery({
    queryKey: conversationsKey,
    queryFn: () => unwrap(api.GET("/api/conversations")),
  });
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.DELETE("/api/conversations/{conversation_id}", { params: { path: { conversation_id: id } } }),
      ),
    onMutate: async (id: number) => {
      await queryClient.cancelQueries({ queryKey: conversationsKey });
      const previous = queryClient.getQueryData<Conversation[]>(conversationsKey);
      if (previous) {
        queryClient.setQueryData(
          conversationsKey,
          previous.filter((conversation) => conversation.id !== id),
        );
      }
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(conversationsKey, context.previous);
    },
    onSuccess: (_data, id) => queryClient.removeQueries({ queryKey: messagesKey(id) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationsKey }),
    meta: { errorMessage: "Couldn't delete the conversation" },
  });
}
