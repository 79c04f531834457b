"""LLM models for the agent: OpenAI, or any OpenAI-compatible chat-completions server.

The model sees tools only through the MCP server (schemas without `user_id`), and every tool
output it reads is bounded in size, so a user with thousands of tasks cannot overflow the
context window. A model that cannot answer is named for what it is (`model_failure`): the
user is told, the log gets one line with the URL, and `ModelWatch` tells /readyz.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

import httpx2
from agents.models.interface import Model
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from agents.models.openai_responses import OpenAIResponsesModel
from openai import APIConnectionError, APIError, AsyncOpenAI
from openai.resources.chat import AsyncChat, AsyncCompletions

from backend.agent.delegating_model import DelegatingModel, ModelInput
from backend.agent.rules.replies import SYSTEM_ERROR
from backend.core.config import Settings

logger = logging.getLogger(__name__)

# Servers like Ollama or vLLM accept any key; the client insists on one.
_PLACEHOLDER_KEY = "not-needed"

# The request fields that carry the conversation and the tool schemas.
_BULK_FIELDS = ("messages", "tools")


def _is_plain_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) for item in value)


def bulk_in_extra_body(params: dict[str, Any]) -> dict[str, Any]:
    """`chat.completions.create` arguments with the conversation and the tool schemas sent
    through `extra_body`, so that the client's request transform does not walk them.

    That transform checks each message against every member of the message-type union
    (about 0.1 ms a message on the benchmark machine, 5 ms a request with a 50-message
    window, twice a turn) and renames and formats nothing in these fields: the chat
    parameter types declare no alias or format, and the Agents SDK hands over plain dicts
    and lists. `extra_body` is merged into the JSON body after the transform, key for key,
    and each field keeps an empty list in its place, so the bytes sent are the same.
    Anything else (a field that is not a list of dicts) goes the typed way."""
    moved = {name: params[name] for name in _BULK_FIELDS if _is_plain_list(params.get(name))}
    if not moved:
        return params
    extra = params.get("extra_body") or {}
    return {**params, **dict.fromkeys(moved, []), "extra_body": {**moved, **extra}}


class _Completions(AsyncCompletions):
    async def create(self, **params: Any) -> Any:
        return await super().create(**bulk_in_extra_body(params))


class _Chat(AsyncChat):
    @cached_property
    def completions(self) -> AsyncCompletions:
        return _Completions(self._client)


class LeanAsyncOpenAI(AsyncOpenAI):
    """The `openai` client, whose `chat.completions.create` sends the conversation without
    the request transform (see `bulk_in_extra_body`); everything else is the client's own."""

    @cached_property
    def chat(self) -> AsyncChat:
        return _Chat(self)


def openai_client(settings: Settings) -> AsyncOpenAI:
    """One client a process (the brain is built once): its connection pool stays warm."""
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    return LeanAsyncOpenAI(
        api_key=key or _PLACEHOLDER_KEY,
        base_url=settings.openai_base_url,
        timeout=settings.llm_timeout_seconds,
        max_retries=settings.llm_max_retries,
    )


@dataclass(frozen=True)
class LLM:
    """A brain's LLM: the model its turns call, and what is known of whether it answers."""

    model: Model
    watch: ModelWatch


def build_llm(settings: Settings) -> LLM:
    """OpenAI's Responses API for `openai` (or hybrid without a base URL); chat completions
    for OpenAI-compatible servers, which rarely implement Responses. The model and its probe
    share one client (one connection pool)."""
    client = openai_client(settings)
    base: Model
    if settings.openai_base_url:
        base = OpenAIChatCompletionsModel(model=settings.openai_model, openai_client=client)
    else:
        base = OpenAIResponsesModel(model=settings.openai_model, openai_client=client)
    watch = ModelWatch(
        client, probe_timeout=min(PROBE_TIMEOUT_SECONDS, settings.llm_timeout_seconds)
    )
    return LLM(BoundedToolOutputs(base, settings.llm_max_tool_output_chars, watch), watch)


def bound_output(output: str, max_chars: int) -> str:
    """A tool output cut to `max_chars`: list results keep whole items and say how many."""
    if len(output) <= max_chars:
        return output
    try:
        data = json.loads(output)
    except json.JSONDecodeError:
        return output[:max_chars] + " …(cut)"
    items = data.get("result") if isinstance(data, dict) else data
    if not isinstance(items, list):
        return output[:max_chars] + " …(cut)"
    kept: list[Any] = []
    size = 200  # room for the note
    for item in items:
        size += len(json.dumps(item)) + 2
        if size > max_chars:
            break
        kept.append(item)
    note = (
        f"Showing {len(kept)} of {len(items)} tasks. To find one, call list_tasks with "
        "query=<words of its title> or a status filter."
    )
    return json.dumps({"result": kept, "note": note}, ensure_ascii=False)


