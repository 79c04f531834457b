import { beforeEach, describe, expect, it } from "vitest";

import { getSessionState, SIGNED_IN_BEFORE_KEY, signIn } from "../auth/session";
import { json, mockServer } from "../test/fetchMock";
import { api, SESSION_EXPIRED, unwrap } from "./client";
import { getConnectivity, setConnectivity } from "./connectivity";
import { ApiError, NetworkError } from "./errors";

describe("the API client", () => {
  beforeEach(() => setConnectivity("online"));

  it("adds the bearer token to every request", async () => {
    signIn({ token: "secret", email: "me@example.com" });
    const server = mockServer({ "GET /api/tasks": () => json([]) });
    await unwrap(api.GET("/api/tasks"));
    expect(server.calls[0]?.headers.get("Authorization")).toBe("Bearer secret");
  });

  it("logs out with a message on any 401 to an authenticated request", async () => {
    signIn({ token: "expired", email: "me@example.com" });
    mockServer({ "GET /api/tasks": () => json({ detail: "Invalid or expired token" }, 401) });

    await expect(unwrap(api.GET("/api/tasks"))).rejects.toBeInstanceOf(ApiError);
    expect(getSessionState()).toEqual({ session: null, notice: SESSION_EXPIRED });
    // The token is gone; only the note that someone signed in here stays (login comes first).
    expect(Object.keys(localStorage)).toEqual([SIGNED_IN_BEFORE_KEY]);
  });

  it("leaves a failed login (401 without a token) to the login form", async () => {
    mockServer({ "POST /api/auth/login": () => json({ detail: "Incorrect email or password" }, 401) });
    const failed = unwrap(api.POST("/api/auth/login", { body: { email: "a@b.co", password: "nope" } }));
    await expect(failed).rejects.toEqual(new ApiError(401, "Incorrect email or password"));
    expect(getSessionState().notice).toBeNull();
  });

  it("marks the server unreachable when fetch fails, and reachable again when it answers", async () => {
    const server = mockServer({ "GET /healthz": () => json({ status: "ok" }) });
    server.fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));

    await expect(unwrap(api.GET("/healthz"))).rejects.toBeInstanceOf(NetworkError);
    expect(getConnectivity()).toBe("unreachable");
    await unwrap(api.GET("/healthz"));
    expect(getConnectivity()).toBe("online");
  });
});

describe("error messages", () => {
  it("asks the user to slow down on a 429, using Retry-After", async () => {
    signIn({ token: "t", email: "me@example.com" });
    mockServer({
      "GET /api/tasks": () =>
        new Response(JSON.stringify({ detail: "Too many requests; please slow down" }), {
          status: 429,
          headers: { "Content-Type": "application/json", "Retry-After": "12" },
        }),
    });
    await expect(unwrap(api.GET("/api/tasks"))).rejects.toThrow(
      "You're going a bit fast. Please wait 12 s and try again.",
    );
  });

  it("turns a validation error into a sentence about the field", async () => {
    mockServer({
      "POST /api/auth/register": () =>
        json(
          {
            detail: [
              { loc: ["body", "email"], msg: "value is not a valid email address", type: "value_error" },
            ],
          },
          422,
        ),
    });
    const failed = unwrap(
      api.POST("/api/auth/register", { body: { email: "nope", password: "password123" } }),
    );
    await expect(failed).rejects.toThrow("Enter a valid email address.");
  });
});
