/** The account's secret calendar feed (GET/POST/DELETE /api/calendar/feed) as query hooks. */
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
    meta: { errorMessage: "Couldn't make a calendar link" },
  });
}

export function useCloseFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/calendar/feed")),
    onSettled: () => queryClient.invalidateQueries({ queryKey: feedKey }),
    meta: { errorMessage: "Couldn't turn the calendar link off" },
  });
}