def _bounded(items: ModelInput, max_chars: int) -> ModelInput:
    if isinstance(items, str):
        return items
    bounded: list[Any] = []
    for item in items:
        output = item.get("output") if isinstance(item, dict) else None
        if (
            isinstance(item, dict)
            and item.get("type") == "function_call_output"
            and isinstance(output, str)
        ):
            if len(output) > max_chars:
                bounded.append({**item, "output": bound_output(output, max_chars)})
                continue
        bounded.append(item)
    return bounded


class BoundedToolOutputs(DelegatingModel):
    """Delegates to an LLM model, bounding every tool output in what it is sent, and telling
    its watch how each call went (a turn's call is a free probe). One wrapper for both: each
    layer is one more hop for every streamed event."""

    def __init__(self, model: Model, max_chars: int, watch: ModelWatch | None = None) -> None:
        self.model = model
        self.max_chars = max_chars
        self.watch = watch

    def choose(self, input: ModelInput) -> Model:
        return self.model

    def adapt(self, input: ModelInput) -> ModelInput:
        return _bounded(input, self.max_chars)

    def answered(self, model: Model) -> None:
        if self.watch is not None:
            self.watch.observe(None)

    def failed(self, model: Model, input: ModelInput, error: Exception) -> Model | None:
        failure = model_failure(error)
        if self.watch is not None and failure is not None:
            self.watch.observe(failure)
        return None


# What went wrong with a model call, as far as the user, the log and /readyz care.
class ModelProblem(StrEnum):
    # No answer at all: connection refused or reset, DNS, TLS, or no reply in time.
    UNREACHABLE = "unreachable"
    # 401 or 403: the server turned the key down (it will until someone changes the key).
    KEY_REFUSED = "key_refused"
    # It answered with an error: 429, 5xx, another 4xx, or a body the client could not read.
    FAILING = "failing"


_HEADLINES = {
    ModelProblem.UNREACHABLE: "model unreachable",
    ModelProblem.KEY_REFUSED: "model refused the key",
    ModelProblem.FAILING: "model failed",
}
# The longest server message a log line carries.
_MAX_LOGGED_MESSAGE = 300


@dataclass(frozen=True)
class ModelFailure:
    """A model call that failed, read from the `openai` client's error."""

    problem: ModelProblem
    url: str  # the URL requested, without its query
    error: str  # the error's class and message, and for a connection its cause, on one line

    def describe(self) -> str:
        """One log line's worth: what, where, why (no traceback: its frames are all the
        client's own and the URL was in none of them)."""
        return f"{_HEADLINES[self.problem]}: {self.url}: {self.error}"


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        yield link
        link = link.__cause__ or link.__context__


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _redacted(text: str, request: httpx2.Request) -> str:
    """`text` without the key the request carried: a server may echo it in its error."""
    for header in ("authorization", "api-key"):
        key = request.headers.get(header, "").removeprefix("Bearer ").strip()
        if len(key) >= 8:  # a shorter one would also hide ordinary words
            text = text.replace(key, "[key]")
    return text


def _server_message(error: APIError) -> str:
    body = error.body
    message = body.get("message") if isinstance(body, dict) else None
    return str(message) if message else error.message


def model_failure(error: BaseException) -> ModelFailure | None:
    """The model call failure behind `error` (the Agents SDK raises the client's error as it
    is; its cause is searched all the same), or None: `error` is no model call's."""
    api_error = next((link for link in _chain(error) if isinstance(link, APIError)), None)
    if api_error is None:
        return None
    request = api_error.request
    url = str(request.url.copy_with(query=None))
    text = f"{type(api_error).__name__}: {api_error.message}"
    if isinstance(api_error, APIConnectionError):
        problem = ModelProblem.UNREACHABLE
        # "Connection error." says nothing; the innermost error that says something tells
        # which (refused, DNS, TLS, a read timeout).
        reasons = [link for link in _chain(api_error) if link is not api_error and str(link)]
        if reasons:
            text += f" ({type(reasons[-1]).__name__}: {reasons[-1]})"
    else:
        status = getattr(api_error, "status_code", None)
        if status in (401, 403):
            problem = ModelProblem.KEY_REFUSED
        else:
            problem = ModelProblem.FAILING
        if status is not None:
            text = f"{type(api_error).__name__}: HTTP {status}: {_server_message(api_error)}"
    text = _one_line(_redacted(text, request))[:_MAX_LOGGED_MESSAGE]
    return ModelFailure(problem, url, text)


