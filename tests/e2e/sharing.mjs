// Two people share a shopping list in two browsers (issue 36's "done when"): Alex shares a
// list with Sam's email before Sam has an account; Sam signs up, sees the invitation, accepts;
// each adds and ticks items, and each sees the other's changes live, without a reload.
// Usage: BASE_URL=http://127.0.0.1:8765 ARTIFACTS=dir node sharing.mjs
import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, signUp, step as stepOf, until, watch as watchPage } from "./browser.mjs";

const stamp = Date.now();
const LIST = "Groceries";

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
const problems = [];

const watch = (page, who) => watchPage(page, who, problems);
const step = (name, page, action) => stepOf(name, page, action, "sharing-failure");

const tasks = (page) => page.getByRole("region", { name: "Tasks" });
const lists = (page) => tasks(page).getByRole("group", { name: "Lists" });
const checkbox = (page, title) => tasks(page).getByRole("checkbox", { name: title, exact: true });
const item = (page, title) =>
  tasks(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("checkbox", { name: title, exact: true }) });

async function openList(page, name) {
  const button = lists(page).getByRole("button", { name: new RegExp(`^${name}\\b`) });
  await button.click();
  await until(async () => (await button.getAttribute("aria-pressed")) === "true", `${name} is selected`);
}

async function addInPanel(page, title) {
  const box = tasks(page).getByRole("textbox", { name: "New task" });
  await box.fill(title);
  await box.press("Enter");
  await checkbox(page, title).waitFor();
}

/** What the other browser shows arrives by itself: no reload, no click. */
async function shows(page, title, what = `the panel shows ${title}`) {
  await until(async () => (await checkbox(page, title).count()) === 1, what);
}

async function ticked(page, title) {
  await until(async () => (await checkbox(page, title).count()) === 1 && (await checkbox(page, title).isChecked()), `${title} is ticked`);
}

try {
  const alexEmail = `alex-${stamp}@example.com`;
  const samEmail = `sam-${stamp}@example.com`;
  const alexContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const alex = await alexContext.newPage();
  watch(alex, "alex");

  await step("Alex signs up, makes a Groceries list and shares it with Sam's email as an editor", alex, async () => {
    await signUp(alex, alexEmail);
    await lists(alex).getByRole("button", { name: "New list" }).click();
    const name = tasks(alex).getByRole("textbox", { name: "List name" });
    await name.fill(LIST);
    await name.press("Enter");
    await openList(alex, LIST);
    await tasks(alex).getByRole("button", { name: `Share ${LIST}` }).click();
    const dialog = alex.getByRole("dialog", { name: `Share “${LIST}”` });
    await dialog.getByLabel("Email").fill(samEmail);
    await dialog.getByLabel("Role").selectOption("editor");
    const invited = alex.waitForResponse((r) => r.url().endsWith(`/api/lists/${LIST}/members`) && r.request().method() === "POST");
    await dialog.getByRole("button", { name: "Invite" }).click();
    assert.equal((await invited).status(), 201);
    await dialog.getByText(samEmail).first().waitFor();
    await alex.screenshot({ path: join(ARTIFACTS, "sharing-dialog.png"), fullPage: true });
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "detached" });
    await addInPanel(alex, "oat milk");
  });

  const samContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const sam = await samContext.newPage();
  watch(sam, "sam");

  await step("Sam signs up with that email later, sees the invitation and accepts it", sam, async () => {
    await signUp(sam, samEmail);
    const invitations = sam.getByRole("region", { name: "Invitations" });
    await invitations.getByText(alexEmail).first().waitFor();
    await invitations.getByRole("button", { name: `Accept the invitation to ${LIST}` }).click();
    await lists(sam).getByRole("button", { name: new RegExp(`^${LIST}\\b`) }).waitFor();
    await openList(sam, LIST);
    await shows(sam, "oat milk");
    assert.match(await item(sam, "oat milk").innerText(), new RegExp(`Added by ${alexEmail}`));
  });

  await step("Sam adds bread: Alex's open page shows it by itself, added by Sam", alex, async () => {
    await addInPanel(sam, "bread");
    await shows(alex, "bread", "Alex's page shows Sam's bread without a reload");
    assert.match(await item(alex, "bread").innerText(), new RegExp(`Added by ${samEmail}`));
  });

  await step("Alex adds apples: Sam's open page shows them by itself", sam, async () => {
    await addInPanel(alex, "apples");
    await shows(sam, "apples", "Sam's page shows Alex's apples without a reload");
  });

  await step("Sam ticks oat milk and Alex ticks bread: each sees the other's tick", alex, async () => {
    await checkbox(sam, "oat milk").check();
    await checkbox(alex, "bread").check();
    await ticked(alex, "oat milk");
    await ticked(sam, "bread");
    assert.match(await item(alex, "oat milk").innerText(), new RegExp(`completed by ${samEmail}`));
    assert.match(await item(sam, "bread").innerText(), new RegExp(`Added by you · completed by ${alexEmail}`));
    await alex.screenshot({ path: join(ARTIFACTS, "sharing-alex.png"), fullPage: true });
    await sam.screenshot({ path: join(ARTIFACTS, "sharing-sam.png"), fullPage: true });
  });

  await step("Alex removes Sam: Sam's open page loses the list at once", sam, async () => {
    await tasks(alex).getByRole("button", { name: `Share ${LIST}` }).click();
    const dialog = alex.getByRole("dialog", { name: `Share “${LIST}”` });
    await dialog.getByRole("button", { name: `Remove ${samEmail}`, exact: true }).click();
    const removed = alex.waitForResponse((r) => r.request().method() === "DELETE" && /\/members\/\d+$/.test(r.url()));
    // Removing asks once more: a second press.
    await dialog.getByRole("button", { name: `Remove ${samEmail} now`, exact: true }).click();
    assert.equal((await removed).status(), 204);
    await dialog.getByRole("button", { name: "Close" }).click();
    await until(
      async () => (await lists(sam).getByRole("button", { name: new RegExp(`^${LIST}\\b`) }).count()) === 0,
      "Sam's page no longer lists Groceries",
    );
    assert.equal(await checkbox(sam, "apples").count(), 0);
  });

  assert.deepEqual(problems, [], "no console errors or warnings");
  console.log("ok - no console errors or warnings");
} finally {
  await browser.close();
}
