/** A conversation's history (GET /api/conversations/{id}/messages) as the thread shows it. */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";

import { api, unwrap } from "../api/client";
import type { Choice, Message, ToolCallRecord } from "../api/types";
import { isToolCall, toChoices } from "./chatStream";

export type Role = "user" | "assistant";

export interface ChatMessage {
  role: Role;
  text: string;
  toolCalls: ToolCallRecord[];
  /** The replies an assistant's question offers, as buttons (only the last message's apply). */
  choices: Choice[];
  /** The reply's change can be undone by sending "undo" (only the last message offers it). */
  undoable: boolean;
  /** The stored message's id (absent on a turn not yet reloaded from the server). */
  id?: number;
}

/** Messages per request: the newest page on opening, then each "Show earlier messages". */
export const PAGE_SIZE = 200;

export const messagesKey = (conversationId: number) => ["messages", conversationId] as const;

export function toChatMessage(message: Message): ChatMessage {
  return {
    role: message.role === "user" ? "user" : "assistant",
    text: message.content,
    toolCalls: message.tool_calls.filter(isToolCall),
    choices: toChoices(message.choices),
    // Strictly true: a message stored before the flag existed (or a user's) offers no undo.
    undoable: message.role === "assistant" && message.undoable === true,
    id: message.id,
  };
}

export function useMessages(conversationId: number | null) {
  return useQuery({
    queryKey: messagesKey(conversationId ?? 0),
    queryFn: async () => {
      const messages = await unwrap(
        api.GET("/api/conversations/{conversation_id}/messages", {
          params: { path: { conversation_id: conversationId ?? 0 }, query: { limit: PAGE_SIZE } },
        }),
      );
      return messages.map(toChatMessage);
    },
    enabled: conversationId !== null,
    // Opening a conversation always reloads it from the server.
    staleTime: 0,
  });
}

const firstId = (messages: readonly ChatMessage[]) => messages.find((m) => m.id !== undefined)?.id;

/**
 * Older pages of a long conversation, loaded on demand in front of the newest page. Messages
 * that drop out of the newest page as the conversation grows are kept, so nothing between the
 * loaded pages and the newest page goes missing.
 */
export function useEarlierMessages(conversationId: number | null, newest: readonly ChatMessage[]) {
  const [older, setOlder] = useState<{ of: number | null; items: ChatMessage[]; more: boolean }>({
    of: conversationId,
    items: [],
    more: true,
  });
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const previous = useRef<{ of: number | null; page: readonly ChatMessage[] }>({
    of: conversationId,
    page: newest,
  });
  const current = older.of === conversationId ? older : { of: conversationId, items: [], more: true };

  useEffect(() => {
    const before = previous.current;
    previous.current = { of: conversationId, page: newest };
    // Another conversation's page says nothing about what dropped out of this one's.
    if (before.of !== conversationId) return;
    const kept = new Set(newest.map((m) => m.id));
    const start = firstId(newest) ?? Number.POSITIVE_INFINITY;
    const dropped = before.page.filter((m) => m.id !== undefined && !kept.has(m.id) && m.id < start);
    if (dropped.length === 0) return;
    // Only kept in front of older pages already loaded for this conversation.
    setOlder((o) =>
      o.of === conversationId && o.items.length > 0 ? { ...o, items: [...o.items, ...dropped] } : o,
    );
  }, [conversationId, newest]);

  const hasMore =
    conversationId !== null && (current.items.length === 0 ? newest.length >= PAGE_SIZE : current.more);

  async function loadEarlier() {
    const oldest = firstId(current.items) ?? firstId(newest);
    if (conversationId === null || oldest === undefined || loading) return;
    setLoading(true);
    setFailed(false);
    try {
      const page = await unwrap(
        api.GET("/api/conversations/{conversation_id}/messages", {
          params: {
            path: { conversation_id: conversationId },
            query: { limit: PAGE_SIZE, before_id: oldest },
          },
        }),
      );
      setOlder({
        of: conversationId,
        items: [...page.map(toChatMessage), ...current.items],
        more: page.length === PAGE_SIZE,
      });
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }

  return { messages: [...current.items, ...newest], hasMore, loading, failed, loadEarlier };
}
