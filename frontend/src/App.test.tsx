import { act, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { App } from "./App";
import type { Conversation, Task } from "./api/types";
import { STORAGE_KEY } from "./auth/session";
import { controlledEventStream, eventStream, json, mockServer, noContent, sse } from "./test/fetchMock";
import { ADD_CALL, AT, conversation, signedInServer, task } from "./test/fixtures";
import { renderWithClient, signInAsTester } from "./test/render";

/** Feed the stream inside act(), letting the reader's promise chain run before asserting. */
async function feed(stream: ReturnType<typeof controlledEventStream>, ...chunks: string[]) {
  await act(async () => {
    for (const chunk of chunks) stream.send(chunk);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe("App", () => {
  it("shows sign-up on a first visit, and the chat after logging in", async () => {
    mockServer({
      "POST /api/auth/login": () =>
        json({ access_token: "new", token_type: "bearer", user: { id: 1, email: "tester@example.com" } }),
      "GET /api/auth/me": () => json({ id: 1, email: "tester@example.com" }),
      "GET /api/conversations": () => json([]),
      "GET /api/tasks": () => json([]),
    });
    const { user } = renderWithClient(<App />);

    await user.click(screen.getByRole("button", { name: "I already have an account" }));
    await user.type(screen.getByLabelText("Email"), "tester@example.com");
    await user.type(screen.getByLabelText("Password"), "password123");
    await user.click(screen.getByRole("button", { name: "Log in" }));

    expect(await screen.findByRole("button", { name: "Log out" })).toBeInTheDocument();
    expect(screen.getByRole("log", { name: "Conversation" })).toHaveAttribute("aria-live", "polite");
    expect(await screen.findByText("No tasks yet")).toBeInTheDocument();
  });

  it("streams a reply, lets `done` replace the streamed text, and refreshes tasks and conversations", async () => {
    const stream = controlledEventStream();
    let tasks: Task[] = [];
    let conversations: Conversation[] = [];
    const server = signedInServer({
      "GET /api/tasks": () => json(tasks),
      "GET /api/conversations": () => json(conversations),
      "POST /api/chat/stream": () => stream.response,
      "GET /api/conversations/7/messages": () =>
        json([
          { id: 1, role: "user", content: "Add buy milk", tool_calls: [], created_at: AT },
          {
            id: 2,
            role: "assistant",
            content: "I've added 'Buy milk' to your list.",
            tool_calls: [ADD_CALL],
            created_at: AT,
          },
        ]),
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);
    await screen.findByText("No tasks yet");

    await user.type(screen.getByRole("textbox", { name: "Message" }), "Add buy milk{Enter}");

    expect((await screen.findByText("Assistant is typing…")).closest("[role=status]")).not.toBeNull();
    expect(screen.getByRole("textbox", { name: "Message" })).toBeDisabled();
    const mine = screen.getByRole("article", { name: "You" });
    expect(mine).toHaveTextContent("Add buy milk");
    expect(server.callsTo("POST /api/chat/stream")[0]?.body).toEqual({
      message: "Add buy milk",
      conversation_id: null,
    });

    await feed(
      stream,
      sse("tool_call", ADD_CALL),
      sse("delta", { text: "Adding " }),
      sse("delta", { text: "it…" }),
    );
    const reply = await screen.findByRole("article", { name: "Assistant" });
    await vi.waitFor(() => expect(reply).toHaveTextContent("Adding it…"));
    expect(screen.queryByText("Assistant is typing…")).not.toBeInTheDocument();

    tasks = [task(1, "buy milk")];
    conversations = [conversation(7, "Add buy milk")];
    await feed(
      stream,
      sse("done", {
        conversation_id: 7,
        response: "I've added 'Buy milk' to your list.",
        tool_calls: [ADD_CALL],
      }),
    );

    await vi.waitFor(() =>
      expect(screen.getByRole("article", { name: "Assistant" })).toHaveTextContent(
        "I've added 'Buy milk' to your list.",
      ),
    );
    // The same elements carry on: nothing is removed and re-added in the live region.
    expect(screen.getByRole("article", { name: "Assistant" })).toBe(reply);
    expect(screen.getByRole("article", { name: "You" })).toBe(mine);
    expect(await screen.findByRole("checkbox", { name: "buy milk" })).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Conversations" });
    expect(await within(nav).findByRole("button", { name: "Add buy milk" })).toHaveAttribute(
      "aria-current",
      "true",
    );
    expect(screen.getByRole("textbox", { name: "Message" })).toBeEnabled();

    // The next message continues the same conversation.
    await user.type(screen.getByRole("textbox", { name: "Message" }), "thanks{Enter}");
    await vi.waitFor(() => expect(server.callsTo("POST /api/chat/stream")).toHaveLength(2));
    expect(server.callsTo("POST /api/chat/stream")[1]?.body).toEqual({
      message: "thanks",
      conversation_id: 7,
    });
  });

  it("refreshes the shown list and the list counts when the assistant changes tasks", async () => {
    let tasks: Task[] = [];
    const server = signedInServer({
      "GET /api/tasks": () => json(tasks),
      "GET /api/lists": () =>
        json([
          { name: "Inbox", pending: tasks.length, total: tasks.length },
          { name: "Shopping", pending: 0, total: 0 },
        ]),
      "POST /api/chat/stream": () => {
        tasks = [task(1, "buy milk")];
        return eventStream([
          sse("tool_call", ADD_CALL),
          sse("done", { conversation_id: 4, response: "I've added 'Buy milk'.", tool_calls: [ADD_CALL] }),
        ]);
      },
      "GET /api/conversations/4/messages": () => json([]),
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);
    const lists = await screen.findByRole("group", { name: "Lists" });
    await user.click(await within(lists).findByRole("button", { name: "Inbox, 0 pending" }));
    await vi.waitFor(() =>
      expect(server.callsTo("GET /api/tasks").at(-1)?.search).toBe("?status=all&list=Inbox&limit=100"),
    );

    await user.type(screen.getByRole("textbox", { name: "Message" }), "add buy milk{Enter}");

    expect(await within(lists).findByRole("button", { name: "Inbox, 1 pending" })).toBeInTheDocument();
    expect(await screen.findByRole("checkbox", { name: "buy milk" })).toBeInTheDocument();
    expect(server.callsTo("GET /api/tasks").at(-1)?.search).toBe("?status=all&list=Inbox&limit=100");
  });

  it("sends a suggested prompt when it is clicked", async () => {
    const server = signedInServer({
      "POST /api/chat/stream": () =>
        eventStream([
          sse("done", {
            conversation_id: 1,
            response: "Here are your pending tasks:\n1. Buy milk",
            tool_calls: [],
          }),
        ]),
      "GET /api/conversations/1/messages": () =>
        json([
          { id: 1, role: "user", content: "What's due this week?", tool_calls: [], created_at: AT },
          {
            id: 2,
            role: "assistant",
            content: "Here are your pending tasks:\n1. Buy milk",
            tool_calls: [],
            created_at: AT,
          },
        ]),
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);

    await user.click(await screen.findByRole("button", { name: "What's due this week?" }));

    expect(server.callsTo("POST /api/chat/stream")[0]?.body).toEqual({
      message: "What's due this week?",
      conversation_id: null,
    });
    const reply = await screen.findByRole("article", { name: "Assistant" });
    expect(within(reply).getByRole("listitem")).toHaveTextContent("#1 Buy milk");
    expect(screen.queryByRole("button", { name: "Add buy groceries" })).not.toBeInTheDocument();
    // Tasks are only refetched after turns that change them.
    expect(server.callsTo("GET /api/tasks")).toHaveLength(1);
  });

  it("opens a conversation from the sidebar by loading its history, and deletes one", async () => {
    let conversations = [conversation(2, "Groceries"), conversation(1, "Calls")];
    const server = signedInServer({
      "GET /api/conversations": () => json(conversations),
      "GET /api/conversations/2/messages": () =>
        json([
          { id: 10, role: "user", content: "Add buy eggs", tool_calls: [], created_at: AT },
          {
            id: 11,
            role: "assistant",
            content: "I've added 'Buy eggs'.",
            tool_calls: [ADD_CALL],
            created_at: AT,
          },
        ]),
      "DELETE /api/conversations/1": () => {
        conversations = conversations.filter((c) => c.id !== 1);
        return noContent();
      },
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);
    const nav = await screen.findByRole("navigation", { name: "Conversations" });

    await user.click(await within(nav).findByRole("button", { name: "Groceries" }));

    expect(await screen.findByRole("article", { name: "Assistant" })).toHaveTextContent(
      "I've added 'Buy eggs'.",
    );
    expect(screen.getByRole("article", { name: "You" })).toHaveTextContent("Add buy eggs");
    expect(within(nav).getByRole("button", { name: "Groceries" })).toHaveAttribute("aria-current", "true");

    await user.click(within(nav).getByRole("button", { name: "Delete conversation: Calls" }));
    expect(server.callsTo("DELETE /api/conversations/1")).toHaveLength(1);
    await vi.waitFor(() =>
      expect(within(nav).queryByRole("button", { name: "Calls" })).not.toBeInTheDocument(),
    );

    await user.click(within(nav).getByRole("button", { name: "New chat" }));
    expect(screen.queryByRole("article")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add buy groceries" })).toBeInTheDocument();
  });

  it("checks a stored token first, and goes back to the login screen with a message if it is rejected", async () => {
    const expired = () => json({ detail: "Invalid or expired token" }, 401);
    const server = signedInServer({ "GET /api/auth/me": expired, "GET /api/tasks": expired });
    signInAsTester();
    renderWithClient(<App />);

    expect(await screen.findByRole("button", { name: "Log in" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Your session has expired. Please log in again.");
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
    expect(server.calls.map((call) => call.path)).toEqual(["/api/auth/me"]);
  });

  it("goes back to the login screen when any request gets a 401 later on", async () => {
    signedInServer({ "GET /api/tasks": () => json({ detail: "Invalid or expired token" }, 401) });
    signInAsTester();
    renderWithClient(<App />);

    expect(await screen.findByRole("button", { name: "Log in" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Your session has expired. Please log in again.");
  });

  it("logs out", async () => {
    signedInServer();
    signInAsTester();
    const { user } = renderWithClient(<App />);

    await user.click(await screen.findByRole("button", { name: "Log out" }));

    expect(screen.getByRole("button", { name: "Log in" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it("shows a banner when the server can't be reached", async () => {
    const server = signedInServer();
    server.fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    signInAsTester();
    renderWithClient(<App />);

    expect(await screen.findByText(/Can't reach the server/)).toBeInTheDocument();
  });

  it("offers to resend a message the server refused", async () => {
    let attempts = 0;
    signedInServer({
      "POST /api/chat/stream": () => {
        attempts += 1;
        return attempts === 1
          ? json({ detail: "Service unavailable" }, 503)
          : eventStream([sse("done", { conversation_id: 3, response: "Done.", tool_calls: [] })]);
      },
      "GET /api/conversations/3/messages": () =>
        json([
          { id: 1, role: "user", content: "hello", tool_calls: [], created_at: AT },
          { id: 2, role: "assistant", content: "Done.", tool_calls: [], created_at: AT },
        ]),
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);

    await user.type(await screen.findByRole("textbox", { name: "Message" }), "hello{Enter}");
    const alert = await screen.findByText(/Your message wasn't sent/);
    const box = alert.closest("[role=alert]") as HTMLElement;
    expect(within(box).getByLabelText("Unsent message")).toHaveTextContent("hello");
    await user.click(
      within(alert.closest("[role=alert]") as HTMLElement).getByRole("button", { name: "Try again" }),
    );

    expect(await screen.findByRole("article", { name: "Assistant" })).toHaveTextContent("Done.");
    expect(screen.getByRole("article", { name: "You" })).toHaveTextContent("hello");
  });

  it("holds the composer to the server's message limit from GET /api/config", async () => {
    const server = signedInServer({ "GET /api/config": () => json({ max_message_chars: 12 }) });
    signInAsTester();
    const { user } = renderWithClient(<App />);
    await screen.findByText("No tasks yet");
    const composer = screen.getByRole("textbox", { name: "Message" });
    await vi.waitFor(() => expect(composer).toHaveAttribute("maxlength", "12"));

    await user.type(composer, "add buy milk and eggs");
    expect(composer).toHaveValue("add buy milk");
    expect(screen.getByText("Limit reached: 12 characters")).toBeInTheDocument();
    expect(server.callsTo("GET /api/config")).toHaveLength(1);
  });
});
