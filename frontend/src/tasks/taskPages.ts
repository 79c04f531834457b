/**
 * GET /api/tasks a page at a time: each page says where the next starts (its `Link` header,
 * rel="next") and how many tasks the view holds in all (`X-Total-Count`).
 */
import type { InfiniteData } from "@tanstack/react-query";

import { api } from "../api/client";
import { apiErrorFrom } from "../api/errors";
import type { Task } from "../api/types";
import type { TaskQueryParams } from "./taskView";

/** Tasks asked for a page (the server's default; it answers at most 1,000). */
export const TASK_PAGE = 100;

export interface TaskPage {
  tasks: Task[];
  /** Where the next page starts; null on the last. */
  nextOffset: number | null;
  /** Tasks in the view in all, or null if the server did not say. */
  total: number | null;
}

export type TaskPages = InfiniteData<TaskPage>;

/** The offset of the `rel="next"` target of a Link header (RFC 8288), if there is one. */
export function nextOffsetOf(link: string | null): number | null {
  for (const part of link?.split(",") ?? []) {
    const [target, ...relations] = part.split(";");
    if (!relations.some((relation) => /^\s*rel="?next"?\s*$/i.test(relation))) continue;
    const url = target?.trim().replace(/^</, "").replace(/>$/, "");
    const offset = Number(new URL(url ?? "", "http://link.invalid").searchParams.get("offset"));
    return Number.isInteger(offset) && offset > 0 ? offset : null;
  }
  return null;
}

function totalOf(header: string | null): number | null {
  const total = header === null ? NaN : Number(header);
  return Number.isInteger(total) && total >= 0 ? total : null;
}

export async function fetchTaskPage(
  params: TaskQueryParams,
  offset: number,
  signal: AbortSignal | null = null,
): Promise<TaskPage> {
  const query = { status: "all" as const, ...params, limit: TASK_PAGE, ...(offset > 0 && { offset }) };
  const { data, error, response } = await api.GET("/api/tasks", { params: { query }, signal });
  if (!response.ok || !data) throw apiErrorFrom(response, error);
  return {
    tasks: data,
    nextOffset: nextOffsetOf(response.headers.get("Link")),
    total: totalOf(response.headers.get("X-Total-Count")),
  };
}

/** The view's tasks loaded so far, in the server's order. */
export function loadedTasks(pages: TaskPages | undefined): Task[] {
  return pages?.pages.flatMap((page) => page.tasks) ?? [];
}

/** `pages` after `change`, the total moved by as many tasks as it added or removed. */
export function changeView(pages: TaskPages, change: (tasks: Task[]) => Task[]): TaskPages {
  const changed = { ...pages, pages: pages.pages.map((page) => ({ ...page, tasks: change(page.tasks) })) };
  return withTotal(changed, loadedTasks(changed).length - loadedTasks(pages).length);
}

function withTotal(pages: TaskPages, moved: number): TaskPages {
  if (moved === 0) return pages;
  return {
    ...pages,
    pages: pages.pages.map((page) => ({
      ...page,
      total: page.total === null ? null : Math.max(0, page.total + moved),
    })),
  };
}

/** A task just made, shown at the end of the view if its last page is loaded; counted either way. */
export function addToView(pages: TaskPages | undefined, task: Task): TaskPages {
  if (!pages || pages.pages.length === 0) {
    return { pages: [{ tasks: [task], nextOffset: null, total: 1 }], pageParams: [0] };
  }
  const last = pages.pages.length - 1;
  const shown: TaskPages = {
    ...pages,
    pages: pages.pages.map((page, index) =>
      index === last && page.nextOffset === null ? { ...page, tasks: [...page.tasks, task] } : page,
    ),
  };
  return withTotal(shown, 1);
}
