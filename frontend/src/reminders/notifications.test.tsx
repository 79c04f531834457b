import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { controlledEventStream, json, sse } from "../test/fetchMock";
import { reminder, signedInServer } from "../test/fixtures";
import { renderWithClient, signInAsTester } from "../test/render";
import { CHOICE_KEY, notifyReminder } from "./notifications";
import { ReminderSettings } from "./ReminderSettings";
import { Reminders } from "./Reminders";

const NOW = "2026-11-26T09:00:30Z";

/** The browser's Notification, as far as the app uses it: a permission, a prompt, and what was shown. */
class FakeNotification {
  static permission: NotificationPermission = "default";
  /** What the person answers when asked. */
  static answer: NotificationPermission = "granted";
  static shown: FakeNotification[] = [];
  static requestPermission = vi.fn(async () => {
    FakeNotification.permission = FakeNotification.answer;
    return FakeNotification.permission;
  });

  onclick: (() => void) | null = null;
  closed = false;

  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeNotification.shown.push(this);
  }

  close() {
    this.closed = true;
  }
}

function browserWithNotifications(
  permission: NotificationPermission,
  answer: NotificationPermission = "granted",
) {
  FakeNotification.permission = permission;
  FakeNotification.answer = answer;
  FakeNotification.shown = [];
  FakeNotification.requestPermission.mockClear();
  vi.stubGlobal("Notification", FakeNotification);
}

describe("notifyReminder", () => {
  beforeEach(() => {
    browserWithNotifications("granted");
    localStorage.setItem(CHOICE_KEY, "on");
  });

  it("shows a fresh reminder with its title, words and a tag of its own; a click focuses the page", () => {
    const focus = vi.spyOn(window, "focus").mockImplementation(() => undefined);
    expect(notifyReminder(reminder(7, "Pay rent"), "Due today 09:00", Date.parse(NOW))).toBe(true);

    const [shown] = FakeNotification.shown;
    expect(shown?.title).toBe("Pay rent");
    expect(shown?.options).toEqual({ body: "Due today 09:00", tag: "reminder-7" });
    shown?.onclick?.();
    expect(focus).toHaveBeenCalled();
    expect(shown?.closed).toBe(true);
  });

  it("shows nothing for a reminder that fired minutes ago (a missed one, replayed)", () => {
    const old = reminder(7, "Pay rent", { fired_at: "2026-11-26T08:50:00Z" });
    expect(notifyReminder(old, "Due today 09:00", Date.parse(NOW))).toBe(false);
    expect(FakeNotification.shown).toEqual([]);
  });

  it("shows nothing when turned off here, or not allowed by the browser", () => {
    localStorage.setItem(CHOICE_KEY, "off");
    expect(notifyReminder(reminder(1, "a"), "", Date.parse(NOW))).toBe(false);
    localStorage.setItem(CHOICE_KEY, "on");
    for (const permission of ["default", "denied"] as const) {
      browserWithNotifications(permission);
      expect(notifyReminder(reminder(1, "a"), "", Date.parse(NOW))).toBe(false);
    }
    expect(FakeNotification.shown).toEqual([]);
  });
});

describe("Reminders as browser notifications", () => {
  beforeEach(() => {
    signInAsTester();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(NOW));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("notifies a reminder as it fires, in the account's zone, but not the old ones replayed on connect", async () => {
    browserWithNotifications("granted");
    localStorage.setItem(CHOICE_KEY, "on");
    const stream = controlledEventStream();
    signedInServer({
      "GET /api/auth/me": () => json({ id: 1, email: "tester@example.com", timezone: "Asia/Tokyo" }),
      "GET /api/reminders/stream": () => stream.response,
    });
    renderWithClient(<Reminders />);

    stream.send(sse("reminder", reminder(1, "Yesterday's", { fired_at: "2026-11-25T09:00:00Z" })));
    // Its card in the account's zone (09:00 UTC is 18:00 in Tokyo): the zone is known.
    await screen.findByText("Due today 18:00");
    stream.send(sse("reminder", reminder(2, "Pay rent", { due_at: "2026-11-26T09:30:00Z" })));
    await screen.findByText("Pay rent");

    expect(FakeNotification.shown.map((shown) => [shown.title, shown.options])).toEqual([
      ["Pay rent", { body: "Due today 18:30", tag: "reminder-2" }],
    ]);
    expect(screen.getByText("Yesterday's")).toBeInTheDocument();
  });

  it("offers to turn them on with the first reminder, and 'Not now' keeps it from asking again", async () => {
    browserWithNotifications("default");
    signedInServer({
      "GET /api/reminders/stream": () => {
        const stream = controlledEventStream();
        stream.send(sse("reminder", reminder(1, "Pay rent")));
        return stream.response;
      },
    });
    const { user, unmount } = renderWithClient(<Reminders />);

    await user.click(await screen.findByRole("button", { name: "Not now" }));
    expect(screen.queryByRole("button", { name: "Turn on notifications" })).not.toBeInTheDocument();
    expect(localStorage.getItem(CHOICE_KEY)).toBe("off");
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
    // Its buttons went: focus goes to the card rather than the page.
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Dismiss reminder: Pay rent" })).toHaveFocus(),
    );
    unmount();

    localStorage.removeItem(CHOICE_KEY);
    const again = renderWithClient(<Reminders />);
    await again.user.click(await screen.findByRole("button", { name: "Turn on notifications" }));
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(localStorage.getItem(CHOICE_KEY)).toBe("on"));
    expect(screen.queryByRole("button", { name: "Turn on notifications" })).not.toBeInTheDocument();
  });
});

describe("The reminder settings", () => {
  beforeEach(signInAsTester);

  async function openSettings() {
    return renderWithClient(<ReminderSettings />);
  }

  it("asks for permission only from the switch, turns them on, and off again (kept in this browser)", async () => {
    browserWithNotifications("default");
    const { user } = await openSettings();
    const toggle = screen.getByRole("checkbox", { name: "Browser notifications" });
    expect(toggle).not.toBeChecked();
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();

    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(CHOICE_KEY)).toBe("on");
    expect(screen.getByText("Browser notifications on.")).toBeInTheDocument();

    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(localStorage.getItem(CHOICE_KEY)).toBe("off");
    expect(screen.getByText("Browser notifications off.")).toBeInTheDocument();
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
  });

  it("says plainly when the browser blocks them, whether just now or before", async () => {
    browserWithNotifications("default", "denied");
    const { user } = await openSettings();
    await user.click(screen.getByRole("checkbox", { name: "Browser notifications" }));

    expect(
      await screen.findAllByText(/Notifications are blocked for this site in your browser's settings/),
    ).not.toHaveLength(0);
    expect(screen.queryByRole("checkbox", { name: "Browser notifications" })).not.toBeInTheDocument();
    expect(localStorage.getItem(CHOICE_KEY)).toBeNull();
  });

  it("says so when the browser has no notifications at all", async () => {
    await openSettings();
    expect(screen.getByText(/This browser can't show notifications/)).toHaveTextContent(
      "Reminders still appear here in the app.",
    );
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
  });
});
