import { describe, expect, it } from "vitest";

import { describeView, EVERY_TASK, newTaskFields, queryParams } from "./taskView";

describe("taskView", () => {
  it("asks for every task with no parameters beyond the status by default", () => {
    expect(queryParams(EVERY_TASK)).toEqual({});
    expect(queryParams({ ...EVERY_TASK, list: "Shopping", sort: "due" })).toEqual({
      list: "Shopping",
      sort: "due",
    });
  });

  it("makes a task typed in a view belong to it: list, tag, priority, and a day the due filter names", () => {
    const today = "2026-11-26";
    expect(newTaskFields(EVERY_TASK, today)).toEqual({});
    expect(
      newTaskFields(
        { ...EVERY_TASK, list: "Shopping", tag: "weekly", priority: "high", due: "tomorrow" },
        today,
      ),
    ).toEqual({ list: "Shopping", tags: ["weekly"], priority: "high", due_date: "2026-11-27" });
    expect(newTaskFields({ ...EVERY_TASK, due: "this_week" }, today)).toEqual({ due_date: today });
    // No new task is overdue, and "no date" needs none.
    expect(newTaskFields({ ...EVERY_TASK, due: "overdue" }, today)).toEqual({});
    expect(newTaskFields({ ...EVERY_TASK, due: "no_date", priority: "none" }, today)).toEqual({});
  });

  it("says what a view shows in words, for the screen reader's announcement", () => {
    expect(describeView(EVERY_TASK)).toBe("All lists");
    expect(
      describeView({ ...EVERY_TASK, list: "Shopping", due: "today", priority: "high", tag: "home" }),
    ).toBe("Shopping, due today, high priority, tagged #home");
    expect(describeView({ ...EVERY_TASK, due: "overdue" })).toBe("All lists, overdue");
  });
});
