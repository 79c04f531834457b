import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { App } from "../App";
import { eventStream, json, sse, type Call } from "../test/fetchMock";
import { AT, conversation, signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";

function stored(id: number) {
  return {
    id,
    role: id % 2 ? "user" : "assistant",
    content: `message ${id}`,
    tool_calls: [],
    created_at: AT,
  };
}

let total = 250;

/** `total` stored messages, served in pages (oldest first) as the API does. */
function page(call: Call) {
  const query = new URLSearchParams(call.search);
  const limit = Number(query.get("limit") ?? 100);
  const before = Number(query.get("before_id") ?? total + 1);
  const ids = Array.from({ length: total }, (_, i) => i + 1).filter((id) => id < before);
  return json(ids.slice(-limit).map(stored));
}

describe("a long conversation", () => {
  it("opens on its newest 200 messages and shows earlier ones on request", async () => {
    total = 250;
    history.replaceState(null, "", "#/conversations/7");
    const server = signedInServer({
      "GET /api/conversations": () => json([conversation(7, "a long one")]),
      "GET /api/conversations/7/messages": page,
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);

    expect(await screen.findByText("message 250")).toBeInTheDocument();
    expect(screen.getByText("message 51")).toBeInTheDocument();
    expect(screen.queryByText("message 50")).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Show earlier messages" }));

    expect(await screen.findByText("message 1")).toBeInTheDocument();
    expect(screen.getByText("message 250")).toBeInTheDocument();
    expect(screen.getAllByRole("article")).toHaveLength(250);
    const requests = server.callsTo("GET /api/conversations/7/messages").map((c) => c.search);
    expect(requests).toContain("?limit=200&before_id=51");
    // Fewer than a page came back: there is nothing earlier.
    expect(screen.queryByRole("button", { name: "Show earlier messages" })).not.toBeInTheDocument();
  });

  it("keeps every message in view as new turns push old ones out of the newest page", async () => {
    total = 250;
    history.replaceState(null, "", "#/conversations/7");
    signedInServer({
      "GET /api/conversations": () => json([conversation(7, "a long one")]),
      "GET /api/conversations/7/messages": page,
      "POST /api/chat/stream": () => {
        total = 252;
        return eventStream([sse("done", { conversation_id: 7, response: "message 252", tool_calls: [] })]);
      },
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);
    await screen.findByText("message 250");
    await user.click(screen.getByRole("button", { name: "Show earlier messages" }));
    await screen.findByText("message 1");

    await user.type(screen.getByRole("textbox", { name: "Message" }), "message 251{Enter}");

    await vi.waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(252));
    expect(screen.getByText("message 51")).toBeInTheDocument();
    expect(screen.getByText("message 52")).toBeInTheDocument();
  });

  it("keeps another conversation's messages out of this one's earlier pages when switching back", async () => {
    total = 250;
    // Conversation 9 is older: its messages have smaller ids than any of 7's.
    const older = [
      { ...stored(1), id: -1, content: "from the other conversation" },
      { ...stored(2), id: 0, content: "also from the other one" },
    ];
    history.replaceState(null, "", "#/conversations/7");
    signedInServer({
      "GET /api/conversations": () => json([conversation(7, "a long one"), conversation(9, "short")]),
      "GET /api/conversations/7/messages": page,
      "GET /api/conversations/9/messages": () => json(older),
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);
    await screen.findByText("message 250");
    await user.click(screen.getByRole("button", { name: "Show earlier messages" }));
    await screen.findByText("message 1");
    const nav = screen.getByRole("navigation", { name: "Conversations" });

    await user.click(within(nav).getByRole("button", { name: "short" }));
    await screen.findByText("from the other conversation");
    await user.click(within(nav).getByRole("button", { name: "a long one" }));

    await screen.findByText("message 250");
    expect(screen.queryByText("from the other conversation")).not.toBeInTheDocument();
    expect(screen.queryByText("also from the other one")).not.toBeInTheDocument();
  });

  it("offers no earlier messages when the conversation fits in one page", async () => {
    history.replaceState(null, "", "#/conversations/8");
    signedInServer({
      "GET /api/conversations": () => json([conversation(8, "short")]),
      "GET /api/conversations/8/messages": () => json([stored(1), stored(2)]),
    });
    signInAsTester();
    renderWithClient(<App />);

    expect(await screen.findByText("message 2")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Show earlier messages" })).not.toBeInTheDocument();
  });
});
