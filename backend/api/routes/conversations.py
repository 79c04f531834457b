"""The caller's conversations and their stored messages (`/api/conversations`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query, Response, status

from backend.api.deps import CurrentUserId, SessionDep
from backend.api.errors import AUTHENTICATED, NOT_FOUND
from backend.domain.errors import ConversationNotFoundError
from backend.models import ConversationPublic, MessagePublic, MessageRole
from backend.models.conversation import stored_choices, stored_undoable
from backend.services import conversations

router = APIRouter(prefix="/api/conversations", tags=["conversations"], responses=AUTHENTICATED)

ConversationId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get("")
async def list_conversations(
    user_id: CurrentUserId, session: SessionDep
) -> list[ConversationPublic]:
    """The caller's conversations, most recently active first."""
    found = await conversations.list_conversations(session, owner_id=user_id)
    return [ConversationPublic.model_validate(c, from_attributes=True) for c in found]


@router.get("/{conversation_id}/messages", responses=NOT_FOUND)
async def list_messages(
    conversation_id: ConversationId,
    user_id: CurrentUserId,
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    before_id: Annotated[
        int | None, Query(ge=1, le=2**31 - 1, description="Page backwards from here")
    ] = None,
) -> list[MessagePublic]:
    """A conversation's messages, oldest first (the newest `limit`, or those before `before_id`)."""
    try:
        conversation = await conversations.get_conversation(
            session, owner_id=user_id, conversation_id=conversation_id
        )
    except ConversationNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Conversation not found") from exc
    assert conversation.id is not None
    messages = await conversations.recent_messages(
        session, conversation_id=conversation.id, limit=limit, before_id=before_id
    )
    return [
        MessagePublic(
            id=m.id or 0,
            role=m.role,
            content=m.content,
            tool_calls=m.tool_calls or [],
            choices=stored_choices(m.meta),
            undoable=m.role == MessageRole.ASSISTANT and stored_undoable(m.meta),
            created_at=m.created_at,
        )
        for m in messages
    ]


@router.delete("/{conversation_id}", status_code=status.HTTP_204_NO_CONTENT, responses=NOT_FOUND)
async def delete_conversation(
    conversation_id: ConversationId, user_id: CurrentUserId, session: SessionDep
) -> Response:
    """Delete a conversation and all its messages."""
    try:
        await conversations.delete_conversation(
            session, owner_id=user_id, conversation_id=conversation_id
        )
    except ConversationNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Conversation not found") from exc
    return Response(status_code=status.HTTP_204_NO_CONTENT)
