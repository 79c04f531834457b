import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { json, mockServer } from "../test/fetchMock";
import { renderWithClient } from "../test/render";
import { AuthScreen } from "./AuthScreen";
import { getSessionState, SIGNED_IN_BEFORE_KEY, STORAGE_KEY } from "./session";

const TOKEN = { access_token: "abc", token_type: "bearer", user: { id: 1, email: "sam@example.com" } };

describe("AuthScreen", () => {
  it("opens on sign-up for a first visit, with the password rule stated up front", () => {
    renderWithClient(<AuthScreen />);
    expect(screen.getByRole("heading", { name: "Create your account" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign up" })).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(/a few unrelated words work well/);
  });

  it("opens on logging in for a browser someone has signed in on before", () => {
    localStorage.setItem(SIGNED_IN_BEFORE_KEY, "1");
    renderWithClient(<AuthScreen />);
    expect(screen.getByRole("heading", { name: "Welcome back" })).toBeInTheDocument();
  });

  it("switches between signing up and logging in", async () => {
    const { user } = renderWithClient(<AuthScreen />);
    expect(screen.getByRole("button", { name: "Sign up" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "I already have an account" }));
    expect(screen.getByRole("button", { name: "Log in" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign up" })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Create an account" }));
    expect(screen.getByRole("button", { name: "Sign up" })).toBeInTheDocument();
  });

  it("logs in, keeping the token in localStorage", async () => {
    const server = mockServer({ "POST /api/auth/login": () => json(TOKEN) });
    localStorage.setItem(SIGNED_IN_BEFORE_KEY, "1");
    const { user } = renderWithClient(<AuthScreen />);

    await user.type(screen.getByLabelText("Email"), "sam@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Log in" }));

    await vi.waitFor(() => expect(getSessionState().session?.token).toBe("abc"));
    expect(server.callsTo("POST /api/auth/login")[0]?.body).toEqual({
      email: "sam@example.com",
      password: "correct horse",
    });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}")).toEqual({
      token: "abc",
      email: "sam@example.com",
    });
  });

  it("says so when the email or password is wrong (401)", async () => {
    mockServer({ "POST /api/auth/login": () => json({ detail: "Incorrect email or password" }, 401) });
    localStorage.setItem(SIGNED_IN_BEFORE_KEY, "1");
    const { user } = renderWithClient(<AuthScreen />);

    await user.type(screen.getByLabelText("Email"), "sam@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong password");
    await user.click(screen.getByRole("button", { name: "Log in" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Incorrect email or password");
    expect(getSessionState().session).toBeNull();
    // The button never became disabled, so keyboard focus is still on it, not lost.
    expect(screen.getByRole("button", { name: "Log in" })).toHaveFocus();
  });

  it("signs up with the browser's time zone, so 'today' is the user's", async () => {
    const server = mockServer({ "POST /api/auth/register": () => json(TOKEN, 201) });
    const { user } = renderWithClient(<AuthScreen />);

    await user.type(screen.getByLabelText("Email"), "sam@example.com");
    await user.type(screen.getByLabelText("Password"), "long enough");
    await user.click(screen.getByRole("button", { name: "Sign up" }));

    await vi.waitFor(() => expect(server.callsTo("POST /api/auth/register")).toHaveLength(1));
    expect(server.callsTo("POST /api/auth/register")[0]?.body).toEqual({
      email: "sam@example.com",
      password: "long enough",
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });

  it("says so when signing up with an email that already has an account (409)", async () => {
    mockServer({
      "POST /api/auth/register": () => json({ detail: "A user with this email already exists" }, 409),
    });
    const { user } = renderWithClient(<AuthScreen />);

    await user.type(screen.getByLabelText("Email"), "sam@example.com");
    await user.type(screen.getByLabelText("Password"), "long enough");
    await user.click(screen.getByRole("button", { name: "Sign up" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("A user with this email already exists");
  });

  it("checks the password length before signing up", async () => {
    const server = mockServer({});
    const { user } = renderWithClient(<AuthScreen />);

    await user.type(screen.getByLabelText("Email"), "sam@example.com");
    await user.type(screen.getByLabelText("Password"), "short");
    await user.click(screen.getByRole("button", { name: "Sign up" }));

    expect(screen.getByRole("alert")).toHaveTextContent("Password must be at least 8 characters.");
    expect(server.calls).toHaveLength(0);
  });

  it("shows why the user was sent back here", () => {
    renderWithClient(<AuthScreen notice="Your session has expired. Please log in again." />);
    expect(screen.getByRole("alert")).toHaveTextContent("Your session has expired. Please log in again.");
  });
});
