/**
 * A small in-memory task API for the task panel's tests: tasks and lists that later
 * requests see changed, GET /api/tasks's list/tag/priority filters and its pages (`limit`,
 * `offset`, the `Link` and `X-Total-Count` headers), and the account's zone.
 */
import type { Task, TaskList } from "../api/types";
import { json, mockServer, noContent, type Call } from "./fetchMock";
import { AT } from "./fixtures";

export function task(id: number, title: string, fields: Partial<Task> = {}): Task {
  return {
    id,
    title,
    description: null,
    completed: false,
    created_at: AT,
    updated_at: AT,
    due_date: null,
    due_time: null,
    due_at: null,
    priority: "none",
    list: "Inbox",
    tags: [],
    repeat: null,
    repeat_from: "schedule",
    repeat_text: null,
    remind_at: null,
    remind_before: null,
    shared: false,
    ...fields,
  };
}

interface Options {
  lists?: string[];
  timezone?: string;
  /** The server's refusal (a 422's detail) of an edit, or null to accept it. */
  refuse?: (changes: Partial<Task>) => string | null;
  /** The most tasks a page holds, whatever the client asks (the real server: 1,000). */
  pageSize?: number;
  /** The status of a refusal: 422 unless told (403: a viewer's edit). */
  refusalStatus?: number;
  /** How each list is shared, by name (not shared unless told). */
  sharing?: Record<string, Partial<TaskList>>;
  /** More routes ("METHOD /path", the path as sent: URL-encoded), answered before the task API's. */
  routes?: Record<string, (call: Call) => Response>;
}

/**
 * The reminder after an edit, as the server would have it in a UTC account: an instant
 * asked for (read on the account's clock when it has no offset), minutes before the due
 * time (09:00 for an all-day task), or none.
 */
function reminded(edited: Task, changes: Partial<Task>): Partial<Task> {
  if (changes.remind_at === null || changes.remind_before === null)
    return { remind_at: null, remind_before: null };
  if (typeof changes.remind_at === "string") {
    const at = /[zZ]|[+-]\d\d:\d\d$/.test(changes.remind_at) ? changes.remind_at : `${changes.remind_at}Z`;
    return { remind_at: new Date(at).toISOString(), remind_before: null };
  }
  if (typeof changes.remind_before === "number") {
    const due = Date.parse(`${edited.due_date}T${edited.due_time ?? "09:00"}:00Z`);
    return {
      remind_at: new Date(due - changes.remind_before * 60_000).toISOString(),
      remind_before: changes.remind_before,
    };
  }
  return {};
}

const byTitle = (a: Task, b: Task) => a.title.localeCompare(b.title);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The filters a test can check the result of; the due filter is the server's (zone) business. */
function matches(task: Task, query: URLSearchParams): boolean {
  const list = query.get("list");
  const tag = query.get("tag");
  const priority = query.get("priority");
  return (
    (list === null || same(task.list, list)) &&
    (tag === null || (task.tags ?? []).includes(tag)) &&
    (priority === null || task.priority === priority)
  );
}

/**
 * One page of `found`, as the server answers it: at most `limit` tasks (and at most its own
 * page size), the next page's link while more follow, and the total.
 */
function page(found: Task[], query: URLSearchParams, pageSize: number): Response {
  const limit = Math.min(Number(query.get("limit") ?? 100), pageSize);
  const offset = Number(query.get("offset") ?? 0);
  const response = json(found.slice(offset, offset + limit));
  response.headers.set("X-Total-Count", String(found.length));
  if (offset + limit < found.length) {
    const next = new URLSearchParams(query);
    next.set("limit", String(limit));
    next.set("offset", String(offset + limit));
    response.headers.set("Link", `</api/tasks?${next.toString()}>; rel="next"`);
  }
  return response;
}

export function taskServer(
  initial: Task[],
  {
    lists = ["Inbox", "Shopping"],
    timezone = "UTC",
    refuse = () => null,
    pageSize = 1000,
    refusalStatus = 422,
    sharing = {},
    routes = {},
  }: Options = {},
) {
  let tasks = [...initial];
  let listNames = [...lists];
  const idOf = (call: Call) => Number(call.path.split("/").pop());
  const counts = (): TaskList[] =>
    listNames.map((name) => {
      const mine = tasks.filter((t) => same(t.list, name));
      return {
        name,
        total: mine.length,
        pending: mine.filter((t) => !t.completed).length,
        shared: false,
        role: "owner",
        members: 0,
        invited: 0,
        ...sharing[name],
      };
    });
  const addList = (name: string) => {
    if (!listNames.some((known) => same(known, name))) listNames = [...listNames, name];
  };

  function answer(call: Call): Response {
    const route = `${call.method} ${call.path}`;
    const extra = routes[route];
    if (extra) return extra(call);
    if (route === "GET /api/auth/me") return json({ id: 1, email: "tester@example.com", timezone });
    if (route === "GET /api/lists") return json(counts());
    if (route === "POST /api/lists") {
      const name = (call.body as { name: string }).name;
      if (listNames.some((known) => same(known, name))) return json({ detail: "That list exists" }, 409);
      addList(name);
      return json({ name, pending: 0, total: 0 }, 201);
    }
    if (route === "GET /api/tasks") {
      const query = new URLSearchParams(call.search);
      const found = tasks.filter((t) => matches(t, query));
      return page(query.get("sort") === "title" ? found.sort(byTitle) : found, query, pageSize);
    }
    if (route === "POST /api/tasks") {
      const created = task(tasks.length + 10, "", call.body as Partial<Task>);
      if (created.list) addList(created.list);
      tasks = [...tasks, created];
      return json(created, 201);
    }
    if (call.method === "PATCH" && call.path.startsWith("/api/tasks/")) {
      const changes = call.body as Partial<Task>;
      const refusal = refuse(changes);
      if (refusal) return json({ detail: refusal }, refusalStatus);
      if (changes.list) addList(changes.list);
      tasks = tasks.map((t) =>
        t.id === idOf(call) ? { ...t, ...changes, ...reminded({ ...t, ...changes }, changes) } : t,
      );
      return json(tasks.find((t) => t.id === idOf(call)));
    }
    if (call.method === "DELETE" && call.path.startsWith("/api/tasks/")) {
      tasks = tasks.filter((t) => t.id !== idOf(call));
      return noContent();
    }
    return json({ detail: "Not Found" }, 404);
  }

  const server = mockServer({});
  server.fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const url = new URL(request.url);
    const text = await request.text();
    const call: Call = {
      method: request.method,
      path: url.pathname,
      search: url.search,
      headers: request.headers,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    server.calls.push(call);
    return answer(call);
  });
  return {
    ...server,
    /** A list joins (an invitation accepted) or goes (left, taken away), as another request would do it. */
    addList,
    dropList: (name: string) => {
      listNames = listNames.filter((known) => !same(known, name));
      tasks = tasks.filter((t) => !same(t.list, name));
    },
    /** Another member's edit, seen by the next request. */
    setTasks: (next: Task[]) => (tasks = [...next]),
    /** The view each GET /api/tasks asked for, e.g. { status: "all", list: "Shopping" } (paging left out). */
    taskQueries: () =>
      server.callsTo("GET /api/tasks").map((call) => {
        const query = new URLSearchParams(call.search);
        query.delete("limit");
        query.delete("offset");
        return Object.fromEntries(query);
      }),
  };
}
