import { screen, within } from "@testing-library/react";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { App } from "../App";
import { STORAGE_KEY } from "../auth/session";
import { json } from "../test/fetchMock";
import { signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { emulateDialog } from "./emulateDialog";

function server() {
  return signedInServer({
    "GET /api/calendar/feed": () => json({ active: false, created_at: null }),
  });
}

async function openSettings() {
  const rendered = renderWithClient(<App />);
  await rendered.user.click(await screen.findByRole("button", { name: "Settings" }));
  return { ...rendered, dialog: await screen.findByRole("dialog", { name: "Settings" }) };
}

describe("The Settings dialog", () => {
  beforeAll(emulateDialog);
  beforeEach(signInAsTester);

  it("opens from the header's Settings button with the notification and calendar feed sections", async () => {
    server();
    const { dialog } = await openSettings();

    const headings = within(dialog)
      .getAllByRole("heading", { level: 3 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual(["Appearance", "Notifications", "Calendar feed", "Connections", "Account"]);
    const feed = within(dialog).getByRole("region", { name: "Calendar feed" });
    expect(await within(feed).findByRole("button", { name: "Get a calendar link" })).toBeInTheDocument();
    // jsdom has no Notification API: the section says so rather than offering a switch.
    expect(within(dialog).getByRole("region", { name: "Notifications" })).toHaveTextContent(
      "This browser can't show notifications.",
    );
  });

  it("leaves the task panel to tasks: no calendar feed or reminder settings there", async () => {
    server();
    renderWithClient(<App />);
    const panel = await screen.findByRole("region", { name: "Tasks" });
    await within(panel).findByText("No tasks yet");
    expect(within(panel).queryByText(/Calendar feed/)).not.toBeInTheDocument();
    expect(
      within(panel).queryByText(/Browser notifications|can't show notifications/),
    ).not.toBeInTheDocument();
  });

  it("asks for the calendar feed's state only once opened", async () => {
    const calls = server();
    renderWithClient(<App />);
    await screen.findByText("No tasks yet");
    expect(calls.callsTo("GET /api/calendar/feed")).toHaveLength(0);

    await screen.findByRole("button", { name: "Settings" }).then((button) => button.click());
    await screen.findByRole("button", { name: "Get a calendar link" });
    expect(calls.callsTo("GET /api/calendar/feed")).toHaveLength(1);
  });

  it("closes from its Close button, and from a click on the backdrop", async () => {
    server();
    const { user, dialog } = await openSettings();

    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Settings" }));
    const again = await screen.findByRole("dialog", { name: "Settings" });
    await user.click(within(again).getByRole("heading", { name: "Account" }));
    expect(again).toBeInTheDocument(); // a click inside keeps it open
    await user.click(again); // the dialog element itself is hit only on its backdrop
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows how to connect an MCP client to this server", async () => {
    server();
    const { dialog } = await openSettings();
    const connections = within(dialog).getByRole("region", { name: "Connections" });

    expect(within(connections).getByRole("textbox", { name: "MCP endpoint" })).toHaveValue(
      `${window.location.origin}/mcp/`,
    );
    expect(connections).toHaveTextContent("Authorization: Bearer <token>");
    expect(connections).toHaveTextContent("README");
    expect(within(connections).getByRole("button", { name: "Copy the MCP endpoint" })).toBeInTheDocument();
  });

  it("shows who is signed in, and logs out", async () => {
    server();
    const { user, dialog } = await openSettings();
    const account = within(dialog).getByRole("region", { name: "Account" });
    expect(account).toHaveTextContent("Signed in as tester@example.com");

    await user.click(within(account).getByRole("button", { name: "Log out" }));
    expect(await screen.findByRole("button", { name: "Log in" })).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });
});
