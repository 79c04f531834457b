/**
 * Which conversation is open, kept in the URL (#/conversations/7) so a reload reopens it
 * and the browser's back button goes to the previous one. It is also remembered on this
 * browser, so coming back to the bare address (a bookmark, a new tab) reopens the
 * conversation the user was last in rather than an empty new chat.
 */
import { useEffect, useRef, useState } from "react";

export interface OpenConversation {
  id: number | null;
  /** Bumped when the user opens a conversation, so the thread starts fresh. */
  view: number;
}

const HASH = /^#\/conversations\/(\d{1,10})$/;
export const LAST_OPEN_KEY = "todo-chatbot.last-conversation";

export function conversationInUrl(): number | null {
  const match = HASH.exec(location.hash);
  return match ? Number(match[1]) : null;
}

function remember(id: number | null): void {
  try {
    if (id === null) localStorage.removeItem(LAST_OPEN_KEY);
    else localStorage.setItem(LAST_OPEN_KEY, String(id));
  } catch {
    // storage refused (private mode): the URL still names the conversation
  }
}

function lastOpen(): number | null {
  try {
    const stored = localStorage.getItem(LAST_OPEN_KEY);
    return stored !== null && /^\d{1,10}$/.test(stored) ? Number(stored) : null;
  } catch {
    return null;
  }
}

function writeUrl(id: number | null, how: "push" | "replace") {
  remember(id);
  if (id === conversationInUrl()) return;
  const url = id === null ? `${location.pathname}${location.search}` : `#/conversations/${id}`;
  if (how === "push") history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

/** Signed out: the next account on this browser opens on nothing of this one's. */
export function forgetConversationInUrl(): void {
  writeUrl(null, "replace");
}

/** The URL's conversation, else the one last open here (written into the URL). */
function initialConversation(): number | null {
  const named = conversationInUrl();
  if (named !== null || location.hash !== "") return named;
  const remembered = lastOpen();
  if (remembered !== null) writeUrl(remembered, "replace");
  return remembered;
}

export function useOpenConversation() {
  const [open, setOpen] = useState<OpenConversation>(() => ({ id: initialConversation(), view: 0 }));
  // `started` runs when a reply arrives, long after render: the open conversation as of then.
  const latest = useRef(open);
  useEffect(() => {
    latest.current = open;
  }, [open]);

  useEffect(() => {
    const onPop = () => {
      const id = conversationInUrl();
      remember(id);
      setOpen((current) => ({ id, view: current.view + 1 }));
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  /** The user opened a conversation (or a new chat, with null). */
  function select(id: number | null, how: "push" | "replace" = "push") {
    writeUrl(id, how);
    setOpen((current) => ({ id, view: current.view + 1 }));
  }

  /** A new chat got its id from the server: same view, the URL now names it. */
  function started(id: number) {
    if (latest.current.id !== null) return;
    writeUrl(id, "replace");
    setOpen((current) => (current.id === null ? { ...current, id } : current));
  }

  return { open, select, started };
}
