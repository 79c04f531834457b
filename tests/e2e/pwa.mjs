// The installable app in Debian's chromium (playwright-core): the service worker registers,
// a push delivered through the DevTools protocol shows a reminder's notification (with Done
// and Snooze) while no page of the app is open, the manifest passes Chromium's installability
// check, and the app shell opens offline and says so.
// Usage: BASE_URL=http://127.0.0.1:8765 ARTIFACTS=dir node pwa.mjs
// Prints one line per step ("ok - ..." / "not ok - ..."), and "info - ..." for what it measured.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ARTIFACTS, BASE_URL, CHROMIUM, CHROMIUM_ARGS, PASSWORD, until, watch as watchPage } from "./browser.mjs";

const ORIGIN = new URL(BASE_URL).origin;
const SCOPE = `${ORIGIN}/`;

// A persistent profile: Chromium finds nothing installable in an incognito context (what
// browser.newContext() makes), answering "in-incognito".
const profile = mkdtempSync(join(tmpdir(), "pwa-profile-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: CHROMIUM_ARGS,
});
const problems = [];
let offline = false;

// Offline on purpose: the API's requests fail, and the browser logs each one.
const failedOffline = (message) =>
  offline && /Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(message.text());
const watch = (page, who) => watchPage(page, who, problems, failedOffline);

let current = null;
async function step(name, action) {
  try {
    await action();
    console.log(`ok - ${name}`);
  } catch (error) {
    if (current && !current.isClosed()) {
      await current.screenshot({ path: join(ARTIFACTS, "pwa-failure.png"), fullPage: true }).catch(() => {});
    }
    console.log(`not ok - ${name}`);
    throw error;
  }
}

/** A reminder's push payload, as the server sends it (issue 34), decrypted. */
const PAYLOAD = {
  title: "Water the plants",
  body: "Due today 18:00",
  tag: "reminder-41",
  url: "/?task=7",
  reminder_id: 41,
  task_id: 7,
  actions: [
    { action: "done", title: "Done", url: "/api/reminder-links/done?token=e2e" },
    { action: "snooze", title: "Snooze 10 min", url: "/api/reminder-links/snooze?token=e2e&minutes=10" },
  ],
};

/** What the app's service worker registration has on screen, read in `where` (a page or the worker). */
const shownNotifications = (where) =>
  where.evaluate(async () => {
    const registration = self.registration ?? (await navigator.serviceWorker.ready);
    return (await registration.getNotifications()).map((shown) => ({
      title: shown.title,
      body: shown.body,
      tag: shown.tag,
      actions: shown.actions.map(({ action, title }) => ({ action, title })),
      data: shown.data,
    }));
  });

