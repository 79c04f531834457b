import { screen, within } from "@testing-library/react";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import type { TaskList } from "../api/types";
import { emulateDialog } from "../settings/emulateDialog";
import { TaskPanel } from "../tasks/TaskPanel";
import { json, noContent, type Call } from "../test/fetchMock";
import { renderWithClient, signInAsTester } from "../test/render";
import { task, taskServer } from "../test/taskServer";
import type { Membership } from "./useSharing";

const ME = "tester@example.com";

function member(id: number, email: string, fields: Partial<Membership> = {}): Membership {
  return { id, list: "Shopping", email, role: "editor", status: "accepted", owner: ME, ...fields };
}

const lists = () => screen.getByRole("group", { name: "Lists" });

/** The task panel on `list`, then its Share (or Members) dialog opened from the bar under the switcher. */
async function openSharing(list: string, button: string) {
  const rendered = renderWithClient(<TaskPanel />);
  await rendered.user.click(await within(lists()).findByRole("button", { name: new RegExp(`^${list}`) }));
  await rendered.user.click(await screen.findByRole("button", { name: button }));
  return rendered;
}

/** Shopping, shared by its owner (the tester) with Sam; Kim invited, not answered yet. */
function ownerServer(refuseInvite: string | null = null) {
  let members = [
    member(3, "sam@example.com"),
    member(4, "kim@example.com", { role: "viewer", status: "pending" }),
  ];
  const sharing: Record<string, Partial<TaskList>> = { Shopping: { shared: true, members: 1 } };
  const server = taskServer([task(1, "Buy milk", { list: "Shopping", shared: true })], {
    sharing,
    routes: {
      "GET /api/lists/Shopping/members": () => json(members),
      "POST /api/lists/Shopping/members": (call: Call) => {
        if (refuseInvite) return json({ detail: refuseInvite }, 409);
        const body = call.body as { email: string; role: "editor" | "viewer" };
        const invited = member(5, body.email, { role: body.role, status: "pending" });
        members = [...members, invited];
        return json(invited, 201);
      },
      "PATCH /api/lists/Shopping/members/3": (call: Call) => {
        members = members.map((m) => (m.id === 3 ? { ...m, ...(call.body as Partial<Membership>) } : m));
        return json(members.find((m) => m.id === 3));
      },
      "DELETE /api/lists/Shopping/members/3": () => {
        members = members.filter((m) => m.id !== 3);
        return noContent();
      },
      "DELETE /api/lists/Shopping/members/4": () => {
        members = members.filter((m) => m.id !== 4);
        return noContent();
      },
      "DELETE /api/lists/Shopping/members": () => {
        const removed = members;
        members = [];
        sharing["Shopping"] = { shared: false, members: 0 };
        return json(removed);
      },
    },
  });
  return server;
}

