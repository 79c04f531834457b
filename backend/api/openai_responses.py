"""OpenAI's answer shapes for the OpenAI-compatible endpoint: the model list, a chat
completion, and the chunks of a streamed one (specs/openai-compatible.md)."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any, Literal

from pydantic import BaseModel, Field

from backend.api.openai_requests import MODEL_ID

# When the assistant became a model on this API (2026-11-28, 00:00 UTC): its `created`.
MODEL_CREATED = 1795824000
OWNED_BY = "todo-chatbot"


class ModelCard(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int
    owned_by: str


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelCard]


ASSISTANT_MODEL = ModelCard(id=MODEL_ID, created=MODEL_CREATED, owned_by=OWNED_BY)


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0

    @classmethod
    def recorded(cls, usage: dict[str, Any] | None) -> Usage:
        """The usage a reply's meta records (the Agents SDK's names); zeros when it records
        none: the rules brain calls no model."""
        found = usage or {}

        def count(name: str) -> int:
            value = found.get(name)
            return value if isinstance(value, int) else 0

        return cls(
            prompt_tokens=count("input_tokens"),
            completion_tokens=count("output_tokens"),
            total_tokens=count("total_tokens"),
        )


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str
    refusal: None = None


class CompletionChoice(BaseModel):
    index: int = 0
    message: AssistantMessage
    logprobs: None = None
    finish_reason: Literal["stop"] = "stop"


class ChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str = MODEL_ID
    choices: list[CompletionChoice] = Field(min_length=1, max_length=1)
    usage: Usage


def completion_id() -> str:
    return f"chatcmpl-{secrets.token_hex(12)}"


def now() -> int:
    return int(time.time())


def completion(reply: str, usage: Usage) -> dict[str, Any]:
    """A whole chat completion's body (`ChatCompletion`, written out: a turn's hot path)."""
    message = {"role": "assistant", "content": reply, "refusal": None}
    return {
        "id": completion_id(),
        "object": "chat.completion",
        "created": now(),
        "model": MODEL_ID,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}],
        "usage": usage.model_dump(),
    }


class Chunks:
    """The `data:` payloads of one streamed completion, each a `chat.completion.chunk`."""

    def __init__(self, *, include_usage: bool) -> None:
        self.id = completion_id()
        self.created = now()
        self.include_usage = include_usage

    def _chunk(self, choices: list[dict[str, Any]], **extra: Any) -> str:
        chunk: dict[str, Any] = {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": MODEL_ID,
            "choices": choices,
        }
        if self.include_usage:
            chunk["usage"] = None  # as OpenAI sends it: only the last chunk carries usage
        chunk.update(extra)
        return json.dumps(chunk, ensure_ascii=False)

    def _choice(self, delta: dict[str, str], finish: str | None = None) -> str:
        return self._chunk(
            [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
        )

    def role(self) -> str:
        return self._choice({"role": "assistant", "content": ""})

    def text(self, text: str) -> str:
        return self._choice({"content": text})

    def stop(self) -> str:
        return self._choice({}, "stop")

    def usage(self, usage: Usage) -> str:
        return self._chunk([], usage=usage.model_dump())


DONE = "[DONE]"
