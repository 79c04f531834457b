"""LLM models for the agent: OpenAI, or any OpenAI-compatible chat-completions server.

The model sees tools only through the MCP server (schemas without `user_id`), and every tool
output it reads is bounded in size, so a user with thousands of tasks cannot overflow the
context window.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from agents.models.interface import Model
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI
from openai.resources.chat import AsyncChat, AsyncCompletions

from backend.agent.delegating_model import DelegatingModel, ModelInput
from backend.core.config import Settings

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


def llm_model(settings: Settings) -> Model:
    """OpenAI's Responses API for `openai` (or hybrid without a base URL); chat completions
    for OpenAI-compatible servers, which rarely implement Responses."""
    client = openai_client(settings)
    base: Model
    if settings.openai_base_url:
        base = OpenAIChatCompletionsModel(model=settings.openai_model, openai_client=client)
    else:
        base = OpenAIResponsesModel(model=settings.openai_model, openai_client=client)
    return BoundedToolOutputs(base, settings.llm_max_tool_output_chars)


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
    """Delegates to an LLM model, bounding every tool output in what it is sent."""

    def __init__(self, model: Model, max_chars: int) -> None:
        self.model = model
        self.max_chars = max_chars

    def choose(self, input: ModelInput) -> Model:
        return self.model

    def adapt(self, input: ModelInput) -> ModelInput:
        return _bounded(input, self.max_chars)