describe("The Share dialog, for the list's owner", () => {
  beforeAll(emulateDialog);
  beforeEach(signInAsTester);

  it("is offered for the owner's own lists, not for Inbox, with who has the list", async () => {
    ownerServer();
    const { user } = renderWithClient(<TaskPanel />);

    await user.click(await within(lists()).findByRole("button", { name: /^Inbox/ }));
    expect(screen.queryByRole("button", { name: /^Share/ })).not.toBeInTheDocument();

    await user.click(within(lists()).getByRole("button", { name: /^Shopping/ }));
    expect(await screen.findByText("Shared with 1 person")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Share Shopping" }));

    const dialog = await screen.findByRole("dialog", { name: "Share “Shopping”" });
    const people = within(dialog).getByRole("list", { name: "People with access" });
    await within(people).findByText("sam@example.com");
    const rows = within(people).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining("You, the owner"),
      expect.stringContaining("sam@example.com"),
      expect.stringContaining("kim@example.com"),
    ]);
    expect(rows[1]).not.toHaveTextContent("Invited");
    expect(rows[2]).toHaveTextContent("Invited, not answered yet");
    expect(within(dialog).getByRole("combobox", { name: "Role for sam@example.com" })).toHaveValue("editor");
    expect(within(dialog).getByRole("combobox", { name: "Role for kim@example.com" })).toHaveValue("viewer");
  });

  it("invites by email as an editor unless told otherwise, and lists the invitation as pending", async () => {
    const server = ownerServer();
    const { user } = await openSharing("Shopping", "Share Shopping");
    const dialog = await screen.findByRole("dialog");
    const role = within(dialog).getByRole("combobox", { name: "Role" });
    expect(role).toHaveValue("editor");

    await user.type(within(dialog).getByRole("textbox", { name: "Email" }), "lee@example.com");
    await user.selectOptions(role, "Viewer");
    await user.click(within(dialog).getByRole("button", { name: "Invite" }));

    await vi.waitFor(() =>
      expect(server.callsTo("POST /api/lists/Shopping/members")[0]?.body).toEqual({
        email: "lee@example.com",
        role: "viewer",
      }),
    );
    const row = (await within(dialog).findByText("lee@example.com")).closest("li");
    expect(row).toHaveTextContent("Invited, not answered yet");
    expect(within(dialog).getByRole("textbox", { name: "Email" })).toHaveValue("");
    expect(within(dialog).getByRole("textbox", { name: "Email" })).toHaveFocus();
    expect(dialog).toHaveTextContent("Invited lee@example.com as a viewer.");
  });

  it("says why an invitation was refused, in the server's words", async () => {
    ownerServer("kim@example.com is invited already");
    const { user } = await openSharing("Shopping", "Share Shopping");
    const dialog = await screen.findByRole("dialog");

    await user.type(within(dialog).getByRole("textbox", { name: "Email" }), "kim@example.com{Enter}");

    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Couldn't invite kim@example.com. kim@example.com is invited already",
    );
    expect(within(dialog).getByRole("textbox", { name: "Email" })).toHaveValue("kim@example.com");
  });

  it("changes a member's role", async () => {
    const server = ownerServer();
    const { user } = await openSharing("Shopping", "Share Shopping");
    const dialog = await screen.findByRole("dialog");

    await user.selectOptions(
      await within(dialog).findByRole("combobox", { name: "Role for sam@example.com" }),
      "Viewer",
    );

    await vi.waitFor(() =>
      expect(server.callsTo("PATCH /api/lists/Shopping/members/3")[0]?.body).toEqual({ role: "viewer" }),
    );
    expect(await within(dialog).findByText("sam@example.com is now a viewer.")).toBeInTheDocument();
    expect(within(dialog).getByRole("combobox", { name: "Role for sam@example.com" })).toHaveValue("viewer");
  });

  it("removes a member, and withdraws an invitation, only after a second press", async () => {
    const server = ownerServer();
    const { user } = await openSharing("Shopping", "Share Shopping");
    const dialog = await screen.findByRole("dialog");

    await user.click(await within(dialog).findByRole("button", { name: "Remove sam@example.com" }));
    expect(within(dialog).getByRole("button", { name: "Remove sam@example.com now" })).toHaveFocus();
    await user.click(within(dialog).getByRole("button", { name: "Keep" }));
    expect(within(dialog).getByRole("button", { name: "Remove sam@example.com" })).toHaveFocus();
    expect(server.callsTo("DELETE /api/lists/Shopping/members/3")).toHaveLength(0);

    await user.click(within(dialog).getByRole("button", { name: "Remove sam@example.com" }));
    await user.click(within(dialog).getByRole("button", { name: "Remove sam@example.com now" }));
    await vi.waitFor(() =>
      expect(within(dialog).queryByText("sam@example.com", { selector: ".share-member-email" })).toBeNull(),
    );
    expect(server.callsTo("DELETE /api/lists/Shopping/members/3")).toHaveLength(1);
    expect(within(dialog).getByRole("textbox", { name: "Email" })).toHaveFocus();

    await user.click(
      within(dialog).getByRole("button", { name: "Withdraw the invitation to kim@example.com" }),
    );
    await user.click(within(dialog).getByRole("button", { name: "Withdraw now" }));
    await vi.waitFor(() => expect(server.callsTo("DELETE /api/lists/Shopping/members/4")).toHaveLength(1));
    expect(await within(dialog).findByText("Invitation to kim@example.com withdrawn.")).toBeInTheDocument();
    expect(await within(dialog).findByText("Not shared yet: only you have this list.")).toBeInTheDocument();
  });

  it("stops sharing after asking: everyone goes at once", async () => {
    const server = ownerServer();
    const { user } = await openSharing("Shopping", "Share Shopping");
    const dialog = await screen.findByRole("dialog");

    await user.click(await within(dialog).findByRole("button", { name: "Stop sharing" }));
    const asked = within(dialog).getByRole("group", { name: "Stop sharing?" });
    expect(asked).toHaveTextContent("Everyone above loses the list at once");
    await user.click(within(asked).getByRole("button", { name: "Keep sharing" }));
    expect(within(dialog).getByRole("button", { name: "Stop sharing" })).toHaveFocus();

    await user.click(within(dialog).getByRole("button", { name: "Stop sharing" }));
    await user.click(within(dialog).getByRole("button", { name: "Stop sharing now" }));

    expect(await within(dialog).findByText("Not shared yet: only you have this list.")).toBeInTheDocument();
    expect(server.callsTo("DELETE /api/lists/Shopping/members")).toHaveLength(1);
    expect(within(dialog).queryByRole("button", { name: "Stop sharing" })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(await screen.findByText("Only you have this list")).toBeInTheDocument();
  });
});

