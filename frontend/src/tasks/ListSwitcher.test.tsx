import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { renderWithClient, signInAsTester } from "../test/render";
import { task, taskServer } from "../test/taskServer";
import { Toaster } from "../ui/Toaster";
import { TaskPanel } from "./TaskPanel";

const lists = () => screen.getByRole("group", { name: "Lists" });
const listButton = (name: RegExp) => within(lists()).getByRole("button", { name });

describe("List switcher", () => {
  beforeEach(signInAsTester);

  it("shows All and each list with its pending count, All pressed at first", async () => {
    taskServer([
      task(1, "Buy milk", { list: "Shopping" }),
      task(2, "Buy bread", { list: "Shopping", completed: true }),
      task(3, "Call mom"),
    ]);
    renderWithClient(<TaskPanel />);

    expect(await within(lists()).findByRole("button", { name: "Shopping, 1 pending" })).toBeInTheDocument();
    expect(listButton(/^Inbox/)).toHaveAccessibleName("Inbox, 1 pending");
    expect(listButton(/^All/)).toHaveAccessibleName("All, 2 pending");
    expect(listButton(/^All/)).toHaveAttribute("aria-pressed", "true");
    expect(listButton(/^Shopping/)).toHaveAttribute("aria-pressed", "false");
  });

  it("shows only the chosen list's tasks, asking the server for that list", async () => {
    const server = taskServer([task(1, "Buy milk", { list: "Shopping" }), task(2, "Call mom")]);
    const { user } = renderWithClient(<TaskPanel />);
    await screen.findByRole("checkbox", { name: "Call mom" });

    await user.click(await within(lists()).findByRole("button", { name: /^Shopping/ }));

    await vi.waitFor(() =>
      expect(screen.queryByRole("checkbox", { name: "Call mom" })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole("checkbox", { name: "Buy milk" })).toBeInTheDocument();
    expect(server.taskQueries().at(-1)).toEqual({ status: "all", list: "Shopping" });
    expect(listButton(/^Shopping/)).toHaveAttribute("aria-pressed", "true");
    expect(listButton(/^All/)).toHaveAttribute("aria-pressed", "false");
    // Inside a list, the list's own name isn't repeated on each task.
    expect(screen.getByRole("checkbox", { name: "Buy milk" }).closest("li")).not.toHaveTextContent(
      "Shopping",
    );

    await user.click(listButton(/^All/));
    expect(await screen.findByRole("checkbox", { name: "Call mom" })).toBeInTheDocument();
    expect(server.taskQueries().at(-1)).toEqual({ status: "all" });
  });

  it("adds a task typed while a list is shown to that list, and updates the counts", async () => {
    const server = taskServer([]);
    const { user } = renderWithClient(<TaskPanel />);
    await user.click(await within(lists()).findByRole("button", { name: /^Shopping/ }));

    const input = screen.getByRole("textbox", { name: "New task" });
    expect(input).toHaveAttribute("placeholder", "Add a task to Shopping…");
    await user.type(input, "Buy eggs{Enter}");

    expect(server.callsTo("POST /api/tasks")[0]?.body).toEqual({ title: "Buy eggs", list: "Shopping" });
    expect(await screen.findByRole("checkbox", { name: "Buy eggs" })).toBeInTheDocument();
    expect(await within(lists()).findByRole("button", { name: "Shopping, 1 pending" })).toBeInTheDocument();
  });

  it("creates a list, then shows it (empty) with keyboard focus on it", async () => {
    const server = taskServer([task(1, "Call mom")]);
    const { user } = renderWithClient(<TaskPanel />);
    await within(lists()).findByRole("button", { name: /^Shopping/ });

    await user.click(screen.getByRole("button", { name: "New list" }));
    expect(screen.getByRole("button", { name: "New list" })).toHaveAttribute("aria-expanded", "true");
    const name = screen.getByRole("textbox", { name: "List name" });
    expect(name).toHaveFocus();
    await user.type(name, "Garden{Enter}");

    expect(server.callsTo("POST /api/lists")[0]?.body).toEqual({ name: "Garden" });
    const garden = await within(lists()).findByRole("button", { name: "Garden, 0 pending" });
    expect(garden).toHaveAttribute("aria-pressed", "true");
    await vi.waitFor(() => expect(garden).toHaveFocus());
    expect(screen.queryByRole("textbox", { name: "List name" })).not.toBeInTheDocument();
    expect(await screen.findByText(/Nothing in Garden yet/)).toBeInTheDocument();
  });

  it("says why a list wasn't created, and keeps the name to fix", async () => {
    taskServer([]);
    const { user } = renderWithClient(
      <>
        <TaskPanel />
        <Toaster />
      </>,
    );
    await within(lists()).findByRole("button", { name: /^Shopping/ });

    await user.click(screen.getByRole("button", { name: "New list" }));
    await user.type(screen.getByRole("textbox", { name: "List name" }), "shopping{Enter}");

    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't create the list. That list exists");
    expect(screen.getByRole("textbox", { name: "List name" })).toHaveValue("shopping");
  });

  it("puts the new-list form away with Escape, focus back on its button", async () => {
    taskServer([]);
    const { user } = renderWithClient(<TaskPanel />);
    await user.click(await screen.findByRole("button", { name: "New list" }));

    await user.keyboard("{Escape}");

    expect(screen.queryByRole("textbox", { name: "List name" })).not.toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByRole("button", { name: "New list" })).toHaveFocus());
  });
});
