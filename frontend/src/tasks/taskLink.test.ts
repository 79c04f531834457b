import { afterEach, describe, expect, it } from "vitest";
import { linkedTask, takeTaskLink } from "./taskLink";

describe("a link to a task", () => {
  afterEach(() => history.replaceState(null, "", "/"));

  it("names the task a notification opened", () => {
    history.replaceState(null, "", "/?task=7#/conversations/3");
    expect(linkedTask()).toBe(7);
  });

  it("is used up by that task only, keeping the rest of the address", () => {
    history.replaceState(null, "", "/?task=7#/conversations/3");
    expect(takeTaskLink(8)).toBe(false);
    expect(takeTaskLink(7)).toBe(true);
    expect(location.search).toBe("");
    expect(location.hash).toBe("#/conversations/3");
    expect(takeTaskLink(7)).toBe(false);
  });

  it("ignores what is not a task number", () => {
    history.replaceState(null, "", "/?task=seven");
    expect(linkedTask()).toBeNull();
  });
});
