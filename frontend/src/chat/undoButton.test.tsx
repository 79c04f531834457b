import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { App } from "../App";
import { eventStream, json, sse } from "../test/fetchMock";
import { AT, conversation, signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";

const ADDED = "I've added 'Milk' to your list.";
const UNDONE = "Undone: I've removed 'Milk' again.";

const said = (id: number, role: "user" | "assistant", content: string, undoable = false) => ({
  id,
  role,
  content,
  tool_calls: [],
  choices: [],
  undoable,
  created_at: AT,
});

describe("the Undo button", () => {
  it("shows only under the last reply that can be undone; a click sends 'undo' and the button goes", async () => {
    history.replaceState(null, "", "#/conversations/7");
    let stored = [
      said(1, "user", "add stamps"),
      said(2, "assistant", "I've added 'Stamps' to your list.", true),
      said(3, "user", "add milk"),
      said(4, "assistant", ADDED, true),
    ];
    const server = signedInServer({
      "GET /api/conversations": () => json([conversation(7, "add stamps")]),
      "GET /api/conversations/7/messages": () => json(stored),
      "POST /api/chat/stream": () => {
        stored = [...stored, said(5, "user", "undo"), said(6, "assistant", UNDONE)];
        return eventStream([
          sse("done", { conversation_id: 7, response: UNDONE, tool_calls: [], choices: [], undoable: false }),
        ]);
      },
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);

    const undo = await screen.findByRole("button", { name: "Undo this change" });
    // One button, under the last reply (the earlier reply's change is not what "undo" reverses).
    expect(screen.getAllByRole("button", { name: "Undo this change" })).toHaveLength(1);
    const replies = screen.getAllByRole("article", { name: "Assistant" });
    expect(replies.at(-1)?.closest(".msg-stack")).toContainElement(undo);
    expect(replies[0]?.closest(".msg-stack")).not.toContainElement(undo);
    expect(undo.tagName).toBe("BUTTON");
    expect(undo).toHaveTextContent("Undo");
    expect(undo).toBeEnabled();

    await user.click(undo);

    await vi.waitFor(() => expect(server.callsTo("POST /api/chat/stream")).toHaveLength(1));
    expect(server.callsTo("POST /api/chat/stream")[0]?.body).toEqual({ message: "undo", conversation_id: 7 });
    expect(await screen.findByText(UNDONE)).toBeInTheDocument();
    expect(screen.getAllByRole("article", { name: "You" }).at(-1)).toHaveTextContent("undo");
    expect(screen.queryByRole("button", { name: "Undo this change" })).not.toBeInTheDocument();
  });

  it("comes with a streamed reply that changed something, is reachable by keyboard, and Enter sends 'undo'", async () => {
    let stored: ReturnType<typeof said>[] = [];
    const server = signedInServer({
      "POST /api/chat/stream": (call) => {
        const { message } = call.body as { message: string };
        const [response, undoable] = message === "undo" ? [UNDONE, false] : [ADDED, true];
        stored = [
          ...stored,
          said(stored.length + 1, "user", message),
          said(stored.length + 2, "assistant", response, undoable),
        ];
        return eventStream([
          sse("tool_call", { name: "add_task", arguments: { title: "milk" }, result: { task_id: 1 } }),
          sse("done", { conversation_id: 9, response, tool_calls: [], choices: [], undoable }),
        ]);
      },
      "GET /api/conversations/9/messages": () => json(stored),
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);
    await screen.findByText("No tasks yet");
    expect(screen.queryByRole("button", { name: "Undo this change" })).not.toBeInTheDocument();

    await user.type(screen.getByRole("textbox", { name: "Message" }), "add milk{Enter}");

    const undo = await screen.findByRole("button", { name: "Undo this change" });
    await vi.waitFor(() => expect(undo).toBeEnabled());
    // Reachable by keyboard: Shift+Tab from the message box lands on it.
    screen.getByRole("textbox", { name: "Message" }).focus();
    await user.tab({ shift: true });
    expect(undo).toHaveFocus();
    await user.keyboard("{Enter}");

    await vi.waitFor(() => expect(server.callsTo("POST /api/chat/stream")).toHaveLength(2));
    expect(server.callsTo("POST /api/chat/stream")[1]?.body).toEqual({ message: "undo", conversation_id: 9 });
    expect(await screen.findByText(UNDONE)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Undo this change" })).not.toBeInTheDocument();
  });

  it("is absent after a reply that changed nothing, and on messages stored before there was one", async () => {
    history.replaceState(null, "", "#/conversations/5");
    signedInServer({
      "GET /api/conversations": () => json([conversation(5, "old")]),
      "GET /api/conversations/5/messages": () =>
        json([
          said(1, "user", "add milk"),
          said(2, "assistant", ADDED, true),
          said(3, "user", "show my tasks"),
          said(4, "assistant", "You have 1 task:\n1. Milk"),
          { id: 5, role: "user", content: "add eggs", tool_calls: [], created_at: AT },
          { id: 6, role: "assistant", content: "I've added 'Eggs'.", tool_calls: [], created_at: AT },
        ]),
    });
    signInAsTester();
    renderWithClient(<App />);
    const thread = await screen.findByRole("log", { name: "Conversation" });
    expect(await within(thread).findByText("I've added 'Eggs'.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Undo this change" })).not.toBeInTheDocument();
  });
});
