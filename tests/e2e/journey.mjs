// A person's journey through the web UI, in Debian's chromium driven by playwright-core.
// Usage: BASE_URL=http://127.0.0.1:8765 ARTIFACTS=dir node journey.mjs
// Prints one line per step; exits non-zero on the first failure (with a screenshot).
import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import {
  ARTIFACTS,
  BASE_URL,
  CHROMIUM,
  CHROMIUM_ARGS,
  signUp,
  step,
  until,
  watch as watchPage,
} from "./browser.mjs";

const stamp = Date.now();

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
const problems = [];

// Requests the journey makes fail on purpose (a wrong password): the browser itself logs
// "Failed to load resource" for them, which no page can prevent.
const expectedFailures = new Set();

const failedOnPurpose = (message) =>
  message.text().startsWith("Failed to load resource") && expectedFailures.has(message.location()?.url ?? "");
const watch = (page, who) => watchPage(page, who, problems, failedOnPurpose);

async function shot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function send(page, text) {
  const replies = page.getByRole("article", { name: "Assistant" });
  const before = await replies.count();
  await page.getByLabel("Message").fill(text);
  await page.getByLabel("Message").press("Enter");
  await replies.nth(before).waitFor();
  // The turn is over when the composer is usable again.
  await until(() => page.getByLabel("Message").isEnabled(), "the composer is enabled again");
  return replies.nth(before);
}

const tasks = (page) => page.getByRole("region", { name: "Tasks" });

// The account's zone for the dates journey: far from the server's UTC (and from most CI
// machines'), so a day computed in the wrong zone shows up as a wrong label.
const ACCOUNT_ZONE = "Pacific/Kiritimati";

/** "YYYY-MM-DD" in `zone`, `offset` days from today there. */
function dayIn(zone, offset = 0) {
  const [year, month, day] = new Intl.DateTimeFormat("en-CA", { timeZone: zone })
    .format(new Date())
    .split("-")
    .map(Number);
  return new Date(Date.UTC(year, month - 1, day + offset)).toISOString().slice(0, 10);
}

const taskItem = (page, title) =>
  tasks(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("checkbox", { name: title, exact: true }) });

async function addInPanel(page, title) {
  await tasks(page).getByRole("textbox", { name: "New task" }).fill(title);
  await tasks(page).getByRole("textbox", { name: "New task" }).press("Enter");
  await tasks(page).getByRole("checkbox", { name: title, exact: true }).waitFor();
}

/** Open a task's details form, let `fill` set fields, save, and wait for the server's answer. */
async function editDetails(page, title, fill) {
  await tasks(page)
    .getByRole("button", { name: `Edit details of ${title}` })
    .click();
  const form = page.getByRole("form", { name: `Details of ${title}` });
  await fill(form);
  const saved = page.waitForResponse(
    (r) => /\/api\/tasks\/\d+$/.test(r.url()) && r.request().method() === "PATCH",
  );
  await form.getByRole("button", { name: "Save" }).click();
  assert.equal((await saved).status(), 200);
  await form.waitFor({ state: "detached" });
}

async function chipText(page, title) {
  return (await taskItem(page, title).locator(".due-chip > span[aria-hidden=true]").innerText()).trim();
}

/**
 * The assistant understands a date said in chat: the task it adds has the day and time, and
 * the panel shows them. (The assistant's date slots are built separately from the web UI.)
 */
async function addByChatWithADate(page) {
  await step(
    "chat: 'remind me to pay rent tomorrow at 9am' adds 'pay rent' due tomorrow 09:00",
    page,
    async () => {
      await send(page, "remind me to pay rent tomorrow at 9am");
      const rent = tasks(page).getByRole("checkbox", { name: /^pay rent$/i });
      await until(
        async () => (await rent.count()) === 1,
        "the panel shows a task titled 'pay rent'",
        10_000,
      ).catch(async (error) => {
        const titles = await tasks(page)
          .getByRole("checkbox")
          .evaluateAll((boxes) => boxes.map((box) => box.labels?.[0]?.innerText ?? "?"));
        throw new Error(`${error.message}; the panel has: ${JSON.stringify(titles)}`);
      });
      // The panel may show the task a moment before its refreshed row carries the due chip.
      await until(
        async () => (await chipText(page, "pay rent")) === "Tomorrow 09:00",
        "the due chip of 'pay rent' says Tomorrow 09:00",
      ).catch(async (error) => {
        throw new Error(`${error.message}; it says ${JSON.stringify(await chipText(page, "pay rent"))}`);
      });
      await shot(page, "desktop-chat-date");
    },
  );
}

