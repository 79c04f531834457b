import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import type { TaskList } from "../api/types";
import { TaskPanel } from "../tasks/TaskPanel";
import { renderWithClient, signInAsTester } from "../test/render";
import { task, taskServer } from "../test/taskServer";
import { Toaster } from "../ui/Toaster";

const ME = "tester@example.com";
const SAM = "sam@example.com";
const BY_SAM: Partial<TaskList> = { shared: true, owner: SAM, members: 2 };

const lists = () => screen.getByRole("group", { name: "Lists" });

function renderPanel() {
  return renderWithClient(
    <>
      <TaskPanel />
      <Toaster />
    </>,
  );
}

describe("A task on a shared list", () => {
  beforeEach(signInAsTester);

  it("says who added it, and who completed it once done: 'you' for the signed-in person", async () => {
    taskServer(
      [
        task(1, "Buy milk", { list: "Groceries", shared: true, added_by: ME }),
        task(2, "Buy eggs", {
          list: "Groceries",
          shared: true,
          completed: true,
          added_by: SAM.toUpperCase(),
          completed_by: "Tester@Example.com",
        }),
        task(3, "Call mom", { added_by: null }),
      ],
      { lists: ["Inbox", "Groceries"], sharing: { Groceries: { ...BY_SAM, role: "editor" } } },
    );
    renderPanel();

    const milk = await screen.findByRole("checkbox", { name: "Buy milk" });
    expect(milk.closest("li")).toHaveTextContent("Added by you");
    expect(milk).toHaveAccessibleDescription(expect.stringContaining("Added by you"));
    const eggs = screen.getByRole("checkbox", { name: "Buy eggs" });
    expect(eggs.closest("li")).toHaveTextContent(`Added by ${SAM.toUpperCase()} · completed by you`);
    expect(screen.getByRole("checkbox", { name: "Call mom" }).closest("li")).not.toHaveTextContent(
      /added by/i,
    );
  });

  it("doesn't say who completed a task that is not done", async () => {
    taskServer([task(1, "Buy milk", { list: "Groceries", shared: true, added_by: SAM, completed_by: SAM })], {
      lists: ["Inbox", "Groceries"],
      sharing: { Groceries: { ...BY_SAM, role: "editor" } },
    });
    renderPanel();
    const milk = await screen.findByRole("checkbox", { name: "Buy milk" });
    expect(milk.closest("li")).toHaveTextContent(`Added by ${SAM}`);
    expect(milk.closest("li")).not.toHaveTextContent("completed by");
  });
});

describe("A list the person may only view", () => {
  beforeEach(signInAsTester);

  function viewerServer() {
    return taskServer(
      [task(1, "Buy milk", { list: "Groceries", shared: true, added_by: SAM }), task(2, "Call mom")],
      { lists: ["Inbox", "Groceries"], sharing: { Groceries: { ...BY_SAM, role: "viewer" } } },
    );
  }

  it("offers nothing to change its tasks with, and says it can be viewed", async () => {
    viewerServer();
    const { user } = renderPanel();
    await user.click(await within(lists()).findByRole("button", { name: /^Groceries/ }));

    expect(await screen.findByText(`Shared by ${SAM} · You can view this list`)).toBeInTheDocument();
    const milk = await screen.findByRole("checkbox", { name: "Buy milk" });
    await vi.waitFor(() => expect(milk).toBeDisabled());
    expect(milk).toHaveAccessibleDescription(expect.stringContaining("View only"));
    expect(screen.queryByRole("button", { name: /Rename|Delete|Edit details/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "New task" })).not.toBeInTheDocument();
  });

  it("marks its tasks view only among every list's, the others still editable", async () => {
    viewerServer();
    renderPanel();

    const milk = await screen.findByRole("checkbox", { name: "Buy milk" });
    await vi.waitFor(() => expect(milk).toBeDisabled());
    expect(milk.closest("li")).toHaveTextContent("View only");
    expect(screen.getByRole("checkbox", { name: "Call mom" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Delete Call mom" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete Buy milk" })).not.toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "New task" })).toBeInTheDocument();
  });

  it("still shows the server's refusal when a change gets through (the role changed meanwhile)", async () => {
    // The lists still say editor; the server has made the person a viewer since.
    taskServer([task(1, "Buy milk", { list: "Groceries", shared: true })], {
      lists: ["Inbox", "Groceries"],
      sharing: { Groceries: { ...BY_SAM, role: "editor" } },
      refuse: () => "You can only view this list",
      refusalStatus: 403,
    });
    const { user } = renderPanel();

    await user.click(await screen.findByRole("checkbox", { name: "Buy milk" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Couldn't update the task. You can only view this list",
    );
    await vi.waitFor(() => expect(screen.getByRole("checkbox", { name: "Buy milk" })).not.toBeChecked());
  });
});

describe("Moving a task to another list", () => {
  beforeEach(signInAsTester);

  const server = () =>
    taskServer([task(1, "Call mom"), task(2, "Buy milk", { list: "Groceries", shared: true })], {
      lists: ["Inbox", "Shopping", "Groceries", "Pantry", "Trip"],
      sharing: {
        Groceries: { ...BY_SAM, role: "editor" },
        Pantry: { ...BY_SAM, role: "editor" },
        Trip: { shared: true, owner: "kim@example.com", role: "editor" },
      },
    });

  const listOptions = () =>
    within(screen.getByRole("combobox", { name: "List" }))
      .getAllByRole("option")
      .map((option) => option.textContent);

  it("offers only the lists its owner has, and that can be changed", async () => {
    server();
    const { user } = renderPanel();

    await user.click(await screen.findByRole("button", { name: "Edit details of Call mom" }));
    expect(listOptions()).toEqual(["Inbox", "Shopping"]);
    await user.click(screen.getByRole("button", { name: "Cancel" }));

    await user.click(screen.getByRole("button", { name: "Edit details of Buy milk" }));
    expect(listOptions()).toEqual(["Groceries", "Pantry"]);
  });
});
