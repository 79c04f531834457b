/**
 * The typed API client, generated from openapi.json (see `npm run gen:api`).
 * Its middleware adds the bearer token and is the one place that reacts to a 401
 * and to the server being unreachable.
 */
import createClient, { type Middleware } from "openapi-fetch";

import { getToken, signOut } from "../auth/session";
import { setConnectivity } from "./connectivity";
import { apiErrorFrom, NetworkError } from "./errors";
import type { paths } from "./schema";

export const SESSION_EXPIRED = "Your session has expired. Please log in again.";

const auth: Middleware = {
  onRequest({ request }) {
    const token = getToken();
    if (token) request.headers.set("Authorization", `Bearer ${token}`);
    return request;
  },
};

/** Any 401 to a request that carried a token: the token is no good, back to the login screen. */
const unauthorized: Middleware = {
  onResponse({ request, response }) {
    if (response.status === 401 && request.headers.has("Authorization")) {
      signOut(SESSION_EXPIRED);
    }
    return undefined;
  },
};

const connectivity: Middleware = {
  onResponse({ response }) {
    const down = response.status === 502 || response.status === 503 || response.status === 504;
    setConnectivity(down ? "unavailable" : "online");
    return undefined;
  },
  onError({ error }) {
    if (error instanceof DOMException && error.name === "AbortError") return undefined;
    setConnectivity("unreachable");
    return new NetworkError();
  },
};

export const api = createClient<paths>({
  baseUrl: typeof location === "undefined" ? "" : location.origin,
  // Looked up per call so tests can stub the global fetch.
  fetch: (request: Request) => globalThis.fetch(request),
});
api.use(auth, connectivity, unauthorized);

type Result<T> =
  { data: T; error?: never; response: Response } | { data?: never; error: unknown; response: Response };

/** Resolve with the body of a 2xx answer, or throw an ApiError with a readable message. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiErrorFrom(response, error);
  return data as T;
}
