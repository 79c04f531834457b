/**
 * One chat turn at a time: stream the reply into a pending bubble, then put the `done`
 * body into the query cache and refresh what the turn may have changed.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";

import { ApiError, describeError } from "../api/errors";
import type { ChatResponse, ToolCallRecord } from "../api/types";
import { conversationsKey } from "../conversations/useConversations";
import { changesTasks } from "../tasks/toolCalls";
import { refreshTasks } from "../tasks/useTasks";
import { ReplyError, streamChat, type ChatStreamEvent } from "./chatStream";
import { messagesKey, type ChatMessage } from "./messages";

export interface PendingTurn {
  /** The conversation the turn belongs to; null until a new one gets its id. */
  conversationId: number | null;
  userText: string;
  replyText: string;
  toolCalls: ToolCallRecord[];
}

export interface TurnFailure {
  conversationId: number | null;
  text: string;
  message: string;
  /** False when the server kept the message (resending would repeat it). */
  canRetry: boolean;
}

interface Options {
  conversationId: number | null;
  /** A new conversation got its id from the server. */
  onStarted: (conversationId: number) => void;
}

function turnMessages(turn: PendingTurn, result: ChatResponse): ChatMessage[] {
  return [
    { role: "user", text: turn.userText, toolCalls: [], choices: [], undoable: false },
    {
      role: "assistant",
      text: result.response,
      toolCalls: result.tool_calls,
      choices: result.choices,
      undoable: result.undoable,
    },
  ];
}

export function useChatTurn({ conversationId, onStarted }: Options) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingTurn | null>(null);
  const [failure, setFailure] = useState<TurnFailure | null>(null);
  const abort = useRef<AbortController | null>(null);
  // Read after the reply arrives, so it must be the latest callback, not the one `send` closed over.
  const onStartedRef = useRef(onStarted);
  useEffect(() => {
    onStartedRef.current = onStarted;
  }, [onStarted]);

  useEffect(() => () => abort.current?.abort(), []);

  const send = useCallback(
    async (text: string) => {
      if (abort.current) return;
      const controller = new AbortController();
      abort.current = controller;
      const turn: PendingTurn = { conversationId, userText: text, replyText: "", toolCalls: [] };
      setFailure(null);
      setPending(turn);

      const onEvent = (event: ChatStreamEvent) => {
        if (event.type === "delta") turn.replyText += event.text;
        else if (event.type === "tool_call") turn.toolCalls = [...turn.toolCalls, event.call];
        else return;
        setPending({ ...turn });
      };

      try {
        const result = await streamChat(
          { message: text, conversation_id: conversationId },
          onEvent,
          controller.signal,
        );
        queryClient.setQueryData<ChatMessage[]>(messagesKey(result.conversation_id), (old) => [
          ...(old ?? []),
          ...turnMessages(turn, result),
        ]);
        // Then confirm with the server's copy (same order, so the same elements are reused).
        void queryClient.invalidateQueries({ queryKey: messagesKey(result.conversation_id) });
        void queryClient.invalidateQueries({ queryKey: conversationsKey });
        if (changesTasks(result.tool_calls)) refreshTasks(queryClient);
        if (conversationId === null) onStartedRef.current(result.conversation_id);
      } catch (error) {
        if (controller.signal.aborted) return;
        const kept = error instanceof ReplyError;
        if (kept) {
          if (conversationId !== null)
            void queryClient.invalidateQueries({ queryKey: messagesKey(conversationId) });
          void queryClient.invalidateQueries({ queryKey: conversationsKey });
          refreshTasks(queryClient);
        }
        if (error instanceof ApiError && error.status === 404) {
          void queryClient.invalidateQueries({ queryKey: conversationsKey });
        }
        if (!(error instanceof ApiError && error.status === 401)) {
          setFailure({ conversationId, text, message: describeError(error), canRetry: !kept });
        }
      } finally {
        if (abort.current === controller) abort.current = null;
        setPending(null);
      }
    },
    [conversationId, queryClient],
  );

  const dismissFailure = useCallback(() => setFailure(null), []);

  return { pending, failure, send, dismissFailure, sending: pending !== null };
}
