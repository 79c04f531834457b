/** Render with a fresh QueryClient, as the app does, and a user-event instance. */
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { render, type RenderResult } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import type { ReactElement } from "react";

import { createQueryClient } from "../api/queryClient";
import { signIn } from "../auth/session";

export function renderWithClient(
  ui: ReactElement,
): RenderResult & { user: UserEvent; queryClient: QueryClient } {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { retry: false, staleTime: 0, gcTime: Infinity },
    mutations: { retry: false },
  });
  const user = userEvent.setup();
  return {
    user,
    queryClient,
    ...render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>),
  };
}

export function signInAsTester(): void {
  signIn({ token: "test-token", email: "tester@example.com" });
}
