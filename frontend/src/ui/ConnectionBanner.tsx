/** A banner while the server can't be reached or isn't ready; it probes /readyz and refreshes everything once it answers. */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";

import { api } from "../api/client";
import { useConnectivity } from "../api/connectivity";
import { WarningIcon } from "./icons";

const PROBE_EVERY_MS = 5000;

const MESSAGES = {
  unreachable: "Can't reach the server. Check your connection; we'll keep trying.",
  unavailable: "The service is temporarily unavailable. We'll keep trying.",
} as const;

export function ConnectionBanner() {
  const state = useConnectivity();
  const queryClient = useQueryClient();
  const wasDown = useRef(false);

  const probe = useCallback(() => {
    api.GET("/readyz").catch(() => undefined);
  }, []);

  useEffect(() => {
    if (state === "online") {
      if (wasDown.current) void queryClient.invalidateQueries();
      wasDown.current = false;
      return undefined;
    }
    wasDown.current = true;
    const timer = setInterval(probe, PROBE_EVERY_MS);
    return () => clearInterval(timer);
  }, [state, probe, queryClient]);

  if (state === "online") return null;
  return (
    <div role="alert" className="banner">
      <WarningIcon />
      <span>{MESSAGES[state]}</span>
      <button type="button" className="button button-small" onClick={probe}>
        Retry now
      </button>
    </div>
  );
}
