/**
 * The signed-in person's fired, undismissed reminders, kept live: the reminder stream stays
 * open while the app is (reconnecting with backoff when it ends, fails or goes quiet), each
 * reminder is held once by id, and dismissing one (or all), snoozing one or marking its task
 * done tells the server. Each takes the card away at once and brings it back if the server
 * can't be told.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useEffectEvent, useRef, useState } from "react";

import { api, unwrap } from "../api/client";
import { ApiError } from "../api/errors";
import type { Reminder } from "../api/types";
import { refreshTasks, tasksKey } from "../tasks/useTasks";
import { CHANGE_KINDS, type ChangeKind } from "../sharing/liveChanges";
import { openReminderStream, readLiveEvents } from "./reminderStream";

export interface StreamTiming {
  /** The wait after the first failure; it doubles with each one after, up to `maxRetryMs`. */
  firstRetryMs: number;
  maxRetryMs: number;
  /** No byte for this long (the server pings every 15 s) and the connection is taken as dead. */
  stallMs: number;
  /** A connection that lasted this long was healthy: the next retry starts from the first wait. */
  steadyMs: number;
}

export const STREAM_TIMING: StreamTiming = {
  firstRetryMs: 1000,
  maxRetryMs: 60_000,
  stallMs: 45_000,
  steadyMs: 60_000,
};

// A burst of reminders (the ones waiting, on connect) refreshes the task list once.
const REFRESH_AFTER_MS = 250;
/** Ids just dismissed, for the other open tabs (a storage event) to take off their screens too. */
export const DISMISSED_KEY = "todo-chatbot.reminders-dismissed";

function tellOtherTabs(ids: number[]): void {
  try {
    // The time makes each value new, so the event fires even for the same ids.
    localStorage.setItem(DISMISSED_KEY, JSON.stringify({ ids, at: Date.now() }));
  } catch {
    // Storage full or blocked: the other tabs keep their cards until reloaded.
  }
}

function dismissedIn(value: string | null): number[] {
  try {
    const parsed: unknown = JSON.parse(value ?? "null");
    const ids: unknown = typeof parsed === "object" && parsed !== null && "ids" in parsed ? parsed.ids : [];
    return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === "number") : [];
  } catch {
    return [];
  }
}

/** The wait before reconnecting after `failures` short-lived attempts, with jitter so tabs spread out. */
export function retryDelay(failures: number, timing: StreamTiming): number {
  const base = Math.min(timing.maxRetryMs, timing.firstRetryMs * 2 ** Math.max(0, failures - 1));
  return base * (0.8 + Math.random() * 0.4);
}

/** Wait `ms`, less if the browser comes back online; resolves early when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      window.removeEventListener("online", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
    window.addEventListener("online", done);
  });
}

/**
 * Keep the stream open until `signal` aborts, handing each reminder to `onReminder` and each
 * `changed` event's kinds to `onChanged` (every kind on a reconnect: changes are not replayed).
 */
export async function followReminders(
  signal: AbortSignal,
  timing: StreamTiming,
  onReminder: (reminder: Reminder, skewMs: number) => void,
  onChanged: (kinds: ChangeKind[]) => void = () => undefined,
): Promise<void> {
  let failures = 0;
  let connections = 0;
  while (!signal.aborted) {
    const connection = new AbortController();
    const hangUp = () => connection.abort();
    signal.addEventListener("abort", hangUp);
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(hangUp, timing.stallMs);
    };
    const started = Date.now();
    try {
      alive();
      const { body, skewMs } = await openReminderStream(connection.signal);
      // Back after a gap: what changed meanwhile was said to no one.
      if (connections++ > 0) onChanged([...CHANGE_KINDS]);
      for await (const event of readLiveEvents(body, connection.signal, alive)) {
        if ("reminder" in event) onReminder(event.reminder, skewMs);
        else onChanged(event.changed);
      }
    } catch (error) {
      // A 401 has signed the person out (the API client did): nothing left to follow.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return;
    } finally {
      clearTimeout(watchdog);
      signal.removeEventListener("abort", hangUp);
    }
    if (signal.aborted) return;
    failures = Date.now() - started >= timing.steadyMs ? 0 : failures + 1;
    await pause(retryDelay(failures, timing), signal);
  }
}

