import { afterEach, describe, expect, it, vi } from "vitest";

import { json, mockServer } from "../test/fetchMock";
import { task } from "../test/taskServer";
import { addToView, changeView, fetchTaskPage, nextOffsetOf, type TaskPages } from "./taskPages";

afterEach(() => vi.unstubAllGlobals());

function pages(...contents: Array<{ ids: number[]; next: number | null }>): TaskPages {
  return {
    pages: contents.map(({ ids, next }) => ({
      tasks: ids.map((id) => task(id, `task ${id}`)),
      nextOffset: next,
      total: 5,
    })),
    pageParams: contents.map((_, index) => index * 2),
  };
}

describe("nextOffsetOf", () => {
  it("reads the offset of the next page's link", () => {
    expect(nextOffsetOf('</api/tasks?status=all&limit=100&offset=200>; rel="next"')).toBe(200);
    expect(nextOffsetOf('</api/tasks?offset=3>; rel="prev", </api/tasks?offset=9>; rel=next')).toBe(9);
  });

  it("finds none on the last page", () => {
    expect(nextOffsetOf(null)).toBeNull();
    expect(nextOffsetOf('</api/tasks?offset=3>; rel="prev"')).toBeNull();
  });
});

describe("fetchTaskPage", () => {
  it("asks for one page of the view and reads where the next starts and the total", async () => {
    const server = mockServer({
      "GET /api/tasks": () => {
        const response = json([task(101, "a"), task(102, "b")]);
        response.headers.set(
          "Link",
          '</api/tasks?status=all&list=Shopping&limit=100&offset=200>; rel="next"',
        );
        response.headers.set("X-Total-Count", "250");
        return response;
      },
    });
    const page = await fetchTaskPage({ list: "Shopping" }, 100);
    expect(page.tasks.map((t) => t.id)).toEqual([101, 102]);
    expect(page.nextOffset).toBe(200);
    expect(page.total).toBe(250);
    expect(server.callsTo("GET /api/tasks")[0]?.search).toBe(
      "?status=all&list=Shopping&limit=100&offset=100",
    );
  });

  it("leaves the first page's offset out and knows a last page", async () => {
    const server = mockServer({ "GET /api/tasks": () => json([task(1, "only")]) });
    const page = await fetchTaskPage({}, 0);
    expect(page).toEqual({ tasks: [task(1, "only")], nextOffset: null, total: null });
    expect(server.callsTo("GET /api/tasks")[0]?.search).toBe("?status=all&limit=100");
  });
});

describe("changing the loaded pages", () => {
  it("changes tasks in every page and moves the total by as many as went", () => {
    const before = pages({ ids: [1, 2], next: 2 }, { ids: [3, 4], next: 4 });
    const after = changeView(before, (tasks) => tasks.filter((t) => t.id !== 3));
    expect(after.pages.map((page) => page.tasks.map((t) => t.id))).toEqual([[1, 2], [4]]);
    expect(after.pages.map((page) => page.total)).toEqual([4, 4]);
  });

  it("shows a new task at the end only once the last page is loaded, counting it either way", () => {
    const partial = addToView(pages({ ids: [1, 2], next: 2 }), task(9, "new"));
    expect(partial.pages[0]?.tasks.map((t) => t.id)).toEqual([1, 2]);
    expect(partial.pages[0]?.total).toBe(6);
    const whole = addToView(pages({ ids: [1, 2], next: 2 }, { ids: [3], next: null }), task(9, "new"));
    expect(whole.pages[1]?.tasks.map((t) => t.id)).toEqual([3, 9]);
    expect(addToView(undefined, task(9, "new")).pages).toEqual([
      { tasks: [task(9, "new")], nextOffset: null, total: 1 },
    ]);
  });
});
