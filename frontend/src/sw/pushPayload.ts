/**
 * The service worker's pure part: a reminder's push payload (JSON, decrypted by the browser)
 * turned into the notification it shows, and where a click on it leads. No DOM or worker
 * globals here, so the page's tests can run it.
 *
 * The payload (backend, issue 34): {"title", "body", "tag": "reminder-<id>", "url": "/?task=<n>",
 * "reminder_id", "task_id", "actions": [{"action", "title", "url"}]}. An action's URL takes a
 * POST with `Accept: application/json` and no Authorization (a signed token in the URL).
 */

export interface PushAction {
  action: string;
  title: string;
  /** Where the service worker POSTs when this action is clicked. */
  url: string;
}

export interface ReminderPush {
  title: string;
  body: string;
  tag: string;
  /** The app's page to open on a click (same origin). */
  url: string;
  reminderId: number | null;
  taskId: number | null;
  actions: PushAction[];
}

/** What a notification keeps for its click: the page to open and each action's URL. */
export interface NotificationData {
  url: string;
  actions: Record<string, string>;
  reminderId: number | null;
  taskId: number | null;
}

/** The options the service worker passes to showNotification (the worker's own type lacks `actions`). */
export interface ReminderNotificationOptions {
  body: string;
  tag: string;
  icon: string;
  badge: string;
  data: NotificationData;
  actions: { action: string; title: string }[];
  renotify: false;
}

export const FALLBACK_TITLE = "Todo Chatbot reminder";
export const APP_ICON = "/icon-192.png";
export const APP_BADGE = "/badge-96.png";
/** Chromium shows two action buttons at most. */
const MAX_ACTIONS = 2;

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

function integer(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) ? value : null;
}

/** `url` resolved against `origin`, when it stays there; otherwise null. */
function sameOriginUrl(url: string, origin: string): string | null {
  try {
    const resolved = new URL(url, origin);
    return resolved.origin === origin ? resolved.href : null;
  } catch {
    return null;
  }
}

/** A path on `origin`, or "/" for anything else (a push must not open another site). */
export function sameOriginPath(url: unknown, origin: string): string {
  const given = text(url);
  if (given === null) return "/";
  try {
    const resolved = new URL(given, origin);
    if (resolved.origin !== origin) return "/";
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return "/";
  }
}

function actionsFrom(value: unknown, origin: string): PushAction[] {
  if (!Array.isArray(value)) return [];
  const actions: PushAction[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== "object" || entry === null) continue;
    const fields = entry as Record<string, unknown>;
    const action = text(fields["action"]);
    const title = text(fields["title"]);
    const url = text(fields["url"]);
    if (action === null || title === null || url === null) continue;
    // The signed links are the server's own: never POST anywhere else.
    const link = sameOriginUrl(url, origin);
    if (link === null) continue;
    actions.push({ action, title, url: link });
    if (actions.length === MAX_ACTIONS) break;
  }
  return actions;
}

/**
 * The payload of a push event (its text), read leniently: a payload that is not the
 * reminder's JSON still shows a notification (a push must show one), opening the app.
 */
export function parsePushPayload(raw: string | null, origin: string): ReminderPush {
  let fields: Record<string, unknown> = {};
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
        fields = parsed as Record<string, unknown>;
      }
    } catch {
      fields = { body: raw };
    }
  }
  const reminderId = integer(fields["reminder_id"]);
  return {
    title: text(fields["title"]) ?? FALLBACK_TITLE,
    body: text(fields["body"]) ?? "",
    tag: text(fields["tag"]) ?? (reminderId !== null ? `reminder-${reminderId}` : "reminder"),
    url: sameOriginPath(fields["url"], origin),
    reminderId,
    taskId: integer(fields["task_id"]),
    actions: actionsFrom(fields["actions"], origin),
  };
}

/** What showNotification is called with for a reminder. */
export function notificationFor(push: ReminderPush): { title: string; options: ReminderNotificationOptions } {
  return {
    title: push.title,
    options: {
      body: push.body,
      // One tag per reminder: a second delivery of the same reminder (a retry, or the
      // page's own notification) replaces the first, quietly.
      tag: push.tag,
      icon: APP_ICON,
      badge: APP_BADGE,
      renotify: false,
      data: {
        url: push.url,
        actions: Object.fromEntries(push.actions.map((action) => [action.action, action.url])),
        reminderId: push.reminderId,
        taskId: push.taskId,
      },
      actions: push.actions.map(({ action, title }) => ({ action, title })),
    },
  };
}

/** A notification's data as stored (anything: it comes back from the browser), read safely. */
export function readNotificationData(data: unknown, origin: string): NotificationData {
  const fields = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  const actions: Record<string, string> = {};
  const stored = fields["actions"];
  if (typeof stored === "object" && stored !== null) {
    for (const [name, url] of Object.entries(stored as Record<string, unknown>)) {
      const link = typeof url === "string" ? sameOriginUrl(url, origin) : null;
      if (link !== null) actions[name] = link;
    }
  }
  return {
    url: sameOriginPath(fields["url"], origin),
    actions,
    reminderId: integer(fields["reminderId"]),
    taskId: integer(fields["taskId"]),
  };
}

/** What a click does: POST an action's link, or open the app at the notification's page. */
export type ClickPlan = { kind: "post"; url: string } | { kind: "open"; url: string };

export function clickPlan(action: string, data: NotificationData, origin: string): ClickPlan {
  const link = action ? data.actions[action] : undefined;
  if (link) return { kind: "post", url: link };
  return { kind: "open", url: new URL(data.url, origin).href };
}

/** Messages the service worker posts to the app's pages. */
export const SW_MESSAGE = {
  /** A notification's action changed a reminder or task: refresh what is shown. */
  remindersChanged: "todo-chatbot:reminders-changed",
  /** The browser replaced the push subscription: the page re-registers it with the server. */
  subscriptionChanged: "todo-chatbot:push-subscription-changed",
  /** Open this page of the app (`url`): for a page the worker does not control. */
  open: "todo-chatbot:open",
} as const;
