import { afterEach, describe, expect, it, vi } from "vitest";

import { json, mockServer } from "../test/fetchMock";
import { task } from "../test/taskServer";
import { fetchAllTasks } from "./useTasks";

afterEach(() => vi.unstubAllGlobals());

describe("fetchAllTasks", () => {
  it("asks page after page until a short one, keeping the view's filters", async () => {
    const all = [1, 2, 3, 4, 5].map((id) => task(id, `task ${id}`));
    const server = mockServer({
      "GET /api/tasks": (call) => {
        const query = new URLSearchParams(call.search);
        const offset = Number(query.get("offset") ?? 0);
        return json(all.slice(offset, offset + Number(query.get("limit"))));
      },
    });
    const found = await fetchAllTasks({ list: "Shopping" }, 2);
    expect(found.map((t) => t.id)).toEqual([1, 2, 3, 4, 5]);
    expect(server.callsTo("GET /api/tasks").map((call) => call.search)).toEqual([
      "?status=all&list=Shopping&limit=2",
      "?status=all&list=Shopping&limit=2&offset=2",
      "?status=all&list=Shopping&limit=2&offset=4",
    ]);
  });

  it("asks once when the first page is not full", async () => {
    const server = mockServer({ "GET /api/tasks": () => json([task(1, "only")]) });
    expect((await fetchAllTasks({})).map((t) => t.title)).toEqual(["only"]);
    expect(server.callsTo("GET /api/tasks")).toHaveLength(1);
  });
});
