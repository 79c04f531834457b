import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { json, noContent } from "../test/fetchMock";
import { signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { PUSH_KEY } from "../pwa/push";
import { PushSettings } from "./PushSettings";

const KEY = "BAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0-P0A";
const HERE = "https://push.example/send/this-browser";
const PHONE = { id: 2, endpoint: "https://push.example/send/phone", device: "Chrome on Android" };

class FakeSubscription {
  unsubscribe = vi.fn(async () => {
    browser.subscription = null;
    return true;
  });

  constructor(
    readonly endpoint: string,
    readonly options: { applicationServerKey: ArrayBuffer | null },
  ) {}

  toJSON() {
    return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh: "p256", auth: "secret" } };
  }
}

/** The browser as far as push goes: permission, a service worker, its push manager. */
const browser = {
  permission: "default" as NotificationPermission,
  answer: "granted" as NotificationPermission,
  subscription: null as FakeSubscription | null,
  subscribe: vi.fn(),
};

function pushCapableBrowser(permission: NotificationPermission, answer: NotificationPermission = "granted") {
  browser.permission = permission;
  browser.answer = answer;
  browser.subscription = null;
  browser.subscribe = vi.fn(async (options: { applicationServerKey: Uint8Array }) => {
    browser.subscription = new FakeSubscription(HERE, {
      applicationServerKey: options.applicationServerKey.slice().buffer,
    });
    return browser.subscription;
  });
  class FakeNotification {
    static get permission() {
      return browser.permission;
    }
    static requestPermission = vi.fn(async () => {
      browser.permission = browser.answer;
      return browser.permission;
    });
  }
  const registration = {
    pushManager: {
      getSubscription: async () => browser.subscription,
      subscribe: (options: { applicationServerKey: Uint8Array }) => browser.subscribe(options),
    },
  };
  vi.stubGlobal("Notification", FakeNotification);
  vi.stubGlobal("PushManager", class {});
  vi.stubGlobal("isSecureContext", true);
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: {
      register: vi.fn(async () => registration),
      ready: Promise.resolve(registration),
      getRegistration: async () => registration,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    },
  });
  return FakeNotification;
}

function server(devices: { id: number; endpoint: string; device: string }[]) {
  const listed = devices.map((device) => ({
    ...device,
    created_at: "2026-11-20T10:00:00Z",
    last_sent_at: null,
  }));
  return signedInServer({
    "GET /api/push/key": () => json({ public_key: KEY }),
    "GET /api/push/subscriptions": () => json(listed),
    "POST /api/push/subscriptions": (call) => {
      const added = {
        id: 9,
        endpoint: (call.body as { endpoint: string }).endpoint,
        device: "Firefox on Linux",
        created_at: "2026-11-26T09:00:00Z",
        last_sent_at: null,
      };
      listed.push(added);
      return json(added, 201);
    },
    "DELETE /api/push/subscriptions/2": () => {
      listed.splice(
        listed.findIndex((device) => device.id === 2),
        1,
      );
      return noContent();
    },
    "DELETE /api/push/subscriptions/9": () => {
      listed.splice(
        listed.findIndex((device) => device.id === 9),
        1,
      );
      return noContent();
    },
  });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, "serviceWorker");
});

