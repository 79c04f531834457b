import { act, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { AuthScreen } from "../auth/AuthScreen";
import { signedInServer } from "../test/fixtures";
import { renderWithClient } from "../test/render";
import { ConnectionBanner } from "./ConnectionBanner";

function goOffline(offline: boolean) {
  Object.defineProperty(navigator, "onLine", { configurable: true, get: () => !offline });
  act(() => {
    window.dispatchEvent(new Event(offline ? "offline" : "online"));
  });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, "onLine");
});

describe("Offline", () => {
  it("the app says it is offline, and stops saying so once back online", () => {
    signedInServer();
    renderWithClient(<ConnectionBanner />);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();

    goOffline(true);
    expect(screen.getByRole("alert")).toHaveTextContent("You're offline.");
    goOffline(false);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("the login screen says so too", () => {
    goOffline(true);
    renderWithClient(<AuthScreen />);
    expect(screen.getByRole("alert")).toHaveTextContent("You're offline.");
  });
});
