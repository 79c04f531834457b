/** The top bar: app name, the drawer toggles on narrow screens, who is signed in, settings, log out. */
import type { RefObject } from "react";

import { ChatIcon, ChecklistIcon, GearIcon, LogoutIcon } from "./icons";
import { Logo } from "./Logo";

export type Drawer = "conversations" | "tasks";

interface Props {
  email: string;
  drawer: Drawer | null;
  onToggle: (drawer: Drawer) => void;
  onLogOut: () => void;
  onOpenSettings: () => void;
  conversationsToggleRef: RefObject<HTMLButtonElement | null>;
  tasksToggleRef: RefObject<HTMLButtonElement | null>;
}

export function AppHeader({
  email,
  drawer,
  onToggle,
  onLogOut,
  onOpenSettings,
  conversationsToggleRef,
  tasksToggleRef,
}: Props) {
  return (
    <header className="app-header">
      <button
        ref={conversationsToggleRef}
        type="button"
        className="icon-button drawer-toggle"
        aria-expanded={drawer === "conversations"}
        aria-controls="conversations-drawer"
        onClick={() => onToggle("conversations")}
      >
        <ChatIcon />
        <span className="visually-hidden">Conversations</span>
      </button>
      <div className="brand">
        <Logo />
        <h1 className="brand-name">Todo Chatbot</h1>
      </div>
      <div className="header-end">
        <span className="user-email" title={email}>
          {email}
        </span>
        <button
          ref={tasksToggleRef}
          type="button"
          className="icon-button drawer-toggle"
          aria-expanded={drawer === "tasks"}
          aria-controls="tasks-drawer"
          onClick={() => onToggle("tasks")}
        >
          <ChecklistIcon />
          <span className="visually-hidden">Tasks</span>
        </button>
        <button type="button" className="icon-button" aria-haspopup="dialog" onClick={onOpenSettings}>
          <GearIcon />
          <span className="visually-hidden">Settings</span>
        </button>
        <button type="button" className="button button-ghost logout" onClick={onLogOut}>
          <LogoutIcon />
          <span className="logout-label">Log out</span>
        </button>
      </div>
    </header>
  );
}