describe("Push on this device", () => {
  beforeEach(signInAsTester);

  it("asks for permission, subscribes with the server's key, registers it and lists it as this device", async () => {
    const Notification = pushCapableBrowser("default");
    const calls = server([PHONE]);
    const { user } = renderWithClient(<PushSettings />);
    const devices = await screen.findByRole("list", { name: "Devices that get push notifications" });
    expect(within(devices).getByText("Chrome on Android")).toBeInTheDocument();
    const toggle = screen.getByRole("checkbox", { name: "Push on this device" });
    expect(toggle).not.toBeChecked();

    await user.click(toggle);

    await waitFor(() => expect(toggle).toBeChecked());
    expect(Notification.requestPermission).toHaveBeenCalledTimes(1);
    const [options] = browser.subscribe.mock.calls[0] as [
      { userVisibleOnly: boolean; applicationServerKey: Uint8Array },
    ];
    expect(options.userVisibleOnly).toBe(true);
    // The base64url key as its 65 bytes: 0x04, then 1, 2, 3...
    expect(Array.from(options.applicationServerKey.slice(0, 4))).toEqual([4, 1, 2, 3]);
    expect(options.applicationServerKey).toHaveLength(65);
    expect(calls.callsTo("POST /api/push/subscriptions")[0]?.body).toEqual({
      endpoint: HERE,
      expirationTime: null,
      keys: { p256dh: "p256", auth: "secret" },
    });
    expect(await screen.findByText("Push notifications on for this device.")).toBeInTheDocument();
    const here = await within(devices).findByText(/This device/);
    expect(here.closest("li")).toHaveTextContent("Firefox on Linux");
    expect(JSON.parse(localStorage.getItem(PUSH_KEY) ?? "{}")).toEqual({
      endpoint: HERE,
      email: "tester@example.com",
    });
  });

  it("turns another device off from here, and this one off too (unsubscribing this browser)", async () => {
    pushCapableBrowser("granted");
    browser.subscription = new FakeSubscription(HERE, { applicationServerKey: null });
    const mine = browser.subscription;
    const calls = server([PHONE, { id: 9, endpoint: HERE, device: "Firefox on Linux" }]);
    const { user } = renderWithClient(<PushSettings />);
    const toggle = screen.getByRole("checkbox", { name: "Push on this device" });
    await waitFor(() => expect(toggle).toBeChecked());

    await user.click(screen.getByRole("button", { name: "Turn off push on Chrome on Android" }));
    await waitFor(() => expect(screen.queryByText("Chrome on Android")).not.toBeInTheDocument());
    expect(calls.callsTo("DELETE /api/push/subscriptions/2")).toHaveLength(1);
    expect(mine.unsubscribe).not.toHaveBeenCalled();

    await user.click(screen.getByRole("button", { name: "Turn off push on this device" }));
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(calls.callsTo("DELETE /api/push/subscriptions/9")).toHaveLength(1);
    expect(mine.unsubscribe).toHaveBeenCalledTimes(1);
    expect(
      screen.queryByRole("list", { name: "Devices that get push notifications" }),
    ).not.toBeInTheDocument();
  });

  it("says how to allow notifications when the browser blocks them", async () => {
    pushCapableBrowser("default", "denied");
    server([]);
    const { user } = renderWithClient(<PushSettings />);
    await user.click(screen.getByRole("checkbox", { name: "Push on this device" }));

    expect(
      await screen.findAllByText(/Notifications are blocked for this site. To allow them/),
    ).not.toHaveLength(0);
    expect(browser.subscribe).not.toHaveBeenCalled();
  });

  it("says why when the server refuses the subscription, and leaves none behind", async () => {
    pushCapableBrowser("granted");
    server([]);
    signedInServer({
      "GET /api/push/key": () => json({ public_key: KEY }),
      "GET /api/push/subscriptions": () => json([]),
      "POST /api/push/subscriptions": () =>
        json(
          {
            detail: [{ loc: ["body", "endpoint"], msg: "The endpoint must use https", type: "value_error" }],
          },
          422,
        ),
    });
    const { user } = renderWithClient(<PushSettings />);
    await user.click(screen.getByRole("checkbox", { name: "Push on this device" }));

    expect(await screen.findByText("Couldn't turn push on. The endpoint must use https")).toBeInTheDocument();
    expect(browser.subscription).toBeNull();
    expect(screen.getByRole("checkbox", { name: "Push on this device" })).not.toBeChecked();
  });

  it("says so in a browser without push, still listing the account's other devices", async () => {
    vi.stubGlobal("isSecureContext", true);
    server([PHONE]);
    renderWithClient(<PushSettings />);
    expect(screen.getByText(/This browser can't receive push notifications/)).toBeInTheDocument();
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
    expect(
      await screen.findByRole("button", { name: "Turn off push on Chrome on Android" }),
    ).toBeInTheDocument();
  });
});
