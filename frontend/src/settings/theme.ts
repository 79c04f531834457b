/**
 * The colour theme: "system" follows the device (`prefers-color-scheme`), "light" and "dark"
 * override it. The choice is kept in this browser (localStorage) and applied as
 * `<html data-theme="light|dark">`, which base.css reads; "system" removes the attribute.
 * The page's CSP allows no inline script, so main.tsx applies it before the first render.
 */
import { useSyncExternalStore } from "react";

export type Theme = "system" | "light" | "dark";

export const THEMES: readonly Theme[] = ["system", "light", "dark"];
export const THEME_KEY = "todo-chatbot.theme";

/** The browser bar's colour per scheme: the values index.html's `theme-color` metas start with. */
const BAR_COLOUR = { light: "#f7f7fb", dark: "#111318" } as const;

const listeners = new Set<() => void>();
/** A choice the browser's storage refused to keep: it holds until the page is left. */
let unsaved: Theme | null = null;

function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

function publish(): void {
  for (const listener of listeners) listener();
}

export function storedTheme(): Theme {
  if (unsaved !== null) return unsaved;
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return isTheme(stored) ? stored : "system";
  } catch {
    return "system"; // storage blocked: the device decides
  }
}

/** Put a theme on the page: the attribute base.css reads, and the browser bar's colour. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === "system") delete root.dataset["theme"];
  else root.dataset["theme"] = theme;
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    const scheme = theme === "system" ? (meta.media.includes("dark") ? "dark" : "light") : theme;
    meta.content = BAR_COLOUR[scheme];
  }
}

/** Choose a theme: applied at once and kept in this browser ("system" keeps nothing). */
export function setTheme(theme: Theme): void {
  try {
    if (theme === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, theme);
    unsaved = null;
  } catch {
    unsaved = theme;
  }
  applyTheme(theme);
  publish();
}

/**
 * On load, before the first render: apply the stored theme, and follow a choice made in
 * another tab. Returns a function that stops following (for tests).
 */
export function startTheme(): () => void {
  applyTheme(storedTheme());
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_KEY && event.key !== null) return;
    applyTheme(storedTheme());
    publish();
  };
  window.addEventListener("storage", onStorage);
  return () => window.removeEventListener("storage", onStorage);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The theme chosen in this browser, kept current. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, storedTheme);
}
