import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { MessageBubble } from "./MessageBubble";
import { MessageText } from "./MessageText";

describe("MessageText", () => {
  it("shows a task list's numbers as task labels, not as the list's counter", () => {
    const { container } = render(
      <MessageText
        text={"Here are all your tasks:\n1. Buy milk\n4. ✓ Call mom\n5. Pay rent\nAnything else?"}
      />,
    );

    const list = screen.getByRole("list");
    expect(list.tagName).toBe("UL");
    const items = within(list).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual(["#1 Buy milk", "#4 ✓ Call mom", "#5 Pay rent"]);
    expect(items[1]).toHaveClass("is-done");
    const paragraphs = container.querySelectorAll("p");
    expect([...paragraphs].map((p) => p.textContent)).toEqual(["Here are all your tasks:", "Anything else?"]);
  });

  it("keeps the positions of the tasks a question offers as a numbered list", () => {
    render(
      <MessageText
        text={"I found multiple tasks matching 'report':\n1. finish report (ID: 2)\n2. review report (ID: 5)"}
      />,
    );
    const list = screen.getByRole("list");
    expect(list.tagName).toBe("OL");
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["1. finish report (ID: 2)", "2. review report (ID: 5)"]);
  });

  it("keeps line breaks in plain text", () => {
    const { container } = render(<MessageText text={"Line one\nLine two"} />);
    expect(container.querySelector("p")?.textContent).toBe("Line one\nLine two");
    expect(screen.queryByRole("list")).not.toBeInTheDocument();
  });

  it("renders bullet lines as a list", () => {
    render(<MessageText text={"You can say:\n• 'Add [task]'\n• 'Show my tasks'"} />);
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "• 'Add [task]'",
      "• 'Show my tasks'",
    ]);
  });

  it("starts a new list after a paragraph between numbered lines", () => {
    render(<MessageText text={"1. One\nand then\n2. Two"} />);
    expect(screen.getAllByRole("list")).toHaveLength(2);
  });
});

describe("MessageBubble", () => {
  it("is an article named after who wrote it, with what the tools did", () => {
    render(
      <MessageBubble
        role="assistant"
        text="I've added 'Buy milk' to your list."
        toolCalls={[
          {
            name: "add_task",
            arguments: { title: "buy milk" },
            result: { task_id: 3, status: "created", title: "buy milk" },
          },
        ]}
      />,
    );
    expect(screen.getByRole("article", { name: "Assistant" })).toHaveTextContent(
      "I've added 'Buy milk' to your list.",
    );
    expect(screen.getByText("Added #3 · buy milk")).toBeInTheDocument();
  });
});
