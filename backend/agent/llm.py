"""LLM models for the agent: OpenAI, or any OpenAI-compatible chat-completions server.

The model sees tools only through the MCP server (schemas without `user_id`), and every tool
output it reads is bounded in size, so a user with thousands of tasks cannot overflow the
context window.
"""

from __future__ import annotations

import json
from typing import Any

from agents.models.interface import Model
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI

from backend.agent.delegating_model import DelegatingModel, ModelInput
from backend.core.config import Settings

# Servers like Ollama or vLLM accept any key; the client insists on one.
_PLACEHOLDER_KEY = "not-needed"


def openai_client(settings: Settings) -> AsyncOpenAI:
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    return AsyncOpenAI(
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
