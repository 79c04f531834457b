/** A conversation's history (GET /api/conversations/{id}/messages) as the thread shows it. */
import { useQuery } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import type { Message, ToolCallRecord } from "../api/types";
import { isToolCall } from "./chatStream";

export type Role = "user" | "assistant";

export interface ChatMessage {
  role: Role;
  text: string;
  toolCalls: ToolCallRecord[];
}

export const messagesKey = (conversationId: number) => ["messages", conversationId] as const;

export function toChatMessage(message: Message): ChatMessage {
  return {
    role: message.role === "user" ? "user" : "assistant",
    text: message.content,
    toolCalls: message.tool_calls.filter(isToolCall),
  };
}

export function useMessages(conversationId: number | null) {
  return useQuery({
    queryKey: messagesKey(conversationId ?? 0),
    queryFn: async () => {
      const messages = await unwrap(
        api.GET("/api/conversations/{conversation_id}/messages", {
          params: { path: { conversation_id: conversationId ?? 0 }, query: { limit: 200 } },
        }),
      );
      return messages.map(toChatMessage);
    },
    enabled: conversationId !== null,
    // Opening a conversation always reloads it from the server.
    staleTime: 0,
  });
}
