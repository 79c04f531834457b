/** The signed-in session: the bearer token and email, kept in localStorage across reloads. */
import { useSyncExternalStore } from "react";

export interface Session {
  token: string;
  email: string;
}

export interface SessionState {
  session: Session | null;
  /** Why the user is looking at the login screen, e.g. after their token expired. */
  notice: string | null;
}

export const STORAGE_KEY = "todo-chatbot.session";
/** Set at the first sign-in on this browser, kept after signing out: who comes back logs in. */
export const SIGNED_IN_BEFORE_KEY = "todo-chatbot.signed-in-before";

/** Whether anyone has signed in on this browser before (a first visit lands on sign-up). */
export function hasSignedInBefore(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_BEFORE_KEY) !== null || localStorage.getItem(STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

function isSession(value: unknown): value is Session {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record["token"] === "string" && typeof record["email"] === "string";
}

function load(): Session | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    return isSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

let state: SessionState = { session: load(), notice: null };
const listeners = new Set<() => void>();

function publish(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function getSessionState(): SessionState {
  return state;
}

export function getToken(): string | null {
  return state.session?.token ?? null;
}

export function signIn(session: Session): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  localStorage.setItem(SIGNED_IN_BEFORE_KEY, "1");
  publish({ session, notice: null });
}

/** Forget the token; `notice` is shown on the login screen. */
export function signOut(notice: string | null = null): void {
  localStorage.removeItem(STORAGE_KEY);
  localStorage.setItem(SIGNED_IN_BEFORE_KEY, "1");
  publish({ session: null, notice });
}

/** Re-read storage (tests, and other tabs logging in or out). */
export function reloadSession(): void {
  publish({ session: load(), notice: null });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === STORAGE_KEY || event.key === null) reloadSession();
  });
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSessionState);
}