describe("The Share dialog, for a member", () => {
  beforeAll(emulateDialog);
  beforeEach(signInAsTester);

  // Shared by Sam, whose list's name the tester has already: it is theirs under a longer name.
  const NAME = "Shopping (sam@example.com)";
  const PATH = "/api/lists/Shopping%20(sam%40example.com)/members";

  function memberServer() {
    const shared = (id: number, email: string, role: "editor" | "viewer") =>
      member(id, email, { list: NAME, role, owner: "sam@example.com" });
    const server = taskServer([task(1, "Buy milk", { list: NAME, shared: true })], {
      lists: ["Inbox", "Shopping", NAME],
      sharing: { [NAME]: { shared: true, role: "editor", owner: "sam@example.com", members: 2 } },
      routes: {
        [`GET ${PATH}`]: () => json([shared(11, ME, "editor"), shared(12, "lee@example.com", "viewer")]),
        [`DELETE ${PATH}/11`]: () => {
          server.dropList(NAME);
          return noContent();
        },
      },
    });
    return server;
  }

  it("shows who has the list, read only", async () => {
    memberServer();
    await openSharing("Shopping \\(sam", `Members of ${NAME}`);
    const dialog = await screen.findByRole("dialog", { name: `Members of “${NAME}”` });

    expect(dialog).toHaveTextContent("You can edit this list: sam@example.com shared it with you");
    const people = within(dialog).getByRole("list", { name: "People with access" });
    await within(people).findByText("lee@example.com");
    expect(
      within(people)
        .getAllByRole("listitem")
        .map((row) => row.textContent),
    ).toEqual(["sam@example.comOwner", `${ME}You, editor`, "lee@example.comviewer"]);
    expect(within(dialog).queryByRole("combobox")).not.toBeInTheDocument();
    expect(
      within(dialog).queryByRole("button", { name: /Remove|Stop sharing|Invite/ }),
    ).not.toBeInTheDocument();
  });

  it("leaves the list after asking: it goes from the lists, and the panel shows every list", async () => {
    const server = memberServer();
    const { user } = await openSharing("Shopping \\(sam", `Members of ${NAME}`);
    const dialog = await screen.findByRole("dialog");

    await user.click(await within(dialog).findByRole("button", { name: "Leave list" }));
    await user.click(within(dialog).getByRole("button", { name: "Stay" }));
    expect(within(dialog).getByRole("button", { name: "Leave list" })).toHaveFocus();
    expect(server.callsTo(`DELETE ${PATH}/11`)).toHaveLength(0);

    await user.click(within(dialog).getByRole("button", { name: "Leave list" }));
    await user.click(within(dialog).getByRole("button", { name: `Leave “${NAME}” now` }));

    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(server.callsTo(`DELETE ${PATH}/11`)).toHaveLength(1);
    await vi.waitFor(() =>
      expect(within(lists()).queryByRole("button", { name: /sam@example.com/ })).not.toBeInTheDocument(),
    );
    const all = within(lists()).getByRole("button", { name: /^All/ });
    expect(all).toHaveAttribute("aria-pressed", "true");
    await vi.waitFor(() => expect(all).toHaveFocus());
    // Its tasks went with it.
    await vi.waitFor(() => expect(screen.queryByRole("checkbox", { name: "Buy milk" })).toBeNull());
  });
});
