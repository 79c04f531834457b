/**
 * The QueryClient and the one handler for failed mutations: a toast with the mutation's
 * `meta.errorMessage` and the reason. 401s and unreachable servers are handled earlier,
 * by the API client's middleware; queries show their own inline error states.
 */
import { MutationCache, QueryClient } from "@tanstack/react-query";

import { showToast } from "../ui/toasts";
import { ApiError, describeError } from "./errors";

declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: { errorMessage?: string };
  }
}

function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError(error, _variables, _context, mutation) {
        const what = mutation.meta?.errorMessage;
        if (!what || (error instanceof ApiError && error.status === 401)) return;
        showToast(`${what}. ${describeError(error)}`);
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
}
