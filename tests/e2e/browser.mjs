// What the browser scripts share: where they run, how chromium starts, waiting, signing up.
import { mkdirSync } from "node:fs";

export const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:8765";
export const ARTIFACTS = process.env.ARTIFACTS ?? "test-artifacts/e2e";
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const PASSWORD = "a long enough password";
mkdirSync(ARTIFACTS, { recursive: true });

// Headless Debian chromium, quiet: nothing of its own reaches the network.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// Generous: a wait is a hang guard, not a speed check, and CI shares two busy cores.
export async function until(check, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** A first visit (a new browser context) lands on sign-up, with the password rule shown. */
export async function signUp(page, email) {
  await page.goto(BASE_URL);
  await page.getByRole("heading", { name: "Create your account" }).waitFor();
  await page.getByText(/a few unrelated words work well/).waitFor();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.getByLabel("Message").waitFor();
}