/**
 * What the reminder cards cover: each visible button, link, field or heading outside the
 * cards that a card's box meets, or whose centre lies under the cards. Empty when none.
 */
async function noButtonCovered(page) {
  return page.evaluate(() => {
    const stack = document.querySelector(".reminder-stack");
    const cards = [...document.querySelectorAll(".reminder-card")].map((card) => card.getBoundingClientRect());
    const covered = [];
    for (const control of document.querySelectorAll("button, [role=button], a[href], input, textarea, select, h1, h2")) {
      if (stack?.contains(control)) continue;
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === "hidden") continue;
      if (box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth) continue;
      const name = control.getAttribute("aria-label") || control.textContent?.trim().slice(0, 30) || control.tagName;
      const meets = (card) =>
        box.left < card.right && card.left < box.right && box.top < card.bottom && card.top < box.bottom;
      const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
      const hit = document.elementFromPoint(x, y);
      if (cards.some(meets) || (hit && !control.contains(hit) && stack?.contains(hit))) covered.push(name);
    }
    return covered;
  });
}

try {
  // --- desktop ------------------------------------------------------------------------
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await desktop.newPage();
  watch(page, "desktop");
  const email = `e2e-${stamp}@example.com`;

  await step("sign up lands in an empty chat with suggested prompts", page, async () => {
    await signUp(page, email);
    await page.getByRole("button", { name: "Add buy groceries" }).waitFor();
    await shot(page, "desktop-empty-chat");
  });

  await step("'add buy milk' gets a reply and the task appears in the panel", page, async () => {
    const reply = await send(page, "add buy milk");
    await assert.doesNotReject(
      reply.filter({ hasText: "I've added 'buy milk' to your list." }).waitFor(),
    );
    await tasks(page).getByRole("checkbox", { name: "buy milk" }).waitFor();
    assert.match(await tasks(page).innerText(), /#1/);
  });

  await step("ticking the task in the panel completes it", page, async () => {
    const checkbox = tasks(page).getByRole("checkbox", { name: "buy milk" });
    const saved = page.waitForResponse(
      (r) => r.url().includes("/api/tasks/1") && r.request().method() === "PATCH",
    );
    await checkbox.check();
    assert.equal((await saved).status(), 200);
    await until(() => checkbox.isChecked(), "the checkbox stays checked");
  });

  await step("the assistant sees the panel's change: 'what have I finished?'", page, async () => {
    const reply = await send(page, "what have I finished?");
    await assert.doesNotReject(reply.filter({ hasText: "Buy milk" }).waitFor());
    assert.match(await reply.innerText(), /completed tasks/i);
    await shot(page, "desktop-chat-with-tasks");
  });

  await step("a reload keeps the conversation", page, async () => {
    await page.reload();
    await page.getByRole("article", { name: "You" }).filter({ hasText: "add buy milk" }).waitFor();
    await page
      .getByRole("navigation", { name: "Conversations" })
      .getByRole("button", { name: "add buy milk", exact: true })
      .waitFor();
  });

  await step("coming back to the bare address reopens the conversation the user was in", page, async () => {
    await page.goto(BASE_URL);
    await page.getByRole("article", { name: "You" }).filter({ hasText: "add buy milk" }).waitFor();
    assert.match(page.url(), /#\/conversations\/\d+$/);
    assert.equal(await page.getByRole("list", { name: "Suggested prompts" }).count(), 0);
  });

  await step("sending while scrolled up brings the thread down to the reply", page, async () => {
    const items = Array.from({ length: 24 }, (_, i) => `- errand number ${i + 1}`).join("\n");
    await send(page, `add these:\n${items}`);
    await send(page, "show my tasks");
    const thread = page.locator(".thread-scroll");
    await thread.evaluate((element) => element.scrollTo({ top: 0 }));
    const reply = await send(page, "what's left?");
    await reply.waitFor();
    const gap = await thread.evaluate((e) => e.scrollHeight - e.scrollTop - e.clientHeight);
    assert.ok(gap < 80, `the thread stayed ${gap}px above its end`);
  });

  await step("a task list in chat labels each task by its number, with no counter to skip", page, async () => {
    await send(page, "delete task 3");
    const reply = await send(page, "what's left?");
    assert.equal(await reply.locator("ol").count(), 0, "task numbers are no list counter");
    const markers = await reply.locator("li .msg-marker").allInnerTexts();
    assert.deepEqual(markers.slice(0, 3), ["#2", "#4", "#5"]);
  });

  await step("a long conversation title is cut in the sidebar, which keeps its width", page, async () => {
    await page.getByRole("button", { name: "New chat" }).click();
    await send(page, "add renew the car insurance before the end of the month, and the boat's");
    const sidebar = page.getByRole("navigation", { name: "Conversations" });
    const overflow = await sidebar.evaluate((e) => e.scrollWidth - e.clientWidth);
    assert.ok(overflow <= 1, `the sidebar is ${overflow}px wider than its column`);
    const current = sidebar.locator(".conversation.is-current");
    await current.getByRole("button", { name: /^Delete/ }).focus();
    assert.equal(await sidebar.evaluate((e) => e.scrollLeft), 0);
    await shot(page, "desktop-long-title");
  });

  await step("a 'which one?' reply offers its readings as buttons; one click deletes that task", page, async () => {
    await addInPanel(page, "Finish Q4 report");
    await addInPanel(page, "Review report draft");
    const asked = await send(page, "delete the report");
    await assert.doesNotReject(asked.filter({ hasText: "Which task would you like to delete?" }).waitFor());
    const choices = page.getByRole("group", { name: "Suggested replies" });
    await choices.waitFor();
    assert.equal(await choices.getByRole("button").count(), 2);
    await shot(page, "desktop-chat-choices");

    const replies = page.getByRole("article", { name: "Assistant" });
    const before = await replies.count();
    await choices.getByRole("button", { name: /^Finish Q4 report \(task \d+\)$/ }).click();
    const done = replies.nth(before);
    await assert.doesNotReject(
      done.filter({ hasText: "I've deleted 'Finish Q4 report' from your list." }).waitFor(),
    );
    await until(() => page.getByLabel("Message").isEnabled(), "the composer is enabled again");
    await choices.waitFor({ state: "detached" });
    await until(
      async () => (await tasks(page).getByRole("checkbox", { name: "Finish Q4 report" }).count()) === 0,
      "the deleted task is gone from the panel",
    );
    await tasks(page).getByRole("checkbox", { name: "Review report draft" }).waitFor();
  });

  await step("a change's Undo button takes it back: the task leaves the panel", page, async () => {
    const added = await send(page, "add postage stamps");
    await assert.doesNotReject(
      added.filter({ hasText: "I've added 'postage stamps' to your list." }).waitFor(),
    );
    await tasks(page).getByRole("checkbox", { name: "postage stamps", exact: true }).waitFor();
    // One button, under the reply that made the change.
    const undo = page.getByRole("button", { name: "Undo this change" });
    await undo.waitFor();
    assert.equal(await undo.count(), 1);
    assert.equal(
      await page.locator(".msg-stack").last().getByRole("button", { name: "Undo this change" }).count(),
      1,
    );
    await shot(page, "desktop-chat-undo");

    const replies = page.getByRole("article", { name: "Assistant" });
    const before = await replies.count();
    await undo.click();
    await page
      .getByRole("article", { name: "You" })
      .last()
      .filter({ hasText: /^undo$/ })
      .waitFor();
    await assert.doesNotReject(
      replies
        .nth(before)
        .filter({ hasText: /^Undone/ })
        .waitFor(),
    );
    await until(() => page.getByLabel("Message").isEnabled(), "the composer is enabled again");
    await undo.waitFor({ state: "detached" });
    await until(
      async () =>
        (await tasks(page).getByRole("checkbox", { name: "postage stamps", exact: true }).count()) === 0,
      "the undone task is gone from the panel",
    );
  });

  await step("Settings holds the calendar feed and the theme; Dark applies at once and stays", page, async () => {
    await page.getByRole("button", { name: "Settings" }).click();
    const settings = page.getByRole("dialog", { name: "Settings" });
    await settings.getByRole("region", { name: "Calendar feed" }).waitFor();
    await settings.getByRole("region", { name: "Connections" }).waitFor();
    const theme = settings.getByRole("group", { name: "Theme" });
    assert.equal(await theme.getByRole("radio", { name: "System" }).isChecked(), true);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await theme.getByRole("radio", { name: "Dark" }).check();
    await until(async () => (await background()) !== light, "the page turns dark");
    const dark = await background();
    await shot(page, "desktop-settings-dark");
    await page.keyboard.press("Escape");
    await settings.waitFor({ state: "detached" });
    await page.reload();
    await page.getByLabel("Message").waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    assert.equal(await background(), dark, "still dark after a reload");
    await page.getByRole("button", { name: "Settings" }).click();
    await settings.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Light" }).check();
    await until(async () => (await background()) === light, "the page is light again");
    await settings.getByRole("button", { name: "Close" }).click();
  });

  await step("log out returns to the login screen", page, async () => {
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Log in" }).waitFor();
    await shot(page, "desktop-login");
  });

  await step("a wrong password is refused with a clear message", page, async () => {
    expectedFailures.add(`${BASE_URL}/api/auth/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("alert").filter({ hasText: /incorrect email or password/i }).waitFor();
  });

  // --- another user ------------------------------------------------------------------
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const otherPage = await other.newPage();
  watch(otherPage, "other user");
  await step("another user sees none of it", otherPage, async () => {
    await signUp(otherPage, `e2e-other-${stamp}@example.com`);
    await tasks(otherPage).getByText("No tasks yet").waitFor();
    const conversations = otherPage.getByRole("navigation", { name: "Conversations" });
    assert.equal(await conversations.getByRole("button", { name: "add buy milk" }).count(), 0);
    const reply = await send(otherPage, "show my tasks");
    await assert.doesNotReject(reply.filter({ hasText: "You don't have any tasks" }).waitFor());
  });

  // --- mobile ------------------------------------------------------------------------
  const mobile = await browser.newContext({
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  const phone = await mobile.newPage();
  watch(phone, "mobile");
  await step("at 375 px the chat works and the task panel opens from its toggle", phone, async () => {
    await signUp(phone, `e2e-mobile-${stamp}@example.com`);
    const reply = await send(phone, "add call mom");
    await assert.doesNotReject(reply.filter({ hasText: "Call mom" }).waitFor());
    await shot(phone, "mobile-chat");
    const toggle = phone.getByRole("button", { name: "Tasks" });
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    await tasks(phone).getByRole("checkbox", { name: "call mom" }).waitFor();
    // Focus moves into the drawer, but not to a text field (that pops the keyboard up).
    const focused = await phone.evaluate(
      () => `${document.activeElement?.tagName}:${document.activeElement?.getAttribute("type")}`,
    );
    assert.ok(!/^(INPUT:text|INPUT:null|TEXTAREA)/.test(focused), `focus went to ${focused}`);
    await shot(phone, "mobile-tasks");
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `page is ${width}px wide at a 375px viewport`);
  });

  await step("at 375 px a task's details form fits the drawer", phone, async () => {
    await tasks(phone).getByRole("button", { name: "Edit details of call mom" }).click();
    const form = phone.getByRole("form", { name: "Details of call mom" });
    await form.getByLabel("Due date").fill("2031-05-02");
    await form.getByLabel("Due time").fill("18:00");
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `page is ${width}px wide with the details form open`);
    const drawer = phone.locator("#tasks-drawer");
    const drawerOverflow = await drawer.evaluate((e) => e.scrollWidth - e.clientWidth);
    assert.ok(drawerOverflow <= 1, `the task drawer is ${drawerOverflow}px wider than the screen`);
    await shot(phone, "mobile-task-details");
    await form.getByRole("button", { name: "Cancel" }).click();
  });

  // --- dates and lists ------------------------------------------------------------------
  // A 24-hour locale: the chips write times as the browser's own time inputs do.
  const planner = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    timezoneId: ACCOUNT_ZONE,
    locale: "en-GB",
  });
  const dates = await planner.newPage();
  watch(dates, "dates");

  await step(
    "a task typed in the panel gets a due day, time and list from its details form",
    dates,
    async () => {
      await signUp(dates, `e2e-dates-${stamp}@example.com`);
      await addInPanel(dates, "Renew passport");
      await editDetails(dates, "Renew passport", async (form) => {
        await form.getByLabel("Due date").fill(dayIn(ACCOUNT_ZONE, 1));
        await form.getByLabel("Due time").fill("10:30");
        await form.getByRole("combobox", { name: "List" }).selectOption("Shopping");
      });
      await addInPanel(dates, "Water plants");
      await editDetails(dates, "Water plants", async (form) => {
        await form.getByLabel("Due date").fill(dayIn(ACCOUNT_ZONE, -1));
        await form.getByRole("combobox", { name: "Priority" }).selectOption("High");
      });
    },
  );

  await step(
    "the due chips say Tomorrow 10:30 and Overdue by 1 day, in the account's zone",
    dates,
    async () => {
      await until(
        async () => (await chipText(dates, "Renew passport")) === "Tomorrow 10:30",
        "Tomorrow 10:30",
      );
      await until(
        async () => (await chipText(dates, "Water plants")) === "Overdue by 1 day",
        "Overdue by 1 day",
      );
      const overdue = taskItem(dates, "Water plants").locator(".due-chip");
      assert.match((await overdue.getAttribute("class")) ?? "", /is-overdue/);
      assert.match(await taskItem(dates, "Renew passport").innerText(), /Shopping/);
      assert.match(await taskItem(dates, "Water plants").innerText(), /High/);
    },
  );

  await step(
    "the list switcher shows one list's tasks, and the due filter the overdue ones",
    dates,
    async () => {
      const lists = tasks(dates).getByRole("group", { name: "Lists" });
      const shopping = lists.getByRole("button", { name: "Shopping, 1 pending" });
      await shopping.click();
      assert.equal(await shopping.getAttribute("aria-pressed"), "true");
      await until(
        async () => (await tasks(dates).getByRole("checkbox", { name: "Water plants" }).count()) === 0,
        "Water plants (Inbox) is gone from the Shopping list",
      );
      await tasks(dates).getByRole("checkbox", { name: "Renew passport" }).waitFor();
      await shot(dates, "desktop-dates-lists");

      await lists.getByRole("button", { name: /^All/ }).click();
      await tasks(dates).getByRole("combobox", { name: "Due" }).selectOption("Overdue");
      await until(
        async () => (await tasks(dates).getByRole("checkbox", { name: "Renew passport" }).count()) === 0,
        "only the overdue task is left",
      );
      await tasks(dates).getByRole("checkbox", { name: "Water plants" }).waitFor();
      await tasks(dates).getByRole("combobox", { name: "Due" }).selectOption("Any");
      await tasks(dates).getByRole("checkbox", { name: "Renew passport" }).waitFor();
    },
  );

  // --- reminders ---------------------------------------------------------------------
  // Notifications allowed for the app, and every one the page makes recorded (headless
  // chromium shows none on screen).
  const alerted = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await alerted.grantPermissions(["notifications"], { origin: BASE_URL });
  await alerted.addInitScript(() => {
    const Real = window.Notification;
    window.__notified = [];
    window.Notification = class extends Real {
      constructor(title, options) {
        window.__notified.push({ title, ...options });
        super(title, options);
      }
    };
  });
  const alerts = await alerted.newPage();
  watch(alerts, "reminders");
  const tokenOf = async (page) =>
    page.evaluate(() => JSON.parse(localStorage.getItem("todo-chatbot.session") ?? "{}").token);
  /** A REST call with the page's stored token, as the UI makes them. */
  const rest = async (bearer, path, init = {}) => {
    const response = await fetch(`${BASE_URL}${path}`, {
      ...init,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` },
    });
    return { status: response.status, body: response.status === 204 ? null : await response.json() };
  };
  /** A task whose reminder fires a few seconds from now (later if the server took its time). */
  async function remindSoon(bearer, title) {
    for (const seconds of [3, 15, 45]) {
      const remind_at = new Date(Date.now() + seconds * 1000).toISOString();
      const { status, body } = await rest(bearer, "/api/tasks", {
        method: "POST",
        body: JSON.stringify({ title, remind_at }),
      });
      if (status === 201) return body;
      assert.equal(status, 422, JSON.stringify(body));
    }
    throw new Error("the server kept finding the reminder time in the past");
  }
  const reminderCard = (page, title) =>
    page.getByRole("list", { name: "Reminders" }).getByRole("listitem").filter({ hasText: title });

  await step(
    "browser notifications are turned on in Settings, opened from the header",
    alerts,
    async () => {
      await signUp(alerts, `e2e-reminders-${stamp}@example.com`);
      await alerts.getByRole("button", { name: "Settings" }).click();
      const settings = alerts.getByRole("dialog", { name: "Settings" });
      const toggle = settings.getByRole("checkbox", { name: "Browser notifications" });
      assert.equal(await toggle.isChecked(), false, "off until turned on in this browser");
      await toggle.check();
      await until(() => toggle.isChecked(), "the switch stays on");
      await settings.getByRole("button", { name: "Close" }).click();
      await settings.waitFor({ state: "detached" });
    },
  );

  await step(
    "a reminder that fires while the page is open shows as a card and a browser notification",
    alerts,
    async () => {
      const created = await remindSoon(await tokenOf(alerts), "Stretch your legs");
      assert.ok(created.remind_at, "the task has its reminder to come");
      const card = reminderCard(alerts, "Stretch your legs");
      // Generous: the scheduler sweeps every second, but CI shares two busy cores.
      await card.waitFor({ timeout: 60_000 });
      await until(
        async () =>
          (await alerts.evaluate(() => window.__notified)).some(
            (shown) => shown.title === "Stretch your legs" && /^reminder-\d+$/.test(shown.tag),
          ),
        "a browser notification was shown for it",
      );
      // The task list refreshed: the task is there, its reminder spent (no bell).
      const item = taskItem(alerts, "Stretch your legs");
      await item.waitFor();
      await until(async () => (await item.locator(".reminder-chip").count()) === 0, "its bell is gone");
      await shot(alerts, "desktop-reminder");
    },
  );

  await step("dismissing the card removes it, for good", alerts, async () => {
    const dismissed = alerts.waitForResponse(
      (r) => /\/api\/reminders\/\d+$/.test(r.url()) && r.request().method() === "DELETE",
    );
    await alerts.getByRole("button", { name: "Dismiss reminder: Stretch your legs" }).click();
    assert.equal((await dismissed).status(), 204);
    await reminderCard(alerts, "Stretch your legs").waitFor({ state: "detached" });
    assert.deepEqual((await rest(await tokenOf(alerts), "/api/reminders")).body, { reminders: [] });
  });

  await step("a reminder that fired while the page was closed shows on the next visit", alerts, async () => {
    const bearer = await tokenOf(alerts);
    await alerts.goto("about:blank");
    await remindSoon(bearer, "Water the plants");
    await until(
      async () => (await rest(bearer, "/api/reminders")).body.reminders.length === 1,
      "the reminder fired with the page closed",
      60_000,
    );
    await alerts.goto(BASE_URL);
    await reminderCard(alerts, "Water the plants").waitFor();
    await alerts.getByRole("button", { name: "Dismiss reminder: Water the plants" }).click();
    await reminderCard(alerts, "Water the plants").waitFor({ state: "detached" });
  });

  // --- reminder cards on a phone ---------------------------------------------------------
  const handset = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const cards = await handset.newPage();
  watch(cards, "phone reminders");

  await step("at 390x844 reminder cards sit above the composer and cover no button", cards, async () => {
    await signUp(cards, `e2e-cards-${stamp}@example.com`);
    const bearer = await tokenOf(cards);
    await remindSoon(bearer, "Stretch your legs");
    await remindSoon(bearer, "Feed the cat");
    await reminderCard(cards, "Stretch your legs").waitFor({ timeout: 60_000 });
    await reminderCard(cards, "Feed the cat").waitFor({ timeout: 60_000 });
    await until(async () => (await noButtonCovered(cards)).length === 0, "no button is covered").catch(
      async (error) => {
        throw new Error(`${error.message}: ${JSON.stringify(await noButtonCovered(cards))}`);
      },
    );
    const [stackBottom, composerTop] = await cards.evaluate(() => [
      document.querySelector(".reminder-stack").getBoundingClientRect().bottom,
      document.querySelector(".composer").getBoundingClientRect().top,
    ]);
    assert.ok(stackBottom <= composerTop + 1, "the cards end above the composer");
    await cards.getByRole("button", { name: "Snooze reminder: Stretch your legs" }).click();
    await cards.getByRole("group", { name: "Snooze options: Stretch your legs" }).waitFor();
    assert.deepEqual(await noButtonCovered(cards), [], "nothing covered with the snooze choices open");
    await shot(cards, "mobile-reminder-cards");
  });

  await step("a card's Snooze puts the reminder off 10 minutes; its Done completes the task", cards, async () => {
    const bearer = await tokenOf(cards);
    const snoozed = cards.waitForResponse((r) => /\/api\/reminders\/\d+\/snooze$/.test(r.url()));
    await cards.getByRole("button", { name: "Snooze for 10 minutes: Stretch your legs" }).click();
    const answer = await snoozed;
    assert.equal(answer.status(), 200);
    const ahead = Date.parse((await answer.json()).snoozed_until) - Date.now();
    assert.ok(ahead > 8 * 60_000 && ahead <= 10 * 60_000, `snoozed for ${ahead} ms`);
    await reminderCard(cards, "Stretch your legs").waitFor({ state: "detached" });

    const completed = cards.waitForResponse(
      (r) => /\/api\/tasks\/\d+$/.test(r.url()) && r.request().method() === "PATCH",
    );
    await cards.getByRole("button", { name: "Mark done: Feed the cat" }).click();
    assert.equal((await completed).status(), 200);
    await reminderCard(cards, "Feed the cat").waitFor({ state: "detached" });
    const all = (await rest(bearer, "/api/tasks?status=all")).body;
    assert.equal(all.find((task) => task.title === "Feed the cat").completed, true);
    assert.deepEqual((await rest(bearer, "/api/reminders")).body, { reminders: [] });
    await cards.reload();
    await cards.getByLabel("Message").waitFor();
    assert.equal(await cards.getByRole("list", { name: "Reminders" }).getByRole("listitem").count(), 0);
  });

  assert.deepEqual(problems, [], "no console errors or warnings");
  console.log("ok - no console errors or warnings");

  // Last, and on its own: the assistant's date understanding through the whole stack.
  await addByChatWithADate(dates);
  assert.deepEqual(problems, [], "no console errors or warnings while chatting about dates");
} finally {
  await browser.close();
}
