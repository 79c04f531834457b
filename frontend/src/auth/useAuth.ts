/** Log in, sign up and "who am I", as TanStack Query hooks over the generated client. */
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import { ApiError } from "../api/errors";
import type { TokenResponse } from "../api/types";
import { signIn } from "./session";

export interface Credentials {
  email: string;
  password: string;
}

export type AuthMode = "login" | "signup";

function start(token: TokenResponse): void {
  signIn({ token: token.access_token, email: token.user.email });
}

/** 401 and 409 keep the server's own words ("Incorrect email or password", "... already exists"). */
function authError(error: unknown, mode: AuthMode): unknown {
  if (error instanceof ApiError && error.status === 422 && mode === "login") {
    return new ApiError(422, "Enter your email and password.");
  }
  return error;
}

/** The browser's IANA zone ("Europe/London"): due dates and "today" are the account's. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

export function useAuthenticate(mode: AuthMode) {
  return useMutation({
    mutationFn: async (body: Credentials) => {
      try {
        const call =
          mode === "login"
            ? api.POST("/api/auth/login", { body })
            : api.POST("/api/auth/register", { body: { ...body, timezone: browserTimeZone() } });
        return await unwrap(call);
      } catch (error) {
        throw authError(error, mode);
      }
    },
    onSuccess: start,
  });
}

export const meKey = ["me"] as const;

const meQuery = queryOptions({
  queryKey: meKey,
  queryFn: () => unwrap(api.GET("/api/auth/me")),
  staleTime: 5 * 60_000,
  retry: false,
});

/** Who the stored token belongs to; a 401 here sends the user back to the login screen. */
export function useMe() {
  return useQuery(meQuery);
}

const zonesChecked = new Map<string, boolean>();

/** A zone this browser's Intl knows (an older one may lack a newly named zone). */
function knownZone(zone: string | null | undefined): string | null {
  if (!zone) return null;
  if (!zonesChecked.has(zone)) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      zonesChecked.set(zone, true);
    } catch {
      zonesChecked.set(zone, false);
    }
  }
  return zonesChecked.get(zone) ? zone : null;
}

/** The account's time zone, which says what "today" is; the browser's until the account is known. */
export function useAccountZone(): string {
  // A failed check is the signed-in screen's to handle: asking again from here would put it
  // back into its loading state, which unmounts this, over and over.
  const me = useQuery({ ...meQuery, retryOnMount: false });
  return knownZone(me.data?.timezone) ?? knownZone(browserTimeZone()) ?? "UTC";
}
