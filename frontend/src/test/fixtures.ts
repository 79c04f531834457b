/** Data and a signed-in fake server shared by the app-level tests. */
import type { Conversation, Reminder, Task } from "../api/types";
import { json, mockServer, quietEventStream } from "./fetchMock";

export const AT = "2026-01-01T00:00:00Z";
export const conversation = (id: number, title: string): Conversation => ({
  id,
  title,
  created_at: AT,
  updated_at: AT,
});
export const task = (id: number, title: string): Task => ({
  id,
  title,
  description: null,
  completed: false,
  created_at: AT,
  updated_at: AT,
  priority: "none",
  list: "Inbox",
  repeat_from: "schedule",
  remind_at: null,
  remind_before: null,
  shared: false,
});

/** A fired reminder; by default for a task due at 09:00 UTC on 26 November 2026. */
export const reminder = (id: number, title: string, fields: Partial<Reminder> = {}): Reminder => ({
  id,
  task_id: id,
  title,
  due_at: "2026-11-26T09:00:00Z",
  remind_at: "2026-11-26T09:00:00Z",
  fired_at: "2026-11-26T09:00:01Z",
  ...fields,
});

export const ADD_CALL = {
  name: "add_task",
  arguments: { title: "buy milk" },
  result: { task_id: 1, status: "created", title: "buy milk" },
};

/** The endpoints every signed-in screen calls, answering "nothing yet" unless overridden. */
export function signedInServer(overrides: Parameters<typeof mockServer>[0] = {}) {
  return mockServer({
    "GET /api/auth/me": () => json({ id: 1, email: "tester@example.com" }),
    "GET /api/conversations": () => json([]),
    "GET /api/tasks": () => json([]),
    "GET /api/lists": () =>
      json([{ name: "Inbox", pending: 0, total: 0, shared: false, role: "owner", members: 0, invited: 0 }]),
    // No list shared with this account is waiting for an answer.
    "GET /api/invitations": () => json([]),
    "GET /api/config": () => json({ max_message_chars: 4000 }),
    // Open and quiet: no reminder has fired.
    "GET /api/reminders/stream": () => quietEventStream(),
    // No device gets pushes; this server can't send email.
    "GET /api/push/subscriptions": () => json([]),
    "GET /api/notifications/settings": () =>
      json({
        email_reminders: false,
        digest_time: null,
        email: "tester@example.com",
        email_available: false,
      }),
    // No personal access tokens yet; the settings to paste one into.
    "GET /api/tokens": () => json([]),
    "GET /api/connections": () =>
      json({
        token_placeholder: "<token>",
        claude: { mcpServers: {} },
        http: { mcpServers: {} },
        openai: { base_url: "http://localhost/v1", api_key: "<token>", model: "todo-assistant" },
      }),
    ...overrides,
  });
}
