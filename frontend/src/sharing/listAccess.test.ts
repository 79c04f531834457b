import { describe, expect, it } from "vitest";

import type { TaskList } from "../api/types";
import { canEdit, canShare, movableLists, sharingWords } from "./listAccess";

const list = (name: string, fields: Partial<TaskList> = {}): TaskList => ({
  name,
  pending: 0,
  total: 0,
  shared: false,
  role: "owner",
  members: 0,
  invited: 0,
  ...fields,
});

describe("what a person may do with a list", () => {
  it("shares only their own lists, never Inbox", () => {
    expect(canShare(list("Shopping"))).toBe(true);
    expect(canShare(list("Inbox"))).toBe(false);
    expect(canShare(list("inbox"))).toBe(false);
    expect(canShare(list("Trip", { role: "editor", owner: "sam@example.com" }))).toBe(false);
  });

  it("edits every list but one they may only view (an unknown one too: the server decides)", () => {
    expect(canEdit(list("Trip", { role: "editor" }))).toBe(true);
    expect(canEdit(list("Trip", { role: "viewer" }))).toBe(false);
    expect(canEdit(undefined)).toBe(true);
  });

  it("puts sharing into words: nothing for a list nobody else has", () => {
    expect(sharingWords(list("Shopping"))).toBeNull();
    expect(sharingWords(list("Shopping", { shared: true, members: 1 }))).toEqual({
      spoken: "shared",
      tooltip: "Shared with 1 person",
    });
    expect(sharingWords(list("Trip", { role: "viewer", owner: "sam@example.com", shared: true }))).toEqual({
      spoken: "shared by sam@example.com, view only",
      tooltip: "Shared by sam@example.com · view only",
    });
  });

  it("moves tasks only between lists of one owner, and only into lists that can be changed", () => {
    const all = [
      list("Inbox"),
      list("Shopping", { shared: true }),
      list("Groceries", { role: "editor", owner: "sam@example.com" }),
      list("Pantry", { role: "editor", owner: "SAM@example.com" }),
      list("Cellar", { role: "viewer", owner: "sam@example.com" }),
      list("Trip", { role: "editor", owner: "kim@example.com" }),
    ];
    expect(movableLists(all, "Shopping").map((l) => l.name)).toEqual(["Inbox", "Shopping"]);
    expect(movableLists(all, "groceries").map((l) => l.name)).toEqual(["Groceries", "Pantry"]);
    expect(movableLists(all, "Not loaded yet").map((l) => l.name)).toEqual(["Inbox", "Shopping"]);
  });
});
