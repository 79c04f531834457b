import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { App } from "../App";
import { eventStream, json, sse } from "../test/fetchMock";
import { AT, conversation, signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";

describe("App and the URL", () => {
  const messages = [
    { id: 1, role: "user", content: "add buy milk", tool_calls: [], created_at: AT },
    {
      id: 2,
      role: "assistant",
      content: "I've added 'Buy milk' to your list.",
      tool_calls: [],
      created_at: AT,
    },
  ];

  it("names the open conversation in the URL, so a reload reopens it", async () => {
    signedInServer({
      "GET /api/conversations": () => json([conversation(5, "add buy milk")]),
      "POST /api/chat/stream": () =>
        eventStream([
          sse("done", {
            conversation_id: 5,
            response: "I've added 'Buy milk' to your list.",
            tool_calls: [],
          }),
        ]),
      "GET /api/conversations/5/messages": () => json(messages),
    });
    signInAsTester();
    const first = renderWithClient(<App />);
    await first.user.type(await screen.findByRole("textbox", { name: "Message" }), "add buy milk{Enter}");
    await screen.findByRole("article", { name: "Assistant" });
    expect(location.hash).toBe("#/conversations/5");
    first.unmount();

    renderWithClient(<App />);
    expect(await screen.findByRole("article", { name: "You" })).toHaveTextContent("add buy milk");
    const nav = screen.getByRole("navigation", { name: "Conversations" });
    expect(await within(nav).findByRole("button", { name: "add buy milk" })).toHaveAttribute(
      "aria-current",
      "true",
    );
  });

  it("reopens the conversation last open on this browser when the address names none", async () => {
    signedInServer({
      "GET /api/conversations": () => json([conversation(5, "add buy milk")]),
      "GET /api/conversations/5/messages": () => json(messages),
    });
    signInAsTester();
    const first = renderWithClient(<App />);
    const nav = await screen.findByRole("navigation", { name: "Conversations" });
    await first.user.click(await within(nav).findByRole("button", { name: "add buy milk" }));
    await screen.findByRole("article", { name: "You" });
    first.unmount();
    history.replaceState(null, "", "/");

    renderWithClient(<App />);
    expect(await screen.findByRole("article", { name: "You" })).toHaveTextContent("add buy milk");
    expect(location.hash).toBe("#/conversations/5");
  });

  it("opens a new chat when the conversation in the URL no longer exists", async () => {
    history.replaceState(null, "", "#/conversations/404");
    signedInServer({
      "GET /api/conversations/404/messages": () => json({ detail: "Conversation not found" }, 404),
    });
    signInAsTester();
    renderWithClient(<App />);

    expect(await screen.findByRole("button", { name: "Add buy groceries" })).toBeInTheDocument();
    expect(location.hash).toBe("");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
