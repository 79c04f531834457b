/**
 * Issue 34's delivery endpoints (Web Push subscriptions and the account's email settings),
 * through the same typed client as every other call (its token, 401 and connectivity
 * middleware). Their paths are typed by hand below, in the generated schema's shape, until
 * the backend's routes are in openapi.json: then `make openapi && npm run gen:api`, drop
 * `DeliveryPaths`, use `api` directly and take the types from ./types.
 */
import type { Client } from "openapi-fetch";

import { api, unwrap } from "./client";

export interface PushKey {
  /** The server's VAPID public key, base64url (an uncompressed P-256 point). */
  public_key: string;
}

/** What the browser hands over: PushSubscription.toJSON(). */
export interface PushSubscriptionBody {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

export interface PushDevice {
  id: number;
  endpoint: string;
  /** The browser and system, as the server read them when it was added ("Chrome on Android"). */
  device: string | null;
  created_at: string;
  last_sent_at?: string | null;
}

export interface DeliverySettings {
  email_reminders: boolean;
  /** "HH:MM" in the account's zone, or null: no daily digest. */
  digest_time: string | null;
  /** Where emails go: the account's address. */
  email: string;
  /** Whether this server can send email at all (SMTP configured). */
  email_available: boolean;
}

export type DeliverySettingsUpdate = Partial<Pick<DeliverySettings, "email_reminders" | "digest_time">>;

type JsonContent<T> = { headers: { [name: string]: unknown }; content: { "application/json": T } };
type Problem = JsonContent<{ detail?: unknown }>;
type NoParameters = { query?: never; header?: never; path?: never; cookie?: never };
/** An operation without path parameters or body. */
type Operation<Responses> = { parameters: NoParameters; requestBody?: never; responses: Responses };
/** One with a JSON body. */
type WithBody<Responses, Body> = {
  parameters: NoParameters;
  requestBody: { content: { "application/json": Body } };
  responses: Responses;
};
type PathItem<Methods> = { parameters: NoParameters } & Methods;

interface DeliveryPaths {
  "/api/push/key": PathItem<{ get: Operation<{ 200: JsonContent<PushKey> }> }>;
  "/api/push/subscriptions": PathItem<{
    get: Operation<{ 200: JsonContent<PushDevice[]> }>;
    post: WithBody<{ 201: JsonContent<PushDevice>; 422: Problem }, PushSubscriptionBody>;
  }>;
  "/api/push/subscriptions/{subscription_id}": PathItem<{
    delete: {
      parameters: { query?: never; header?: never; path: { subscription_id: number }; cookie?: never };
      requestBody?: never;
      responses: { 204: { headers: { [name: string]: unknown }; content?: never }; 404: Problem };
    };
  }>;
  "/api/notifications/settings": PathItem<{
    get: Operation<{ 200: JsonContent<DeliverySettings> }>;
    patch: WithBody<{ 200: JsonContent<DeliverySettings>; 422: Problem }, DeliverySettingsUpdate>;
  }>;
}

// The same client (and so the same middleware), seen through the hand-written paths.
const delivery = api as unknown as Client<DeliveryPaths>;

export const pushApi = {
  key: () => unwrap(delivery.GET("/api/push/key")),
  devices: () => unwrap(delivery.GET("/api/push/subscriptions")),
  add: (body: PushSubscriptionBody) => unwrap(delivery.POST("/api/push/subscriptions", { body })),
  remove: (id: number) =>
    unwrap(
      delivery.DELETE("/api/push/subscriptions/{subscription_id}", {
        params: { path: { subscription_id: id } },
      }),
    ),
  settings: () => unwrap(delivery.GET("/api/notifications/settings")),
  updateSettings: (body: DeliverySettingsUpdate) =>
    unwrap(delivery.PATCH("/api/notifications/settings", { body })),
};
