import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import { App } from "../App";
import type { TaskList } from "../api/types";
import { signOut } from "../auth/session";
import { TaskPanel } from "../tasks/TaskPanel";
import { json, noContent } from "../test/fetchMock";
import { signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { taskServer } from "../test/taskServer";
import { Toaster } from "../ui/Toaster";
import { InvitationsNotice } from "./InvitationsNotice";
import type { Membership } from "./useSharing";

const ME = "tester@example.com";

function invitation(
  id: number,
  list: string,
  owner: string,
  role: Membership["role"] = "editor",
): Membership {
  return { id, list, owner, role, email: ME, status: "pending" };
}

const TRIP = invitation(7, "Trip", "kim@example.com", "viewer");
const CHORES = invitation(8, "Chores", "sam@example.com");

/** The task API, with these invitations waiting; accepting one adds its list, as its owner shares it. */
function server(waiting: Membership[], { refuse = null as string | null } = {}) {
  let invitations = [...waiting];
  const sharing: Record<string, Partial<TaskList>> = {};
  const answer = (id: number) => {
    const found = invitations.find((i) => i.id === id);
    invitations = invitations.filter((i) => i.id !== id);
    return found;
  };
  const routes = Object.fromEntries(
    waiting.flatMap((one) => [
      [
        `POST /api/invitations/${one.id}/accept`,
        () => {
          if (refuse) return json({ detail: refuse }, 404);
          answer(one.id);
          const list = { shared: true, role: one.role, owner: one.owner, members: 1 };
          sharing[one.list] = list;
          backend.addList(one.list);
          return json({ name: one.list, pending: 0, total: 0, ...list });
        },
      ],
      [
        `POST /api/invitations/${one.id}/decline`,
        () => {
          answer(one.id);
          return noContent();
        },
      ],
    ]),
  );
  const backend = taskServer([], {
    sharing,
    routes: { "GET /api/invitations": () => json(invitations), ...routes },
  });
  return backend;
}

function renderNotice() {
  return renderWithClient(
    <>
      <InvitationsNotice />
      <TaskPanel />
      <Toaster />
    </>,
  );
}

const notice = () => screen.findByRole("region", { name: "Invitations" });
const lists = () => screen.getByRole("group", { name: "Lists" });

describe("The invitations notice", () => {
  beforeEach(signInAsTester);

  it("lists each waiting invitation: which list, who invited, and as what", async () => {
    server([TRIP, CHORES]);
    renderNotice();

    const items = within(await notice()).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining("kim@example.com invited you to Trip as a viewer (view only)."),
      expect.stringContaining("sam@example.com invited you to Chores as an editor."),
    ]);
    expect(
      within(items[0]!).getByRole("button", { name: "Accept the invitation to Trip" }),
    ).toBeInTheDocument();
    expect(
      within(items[0]!).getByRole("button", { name: "Decline the invitation to Trip" }),
    ).toBeInTheDocument();
  });

  it("takes no room when nothing waits", async () => {
    const backend = server([]);
    const { queryClient } = renderNotice();
    await within(lists()).findByRole("button", { name: /^Inbox/ });
    await waitFor(() => expect(queryClient.getQueryState(["invitations"])?.status).toBe("success"));
    expect(backend.callsTo("GET /api/invitations")).toHaveLength(1);
    expect(screen.queryByRole("region", { name: "Invitations" })).not.toBeInTheDocument();
  });

  it("accepts: the list joins the lists, ready to choose, and the notice says so", async () => {
    const backend = server([TRIP]);
    const { user } = renderNotice();

    await user.click(
      await within(await notice()).findByRole("button", { name: "Accept the invitation to Trip" }),
    );

    expect(backend.callsTo("POST /api/invitations/7/accept")).toHaveLength(1);
    const trip = await within(lists()).findByRole("button", {
      name: "Trip, 0 pending, shared by kim@example.com, view only",
    });
    const region = await notice();
    expect(region).toHaveTextContent("You joined “Trip”: it's in your lists now.");
    expect(within(region).queryByRole("listitem")).not.toBeInTheDocument();
    await vi.waitFor(() => expect(within(region).getByRole("button", { name: "Dismiss" })).toHaveFocus());

    await user.click(trip);
    expect(trip).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByText("Shared by kim@example.com · You can view this list")).toBeInTheDocument();

    await user.click(within(region).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("region", { name: "Invitations" })).not.toBeInTheDocument();
  });

  it("declines: the invitation goes, and focus moves to the next one", async () => {
    const backend = server([TRIP, CHORES]);
    const { user } = renderNotice();

    await user.click(
      await within(await notice()).findByRole("button", { name: "Decline the invitation to Trip" }),
    );

    await vi.waitFor(() => expect(backend.callsTo("POST /api/invitations/7/decline")).toHaveLength(1));
    const region = await notice();
    await vi.waitFor(() => expect(within(region).getAllByRole("listitem")).toHaveLength(1));
    expect(region).toHaveTextContent("Declined the invitation to “Trip”.");
    await vi.waitFor(() =>
      expect(within(region).getByRole("button", { name: "Accept the invitation to Chores" })).toHaveFocus(),
    );
    expect(within(lists()).queryByRole("button", { name: /^Trip/ })).not.toBeInTheDocument();
  });

  it("says why an answer failed, in the server's words", async () => {
    server([TRIP], { refuse: "That invitation was withdrawn" });
    const { user } = renderNotice();

    await user.click(
      await within(await notice()).findByRole("button", { name: "Accept the invitation to Trip" }),
    );

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Couldn't accept the invitation. That invitation was withdrawn",
    );
  });
});

