import "@testing-library/jest-dom/vitest";

import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

import { setConnectivity } from "../api/connectivity";
import { signOut } from "../auth/session";
import { clearToasts } from "../ui/toasts";

// Times are written as the browser's locale writes them (tasks/dueLabel.ts): the tests' browser
// reads a 24-hour clock, as most of the world does; a 12-hour one is tested by name.
Object.defineProperty(window.navigator, "language", { value: "en-GB", configurable: true });

// findBy*/waitFor give up after 1 s by default; on a busy machine a render can take longer.
configure({ asyncUtilTimeout: 15_000 });

// Module-level stores outlive a test: put them back as a fresh page load would have them.
afterEach(() => {
  cleanup();
  signOut();
  setConnectivity("online");
  clearToasts();
  localStorage.clear();
  history.replaceState(null, "", "/");
});
