"""The server's settings a client needs to know: the longest chat message."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from backend.api.deps import CurrentUserId, SettingsDep
from backend.api.errors import AUTHENTICATED

router = APIRouter(prefix="/api", tags=["config"], responses=AUTHENTICATED)


class ClientConfig(BaseModel):
    max_message_chars: int = Field(
        description="The longest message POST /api/chat takes, in characters (MAX_MESSAGE_CHARS)"
    )


@router.get("/config")
async def client_config(_user_id: CurrentUserId, settings: SettingsDep) -> ClientConfig:
    """What this server allows, for the web UI's composer."""
    return ClientConfig(max_message_chars=settings.max_message_chars)