try {
  await context.grantPermissions(["notifications"], { origin: ORIGIN });
  const page = context.pages()[0] ?? (await context.newPage());
  current = page;
  watch(page, "app");

  await step("the service worker registers at /sw.js for the whole app and controls the page", async () => {
    await page.goto(BASE_URL);
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await page.getByLabel("Email").fill(`e2e-pwa-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByLabel("Message").waitFor();
    const registered = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return { scope: registration.scope, script: registration.active?.scriptURL };
    });
    assert.deepEqual(registered, { scope: SCOPE, script: `${ORIGIN}/sw.js` });
    await until(() => page.evaluate(() => navigator.serviceWorker.controller !== null), "it controls the page");
    // The app shell is in the cache: the page itself and the built script it loads.
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const urls = [];
      for (const name of names) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return { names, urls };
    });
    assert.ok(cached.urls.includes("/index.html"), JSON.stringify(cached));
    assert.ok(
      cached.urls.some((path) => /^\/assets\/index-.+\.js$/.test(path)),
      JSON.stringify(cached),
    );
    assert.ok(!cached.urls.some((path) => path.startsWith("/api/")), "no API answer is cached");
  });

  await step("the manifest passes Chromium's installability check", async () => {
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send("Page.getAppManifest");
    assert.equal(manifest.url, `${ORIGIN}/manifest.webmanifest`);
    assert.deepEqual(manifest.errors, []);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    assert.deepEqual(installabilityErrors, []);
    const parsed = JSON.parse(manifest.data);
    assert.equal(parsed.display, "standalone");
    assert.equal(parsed.start_url, "/");
    assert.ok(parsed.icons.some((icon) => icon.purpose === "maskable"));
    await cdp.detach();
  });

  await step("Settings offers push on this device (what headless Chromium makes of subscribing)", async () => {
    await page.getByRole("button", { name: "Settings" }).click();
    const settings = page.getByRole("dialog", { name: "Settings" });
    const toggle = settings.getByRole("checkbox", { name: "Push on this device" });
    await toggle.waitFor();
    assert.equal(await toggle.isChecked(), false);
    await settings.getByRole("checkbox", { name: "Email reminders" }).waitFor();
    // Subscribing needs the browser vendor's push service, which a headless build without its
    // keys has not: measure what happens rather than assume it.
    const subscribed = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      const key = (await (await fetch("/api/push/key")).json()).public_key;
      const started = performance.now();
      const waited = () => `${Math.round(performance.now() - started)} ms`;
      const timeout = new Promise((resolve) => setTimeout(() => resolve(`no answer after ${waited()}`), 10_000));
      const attempt = registration.pushManager
        .subscribe({ userVisibleOnly: true, applicationServerKey: key })
        .then(async (subscription) => {
          await subscription.unsubscribe();
          return `subscribed (${new URL(subscription.endpoint).host}) in ${waited()}`;
        })
        .catch((error) => `${error.name}: ${error.message} (after ${waited()})`);
      return Promise.race([attempt, timeout]);
    });
    console.log(`info - pushManager.subscribe in this chromium: ${subscribed}`);
    // The switch itself: permission (granted), the server's key, then the push service. Either
    // it is on and this browser is listed as "This device", or it says plainly why not.
    await toggle.click();
    const status = settings.getByRole("status");
    await status.waitFor({ timeout: 45_000 });
    const said = await status.textContent();
    console.log(`info - Push on this device says: ${said}`);
    if (said.includes("on for this device")) {
      await settings.getByText("· This device").waitFor();
      assert.equal(await toggle.isChecked(), true);
    } else {
      assert.match(said, /push service didn't answer/);
      assert.equal(await toggle.isChecked(), false);
    }
    await settings
      .getByRole("region", { name: "Notifications" })
      .screenshot({ path: join(ARTIFACTS, "desktop-settings-notifications.png") });
    await settings.getByRole("button", { name: "Close" }).click();
    await settings.waitFor({ state: "detached" });
  });

  await step("a push delivered with no page of the app open shows the reminder with Done and Snooze", async () => {
    // Close the app; keep the browser (and its context) running with a blank page.
    const blank = await context.newPage();
    await page.close();
    current = blank;
    assert.deepEqual(
      context.pages().map((open) => open.url()),
      ["about:blank"],
      "no page of the app is open",
    );
    const cdp = await context.newCDPSession(blank);
    const registrations = new Map();
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations: updated }) => {
      for (const registration of updated) registrations.set(registration.scopeURL, registration);
    });
    await cdp.send("ServiceWorker.enable");
    await until(() => registrations.has(SCOPE), "the app's registration is reported");
    const { registrationId, isDeleted } = registrations.get(SCOPE);
    assert.equal(isDeleted, false);
    const deliver = () =>
      cdp.send("ServiceWorker.deliverPushMessage", {
        origin: ORIGIN,
        registrationId,
        data: JSON.stringify(PAYLOAD),
      });
    await deliver();
    // Read from the worker itself, while still no page of the app is open. The worker that
    // closing the page let stop may still be listed beside the one the push started, so each
    // look asks every worker of the app. A push the DevTools protocol hands to a worker that
    // is stopping can be dropped (a push service would send it again): it is delivered again
    // every few seconds until shown, and the tag keeps it one notification, as asserted below.
    const appWorkers = () => context.serviceWorkers().filter((candidate) => candidate.url() === `${ORIGIN}/sw.js`);
    await until(() => appWorkers().length > 0, "the worker runs");
    let shown = [];
    let lastDelivered = Date.now();
    await until(async () => {
      for (const worker of appWorkers()) {
        shown = await shownNotifications(worker).catch(() => []);
        if (shown.length > 0) return true;
      }
      if (Date.now() - lastDelivered > 5_000) {
        lastDelivered = Date.now();
        await deliver().catch(() => {});
      }
      return false;
    }, "the notification is shown");
    assert.deepEqual(
      context.pages().map((open) => open.url()),
      ["about:blank"],
      "still no page of the app",
    );
    assert.equal(shown.length, 1);
    assert.equal(shown[0].title, "Water the plants");
    assert.equal(shown[0].tag, "reminder-41");
    assert.deepEqual(shown[0].actions, [
      { action: "done", title: "Done" },
      { action: "snooze", title: "Snooze 10 min" },
    ]);
    await cdp.send("ServiceWorker.disable");
    await cdp.detach();
  });

  const app = await context.newPage();
  current = app;
  watch(app, "app again");

  await step("opened again, the page reads the same notification from its registration", async () => {
    await app.goto(BASE_URL);
    await app.getByLabel("Message").waitFor();
    const shown = await shownNotifications(app);
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.deepEqual(
      { title: shown[0].title, body: shown[0].body, tag: shown[0].tag, actions: shown[0].actions },
      {
        title: "Water the plants",
        body: "Due today 18:00",
        tag: "reminder-41",
        actions: [
          { action: "done", title: "Done" },
          { action: "snooze", title: "Snooze 10 min" },
        ],
      },
    );
    assert.equal(shown[0].data.url, "/?task=7");
    assert.equal(shown[0].data.actions.done, `${ORIGIN}/api/reminder-links/done?token=e2e`);
  });

  await step("the app shell opens offline and says it is offline", async () => {
    offline = true;
    await context.setOffline(true);
    await app.reload();
    await app.getByLabel("Message").waitFor();
    await app.getByRole("alert").filter({ hasText: "You're offline" }).waitFor();
    await app.screenshot({ path: join(ARTIFACTS, "desktop-offline.png"), fullPage: true });
    // A fresh navigation too (a notification's link: the app at a task).
    await app.goto(`${BASE_URL}/?task=7`);
    await app.getByLabel("Message").waitFor();
    await app.getByRole("alert").filter({ hasText: "You're offline" }).waitFor();
    // A path that is not the app's page is not answered from the cache.
    const docs = await app.goto(`${BASE_URL}/docs`).catch((error) => error);
    assert.ok(docs instanceof Error, "the API docs need the network");
    await context.setOffline(false);
    offline = false;
    await app.goto(BASE_URL);
    await app.getByLabel("Message").waitFor();
    await until(
      async () => (await app.getByRole("alert").filter({ hasText: "You're offline" }).count()) === 0,
      "the offline banner goes once back online",
    );
  });

  assert.deepEqual(problems, [], "no console errors or warnings");
  console.log("ok - no console errors or warnings");
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
