import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { Composer } from "./Composer";

function setup(disabled = false, maxChars = 4000) {
  const onSend = vi.fn();
  const user = userEvent.setup();
  const view = render(<Composer onSend={onSend} disabled={disabled} maxChars={maxChars} />);
  return { onSend, user, view, textarea: screen.getByRole("textbox", { name: "Message" }) };
}

describe("Composer", () => {
  it("sends the trimmed text on Enter and clears the box", async () => {
    const { onSend, user, textarea } = setup();
    await user.type(textarea, "  Add buy groceries {Enter}");
    expect(onSend).toHaveBeenCalledExactlyOnceWith("Add buy groceries");
    expect(textarea).toHaveValue("");
  });

  it("starts a new line on Shift+Enter without sending", async () => {
    const { onSend, user, textarea } = setup();
    await user.type(textarea, "first{Shift>}{Enter}{/Shift}second");
    expect(onSend).not.toHaveBeenCalled();
    expect(textarea).toHaveValue("first\nsecond");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(onSend).toHaveBeenCalledExactlyOnceWith("first\nsecond");
  });

  it("does not send blank messages", async () => {
    const { onSend, user, textarea } = setup();
    await user.type(textarea, "   {Enter}");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(onSend).not.toHaveBeenCalled();
  });

  it("is disabled while a reply is on its way, and takes focus back after", async () => {
    const { onSend, view, textarea } = setup(true);
    expect(textarea).toBeDisabled();
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();

    view.rerender(<Composer onSend={onSend} disabled={false} maxChars={4000} />);
    expect(textarea).toBeEnabled();
    expect(textarea).toHaveFocus();
  });

  it("counts down the characters left near the limit", async () => {
    const { user, textarea } = setup(false, 250);
    expect(screen.getByText("Enter to send · Shift+Enter for a new line")).toBeInTheDocument();
    await user.click(textarea);
    await user.paste("x".repeat(60));
    expect(screen.getByText("190 characters left")).toBeInTheDocument();
  });

  it("stops taking text at the limit and says the limit is reached", async () => {
    const { onSend, user, textarea } = setup(false, 10);
    await user.type(textarea, "add buy milk and eggs");
    expect(textarea).toHaveValue("add buy mi");
    expect(screen.getByText("Limit reached: 10 characters")).toBeInTheDocument();
    await user.keyboard("{Enter}");
    expect(onSend).toHaveBeenCalledExactlyOnceWith("add buy mi");
  });

  it("refuses to send a message over a limit lowered after it was typed, and says by how much", async () => {
    const { onSend, user, view, textarea } = setup(false, 4000);
    await user.type(textarea, "add buy milk");
    view.rerender(<Composer onSend={onSend} disabled={false} maxChars={8} />);
    expect(screen.getByText("4 characters over the 8-character limit")).toBeInTheDocument();
    expect(textarea).toHaveAttribute("aria-invalid", "true");
    await user.type(textarea, "{Enter}");
    expect(onSend).not.toHaveBeenCalled();
    expect(textarea).toHaveValue("add buy milk");
  });
});
