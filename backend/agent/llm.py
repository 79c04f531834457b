"""LLM models for the agent: OpenAI, or any OpenAI-compatible chat-completions server.

The model sees tools only through the MCP server (schemas without `user_id`), and every tool
output it reads is bounded in size, so a user with thousands of tasks cannot overflow the
context window.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from agents import ModelResponse, ModelSettings, Tool
from agents.agent_output import AgentOutputSchemaBase
from agents.handoffs import Handoff
from agents.items import TResponseInputItem, TResponseStreamEvent
from agents.models.interface import Model, ModelTracing
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI
from openai.types.responses.response_prompt_param import ResponsePromptParam

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


def _bounded(items: str | list[TResponseInputItem], max_chars: int) -> Any:
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


class BoundedToolOutputs(Model):
    """Delegates to an LLM model, bounding every tool output in what it is sent."""

    def __init__(self, model: Model, max_chars: int) -> None:
        self.model = model
        self.max_chars = max_chars

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> ModelResponse:
        return await self.model.get_response(
            system_instructions,
            _bounded(input, self.max_chars),
            model_settings,
            tools,
            output_schema,
            handoffs,
            tracing,
            previous_response_id=previous_response_id,
            conversation_id=conversation_id,
            prompt=prompt,
        )

    async def stream_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> AsyncIterator[TResponseStreamEvent]:
        async for event in self.model.stream_response(
            system_instructions,
            _bounded(input, self.max_chars),
            model_settings,
            tools,
            output_schema,
            handoffs,
            tracing,
            previous_response_id=previous_response_id,
            conversation_id=conversation_id,
            prompt=prompt,
        ):
            yield event
