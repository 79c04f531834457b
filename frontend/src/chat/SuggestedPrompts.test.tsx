import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import {
  FIRST_PROMPT,
  LAST_PROMPT,
  promptsFor,
  ROTATING_PROMPTS,
  SuggestedPrompts,
} from "./SuggestedPrompts";

const shown = () =>
  within(screen.getByRole("list", { name: "Suggested prompts" }))
    .getAllByRole("button")
    .map((button) => button.textContent);

describe("SuggestedPrompts", () => {
  it("offers every rotating prompt within a few new chats, always with adding and help", () => {
    const seen = new Set<string>();
    for (let turn = 0; turn < ROTATING_PROMPTS.length / 2; turn += 1) {
      const prompts = promptsFor(turn);
      expect(prompts).toHaveLength(4);
      expect(prompts[0]).toBe(FIRST_PROMPT);
      expect(prompts[3]).toBe(LAST_PROMPT);
      prompts.slice(1, 3).forEach((prompt) => seen.add(prompt));
    }
    expect([...seen].sort()).toEqual([...ROTATING_PROMPTS].sort());
  });

  it("shows the next two prompts each time a new chat opens", () => {
    const first = render(<SuggestedPrompts onPick={() => undefined} disabled={false} />);
    const before = shown();
    first.unmount();
    render(<SuggestedPrompts onPick={() => undefined} disabled={false} />);
    expect(before).toEqual(promptsFor(0));
    expect(shown()).toEqual(promptsFor(1));
    expect(screen.getByText(/lists, tags, repeats and reminders/)).toBeInTheDocument();
  });
});
