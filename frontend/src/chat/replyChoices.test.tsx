import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { App } from "../App";
import { eventStream, json, sse } from "../test/fetchMock";
import { AT, conversation, signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";

const WHICH = [
  { label: "Finish Q4 report (task 3)", message: "task 3" },
  { label: "Review report draft (task 4)", message: "task 4" },
];
const ASKED =
  "I found multiple tasks matching 'report':\n1. Finish Q4 report (ID: 3)\n2. Review report draft (ID: 4)\n" +
  "Which task would you like to delete? Please specify by number.";
const DELETED = "I've deleted 'Finish Q4 report' from your list.";

const said = (
  id: number,
  role: "user" | "assistant",
  content: string,
  choices: { label: string; message: string }[] = [],
) => ({
  id,
  role,
  content,
  tool_calls: [],
  choices,
  created_at: AT,
});

describe("a reply's choices", () => {
  it("show as buttons under the last reply; a click sends its message and the buttons go", async () => {
    history.replaceState(null, "", "#/conversations/7");
    let stored = [
      said(1, "user", "delete the report"),
      said(2, "assistant", ASKED, [{ label: "Yes, delete 'Eggs'", message: "yes" }]),
      said(3, "user", "no, the report"),
      said(4, "assistant", ASKED, WHICH),
    ];
    const server = signedInServer({
      "GET /api/conversations": () => json([conversation(7, "delete the report")]),
      "GET /api/conversations/7/messages": () => json(stored),
      "POST /api/chat/stream": () => {
        stored = [...stored, said(5, "user", "task 3"), said(6, "assistant", DELETED)];
        return eventStream([
          sse("done", { conversation_id: 7, response: DELETED, tool_calls: [], choices: [] }),
        ]);
      },
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);

    const group = await screen.findByRole("group", { name: "Suggested replies" });
    // Only the last reply's choices: the earlier reply's are answered.
    expect(screen.getAllByRole("group", { name: "Suggested replies" })).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Yes, delete 'Eggs'" })).not.toBeInTheDocument();
    const buttons = within(group).getAllByRole("button");
    expect(buttons.map((button) => button.textContent)).toEqual([
      "Finish Q4 report (task 3)",
      "Review report draft (task 4)",
    ]);
    // Under the reply that asked.
    const replies = screen.getAllByRole("article", { name: "Assistant" });
    expect(replies.at(-1)?.closest(".msg-stack")).toContainElement(group);

    await user.click(within(group).getByRole("button", { name: "Finish Q4 report (task 3)" }));

    await vi.waitFor(() => expect(server.callsTo("POST /api/chat/stream")).toHaveLength(1));
    expect(server.callsTo("POST /api/chat/stream")[0]?.body).toEqual({
      message: "task 3",
      conversation_id: 7,
    });
    expect(await screen.findByText(DELETED)).toBeInTheDocument();
    expect(screen.getAllByRole("article", { name: "You" }).at(-1)).toHaveTextContent("task 3");
    expect(screen.queryByRole("group", { name: "Suggested replies" })).not.toBeInTheDocument();
  });

  it("come with a streamed reply, are reachable by keyboard, and Enter on one sends it", async () => {
    const CONFIRM = [
      { label: "Yes, delete 'Eggs'", message: "yes" },
      { label: "No, leave it", message: "no" },
    ];
    let stored: ReturnType<typeof said>[] = [];
    const server = signedInServer({
      "POST /api/chat/stream": (call) => {
        const { message } = call.body as { message: string };
        const [response, choices] = message === "yes" ? ["Deleted.", []] : ["Sure?", CONFIRM];
        stored = [
          ...stored,
          said(stored.length + 1, "user", message),
          said(stored.length + 2, "assistant", response, choices),
        ];
        return eventStream([sse("done", { conversation_id: 9, response, tool_calls: [], choices })]);
      },
      "GET /api/conversations/9/messages": () => json(stored),
    });
    signInAsTester();
    const { user } = renderWithClient(<App />);
    await screen.findByText("No tasks yet");

    await user.type(screen.getByRole("textbox", { name: "Message" }), "move eggs to trash{Enter}");

    const yes = await screen.findByRole("button", { name: "Yes, delete 'Eggs'" });
    expect(screen.getByRole("button", { name: "No, leave it" })).toBeEnabled();
    yes.focus();
    expect(yes).toHaveFocus();
    await user.keyboard("{Enter}");

    await vi.waitFor(() => expect(server.callsTo("POST /api/chat/stream")).toHaveLength(2));
    expect(server.callsTo("POST /api/chat/stream")[1]?.body).toEqual({ message: "yes", conversation_id: 9 });
    expect(await screen.findByText("Deleted.")).toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Suggested replies" })).not.toBeInTheDocument();
  });

  it("are absent from a reply that asks nothing, and from messages stored before there were any", async () => {
    history.replaceState(null, "", "#/conversations/5");
    signedInServer({
      "GET /api/conversations": () => json([conversation(5, "old")]),
      "GET /api/conversations/5/messages": () =>
        json([
          { id: 1, role: "user", content: "hi", tool_calls: [], created_at: AT },
          { id: 2, role: "assistant", content: "Hello!", tool_calls: [], created_at: AT },
        ]),
    });
    signInAsTester();
    renderWithClient(<App />);
    expect(await screen.findByText("Hello!")).toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Suggested replies" })).not.toBeInTheDocument();
  });
});
