"""Registration, login and the current user (`/api/auth/*`)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, status
from pydantic import BaseModel, EmailStr, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from backend.api.deps import (
    CurrentUser,
    SessionDep,
    SettingsDep,
    SignedInUser,
    limit_login,
    limit_sign_up,
)
from backend.api.errors import (
    BAD_REQUEST,
    CONFLICT,
    SIGNED_IN_ONLY,
    TOO_LARGE,
    TOO_MANY,
    UNAUTHORIZED,
    UNAVAILABLE,
)
from backend.core.password_policy import password_problem
from backend.core.security import create_access_token
from backend.domain.due import DEFAULT_ZONE, is_known_zone
from backend.domain.errors import EmailTakenError
from backend.models import User, UserPublic
from backend.notifications import preferences
from backend.services import tasks, users

router = APIRouter(
    prefix="/api/auth", tags=["auth"], responses={**BAD_REQUEST, **TOO_LARGE, **UNAVAILABLE}
)


def _known_zone(value: str) -> str:
    if not is_known_zone(value):
        raise PydanticCustomError(
            "unknown_time_zone",
            "Unknown time zone {zone}: use an IANA name such as 'America/New_York'",
            {"zone": value[:64]},
        )
    return value


class RegisterRequest(BaseModel):
    email: EmailStr = Field(max_length=320)
    password: str = Field(min_length=8, max_length=128)
    timezone: str | None = Field(
        default=None,
        max_length=64,
        description="IANA time zone (the web UI sends the browser's); UTC when absent",
    )

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str | None) -> str | None:
        return None if value is None else _known_zone(value)

    @field_validator("password")
    @classmethod
    def _hard_to_guess(cls, value: str, info: ValidationInfo) -> str:
        # A 422 naming the rule: blank, invisible or control characters, or too common.
        problem = password_problem(value, email=info.data.get("email"))
        if problem is not None:
            raise PydanticCustomError(problem.code, problem.message)
        return value


class AccountChange(BaseModel):
    timezone: str = Field(max_length=64, description="IANA time zone")

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        return _known_zone(value)


class LoginRequest(BaseModel):
    # NUL, which PostgreSQL cannot hold, is refused at the edge (backend/api/middleware.py).
    email: str = Field(min_length=1, max_length=320)
    password: str = Field(min_length=1, max_length=128)


class TokenResponse(BaseModel):
    access_token: str
    token_type: str = "bearer"
    user: UserPublic


def _token_response(user: User, settings: SettingsDep) -> TokenResponse:
    assert user.id is not None
    return TokenResponse(
        access_token=create_access_token(user.id, settings, account=user.account_key),
        user=UserPublic(id=user.id, email=user.email, timezone=user.timezone),
    )


@router.post("/register", status_code=status.HTTP_201_CREATED, responses={**CONFLICT, **TOO_MANY})
async def register(
    body: RegisterRequest, request: Request, session: SessionDep, settings: SettingsDep
) -> TokenResponse:
    """Create an account and return a token for it."""
    await limit_sign_up(request)
    try:
        user = await users.register_user(
            session,
            email=body.email,
            password=body.password,
            timezone=body.timezone or DEFAULT_ZONE,
        )
    except EmailTakenError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    return _token_response(user, settings)


@router.post("/login", responses={**UNAUTHORIZED, **TOO_MANY})
async def login(
    body: LoginRequest, request: Request, session: SessionDep, settings: SettingsDep
) -> TokenResponse:
    """Exchange email and password for a bearer token."""
    attempt = await limit_login(request, users.normalize_email(body.email))
    # Ends the lookup's transaction before the password check (no connection held while it
    # runs) and before the throttle writes on a connection of its own.
    user = await users.authenticate(session, email=body.email, password=body.password)
    if user is None:
        await attempt.failed()
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            detail="Incorrect email or password",
            headers={"WWW-Authenticate": "Bearer"},
        )
    await attempt.succeeded()
    return _token_response(user, settings)


@router.get("/me", responses=UNAUTHORIZED)
async def me(user: CurrentUser) -> UserPublic:
    """The user the bearer token belongs to."""
    assert user.id is not None
    return UserPublic(id=user.id, email=user.email, timezone=user.timezone)


@router.patch("/me", responses={**UNAUTHORIZED, **SIGNED_IN_ONLY})
async def change_me(body: AccountChange, user: SignedInUser, session: SessionDep) -> UserPublic:
    """Change the account's time zone. Due days and times keep their wall-clock values in
    the new zone ("9:00 on Tuesday" stays 9:00 on Tuesday)."""
    assert user.id is not None
    await tasks.set_account_zone(session, owner_id=user.id, zone=body.timezone)
    # The daily digest follows the account's clock too.
    await preferences.rezone(session, user.id, body.timezone)
    return UserPublic(id=user.id, email=user.email, timezone=body.timezone)
