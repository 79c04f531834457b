/**
 * A banner while the device is offline, or the server can't be reached or isn't ready; it
 * probes /readyz (at once when the device is back online) and refreshes everything once it
 * answers.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";

import { api } from "../api/client";
import { OFFLINE_MESSAGE, useBrowserOnline, useConnectivity } from "../api/connectivity";
import { WarningIcon } from "./icons";

const PROBE_EVERY_MS = 5000;

const MESSAGES = {
  offline: OFFLINE_MESSAGE,
  unreachable: "Can't reach the server. Check your connection; we'll keep trying.",
  unavailable: "The service is temporarily unavailable. We'll keep trying.",
} as const;

export function ConnectionBanner() {
  const reached = useConnectivity();
  const online = useBrowserOnline();
  const state = online ? reached : "offline";
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

  // Back online: ask the server now rather than at the next tick.
  useEffect(() => {
    if (online && reached !== "online") probe();
  }, [online, reached, probe]);

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