describe("An invitation link", () => {
  beforeEach(signInAsTester);

  it("puts its invitation first, marked and focused, and leaves the address", async () => {
    history.replaceState(null, "", "/?invitation=8#/conversations/3");
    server([TRIP, CHORES]);
    renderNotice();

    const linked = await within(await notice()).findByRole("listitem", { name: "Invitation to Chores" });
    expect(within(await notice()).getAllByRole("listitem")[0]).toBe(linked);
    expect(linked).toHaveTextContent("You're invited · sam@example.com invited you to Chores as an editor.");
    await vi.waitFor(() => expect(linked).toHaveFocus());
    expect(location.search).toBe("");
    expect(location.hash).toBe("#/conversations/3");
  });

  it("says so when its invitation isn't waiting for this account", async () => {
    history.replaceState(null, "", "/?invitation=99");
    server([TRIP]);
    const { user } = renderNotice();

    const region = await notice();
    expect(await within(region).findByRole("status")).toHaveTextContent(
      "That invitation isn't waiting for this account",
    );
    expect(location.search).toBe("");
    await user.click(within(region).getByRole("button", { name: "Dismiss" }));
    expect(within(region).queryByRole("status")).not.toBeInTheDocument();
    expect(within(region).getAllByRole("listitem")).toHaveLength(1);
  });

  it("opened while signed out shows its invitation once signed in", async () => {
    history.replaceState(null, "", "/?invitation=7");
    signOut(); // signed in before on this browser: the login screen
    signedInServer({
      "POST /api/auth/login": () =>
        json({ access_token: "new", token_type: "bearer", user: { id: 1, email: ME } }),
      "GET /api/invitations": () => json([TRIP]),
    });
    const { user } = renderWithClient(<App />);

    await user.type(await screen.findByLabelText("Email"), ME);
    await user.type(screen.getByLabelText("Password"), "password123");
    await user.click(screen.getByRole("button", { name: "Log in" }));

    const linked = await screen.findByRole("listitem", { name: "Invitation to Trip" });
    await vi.waitFor(() => expect(linked).toHaveFocus());
    expect(location.search).toBe("");
  });
});
