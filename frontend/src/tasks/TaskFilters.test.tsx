import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { renderWithClient, signInAsTester } from "../test/render";
import { task, taskServer } from "../test/taskServer";
import { TaskPanel } from "./TaskPanel";

describe("Task filters and sort", () => {
  beforeEach(signInAsTester);

  it("filters by a tag clicked on a task, and stops when it is clicked again", async () => {
    const server = taskServer([
      task(1, "Buy milk", { tags: ["errands"] }),
      task(2, "Call mom", { tags: ["family"] }),
    ]);
    const { user } = renderWithClient(<TaskPanel />);
    const milk = (await screen.findByRole("checkbox", { name: "Buy milk" })).closest("li") as HTMLElement;

    await user.click(within(milk).getByRole("button", { name: "Filter by tag #errands" }));

    await vi.waitFor(() =>
      expect(screen.queryByRole("checkbox", { name: "Call mom" })).not.toBeInTheDocument(),
    );
    expect(server.taskQueries().at(-1)).toEqual({ status: "all", tag: "errands" });
    const tagOnTask = screen.getByRole("button", { name: "Filter by tag #errands" });
    expect(tagOnTask).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: "Stop filtering by tag #errands" })).toBeInTheDocument();

    await user.click(tagOnTask);
    expect(await screen.findByRole("checkbox", { name: "Call mom" })).toBeInTheDocument();
    expect(server.taskQueries().at(-1)).toEqual({ status: "all" });
  });

  it("removes the tag filter from its chip above the list", async () => {
    const server = taskServer([task(1, "Buy milk", { tags: ["errands"] }), task(2, "Call mom")]);
    const { user } = renderWithClient(<TaskPanel />);
    await user.click(await screen.findByRole("button", { name: "Filter by tag #errands" }));

    await user.click(await screen.findByRole("button", { name: "Stop filtering by tag #errands" }));

    expect(await screen.findByRole("checkbox", { name: "Call mom" })).toBeInTheDocument();
    expect(server.taskQueries().at(-1)).toEqual({ status: "all" });
  });

  it("asks the server for the chosen due filter, priority and order", async () => {
    const server = taskServer([task(1, "Buy milk")]);
    const { user } = renderWithClient(<TaskPanel />);
    await screen.findByRole("checkbox", { name: "Buy milk" });

    await user.selectOptions(screen.getByRole("combobox", { name: "Due" }), "Overdue");
    await vi.waitFor(() => expect(server.taskQueries().at(-1)).toEqual({ status: "all", due: "overdue" }));
    await user.selectOptions(screen.getByRole("combobox", { name: "Priority" }), "High");
    await user.selectOptions(screen.getByRole("combobox", { name: "Sort by" }), "Due date");

    await vi.waitFor(() =>
      expect(server.taskQueries().at(-1)).toEqual({
        status: "all",
        due: "overdue",
        priority: "high",
        sort: "due",
      }),
    );
    for (const [label, value] of [
      ["Today", "today"],
      ["This week", "this_week"],
      ["No date", "no_date"],
    ] as const) {
      await user.selectOptions(screen.getByRole("combobox", { name: "Due" }), label);
      await vi.waitFor(() => expect(server.taskQueries().at(-1)).toMatchObject({ due: value }));
    }
    for (const [label, value] of [
      ["Priority", "priority"],
      ["Title", "title"],
    ] as const) {
      await user.selectOptions(screen.getByRole("combobox", { name: "Sort by" }), label);
      await vi.waitFor(() => expect(server.taskQueries().at(-1)).toMatchObject({ sort: value }));
    }
    // The default order, by task number, is named for what it is.
    await user.selectOptions(screen.getByRole("combobox", { name: "Sort by" }), "Creation order");
    await vi.waitFor(() => expect(server.taskQueries().at(-1)).not.toHaveProperty("sort"));
  });

  it("keeps the server's order when sorting", async () => {
    taskServer([task(1, "Zebra"), task(2, "Apple")]);
    const { user } = renderWithClient(<TaskPanel />);
    await screen.findByRole("checkbox", { name: "Zebra" });

    await user.selectOptions(screen.getByRole("combobox", { name: "Sort by" }), "Title");

    await vi.waitFor(() => {
      const titles = screen.getAllByRole("checkbox").map((box) => box.getAttribute("data-task"));
      expect(titles).toEqual(["2", "1"]);
    });
  });

  it("says when nothing matches the filters, and clears them", async () => {
    const server = taskServer([task(1, "Buy milk")]);
    const { user } = renderWithClient(<TaskPanel />);
    await screen.findByRole("checkbox", { name: "Buy milk" });

    await user.selectOptions(screen.getByRole("combobox", { name: "Priority" }), "High");

    expect(await screen.findByText("No tasks match these filters.")).toBeInTheDocument();
    const clear = screen.getAllByRole("button", { name: "Clear filters" });
    await user.click(clear[clear.length - 1] as HTMLElement);
    expect(await screen.findByRole("checkbox", { name: "Buy milk" })).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Priority" })).toHaveValue("");
    expect(server.taskQueries().at(-1)).toEqual({ status: "all" });
  });
});
