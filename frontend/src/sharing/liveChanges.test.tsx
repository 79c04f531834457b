import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import { App } from "../App";
import { createQueryClient } from "../api/queryClient";
import type { Task } from "../api/types";
import { controlledEventStream, json, sse } from "../test/fetchMock";
import { signedInServer, task } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { refreshChanged, toChange, useLiveChanges, GATHER_MS } from "./liveChanges";

/** The query keys invalidated, as ["tasks"], ["lists"], ["invitations"]. */
function invalidations(spy: { mock: { calls: unknown[][] } }) {
  return spy.mock.calls.map((call) => (call[0] as { queryKey: readonly string[] }).queryKey);
}

function hookWithClient() {
  const queryClient = createQueryClient();
  const spy = vi.spyOn(queryClient, "invalidateQueries");
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const { result, unmount } = renderHook(() => useLiveChanges(), { wrapper });
  return { queryClient, spy, onChanged: result.current, unmount };
}

describe("A `changed` event", () => {
  beforeEach(signInAsTester);

  it("is read from the stream's event, and only from a `changed` one", () => {
    expect(toChange({ event: "changed", data: '{"kinds": ["lists", "invitations"]}' })).toEqual([
      "lists",
      "invitations",
    ]);
    expect(toChange({ event: "reminder", data: '{"kinds": ["lists"]}' })).toBeNull();
    expect(toChange({ event: "changed", data: '{"kinds": []}' })).toBeNull();
    expect(toChange({ event: "changed", data: "{" })).toBeNull();
  });

  it("refreshes the tasks and the lists' counts for tasks, the lists for lists, invitations for invitations", () => {
    const queryClient = createQueryClient();
    const spy = vi.spyOn(queryClient, "invalidateQueries");

    refreshChanged(queryClient, ["tasks"]);
    expect(invalidations(spy)).toEqual([["tasks"], ["lists"]]);

    spy.mockClear();
    refreshChanged(queryClient, ["lists"]);
    expect(invalidations(spy)).toEqual([["lists"]]);

    spy.mockClear();
    refreshChanged(queryClient, ["invitations"]);
    expect(invalidations(spy)).toEqual([["invitations"]]);
  });

  it("refreshes once for a burst of changes", async () => {
    const { spy, onChanged } = hookWithClient();

    onChanged(["tasks"]);
    onChanged(["lists"]);
    onChanged(["tasks", "invitations"]);
    expect(spy).not.toHaveBeenCalled();

    await vi.waitFor(() => expect(invalidations(spy)).toHaveLength(3));
    expect(invalidations(spy)).toEqual([["tasks"], ["lists"], ["invitations"]]);
  });

  it("waits for an edit of ours to land before refreshing", async () => {
    const { queryClient, spy, onChanged } = hookWithClient();
    const mutating = vi.spyOn(queryClient, "isMutating").mockReturnValue(1);

    onChanged(["tasks"]);
    await new Promise((resolve) => setTimeout(resolve, GATHER_MS * 3));
    expect(spy).not.toHaveBeenCalled();

    mutating.mockReturnValue(0);
    await vi.waitFor(() => expect(invalidations(spy)).toEqual([["tasks"], ["lists"]]));
  });

  it("is dropped once the app has gone (signed out)", async () => {
    const { spy, onChanged, unmount } = hookWithClient();
    onChanged(["tasks"]);
    unmount();
    await new Promise((resolve) => setTimeout(resolve, GATHER_MS * 2));
    expect(spy).not.toHaveBeenCalled();
  });
});

describe("Live updates in the app", () => {
  beforeEach(signInAsTester);

  it("show another member's new task, a newly shared list and a new invitation without a reload", async () => {
    const stream = controlledEventStream();
    let tasks: Task[] = [task(1, "Buy milk")];
    let lists = [{ name: "Inbox", pending: 1, total: 1, shared: false, role: "owner", members: 0 }];
    let invitations: unknown[] = [];
    signedInServer({
      "GET /api/reminders/stream": () => stream.response,
      "GET /api/tasks": () => json(tasks),
      "GET /api/lists": () => json(lists),
      "GET /api/invitations": () => json(invitations),
    });
    renderWithClient(<App />);
    await screen.findByRole("checkbox", { name: "Buy milk" });

    tasks = [...tasks, { ...task(2, "Buy eggs"), shared: true, added_by: "sam@example.com" }];
    lists = [
      ...lists,
      {
        name: "Groceries",
        pending: 1,
        total: 1,
        shared: true,
        role: "editor",
        members: 1,
        owner: "sam@example.com",
      } as (typeof lists)[number],
    ];
    invitations = [
      {
        id: 9,
        list: "Trip",
        email: "tester@example.com",
        role: "viewer",
        status: "pending",
        owner: "kim@example.com",
      },
    ];
    await act(async () => {
      stream.send(sse("changed", { kinds: ["tasks"] }));
      stream.send(sse("changed", { kinds: ["invitations"] }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    });

    expect(await screen.findByRole("checkbox", { name: "Buy eggs" })).toBeInTheDocument();
    expect(screen.getByText("Added by sam@example.com")).toBeInTheDocument();
    const switcher = screen.getByRole("group", { name: "Lists" });
    expect(
      await within(switcher).findByRole("button", {
        name: "Groceries, 1 pending, shared by sam@example.com",
      }),
    ).toBeInTheDocument();
    const notice = await screen.findByRole("region", { name: "Invitations" });
    expect(notice).toHaveTextContent("kim@example.com invited you to Trip as a viewer (view only).");
  });
});
