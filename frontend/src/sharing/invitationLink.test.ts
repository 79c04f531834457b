import { afterEach, describe, expect, it } from "vitest";

import { forgetInvitationLink, linkedInvitation } from "./invitationLink";

describe("a link to an invitation", () => {
  afterEach(() => history.replaceState(null, "", "/"));

  it("names the invitation an email opened", () => {
    history.replaceState(null, "", "/?invitation=12#/conversations/3");
    expect(linkedInvitation()).toBe(12);
  });

  it("ignores what is not an invitation number", () => {
    history.replaceState(null, "", "/?invitation=12abc");
    expect(linkedInvitation()).toBeNull();
    history.replaceState(null, "", "/");
    expect(linkedInvitation()).toBeNull();
  });

  it("leaves the address, keeping the rest of it", () => {
    history.replaceState(null, "", "/?task=4&invitation=12#/conversations/3");
    forgetInvitationLink();
    expect(location.search).toBe("?task=4");
    expect(location.hash).toBe("#/conversations/3");
    expect(linkedInvitation()).toBeNull();
  });
});
