/** The signed-in app: conversations | chat | tasks, with the side columns as drawers on phones. */
import { useEffect, useEffectEvent, useRef, useState } from "react";

import { signOut } from "../auth/session";
import { leaveThisDevice } from "../pwa/push";
import { ChatView } from "../chat/ChatView";
import { useChatTurn } from "../chat/useChatTurn";
import { ConversationList } from "../conversations/ConversationList";
import { useConversations } from "../conversations/useConversations";
import { useOpenConversation } from "../conversations/useOpenConversation";
import { Reminders } from "../reminders/Reminders";
import { SettingsDialog } from "../settings/SettingsDialog";
import { InvitationsNotice } from "../sharing/InvitationsNotice";
import { TaskPanel } from "../tasks/TaskPanel";
import { AppHeader, type Drawer } from "./AppHeader";
import { ConnectionBanner } from "./ConnectionBanner";
import { Toaster } from "./Toaster";
import "./layout.css";

// Not text fields: focusing one on a phone pops the keyboard up over the drawer just opened.
const FOCUSABLE = "button:not([disabled]), input[type=checkbox]:not([disabled]), [href]";

function useDrawer() {
  const [drawer, setDrawer] = useState<Drawer | null>(null);
  const conversationsToggle = useRef<HTMLButtonElement>(null);
  const tasksToggle = useRef<HTMLButtonElement>(null);
  const conversationsDrawer = useRef<HTMLDivElement>(null);
  const tasksDrawer = useRef<HTMLDivElement>(null);

  const open = (which: Drawer) => {
    setDrawer(which);
    const panel = which === "tasks" ? tasksDrawer : conversationsDrawer;
    requestAnimationFrame(() => panel.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus());
  };

  const close = (returnFocus: boolean) => {
    if (!drawer) return;
    setDrawer(null);
    const toggle = drawer === "tasks" ? tasksToggle : conversationsToggle;
    if (returnFocus) requestAnimationFrame(() => toggle.current?.focus());
  };

  const toggle = (which: Drawer) => (drawer === which ? close(false) : open(which));

  // The drawer open when Escape is pressed, without re-subscribing on every render.
  const closeOnEscape = useEffectEvent(() => close(true));
  useEffect(() => {
    if (!drawer) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") closeOnEscape();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [drawer]);

  return { drawer, toggle, close, conversationsToggle, tasksToggle, conversationsDrawer, tasksDrawer };
}

export function AppShell({ email }: { email: string }) {
  const conversations = useConversations();
  const { open: selection, select, started } = useOpenConversation();
  const { drawer, toggle, close, conversationsToggle, tasksToggle, conversationsDrawer, tasksDrawer } =
    useDrawer();
  const turn = useChatTurn({ conversationId: selection.id, onStarted: started });
  const [settings, setSettings] = useState(false);

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

  // Pushes to this browser stop with the session (the endpoint goes if the server is reached).
  const logOut = () => void leaveThisDevice().finally(() => signOut());

  return (
    <div className="app" data-drawer={drawer ?? undefined}>
      <AppHeader
        email={email}
        drawer={drawer}
        onToggle={toggle}
        onLogOut={logOut}
        onOpenSettings={() => {
          close(false); // a drawer's Escape handler would fight the dialog's
          setSettings(true);
        }}
        conversationsToggleRef={conversationsToggle}
        tasksToggleRef={tasksToggle}
      />
      <div className="notices">
        <Toaster />
      </div>
      <ConnectionBanner />
      <InvitationsNotice />
      <div className="layout">
        <div
          id="conversations-drawer"
          ref={conversationsDrawer}
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
            notices={<Reminders />}
          />
        </main>
        <div
          id="tasks-drawer"
          ref={tasksDrawer}
          className="column column-right drawer"
          data-open={drawer === "tasks"}
        >
          <TaskPanel />
        </div>
        {drawer && <div className="backdrop" onClick={() => close(false)} aria-hidden="true" />}
      </div>
      {settings && <SettingsDialog email={email} onLogOut={logOut} onClose={() => setSettings(false)} />}
    </div>
  );
}
