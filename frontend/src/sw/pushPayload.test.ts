import { describe, expect, it } from "vitest";

import {
  APP_ICON,
  clickPlan,
  FALLBACK_TITLE,
  notificationFor,
  parsePushPayload,
  readNotificationData,
  sameOriginPath,
} from "./pushPayload";

const ORIGIN = "https://todo.example";

const PAYLOAD = {
  title: "Pay rent",
  body: "Due today 09:00",
  tag: "reminder-7",
  url: "/?task=3",
  reminder_id: 7,
  task_id: 3,
  actions: [
    { action: "done", title: "Done", url: "/api/reminder-links/done?token=abc" },
    { action: "snooze", title: "Snooze 10 min", url: "/api/reminder-links/snooze?token=abc&minutes=10" },
  ],
};

describe("a reminder's push payload", () => {
  it("becomes a notification with its title, words, tag, Done and Snooze, and what a click needs", () => {
    const { title, options } = notificationFor(parsePushPayload(JSON.stringify(PAYLOAD), ORIGIN));

    expect(title).toBe("Pay rent");
    expect(options).toEqual({
      body: "Due today 09:00",
      tag: "reminder-7",
      icon: APP_ICON,
      badge: "/badge-96.png",
      renotify: false,
      actions: [
        { action: "done", title: "Done" },
        { action: "snooze", title: "Snooze 10 min" },
      ],
      data: {
        url: "/?task=3",
        reminderId: 7,
        taskId: 3,
        actions: {
          done: `${ORIGIN}/api/reminder-links/done?token=abc`,
          snooze: `${ORIGIN}/api/reminder-links/snooze?token=abc&minutes=10`,
        },
      },
    });
  });

  it("still shows something (a push must) when the payload is missing, not JSON or partial", () => {
    expect(notificationFor(parsePushPayload(null, ORIGIN))).toMatchObject({
      title: FALLBACK_TITLE,
      options: { body: "", tag: "reminder", actions: [], data: { url: "/", actions: {} } },
    });
    expect(parsePushPayload("plain words", ORIGIN)).toMatchObject({
      title: FALLBACK_TITLE,
      body: "plain words",
    });
    expect(parsePushPayload("[1, 2]", ORIGIN).title).toBe(FALLBACK_TITLE);
    // No tag given: one made from the reminder, so a second delivery replaces the first.
    expect(parsePushPayload(JSON.stringify({ title: "Call Sam", reminder_id: 4 }), ORIGIN).tag).toBe(
      "reminder-4",
    );
  });

  it("never opens or POSTs to another site, and keeps at most two well-formed actions", () => {
    const push = parsePushPayload(
      JSON.stringify({
        ...PAYLOAD,
        url: "https://evil.example/phish",
        actions: [
          { action: "done", title: "Done", url: "https://evil.example/api" },
          { action: "broken", title: "" },
          "nonsense",
          ...PAYLOAD.actions,
          { action: "third", title: "Third", url: "/api/x" },
        ],
      }),
      ORIGIN,
    );
    expect(push.url).toBe("/");
    expect(push.actions.map((action) => action.action)).toEqual(["done", "snooze"]);
    expect(push.actions[0]?.url).toBe(`${ORIGIN}/api/reminder-links/done?token=abc`);
  });

  it("reads a path on this origin only", () => {
    expect(sameOriginPath("/?task=3#x", ORIGIN)).toBe("/?task=3#x");
    expect(sameOriginPath(`${ORIGIN}/index.html`, ORIGIN)).toBe("/index.html");
    expect(sameOriginPath("//evil.example/", ORIGIN)).toBe("/");
    expect(sameOriginPath("javascript:alert(1)", ORIGIN)).toBe("/");
    expect(sameOriginPath(42, ORIGIN)).toBe("/");
  });
});

describe("a click on a reminder's notification", () => {
  const data = notificationFor(parsePushPayload(JSON.stringify(PAYLOAD), ORIGIN)).options.data;

  it("POSTs the action's link for Done or Snooze", () => {
    expect(clickPlan("done", data, ORIGIN)).toEqual({
      kind: "post",
      url: `${ORIGIN}/api/reminder-links/done?token=abc`,
    });
    expect(clickPlan("snooze", data, ORIGIN)).toEqual({
      kind: "post",
      url: `${ORIGIN}/api/reminder-links/snooze?token=abc&minutes=10`,
    });
  });

  it("opens the app at the task when the notification itself (or an unknown action) is clicked", () => {
    expect(clickPlan("", data, ORIGIN)).toEqual({ kind: "open", url: `${ORIGIN}/?task=3` });
    expect(clickPlan("archive", data, ORIGIN)).toEqual({ kind: "open", url: `${ORIGIN}/?task=3` });
  });

  it("reads the data the browser hands back, whatever it is", () => {
    expect(readNotificationData(structuredClone(data), ORIGIN)).toEqual(data);
    expect(readNotificationData(null, ORIGIN)).toEqual({
      url: "/",
      actions: {},
      reminderId: null,
      taskId: null,
    });
    expect(
      readNotificationData({ url: "/?task=1", actions: { done: "https://evil.example/", snooze: 5 } }, ORIGIN)
        .actions,
    ).toEqual({});
  });
});
