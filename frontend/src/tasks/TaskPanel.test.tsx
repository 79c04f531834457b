import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { signInAsTester, renderWithClient } from "../test/render";
import { json } from "../test/fetchMock";
import { task, taskServer } from "../test/taskServer";
import { Toaster } from "../ui/Toaster";
import { TaskPanel } from "./TaskPanel";

describe("TaskPanel", () => {
  beforeEach(signInAsTester);

  it("lists pending and completed tasks with their numbers", async () => {
    taskServer([task(1, "Buy milk"), task(3, "Call mom", { completed: true })]);
    renderWithClient(<TaskPanel />);

    const region = screen.getByRole("region", { name: "Tasks" });
    const pending = await within(region).findByRole("heading", { name: "Pending" });
    expect(within(region).getByRole("heading", { name: "Completed" })).toBeInTheDocument();
    const items = within(region).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("#1");
    expect(within(items[0] as HTMLElement).getByRole("checkbox", { name: "Buy milk" })).not.toBeChecked();
    expect(within(items[1] as HTMLElement).getByRole("checkbox", { name: "Call mom" })).toBeChecked();
    expect(items[1]).toHaveTextContent("#3");
    expect(pending).toBeInTheDocument();
  });

  it("shows a task's description under its title", async () => {
    taskServer([task(1, "Call mom", { description: "about the new phone" })]);
    renderWithClient(<TaskPanel />);

    const checkbox = await screen.findByRole("checkbox", { name: "Call mom" });
    expect(checkbox).toHaveAccessibleDescription("about the new phone");
    expect(screen.getByText("about the new phone")).toBeVisible();
  });

  it("says when there are no tasks yet", async () => {
    taskServer([]);
    renderWithClient(<TaskPanel />);
    expect(await screen.findByText("No tasks yet")).toBeInTheDocument();
  });

  it("completes and reopens a task with its checkbox", async () => {
    const server = taskServer([task(2, "Buy milk")]);
    const { user } = renderWithClient(<TaskPanel />);

    await user.click(await screen.findByRole("checkbox", { name: "Buy milk" }));
    expect(server.callsTo("PATCH /api/tasks/2")[0]?.body).toEqual({ completed: true });
    await vi.waitFor(() => expect(screen.getByRole("checkbox", { name: "Buy milk" })).toBeChecked());

    await user.click(screen.getByRole("checkbox", { name: "Buy milk" }));
    expect(server.callsTo("PATCH /api/tasks/2")[1]?.body).toEqual({ completed: false });
    await vi.waitFor(() => expect(screen.getByRole("checkbox", { name: "Buy milk" })).not.toBeChecked());
  });

  it("shows the new state at once and keeps keyboard focus on a task that changes section", async () => {
    taskServer([task(2, "Buy milk"), task(3, "Call mom")]);
    const { user } = renderWithClient(<TaskPanel />);
    const checkbox = await screen.findByRole("checkbox", { name: "Buy milk" });

    checkbox.focus();
    await user.keyboard(" ");

    await vi.waitFor(() => {
      const moved = screen.getByRole("checkbox", { name: "Buy milk" });
      expect(moved).toBeChecked();
      expect(moved).toHaveFocus();
    });
  });

  it("renames a task inline: Enter saves", async () => {
    const server = taskServer([task(4, "Buy milk")]);
    const { user } = renderWithClient(<TaskPanel />);

    await user.click(await screen.findByRole("button", { name: "Rename Buy milk" }));
    const input = screen.getByRole("textbox", { name: "New title for Buy milk" });
    expect(input).toHaveFocus();
    await user.clear(input);
    await user.type(input, "Buy oat milk{Enter}");

    expect(server.callsTo("PATCH /api/tasks/4")[0]?.body).toEqual({ title: "Buy oat milk" });
    expect(await screen.findByRole("checkbox", { name: "Buy oat milk" })).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: /New title for/ })).not.toBeInTheDocument();
  });

  it("renames a task inline: Escape cancels", async () => {
    const server = taskServer([task(4, "Buy milk")]);
    const { user } = renderWithClient(<TaskPanel />);

    await user.click(await screen.findByRole("button", { name: "Rename Buy milk" }));
    await user.type(screen.getByRole("textbox", { name: "New title for Buy milk" }), " and eggs{Escape}");

    expect(screen.queryByRole("textbox", { name: /New title for/ })).not.toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Buy milk" })).toBeInTheDocument();
    expect(server.callsTo("PATCH /api/tasks/4")).toHaveLength(0);
  });

  it("deletes a task", async () => {
    const server = taskServer([task(1, "Buy milk"), task(2, "Call mom")]);
    const { user } = renderWithClient(<TaskPanel />);

    await user.click(await screen.findByRole("button", { name: "Delete Buy milk" }));

    expect(server.callsTo("DELETE /api/tasks/1")).toHaveLength(1);
    await vi.waitFor(() =>
      expect(screen.queryByRole("checkbox", { name: "Buy milk" })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole("checkbox", { name: "Call mom" })).toBeInTheDocument();
  });

  it("adds a task typed into the panel", async () => {
    const server = taskServer([]);
    const { user } = renderWithClient(<TaskPanel />);

    await user.type(await screen.findByRole("textbox", { name: "New task" }), "Water plants{Enter}");

    expect(server.callsTo("POST /api/tasks")[0]?.body).toEqual({ title: "Water plants" });
    expect(await screen.findByRole("checkbox", { name: "Water plants" })).toBeInTheDocument();
  });

  it("puts a task back and says why when the server refuses an edit", async () => {
    const server = taskServer([task(5, "Buy milk")]);
    const { user } = renderWithClient(
      <>
        <TaskPanel />
        <Toaster />
      </>,
    );
    const checkbox = await screen.findByRole("checkbox", { name: "Buy milk" });
    server.fetchMock.mockResolvedValueOnce(json({ detail: "Task not found" }, 404));

    await user.click(checkbox);

    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't update the task. Task not found");
    await vi.waitFor(() => expect(screen.getByRole("checkbox", { name: "Buy milk" })).not.toBeChecked());
  });
});
