// What the browser scripts share: where they run, how chromium starts, waiting, signing up.
import { mkdirSync } from "node:fs";
import { join } from "node:path";

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

/**
 * Records in `problems` every console error or warning of `page` and every error it throws,
 * but those `expected(message)` says were made on purpose.
 */
export function watch(page, who, problems, expected = () => false) {
  page.on("console", (message) => {
    if (message.type() !== "error" && message.type() !== "warning") return;
    if (expected(message)) return;
    problems.push(`${who} console ${message.type()}: ${message.text()} ${message.location()?.url ?? ""}`);
  });
  page.on("pageerror", (error) => problems.push(`${who} page error: ${error.message}`));
}

/** One step of a journey: "ok - name", or "not ok - name" with a screenshot of `page`. */
export async function step(name, page, action, failureShot = "failure") {
  try {
    await action();
    console.log(`ok - ${name}`);
  } catch (error) {
    await page.screenshot({ path: join(ARTIFACTS, `${failureShot}.png`), fullPage: true });
    console.log(`not ok - ${name}`);
    throw error;
  }
}
