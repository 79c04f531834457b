/** The signed-in app: conversations | chat | tasks, with the side columns as drawers on phones. */
import { useCallback, useEffect, useRef, useState } from "react";

import { signOut } from "../auth/session";
import { ChatView } from "../chat/ChatView";
import { useChatTurn } from "../chat/useChatTurn";
import { ConversationList } from "../conversations/ConversationList";
import { useConversations } from "../conversations/useConversations";
import { useOpenConversation } from "../conversations/useOpenConversation";
import { TaskPanel } from "../tasks/TaskPanel";
import { AppHeader, type Drawer } from "./AppHeader";
import { ConnectionBanner } from "./ConnectionBanner";
import { Toaster } from "./Toaster";
import "./layout.css";

// Not text fields: focusing one on a phone pops the keyboard up over the drawer just opened.
const FOCUSABLE = "button:not([disabled]), input[type=checkbox]:not([disabled]), [href]";

function useDrawer() {
  const [drawer, setDrawer] = useState<Drawer | null>(null);
  const current = useRef<Drawer | null>(null);
  current.current = drawer;
  const toggleRefs = {
    conversations: useRef<HTMLButtonElement>(null),
    tasks: useRef<HTMLButtonElement>(null),
  };
  const drawers = { conversations: useRef<HTMLDivElement>(null), tasks: useRef<HTMLDivElement>(null) };
  const toggleRef = useRef(toggleRefs);

  const open = (which: Drawer) => {
    setDrawer(which);
    requestAnimationFrame(() => drawers[which].current?.querySelector<HTMLElement>(FOCUSABLE)?.focus());
  };

  const close = useCallback((returnFocus: boolean) => {
    const which = current.current;
    if (!which) return;
    setDrawer(null);
    if (returnFocus) requestAnimationFrame(() => toggleRef.current[which].current?.focus());
  }, []);

  const toggle = (which: Drawer) => (drawer === which ? close(false) : open(which));

  useEffect(() => {
    if (!drawer) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [drawer, close]);

  return { drawer, toggle, close, toggleRefs, drawers };
}

export function AppShell({ email }: { email: string }) {
  const conversations = useConversations();
  const { open: selection, select, started } = useOpenConversation();
  const { drawer, toggle, close, toggleRefs, drawers } = useDrawer();
  const turn = useChatTurn({ conversationId: selection.id, onStarted: started });

  const open = (id: number | null) => {
    select(id);
    close(false);
  };

  const title =
    selection.id === null
      ? "New chat"
      : (conversations.data?.find((conversation) => conversation.id === selection.id)?.title ??
        "Conversation");

  useEffect(() => {
    document.title = selection.id === null ? "Todo Chatbot" : `${title} · Todo Chatbot`;
  }, [selection.id, title]);

  return (
    <div className="app" data-drawer={drawer ?? undefined}>
      <AppHeader
        email={email}
        drawer={drawer}
        onToggle={toggle}
        onLogOut={() => signOut()}
        toggleRefs={toggleRefs}
      />
      <ConnectionBanner />
      <div className="layout">
        <div
          id="conversations-drawer"
          ref={drawers.conversations}
          className="column column-left drawer"
          data-open={drawer === "conversations"}
        >
          <ConversationList
            selectedId={selection.id}
            onSelect={(id) => open(id)}
            onNewChat={() => open(null)}
            onDeleted={(id) => {
              if (id === selection.id) select(null, "replace");
            }}
          />
        </div>
        <main className="column column-main">
          <ChatView
            conversationId={selection.id}
            title={title}
            viewKey={selection.view}
            turn={turn}
            onMissing={() => select(null, "replace")}
          />
        </main>
        <div
          id="tasks-drawer"
          ref={drawers.tasks}
          className="column column-right drawer"
          data-open={drawer === "tasks"}
        >
          <TaskPanel />
        </div>
        {drawer && <div className="backdrop" onClick={() => close(false)} aria-hidden="true" />}
      </div>
      <Toaster />
    </div>
  );
}
