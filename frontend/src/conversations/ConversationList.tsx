/** The sidebar: "New chat" and the user's conversations, newest first. */
import { useRef } from "react";

import { describeError } from "../api/errors";
import { PlusIcon, TrashIcon } from "../ui/icons";
import { useConversations, useDeleteConversation } from "./useConversations";
import "./conversations.css";

interface Props {
  selectedId: number | null;
  onSelect: (id: number) => void;
  onNewChat: () => void;
  /** The open conversation was deleted. */
  onDeleted: (id: number) => void;
}

export function ConversationList({ selectedId, onSelect, onNewChat, onDeleted }: Props) {
  const conversations = useConversations();
  const remove = useDeleteConversation();
  const nav = useRef<HTMLElement>(null);

  function deleteConversation(id: number) {
    const list = conversations.data ?? [];
    const index = list.findIndex((conversation) => conversation.id === id);
    const neighbour = list[index + 1] ?? list[index - 1];
    remove.mutate(id);
    onDeleted(id);
    // Keep keyboard focus in the list instead of losing it with the deleted row.
    requestAnimationFrame(() => {
      const target = neighbour
        ? nav.current?.querySelector<HTMLElement>(`[data-conversation="${neighbour.id}"]`)
        : nav.current?.querySelector<HTMLElement>(".new-chat");
      target?.focus();
    });
  }

  return (
    <nav className="conversations" aria-label="Conversations" ref={nav}>
      <button type="button" className="button button-primary button-block new-chat" onClick={onNewChat}>
        <PlusIcon /> New chat
      </button>
      <h2 className="panel-label">Recent</h2>
      {conversations.isPending && <p className="muted small">Loading…</p>}
      {conversations.isError && (
        <div className="panel-error">
          <p>{describeError(conversations.error)}</p>
          <button type="button" className="button button-small" onClick={() => void conversations.refetch()}>
            Try again
          </button>
        </div>
      )}
      {conversations.data?.length === 0 && <p className="muted small">No conversations yet.</p>}
      {conversations.data && conversations.data.length > 0 && (
        <ul className="conversation-list">
          {conversations.data.map((conversation) => {
            const current = conversation.id === selectedId;
            return (
              <li key={conversation.id} className={current ? "conversation is-current" : "conversation"}>
                <button
                  type="button"
                  className="conversation-open"
                  aria-current={current ? "true" : undefined}
                  onClick={() => onSelect(conversation.id)}
                  data-conversation={conversation.id}
                  title={conversation.title}
                >
                  {conversation.title}
                </button>
                <button
                  type="button"
                  className="icon-button conversation-delete"
                  aria-label={`Delete conversation: ${conversation.title}`}
                  title="Delete conversation"
                  onClick={() => deleteConversation(conversation.id)}
                >
                  <TrashIcon />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}
