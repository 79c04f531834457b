/**
 * Personal access tokens (GET/POST/DELETE /api/tokens) and the client settings to paste them
 * into (GET /api/connections) as query hooks. A new token's secret is in the POST's answer
 * only: the page shows it once.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";

export type TokenScope = components["schemas"]["TokenScope"];
export type TokenCreated = components["schemas"]["TokenCreated"];
export type ClientSettings = components["schemas"]["ClientSettings"];

export const tokensKey = ["access-tokens"] as const;

export function useTokens() {
  return useQuery({ queryKey: tokensKey, queryFn: () => unwrap(api.GET("/api/tokens")) });
}

export function useClientSettings() {
  return useQuery({
    queryKey: ["client-settings"],
    queryFn: () => unwrap(api.GET("/api/connections")),
    staleTime: Infinity,
  });
}

export function useMakeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; scope: TokenScope; expires_in_days: number | null }) =>
      unwrap(api.POST("/api/tokens", { body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: number) =>
      unwrap(api.DELETE("/api/tokens/{token_id}", { params: { path: { token_id: tokenId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

/** A client's settings as JSON text, with `token` where the placeholder stood. */
export function filledIn(settings: unknown, placeholder: string, token: string): string {
  return JSON.stringify(settings, null, 2).split(placeholder).join(token);
}
