/** The longest message the server takes (MAX_MESSAGE_CHARS, from GET /api/config). */
import { useQuery } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";

/** The documented default (the schema's maxLength), used until the server has said. */
export const DEFAULT_MAX_MESSAGE_CHARS = 4000;

export const configKey = ["config"] as const;

export function useMessageLimit(): number {
  const config = useQuery({
    queryKey: configKey,
    queryFn: () => unwrap(api.GET("/api/config")),
    // A setting of the server's: it changes only when the server restarts.
    staleTime: Infinity,
  });
  return config.data?.max_message_chars ?? DEFAULT_MAX_MESSAGE_CHARS;
}
