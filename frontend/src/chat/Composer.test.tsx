import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { Composer } from "./Composer";

function setup(disabled = false) {
  const onSend = vi.fn();
  const user = userEvent.setup();
  const view = render(<Composer onSend={onSend} disabled={disabled} />);
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

    view.rerender(<Composer onSend={onSend} disabled={false} />);
    expect(textarea).toBeEnabled();
    expect(textarea).toHaveFocus();
  });
});
