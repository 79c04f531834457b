import { describe, expect, it } from "vitest";

import { detailOf } from "./errors";

describe("detailOf", () => {
  it("shows the server's reason when a password breaks one of its rules", () => {
    const body = {
      detail: [
        {
          type: "password_too_common",
          loc: ["body", "password"],
          msg: "This password is too common; choose one that is harder to guess",
        },
      ],
    };
    expect(detailOf(body)).toBe("This password is too common; choose one that is harder to guess");
  });

  it("explains the length rule for a password that is too short", () => {
    const body = { detail: [{ type: "string_too_short", loc: ["body", "password"], msg: "x" }] };
    expect(detailOf(body)).toBe("Password must be 8 to 128 characters.");
  });
});
