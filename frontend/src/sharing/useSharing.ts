/**
 * A list's members and invitations (GET/POST/PATCH/DELETE /api/lists/{name}/members) as
 * TanStack Query hooks. The members sit under the lists' key, so whatever refreshes the lists
 * (a `changed` event, an edit) refreshes an open Share dialog too. Refusals are the caller's
 * to show: the dialog is modal, a toast would be out of reach behind it.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";

import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import type { TaskList } from "../api/types";
import { listsKey } from "../tasks/useLists";
import { refreshTasks, tasksKey } from "../tasks/useTasks";

export type Membership = components["schemas"]["MembershipPublic"];
export type MemberRole = components["schemas"]["MemberRole"];

export const membersKey = (list: string) => [...listsKey, "members", list] as const;

/** The path of one list (openapi-fetch URL-encodes the name). */
const onList = (list: string) => ({ path: { name: list } });
const onMember = (list: string, id: number) => ({ path: { name: list, member_id: id } });

function setMembers(queryClient: QueryClient, list: string, change: (members: Membership[]) => Membership[]) {
  queryClient.setQueryData<Membership[]>(membersKey(list), (members) => members && change(members));
}

export function useMembers(list: string) {
  return useQuery({
    queryKey: membersKey(list),
    queryFn: ({ signal }) => unwrap(api.GET("/api/lists/{name}/members", { params: onList(list), signal })),
  });
}

export function useInvite(list: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: MemberRole }) =>
      unwrap(api.POST("/api/lists/{name}/members", { params: onList(list), body })),
    onSuccess: (invited) => setMembers(queryClient, list, (members) => [...members, invited]),
    onSettled: () => queryClient.invalidateQueries({ queryKey: listsKey }),
  });
}

export function useChangeRole(list: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: number; role: MemberRole }) =>
      unwrap(
        api.PATCH("/api/lists/{name}/members/{member_id}", { params: onMember(list, id), body: { role } }),
      ),
    onSuccess: (changed) =>
      setMembers(queryClient, list, (members) => members.map((m) => (m.id === changed.id ? changed : m))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersKey(list) }),
  });
}

/** The owner removes a member or withdraws an invitation; a member, given their own id, leaves. */
export function useRemoveMember(list: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE("/api/lists/{name}/members/{member_id}", { params: onMember(list, id) })),
    onSuccess: (_nothing, id) =>
      setMembers(queryClient, list, (members) => members.filter((m) => m.id !== id)),
    // Who can see the list's tasks changed, and with it their "added by" lines.
    onSettled: () => refreshTasks(queryClient),
  });
}

export function useLeaveList(list: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ownId: number) =>
      unwrap(api.DELETE("/api/lists/{name}/members/{member_id}", { params: onMember(list, ownId) })),
    onSuccess: () =>
      queryClient.setQueryData<TaskList[]>(listsKey, (lists) =>
        lists?.filter((known) => known.name !== list),
      ),
    // Not the members: the list is no longer the caller's to ask about.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: tasksKey });
      void queryClient.invalidateQueries({ queryKey: listsKey, exact: true });
    },
  });
}

export function useStopSharing(list: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/lists/{name}/members", { params: onList(list) })),
    onSuccess: () => queryClient.setQueryData<Membership[]>(membersKey(list), []),
    onSettled: () => refreshTasks(queryClient),
  });
}
