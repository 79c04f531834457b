/**
 * The reminder stream's `changed` events: `{"kinds": ["tasks" | "lists" | "invitations"]}`,
 * sent when someone else (another member of a shared list, the owner, another device) changed
 * something the signed-in person sees. Each kind refreshes the queries that show it, so the
 * change appears without a reload.
 */
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";

import type { SseEvent } from "../api/eventStream";
import { listsKey } from "../tasks/useLists";
import { tasksKey } from "../tasks/useTasks";
import { invitationsKey } from "./useInvitations";

export const CHANGE_KINDS = ["tasks", "lists", "invitations"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

const isKind = (value: unknown): value is ChangeKind => CHANGE_KINDS.includes(value as ChangeKind);

/** The kinds a `changed` event names; null for any other event, or one without a kind we know. */
export function toChange({ event, data }: SseEvent): ChangeKind[] | null {
  if (event !== "changed") return null;
  try {
    const payload: unknown = JSON.parse(data);
    const kinds: unknown =
      typeof payload === "object" && payload !== null && "kinds" in payload ? payload.kinds : null;
    const known = Array.isArray(kinds) ? [...new Set(kinds.filter(isKind))] : [];
    return known.length > 0 ? known : null;
  } catch {
    return null;
  }
}

/** Refresh what each kind shows: tasks (and the lists' counts), lists (and members), invitations. */
export function refreshChanged(queryClient: QueryClient, kinds: Iterable<ChangeKind>): void {
  const keys = new Set<ChangeKind>(kinds);
  if (keys.has("tasks")) void queryClient.invalidateQueries({ queryKey: tasksKey });
  if (keys.has("tasks") || keys.has("lists")) void queryClient.invalidateQueries({ queryKey: listsKey });
  if (keys.has("invitations")) void queryClient.invalidateQueries({ queryKey: invitationsKey });
}

/** A burst of changes (a list's sharing stopped, many tasks moved) refreshes once. */
export const GATHER_MS = 150;

/**
 * A stable handler for `changed` events. Changes are gathered for a moment, and held while an
 * edit of ours is on its way: a refresh then could briefly undo what it shows (the edit's own
 * refresh follows it anyway).
 */
export function useLiveChanges(): (kinds: ChangeKind[]) => void {
  const queryClient = useQueryClient();
  const waiting = useRef(new Set<ChangeKind>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      timer.current = undefined;
      waiting.current.clear();
    },
    [],
  );

  return useCallback(
    (kinds: ChangeKind[]) => {
      const flush = () => {
        if (queryClient.isMutating() > 0) {
          timer.current = setTimeout(flush, GATHER_MS);
          return;
        }
        timer.current = undefined;
        const gathered = [...waiting.current];
        waiting.current.clear();
        refreshChanged(queryClient, gathered);
      };
      kinds.forEach((kind) => waiting.current.add(kind));
      timer.current ??= setTimeout(flush, GATHER_MS);
    },
    [queryClient],
  );
}
