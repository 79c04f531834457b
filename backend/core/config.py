"""Settings: the one place that reads the environment (and `.env`)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEV_SECRET_KEY = "dev-only-insecure-secret-key-change-me"
# The longest chat message: MAX_MESSAGE_CHARS's default and the most it may be (an imported
# backup's messages are held to it as well, whatever the setting: backend/models/conversation.py).
MESSAGE_CHARS_CEILING = 4000


def project_root(module: Path = Path(__file__)) -> Path | None:
    """The checkout this code runs from (its pyproject.toml beside `backend/`), or None for a
    copy installed into site-packages, which belongs to no project."""
    root = module.resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else None


def default_database_url(root: Path | None) -> str:
    """The checkout's own data/todo.db whatever the current directory: desktop MCP clients
    start the stdio server elsewhere, and it must open the database the web service made.
    An installed copy has no checkout, so ./data/todo.db under the current directory (set
    DATABASE_URL there)."""
    if root is None:
        return "sqlite+aiosqlite:///./data/todo.db"
    return f"sqlite+aiosqlite:///{(root / 'data' / 'todo.db').as_posix()}"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    environment: Literal["development", "production"] = "development"
    # An explicitly set relative SQLite path stays relative to the current directory.
    database_url: str = Field(default_factory=lambda: default_database_url(project_root()))
    secret_key: str = DEV_SECRET_KEY
    access_token_expire_minutes: int = Field(default=60 * 24 * 7, gt=0)

    # How many stored messages a chat turn sees (the spec's context window).
    context_window_messages: int = Field(default=50, gt=0)
    # The longest message POST /api/chat takes (characters); the web UI asks for it.
    max_message_chars: int = Field(default=MESSAGE_CHARS_CEILING, ge=1, le=MESSAGE_CHARS_CEILING)

    # SQLite waits this long for a competing writer instead of failing with "database is locked".
    sqlite_busy_timeout_ms: int = Field(default=30_000, ge=0)
    db_pool_size: int = Field(default=10, gt=0)
    db_max_overflow: int = Field(default=20, ge=0)
    # How long a request waits for a pooled connection (either database) before it is
    # answered 503 with Retry-After.
    db_pool_timeout_seconds: float = Field(default=30.0, gt=0)
    # A pooled PostgreSQL connection idle this long is pinged before use (a restart or an
    # idle timeout may have closed it); busier ones are not, which saves a round trip each.
    db_ping_after_idle_seconds: float = Field(default=1.0, ge=0)

    # The assistant's brain: the deterministic rules (default, offline), OpenAI, any
    # OpenAI-compatible chat-completions server, or rules first with an LLM for the rest.
    agent_brain: Literal["rules", "openai", "compatible", "hybrid"] = "rules"
    openai_api_key: SecretStr | None = None
    openai_model: str = "gpt-4.1-mini"
    openai_base_url: str | None = None
    llm_timeout_seconds: float = Field(default=30.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)
    # Longest tool output (characters) handed to an LLM; longer lists are cut with a note.
    llm_max_tool_output_chars: int = Field(default=8000, ge=500)
    # Traces of agent runs are exported to OpenAI only when this is set.
    agent_tracing: bool = False
    # Freeze start-up objects out of the cyclic GC and collect the young generation less
    # often (backend/core/heap.py). Process-wide, so tests that build many apps turn it off.
    tune_gc: bool = True

    # The MCP stdio server acts for this user unless MCP_USER_TOKEN is given.
    mcp_user_token: str | None = None
    mcp_user_id: int | None = None

    # The built web UI; `make run` builds it when its sources change.
    frontend_dist: Path = Path(__file__).resolve().parents[2] / "frontend" / "dist"

    # On shutdown, how long turns in flight (streamed ones too) get to finish before they are
    # cut short; a cut turn still stores a reply recording the tool calls it made.
    shutdown_grace_seconds: float = Field(default=20.0, ge=0, le=600)

    # Per-user task changes per minute over REST, /mcp and chat (a bulk change counts once;
    # in chat each tool call that changes tasks is one: adding 30 tasks is 30).
    writes_per_minute: int = Field(default=600, gt=0)
    # The longest one chat turn may run, storing its reply included; past it the turn stops
    # at its next step and its reply says so, recording the tool calls already made.
    turn_time_budget_seconds: float = Field(default=60.0, gt=0, le=3600)
    # The end of that budget kept for storing the reply (SQLite may make it wait for its
    # write lock), at most half of the budget.
    turn_reply_reserve_seconds: float = Field(default=5.0, gt=0, le=600)
    # Tasks one chat message may add; the reply to a longer list adds the first ones and
    # asks for the rest in another message.
    max_tasks_per_message: int = Field(default=50, ge=1, le=10_000)

    # Tasks one account may hold: bounds what one user's bulk work and lists can cost others.
    max_tasks_per_user: int = Field(default=10_000, ge=1, le=1_000_000)
    # Lists one account may hold, Inbox and Shopping included (each is a row every list read
    # returns, and a name every new list is compared with for look-alikes).
    max_lists_per_user: int = Field(default=100, ge=2, le=10_000)

    # Abuse limits (backend/core/limits/__init__.py says where each is counted). Sign-in allows
    # this many wrong passwords per window from one address, and on one account before only
    # clients that have not failed on it may try (backend/core/limits/sign_in.py); sign-up
    # allows this many tries per window from one address.
    chat_requests_per_minute: int = Field(default=30, gt=0)
    login_attempts_per_window: int = Field(default=10, gt=0)
    login_window_seconds: int = Field(default=300, gt=0)
    max_request_bytes: int = Field(default=64 * 1024, ge=1024)
    # OpenAI-compatible clients send the whole history with every message (/v1): 1 MiB holds
    # hundreds of turns; past it, a chat starts anew.
    openai_max_request_bytes: int = Field(default=1024 * 1024, ge=1024)
    # Proxies trusted to name the client in X-Forwarded-For (comma-separated addresses or
    # networks, as uvicorn takes them; "*" trusts any peer): none by default, so a client
    # cannot pick the address its sign-in budget is counted against. The same variable is
    # uvicorn's, and `todo-chatbot serve` passes this value to it.
    forwarded_allow_ips: str = ""
    # Origins allowed to call the API from a browser; the UI itself is same-origin.
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)

    # Reminders: this process sweeps for due ones every interval (any number of processes
    # may; the database gives each reminder to one), and streams fired ones to open web UIs.
    reminder_scheduler: bool = True
    reminder_check_seconds: float = Field(default=5.0, gt=0, le=300)
    # How often each process looks for changes to tell open web UIs of (shared lists).
    live_update_seconds: float = Field(default=0.5, gt=0, le=60)
    # The calendar feed: fetches allowed per feed URL per minute (a calendar app fetches every
    # few minutes at most; more is a 429 with Retry-After), and how much rendered feed each
    # worker keeps, so an unchanged feed is not rendered again (0: none kept).
    calendar_feed_requests_per_minute: int = Field(default=6, gt=0)
    # Per-user reads of the task list (a page of up to 1,000 each): the web UI reads once per
    # change, so this only bounds a client polling big pages in a loop (429 beyond).
    task_reads_per_minute: int = Field(default=120, gt=0)
    calendar_feed_cache_mb: int = Field(default=64, ge=0, le=4096)
    # Reminder streams one account may hold open on one process (each tab of the web UI
    # holds one); one more is refused with a 429. Every check (above) ends the streams whose
    # token has expired or whose account is gone.
    reminder_streams_per_account: int = Field(default=10, ge=1, le=1000)

    # Delivery of fired reminders beyond the open page (specs/notifications.md): the address
    # people reach this service at, for the links in emails and notifications (default
    # http://HOST:PORT).
    public_url: str | None = None
    # Web Push (RFC 8292 VAPID): the server's key pair, generated on the first start and kept
    # in the database unless given here (the private key as PEM or raw base64url), and the
    # contact push services may write to.
    vapid_private_key: SecretStr | None = None
    vapid_subject: str = "mailto:admin@localhost"
    # Push endpoints are URLs browsers hand over and the server POSTs to: only https ones on
    # public addresses are taken, unless their origin is listed here (a push service inside
    # a private network; the tests' local one).
    push_endpoint_allow: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Email (reminders for accounts that opt in, and the daily digest): off unless SMTP_HOST is
    # set. SMTP_TLS: "starttls" (port 587), "tls" (implicit, port 465) or "none" (a local relay).
    smtp_host: str | None = None
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_tls: Literal["starttls", "tls", "none"] = "starttls"
    smtp_username: str | None = None
    smtp_password: SecretStr | None = None
    email_from: str = "Todo Chatbot <reminders@localhost>"
    # A failed delivery is tried again with backoff (30 s doubling, at most an hour apart) up
    # to this many times; one being sent is leased for `delivery_lease_seconds`, after which
    # another process takes it over (a crashed sender's sends are retried, maybe twice).
    delivery_max_attempts: int = Field(default=8, ge=1, le=100)
    delivery_lease_seconds: float = Field(default=60.0, gt=0, le=3600)
    # Sends in flight at once per process (each push and each email is one).
    delivery_concurrency: int = Field(default=32, ge=1, le=1000)
    # In a web worker, the share of the event loop a burst of deliveries may take (the rest
    # stays with chat turns); `todo-chatbot reminders` serves no chat and takes it all.
    delivery_loop_share: float = Field(default=0.5, gt=0, le=1)

    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "INFO"

    @model_validator(mode="after")
    def _refuse_insecure_production(self) -> Settings:
        if self.environment != "development" and (
            self.secret_key == DEV_SECRET_KEY or len(self.secret_key) < 32
        ):
            raise ValueError(
                "SECRET_KEY must be set to a random string of at least 32 characters "
                "outside development"
            )
        return self

    @field_validator("cors_origins", "push_endpoint_allow", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip().startswith("["):
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value

    @model_validator(mode="after")
    def _brain_has_what_it_needs(self) -> Settings:
        if self.agent_brain == "openai" and self.openai_api_key is None:
            raise ValueError("AGENT_BRAIN=openai needs OPENAI_API_KEY")
        if self.agent_brain == "compatible" and not self.openai_base_url:
            raise ValueError(
                "AGENT_BRAIN=compatible needs OPENAI_BASE_URL (e.g. http://localhost:11434/v1 for "
                "Ollama) and OPENAI_MODEL"
            )
        if self.agent_brain == "hybrid" and not (self.openai_base_url or self.openai_api_key):
            raise ValueError("AGENT_BRAIN=hybrid needs OPENAI_API_KEY or OPENAI_BASE_URL")
        return self

    @property
    def base_url(self) -> str:
        """Where people reach the service, without a trailing slash."""
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")

    @property
    def email_enabled(self) -> bool:
        return bool(self.smtp_host)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    return Settings()


def settings_problems(error: ValidationError) -> list[str]:
    """What is wrong with the configuration, a sentence a setting, as the person running the
    service set it: "AGENT_BRAIN=openai needs OPENAI_API_KEY", "PORT: Input should be a valid
    integer" (never pydantic's traceback)."""
    problems = []
    for problem in error.errors():
        said = str(problem["msg"]).removeprefix("Value error, ")
        where = "_".join(str(part) for part in problem["loc"]).upper()
        problems.append(f"{where}: {said}" if where else said)
    return problems
