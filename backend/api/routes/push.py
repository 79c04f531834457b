"""Web Push subscriptions (specs/notifications.md): the server's public key to subscribe
with, and the browsers an account receives reminders on, each of which it may turn off."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Path, Request, Response, status
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field

from backend.api.deps import CurrentUserId, ReadSessionDep, SessionDep, WriteAllowed
from backend.api.errors import AUTHENTICATED, NOT_FOUND, TOO_MANY, ErrorDetail, Responses
from backend.core.config import Settings
from backend.models import PushSubscription
from backend.models.notifications import ENDPOINT_MAX_LENGTH
from backend.notifications import subscriptions
from backend.notifications.push_endpoints import EndpointRefusedError, check_endpoint
from backend.notifications.subscriptions import SubscriptionKeyError, TooManySubscriptionsError
from backend.notifications.vapid import VapidKeys

router = APIRouter(prefix="/api/push", tags=["push"])

SubscriptionId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The subscription's id")]


class PublicKey(BaseModel):
    public_key: str = Field(
        description="The server's VAPID public key (base64url, an uncompressed P-256 point): "
        "the `applicationServerKey` to subscribe with"
    )


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(max_length=128, description="The browser's P-256 public key, base64url")
    auth: str = Field(max_length=64, description="The browser's 16-byte auth secret, base64url")


class SubscriptionIn(BaseModel):
    """A browser's `PushSubscription.toJSON()`."""

    endpoint: str = Field(max_length=ENDPOINT_MAX_LENGTH)
    # The browser's name for it; unused (a push service that ends one answers 404 or 410).
    expirationTime: float | None = None
    keys: SubscriptionKeys


class SubscriptionPublic(BaseModel):
    id: int
    endpoint: str = Field(description="The push service's URL for this browser")
    device: str = Field(
        description='What the browser is, from its User-Agent ("Chrome on Android")'
    )
    created_at: datetime
    last_sent_at: datetime | None = Field(description="When it was last sent a reminder")

    @classmethod
    def of(cls, row: PushSubscription, last_sent_at: datetime | None = None) -> SubscriptionPublic:
        assert row.id is not None
        return cls(
            id=row.id,
            endpoint=row.endpoint,
            device=row.device,
            created_at=row.created_at,
            last_sent_at=last_sent_at,
        )


def vapid_keys(request: Request) -> VapidKeys:
    """The app's VAPID keys, loaded (or made) once by the lifespan, which the dispatcher
    signs with too."""
    keys: VapidKeys = request.app.state.vapid_keys
    return keys


@router.get("/key")
async def public_key(request: Request) -> PublicKey:
    """The key a browser subscribes with. Public (it rides on every push the server sends),
    so it needs no token: the page may ask before anyone signs in."""
    return PublicKey(public_key=vapid_keys(request).public_key)


REFUSED: Responses = {
    409: {
        "model": ErrorDetail,
        "description": "The account receives pushes on the most browsers allowed (20)",
    },
    422: {
        "description": (
            "The endpoint is refused (not https, not a public host, unless allow-listed: "
            "the message says why) or the keys are not a P-256 key and a 16-byte secret"
        )
    },
}


def _invalid(field: tuple[str, ...], message: str) -> RequestValidationError:
    return RequestValidationError(
        [{"type": "value_error", "loc": ("body", *field), "msg": message}]
    )


@router.post(
    "/subscriptions",
    status_code=status.HTTP_201_CREATED,
    responses={**AUTHENTICATED, **TOO_MANY, **REFUSED},
)
async def subscribe(
    request: Request,
    body: SubscriptionIn,
    user_id: CurrentUserId,
    session: SessionDep,
    _allowed: WriteAllowed,
    user_agent: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> SubscriptionPublic:
    """Receive reminders by Web Push in this browser. Subscribing again (new keys, or
    another account signing in on the same browser) replaces its subscription."""
    settings: Settings = request.app.state.settings
    try:
        await check_endpoint(body.endpoint, settings.push_endpoint_allow)
    except EndpointRefusedError as exc:
        raise _invalid(("endpoint",), str(exc)) from exc
    try:
        row = await subscriptions.add(
            session,
            owner_id=user_id,
            endpoint=body.endpoint,
            p256dh=body.keys.p256dh,
            auth=body.keys.auth,
            device=subscriptions.device_label(user_agent),
        )
    except SubscriptionKeyError as exc:
        raise _invalid(("keys", exc.field), str(exc)) from exc
    except TooManySubscriptionsError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from exc
    return SubscriptionPublic.of(row, row.last_sent_at)


@router.get("/subscriptions", responses=AUTHENTICATED)
async def list_subscriptions(
    user_id: CurrentUserId, session: ReadSessionDep
) -> list[SubscriptionPublic]:
    """The browsers this account receives reminders on, oldest first. The page tells which
    is its own by comparing its subscription's endpoint."""
    found = await subscriptions.listed(session, owner_id=user_id)
    return [SubscriptionPublic.of(item.subscription, item.last_sent_at) for item in found]


@router.delete(
    "/subscriptions/{subscription_id:int}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**AUTHENTICATED, **NOT_FOUND},
)
async def unsubscribe(
    subscription_id: SubscriptionId, user_id: CurrentUserId, session: SessionDep
) -> Response:
    """Stop sending reminders to one browser (the page also unsubscribes it there)."""
    if not await subscriptions.remove(session, owner_id=user_id, subscription_id=subscription_id):
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Subscription not found")
    return Response(status_code=status.HTTP_204_NO_CONTENT)
