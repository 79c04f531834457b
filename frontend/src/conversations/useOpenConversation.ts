/**
 * Which conversation is open, kept in the URL (#/conversations/7) so a reload reopens it
 * and the browser's back button goes to the previous one.
 */
import { useEffect, useRef, useState } from "react";

export interface OpenConversation {
  id: number | null;
  /** Bumped when the user opens a conversation, so the thread starts fresh. */
  view: number;
}

const HASH = /^#\/conversations\/(\d{1,10})$/;

export function conversationInUrl(): number | null {
  const match = HASH.exec(location.hash);
  return match ? Number(match[1]) : null;
}

function writeUrl(id: number | null, how: "push" | "replace") {
  if (id === conversationInUrl()) return;
  const url = id === null ? `${location.pathname}${location.search}` : `#/conversations/${id}`;
  if (how === "push") history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

export function forgetConversationInUrl(): void {
  writeUrl(null, "replace");
}

export function useOpenConversation() {
  const [open, setOpen] = useState<OpenConversation>(() => ({ id: conversationInUrl(), view: 0 }));
  // `started` runs when a reply arrives, long after render: the open conversation as of then.
  const latest = useRef(open);
  useEffect(() => {
    latest.current = open;
  }, [open]);

  useEffect(() => {
    const onPop = () => setOpen((current) => ({ id: conversationInUrl(), view: current.view + 1 }));
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
