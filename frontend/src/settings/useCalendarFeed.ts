/**
 * The account's secret calendar feed (GET/POST/DELETE /api/calendar/feed) as query hooks.
 * A failure is shown in the Settings dialog (CalendarFeed), not as a toast: toasts sit
 * behind a modal dialog.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";

export const feedKey = ["calendar-feed"] as const;

export function useFeedState() {
  return useQuery({ queryKey: feedKey, queryFn: () => unwrap(api.GET("/api/calendar/feed")) });
}

/** A new feed URL (an earlier one stops working): shown once, the server keeps only a hash. */
export function useOpenFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/calendar/feed")),
    onSettled: () => queryClient.invalidateQueries({ queryKey: feedKey }),
  });
}

export function useCloseFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/calendar/feed")),
    onSettled: () => queryClient.invalidateQueries({ queryKey: feedKey }),
  });
}
