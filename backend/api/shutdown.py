"""When a graceful shutdown begins. An ASGI server tells its app only at the end (the lifespan's
shutdown runs once the server has stopped waiting for its connections), too late for a turn
cut at the end of the grace period to answer its client. The server's own SIGTERM and SIGINT
handlers (uvicorn installs them before the app starts) say so at once: chained here, they
also tell the app, then do what they did."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

logger = logging.getLogger(__name__)

_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def on_shutdown_signal(callback: Callable[[], None]) -> Callable[[], None]:
    """Runs `callback` on this event loop when the server is signalled to shut down, before
    the server's handler; returns the undo. Nothing is chained outside the main thread, or to
    a signal whose handler is Python's default (no server is handling it)."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    loop = asyncio.get_running_loop()
    chained: dict[signal.Signals, tuple[Any, Any]] = {}
    for sig in _SIGNALS:
        handler = signal.getsignal(sig)
        if not callable(handler) or handler is signal.default_int_handler:
            continue

        def tell_then_handle(
            signum: int, frame: FrameType | None, handler: Callable[..., Any] = handler
        ) -> None:
            try:
                # A signal handler may not touch the loop directly, only wake it.
                loop.call_soon_threadsafe(callback)
            except RuntimeError:  # the loop is closed: nothing left to tell
                logger.debug("shutdown signal after the event loop closed")
            handler(signum, frame)

        signal.signal(sig, tell_then_handle)
        chained[sig] = (handler, tell_then_handle)

    def undo() -> None:
        for sig, (handler, ours) in chained.items():
            if signal.getsignal(sig) is ours:  # else someone chained after us: leave theirs
                signal.signal(sig, handler)

    return undo
