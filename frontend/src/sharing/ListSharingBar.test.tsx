import { act, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";

import { TaskPanel } from "../tasks/TaskPanel";
import { renderWithClient, signInAsTester } from "../test/render";
import { task, taskServer } from "../test/taskServer";
import { refreshChanged } from "./liveChanges";

const SAM = "sam@example.com";
const lists = () => screen.getByRole("group", { name: "Lists" });

function server() {
  return taskServer([task(1, "Buy milk", { list: "Groceries", shared: true })], {
    lists: ["Inbox", "Shopping", "Garden", "Groceries", "Trip", "Books"],
    sharing: {
      Garden: { shared: true, members: 2, invited: 1 },
      Books: { invited: 2 },
      Groceries: { shared: true, role: "editor", owner: SAM, members: 1 },
      Trip: { shared: true, role: "viewer", owner: SAM, members: 3 },
    },
  });
}

describe("Shared lists in the list switcher", () => {
  beforeEach(signInAsTester);

  it("are marked: the owner's as shared, others' with their owner, a viewer's as view only", async () => {
    server();
    renderWithClient(<TaskPanel />);

    const garden = await within(lists()).findByRole("button", { name: "Garden, 0 pending, shared" });
    expect(garden).toHaveAttribute("title", "Shared with 2 people");
    const groceries = within(lists()).getByRole("button", {
      name: `Groceries, 1 pending, shared by ${SAM}`,
    });
    expect(groceries).toHaveAttribute("title", `Shared by ${SAM}`);
    const trip = within(lists()).getByRole("button", {
      name: `Trip, 0 pending, shared by ${SAM}, view only`,
    });
    expect(trip).toHaveAttribute("title", `Shared by ${SAM} · view only`);
    // A list nobody else has is as it was.
    expect(within(lists()).getByRole("button", { name: "Shopping, 0 pending" })).not.toHaveAttribute("title");
  });
});

describe("The bar under the list switcher", () => {
  beforeEach(signInAsTester);

  it("says how the list shown is shared, with Share for its owner and Members for the others", async () => {
    server();
    const { user } = renderWithClient(<TaskPanel />);
    expect(screen.queryByRole("button", { name: /^(Share|Members)/ })).not.toBeInTheDocument();

    await user.click(await within(lists()).findByRole("button", { name: /^Shopping/ }));
    expect(await screen.findByText("Only you have this list")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Share Shopping" })).toHaveAttribute("aria-haspopup", "dialog");

    await user.click(within(lists()).getByRole("button", { name: /^Garden/ }));
    expect(await screen.findByText("Shared with 2 people · 1 invitation pending")).toBeInTheDocument();

    await user.click(within(lists()).getByRole("button", { name: /^Books/ }));
    expect(await screen.findByText("Only you so far · 2 invitations pending")).toBeInTheDocument();

    await user.click(within(lists()).getByRole("button", { name: /^Groceries/ }));
    expect(await screen.findByText(`Shared by ${SAM} · You can edit this list`)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Members of Groceries" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "New task" })).toBeInTheDocument();

    await user.click(within(lists()).getByRole("button", { name: /^Trip/ }));
    expect(await screen.findByText(`Shared by ${SAM} · You can view this list`)).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "New task" })).not.toBeInTheDocument();
    expect(await screen.findByText("Nothing in Trip yet.")).toBeInTheDocument();
  });

  it("goes back to every list when the list shown is taken away elsewhere", async () => {
    const backend = server();
    const { user, queryClient } = renderWithClient(<TaskPanel />);
    await user.click(await within(lists()).findByRole("button", { name: /^Groceries/ }));
    await screen.findByRole("checkbox", { name: "Buy milk" });

    // Its owner removed the tester: the next `changed` event refreshes the lists.
    backend.dropList("Groceries");
    await act(async () => {
      refreshChanged(queryClient, ["lists", "tasks"]);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });

    await waitFor(() =>
      expect(within(lists()).getByRole("button", { name: /^All/ })).toHaveAttribute("aria-pressed", "true"),
    );
    expect(within(lists()).queryByRole("button", { name: /^Groceries/ })).not.toBeInTheDocument();
    expect(backend.taskQueries().at(-1)).toEqual({ status: "all" });
  });
});