def failure_reply(failure: ModelFailure, changes: int) -> str:
    """What the user is told when the model could not answer, after `changes` changes made in
    the turn. It says "the language model", never its URL: the URL is the operator's business
    (it is in the log), and may name a host inside their network. A 429 or 5xx is a passing
    trouble: the usual retry reply."""
    if failure.problem is ModelProblem.FAILING:
        return SYSTEM_ERROR
    if failure.problem is ModelProblem.UNREACHABLE:
        why, then = "I can't reach the language model right now", "try again in a little while"
    else:
        why, then = (
            "The language model refused this service's key",
            "let whoever runs this service know",
        )
    if not changes:
        return f"{why}, so I couldn't do that. Nothing was changed. Please {then}."
    made = f"{changes} change{'s' if changes != 1 else ''}"
    return (
        f"{why}, so I couldn't finish that. I had made {made} before it stopped answering: "
        f"please check your list, then {then}."
    )


# A turn's or a probe's finding ages out after this long; /readyz then probes again.
PROBE_EVERY_SECONDS = 30.0
# The probe's own timeout (no retries): it must not hold /readyz for long.
PROBE_TIMEOUT_SECONDS = 2.0
# What /readyz and the hybrid brain are told before anything is known.
UNCHECKED = "unchecked"
OK = "ok"


class ModelWatch:
    """Whether the model answers, as last seen: by a turn's model call (any outcome that says
    something about the model as a whole) or by a probe, `GET {base_url}/models` (no tokens,
    no retries, a short timeout). A finding is trusted for `max_age` seconds; `status` probes
    again after that, one probe at a time, so /readyz costs at most one cheap request per
    `max_age` whatever the rate it is asked at, and none while turns keep the finding fresh."""

    def __init__(
        self,
        client: AsyncOpenAI,
        *,
        max_age: float = PROBE_EVERY_SECONDS,
        probe_timeout: float = PROBE_TIMEOUT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client.with_options(timeout=probe_timeout, max_retries=0)
        self._max_age = max_age
        self._clock = clock
        self._state = UNCHECKED
        self._seen_at: float | None = None
        self._probe: asyncio.Task[None] | None = None

    @property
    def state(self) -> str:
        """The last finding, however old: "ok", a `ModelProblem` value, or "unchecked"."""
        return self._state

    def _fresh(self) -> bool:
        return self._seen_at is not None and self._clock() - self._seen_at < self._max_age

    def _found(self, state: str) -> None:
        self._state = state
        self._seen_at = self._clock()

    def observe(self, failure: ModelFailure | None) -> None:
        """A turn's model call answered (None) or failed. A 429 or a 5xx, or a 400 about one
        conversation, says little about the model as a whole: only a probe records those."""
        if failure is None:
            self._found(OK)
        elif failure.problem is not ModelProblem.FAILING:
            self._found(failure.problem.value)

    def down(self) -> bool:
        """The model was just seen not to answer (unreachable, or the key refused)."""
        return self._state in (ModelProblem.UNREACHABLE, ModelProblem.KEY_REFUSED) and (
            self._fresh()
        )

    async def status(self, wait: float) -> str:
        """The state, probed first when the last finding is older than `max_age`; waits at
        most `wait` seconds for the probe (it goes on, and the next call reads it)."""
        if not self._fresh():
            if self._probe is None or self._probe.done():
                self._probe = asyncio.create_task(self._probe_once(), name="model-probe")
            await asyncio.wait({self._probe}, timeout=wait)
        return self._state

    async def _probe_once(self) -> None:
        before = self._state
        failure: ModelFailure | None = None
        state: str
        try:
            await self._client.get("/models", cast_to=httpx2.Response)
            state = OK
        except APIError as exc:
            failure = model_failure(exc)
            assert failure is not None
            status = getattr(exc, "status_code", 0)
            # A 4xx other than the key's or a rate limit still answers, which is what is asked:
            # a server without a model list (404, 405) may well serve chat completions.
            answers = 400 <= status < 500 and status != 429
            state = (
                OK if failure.problem is ModelProblem.FAILING and answers else failure.problem.value
            )
        except Exception as exc:  # a probe must never fail /readyz
            failure = ModelFailure(ModelProblem.FAILING, str(self._client.base_url), repr(exc))
            state = failure.problem.value
        self._found(state)
        # A line when the finding changes, not on every probe; a turn logs its own failure.
        if state != before and failure is not None and state != OK:
            logger.warning("probe: %s", failure.describe())
        elif state != before and before != UNCHECKED:
            logger.info("probe: the model answers again at %s", self._client.base_url)
