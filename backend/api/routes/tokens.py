"""Personal access tokens (specs/access-tokens.md): made, listed and revoked by a signed-in
account, for scripts, MCP clients and OpenAI-compatible clients. Each is shown once."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Response, status

from backend.api.deps import ReadSessionDep, SessionDep, SignedInClaims, WriteAllowed
from backend.api.errors import AUTHENTICATED, CONFLICT, NOT_FOUND, SIGNED_IN_ONLY, TOO_MANY
from backend.models import PersonalAccessToken, TokenScope
from backend.models.access_token import TokenCreate, TokenCreated, TokenPublic
from backend.services import access_tokens
from backend.services.access_tokens import TokenLimitError, TokenNotFoundError

router = APIRouter(
    prefix="/api/tokens",
    tags=["tokens"],
    responses={**AUTHENTICATED, **SIGNED_IN_ONLY, **TOO_MANY},
)

TokenId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The token's id")]


def _public(row: PersonalAccessToken) -> TokenPublic:
    assert row.id is not None
    return TokenPublic(
        id=row.id,
        name=row.name,
        scope=TokenScope(row.scope),
        prefix=row.prefix,
        created_at=row.created_at,
        last_used_at=row.last_used_at,
        expires_at=row.expires_at,
    )


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    responses=CONFLICT,
)
async def create_token(
    body: TokenCreate, claims: SignedInClaims, session: SessionDep, _allowed: WriteAllowed = None
) -> TokenCreated:
    """A new token. `token` is in this answer only: store it now, it is never shown again."""
    try:
        row, secret = await access_tokens.create_token(
            session,
            owner_id=claims.user_id,
            name=body.name,
            scope=body.scope,
            expires_in_days=body.expires_in_days,
        )
    except TokenLimitError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    return TokenCreated(**_public(row).model_dump(), token=secret)


@router.get("")
async def list_tokens(claims: SignedInClaims, session: ReadSessionDep) -> list[TokenPublic]:
    """The account's tokens, oldest first, without their secrets."""
    return [_public(row) for row in await access_tokens.list_tokens(session, claims.user_id)]


@router.delete("/{token_id}", status_code=status.HTTP_204_NO_CONTENT, responses=NOT_FOUND)
async def revoke_token(
    token_id: TokenId, claims: SignedInClaims, session: SessionDep, _allowed: WriteAllowed = None
) -> Response:
    """Revokes a token: from the next request on, on every worker, it opens nothing."""
    try:
        await access_tokens.revoke_token(session, claims.user_id, token_id)
    except TokenNotFoundError as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=str(exc)) from exc
    return Response(status_code=status.HTTP_204_NO_CONTENT)