const byId = (a: Reminder, b: Reminder) => a.id - b.id;

/** For how long, or until when (an instant without an offset is on the account's clock). */
export type SnoozeChoice = { minutes: number } | { until: string };

/** A refusal that means the card has nothing left to do: the reminder is gone, or spent. */
const alreadyGone = (error: unknown, ...statuses: number[]) =>
  error instanceof ApiError && statuses.includes(error.status);

export interface Reminders {
  /** Oldest first. */
  reminders: Reminder[];
  dismiss: (id: number) => void;
  dismissAll: () => void;
  /** Fires again then, once, as a new reminder (POST /api/reminders/{id}/snooze). */
  snooze: (id: number, choice: SnoozeChoice) => void;
  /** Dismisses the reminder and completes its task. */
  done: (reminder: Reminder) => void;
}

interface Options {
  /** Called once per reminder the first time it arrives; `skewMs` is the server's clock minus ours. */
  onArrived?: (reminder: Reminder, skewMs: number) => void;
  /** Called with the kinds of each `changed` event: what someone else changed. */
  onChanged?: (kinds: ChangeKind[]) => void;
  timing?: StreamTiming;
}

export function useReminders({ onArrived, onChanged, timing = STREAM_TIMING }: Options = {}): Reminders {
  const queryClient = useQueryClient();
  const [reminders, setReminders] = useState<Reminder[]>([]);
  // Every id seen (a reconnect replays the undismissed ones), and those dismissed here,
  // which a replay racing the DELETE must not bring back.
  const seen = useRef(new Set<number>());
  const dismissed = useRef(new Set<number>());
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // When each card arrived here (this clock): a card the server no longer lists is gone
  // only if it was here before the server was asked (one fired meanwhile stays).
  const arrivedAt = useRef(new Map<number, number>());

  const received = useEffectEvent((reminder: Reminder, skewMs: number) => {
    if (seen.current.has(reminder.id)) return;
    seen.current.add(reminder.id);
    arrivedAt.current.set(reminder.id, Date.now());
    if (dismissed.current.has(reminder.id)) return;
    setReminders((current) => [...current, reminder].sort(byId));
    onArrived?.(reminder, skewMs);
    // The task's remind_at was cleared (or moved on) when it fired.
    refreshTimer.current ??= setTimeout(() => {
      refreshTimer.current = undefined;
      refreshTasks(queryClient);
    }, REFRESH_AFTER_MS);
  });

  const changed = useEffectEvent((kinds: ChangeKind[]) => onChanged?.(kinds));

  const { firstRetryMs, maxRetryMs, stallMs, steadyMs } = timing;
  useEffect(() => {
    const stop = new AbortController();
    void followReminders(
      stop.signal,
      { firstRetryMs, maxRetryMs, stallMs, steadyMs },
      (reminder, skewMs) => received(reminder, skewMs),
      (kinds) => changed(kinds),
    );
    return () => {
      stop.abort();
      clearTimeout(refreshTimer.current);
    };
  }, [firstRetryMs, maxRetryMs, stallMs, steadyMs]);

  // Cards changed elsewhere (a snooze or a completion in chat, another device) go when the
  // tasks are next refreshed: the query sits under the tasks' key, so every refresh asks.
  const listed = useQuery({
    queryKey: [...tasksKey, "reminders-shown"],
    queryFn: async () => {
      const asked = Date.now();
      const body = await unwrap(api.GET("/api/reminders"));
      return { asked, ids: new Set(body.reminders.map((reminder) => reminder.id)) };
    },
    enabled: reminders.length > 0,
  });
  useEffect(() => {
    if (!listed.data) return;
    const { asked, ids } = listed.data;
    setReminders((current) => {
      const kept = current.filter(
        (reminder) => ids.has(reminder.id) || (arrivedAt.current.get(reminder.id) ?? asked) >= asked,
      );
      return kept.length === current.length ? current : kept;
    });
  }, [listed.data]);

  // Dismissed in another tab: gone here too (the server already knows).
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== DISMISSED_KEY) return;
      const gone = new Set(dismissedIn(event.newValue));
      gone.forEach((id) => dismissed.current.add(id));
      setReminders((current) => current.filter((reminder) => !gone.has(reminder.id)));
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  /** Take reminders off the screen at once; put them back if the server can't be told. */
  function hide(ids: number[]): () => void {
    const gone = new Set(ids);
    ids.forEach((id) => dismissed.current.add(id));
    const hidden = reminders.filter((reminder) => gone.has(reminder.id));
    setReminders((current) => current.filter((reminder) => !gone.has(reminder.id)));
    return () => {
      ids.forEach((id) => dismissed.current.delete(id));
      setReminders((current) =>
        [...current, ...hidden.filter((reminder) => !current.some((r) => r.id === reminder.id))].sort(byId),
      );
    };
  }

  const dismissOne = useMutation({
    mutationFn: async (id: number) => {
      try {
        await unwrap(api.DELETE("/api/reminders/{reminder_id}", { params: { path: { reminder_id: id } } }));
      } catch (error) {
        // Already gone (dismissed in another tab, or its task deleted): as good as dismissed.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    },
    onMutate: (id: number) => ({ restore: hide([id]) }),
    onSuccess: (_nothing, id) => tellOtherTabs([id]),
    onError: (_error, _id, context) => context?.restore(),
    meta: { errorMessage: "Couldn't dismiss the reminder" },
  });

  const snoozeOne = useMutation({
    mutationFn: async ({ id, choice }: { id: number; choice: SnoozeChoice }) => {
      try {
        await unwrap(
          api.POST("/api/reminders/{reminder_id}/snooze", {
            params: { path: { reminder_id: id } },
            body: choice,
          }),
        );
      } catch (error) {
        // Gone (its task deleted), dismissed or snoozed on another screen, or its task done: as good as snoozed.
        if (!alreadyGone(error, 404, 409)) throw error;
      }
    },
    onMutate: ({ id }) => ({ restore: hide([id]) }),
    onSuccess: (_nothing, { id }) => tellOtherTabs([id]),
    onError: (_error, _variables, context) => context?.restore(),
    meta: { errorMessage: "Couldn't snooze the reminder" },
  });

  // Dismissed first, then the task completed: a retry after a failure repeats only what is
  // harmless to repeat (dismissing again), never a completion (a repeating task would move on twice).
  const completeOne = useMutation({
    mutationFn: async (reminder: Reminder) => {
      for (const request of [
        () => api.DELETE("/api/reminders/{reminder_id}", { params: { path: { reminder_id: reminder.id } } }),
        () =>
          api.PATCH("/api/tasks/{task_id}", {
            params: { path: { task_id: reminder.task_id } },
            body: { completed: true },
          }),
      ]) {
        try {
          await unwrap(request());
        } catch (error) {
          // The reminder or its task deleted meanwhile: nothing left to do there.
          if (!alreadyGone(error, 404)) throw error;
        }
      }
    },
    onMutate: (reminder: Reminder) => ({ restore: hide([reminder.id]) }),
    onSuccess: (_nothing, reminder) => tellOtherTabs([reminder.id]),
    onError: (_error, _reminder, context) => context?.restore(),
    onSettled: () => refreshTasks(queryClient),
    meta: { errorMessage: "Couldn't mark the task done" },
  });

  // Only up to the newest shown: one that fires meanwhile stays to be seen.
  const dismissThrough = useMutation({
    mutationFn: (through: number) => unwrap(api.DELETE("/api/reminders", { params: { query: { through } } })),
    onMutate: (through: number) => {
      const ids = reminders.filter((reminder) => reminder.id <= through).map((reminder) => reminder.id);
      return { ids, restore: hide(ids) };
    },
    onSuccess: (_count, _through, context) => tellOtherTabs(context.ids),
    onError: (_error, _through, context) => context?.restore(),
    meta: { errorMessage: "Couldn't dismiss the reminders" },
  });

  return {
    reminders,
    dismiss: (id) => dismissOne.mutate(id),
    dismissAll: () => {
      const last = reminders.at(-1);
      if (last) dismissThrough.mutate(last.id);
    },
    snooze: (id, choice) => snoozeOne.mutate({ id, choice }),
    done: (reminder) => completeOne.mutate(reminder),
  };
}
