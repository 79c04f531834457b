import { act, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { json } from "../test/fetchMock";
import { signInAsTester, renderWithClient } from "../test/render";
import { task, taskServer } from "../test/taskServer";
import { TaskPanel } from "./TaskPanel";

/** An IntersectionObserver the test moves: `scrollNear()` says the sentinel came near. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly root: Element | null;
  readonly rootMargin: string;
  readonly thresholds: number[] = [];
  target: Element | null = null;
  disconnected = false;

  constructor(
    private readonly callback: IntersectionObserverCallback,
    options: IntersectionObserverInit = {},
  ) {
    this.root = options.root instanceof Element ? options.root : null;
    this.rootMargin = options.rootMargin ?? "";
    FakeObserver.all.push(this);
  }

  observe(target: Element) {
    this.target = target;
  }
  unobserve() {}
  disconnect() {
    this.disconnected = true;
  }
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }

  static async scrollNear() {
    const live = FakeObserver.all.filter((observer) => !observer.disconnected && observer.target);
    expect(live).toHaveLength(1);
    const observer = live[0] as FakeObserver;
    const entry = { isIntersecting: true, target: observer.target } as IntersectionObserverEntry;
    await act(async () => observer.callback([entry], observer as unknown as IntersectionObserver));
  }
}

/** The fake server answers at most PAGE tasks a page, so a few tasks make several pages. */
const PAGE = 10;
const MANY = Array.from({ length: 25 }, (_, index) => task(index + 1, `Task ${index + 1}`));

function pagesAsked(server: ReturnType<typeof taskServer>): string[] {
  return server
    .callsTo("GET /api/tasks")
    .map((call) => new URLSearchParams(call.search).get("offset") ?? "0");
}

describe("TaskPanel pages", () => {
  beforeEach(signInAsTester);
  afterEach(() => {
    FakeObserver.all = [];
  });

  it("shows the first page and how many tasks there are in all", async () => {
    const server = taskServer(MANY, { pageSize: PAGE });
    renderWithClient(<TaskPanel />);

    expect(await screen.findByText("Showing 10 of 25 tasks")).toBeInTheDocument();
    expect(screen.getAllByRole("checkbox")).toHaveLength(10);
    expect(screen.getByText("25 tasks")).toBeInTheDocument();
    expect(pagesAsked(server)).toEqual(["0"]);
  });

  it("loads the next page as the end of the list scrolls near, until every task is in", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    const server = taskServer(MANY, { pageSize: PAGE });
    renderWithClient(<TaskPanel />);
    await screen.findByText("Showing 10 of 25 tasks");

    await FakeObserver.scrollNear();
    expect(await screen.findByText("Showing 20 of 25 tasks")).toBeInTheDocument();
    await FakeObserver.scrollNear();
    expect(await screen.findByRole("checkbox", { name: "Task 25" })).toBeInTheDocument();

    expect(pagesAsked(server)).toEqual(["0", "10", "20"]);
    expect(screen.getAllByRole("checkbox")).toHaveLength(25);
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
    expect(screen.getByText("25 pending · 0 done")).toBeInTheDocument();
    expect(FakeObserver.all.every((observer) => observer.disconnected)).toBe(true);
  });

  it("watches for the list's end ahead of it being seen", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    taskServer(MANY, { pageSize: PAGE });
    renderWithClient(<TaskPanel />);
    await screen.findByText("Showing 10 of 25 tasks");
    const live = FakeObserver.all.filter((observer) => !observer.disconnected);
    expect(live.map((observer) => observer.rootMargin)).toEqual(["300px"]);
  });

  it("loads the next page from the Load more button where the browser cannot observe", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    const server = taskServer(MANY, { pageSize: PAGE });
    const { user } = renderWithClient(<TaskPanel />);
    await screen.findByText("Showing 10 of 25 tasks");

    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("Showing 20 of 25 tasks")).toBeInTheDocument();
    expect(pagesAsked(server)).toEqual(["0", "10"]);
  });

  it("keeps the filters on the next page and counts only what passes them", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    const mixed = MANY.map((one) => ({ ...one, list: one.id % 2 === 1 ? "Shopping" : "Inbox" }));
    const server = taskServer(mixed, { pageSize: PAGE });
    const { user } = renderWithClient(<TaskPanel />);
    await screen.findByText("Showing 10 of 25 tasks");

    await user.click(screen.getByRole("button", { name: /^Shopping/ }));
    expect(await screen.findByText("Showing 10 of 13 tasks")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("13 pending · 0 done")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
    expect(server.taskQueries().slice(-2)).toEqual([
      { status: "all", list: "Shopping" },
      { status: "all", list: "Shopping" },
    ]);
    expect(pagesAsked(server).slice(-2)).toEqual(["0", "10"]);
  });

  it("says when the next page could not be loaded and tries again from the button", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    const server = taskServer(MANY, { pageSize: PAGE });
    const { user } = renderWithClient(<TaskPanel />);
    await screen.findByText("Showing 10 of 25 tasks");
    server.fetchMock.mockImplementationOnce(async () => json({ detail: "Database unavailable" }, 503));

    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't load more tasks.");
    expect(screen.getAllByRole("checkbox")).toHaveLength(10);

    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("Showing 20 of 25 tasks")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("edits a task of a later page in place", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    const server = taskServer(MANY, { pageSize: PAGE });
    const { user } = renderWithClient(<TaskPanel />);
    await screen.findByText("Showing 10 of 25 tasks");
    await user.click(screen.getByRole("button", { name: "Load more" }));
    const later = await screen.findByRole("checkbox", { name: "Task 15" });

    await user.click(later);
    expect(server.callsTo("PATCH /api/tasks/15")[0]?.body).toEqual({ completed: true });
    const completed = screen
      .getByRole("heading", { name: "Completed" })
      .closest(".task-group") as HTMLElement;
    await vi.waitFor(() =>
      expect(within(completed).getByRole("checkbox", { name: "Task 15" })).toBeChecked(),
    );
    expect(screen.getByText("Showing 20 of 25 tasks")).toBeInTheDocument();
  });
});
