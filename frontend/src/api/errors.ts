/** One error type for every failed API call, and the words a person sees for it. */

/** An error whose message is written for the person using the app. */
export class UserFacingError extends Error {}

export class ApiError extends UserFacingError {
  override readonly name = "ApiError";

  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The request never got an HTTP answer (server down, offline, proxy refused). */
export class NetworkError extends UserFacingError {
  override readonly name = "NetworkError";

  constructor() {
    super("Can't reach the server. Check your connection and try again.");
  }
}

interface ValidationIssue {
  loc?: unknown;
  msg?: unknown;
  type?: unknown;
}

function validationMessage(issues: ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return "Please check what you entered.";
  const field = Array.isArray(first.loc) ? String(first.loc[first.loc.length - 1]) : "";
  if (field === "email") return "Enter a valid email address.";
  // The server's own words for its password rules (too common, invisible characters...).
  if (field === "password" && typeof first.type === "string" && first.type.startsWith("password_"))
    return typeof first.msg === "string" ? first.msg : "Choose another password.";
  if (field === "password") return "Password must be 8 to 128 characters.";
  if (field === "message") return "That message can't be sent. Keep it under 4,000 characters.";
  if (field === "title") return "A task title must be 1 to 200 characters.";
  return typeof first.msg === "string" ? first.msg : "Please check what you entered.";
}

/** The `detail` of a FastAPI error body: a string, or a list of validation issues. */
export function detailOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("detail" in body)) return undefined;
  const { detail } = body;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return validationMessage(detail as ValidationIssue[]);
  return undefined;
}

function fallbackFor(status: number): string {
  if (status === 401) return "Please log in again.";
  if (status === 404) return "That item no longer exists.";
  if (status === 503) return "The service is temporarily unavailable. Please try again in a moment.";
  if (status >= 500) return "Something went wrong on our side. Please try again.";
  return "The request could not be completed.";
}

function slowDown(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  const wait = Number.isFinite(seconds) && seconds > 0 ? `${Math.ceil(seconds)} s` : "a moment";
  return `You're going a bit fast. Please wait ${wait} and try again.`;
}

export function apiErrorFrom(response: Response, body: unknown): ApiError {
  const { status } = response;
  if (status === 429) return new ApiError(status, slowDown(response.headers.get("Retry-After")));
  return new ApiError(status, detailOf(body) ?? fallbackFor(status));
}

/** A sentence for any thrown value, fit to show in the UI. */
export function describeError(error: unknown): string {
  if (error instanceof UserFacingError) return error.message;
  return "Something went wrong. Please try again.";
}
