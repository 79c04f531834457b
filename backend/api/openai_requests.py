"""What an OpenAI chat completion request asks of the assistant (specs/openai-compatible.md):
the history before the turn and the user's message that is the turn. Every refusal is an
OpenAIError naming the parameter, as OpenAI's own API answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from backend.api.openai_errors import OpenAIError
from backend.chat.threads import Said
from backend.core.text_rule import text_problem
from backend.models import MessageRole

MODEL_ID = "todo-assistant"
# The longest history taken; the body's size is bounded too (MAX_REQUEST_BYTES).
MAX_MESSAGES = 1000
# Roles whose messages are the conversation; system and developer messages are read past:
# the assistant follows its own instructions.
_CONVERSATION_ROLES = {"user": MessageRole.USER, "assistant": MessageRole.ASSISTANT}
# Client tools are never called: "none" and "auto" leave the assistant its own.
_NO_CLIENT_TOOL = (None, "none", "auto")

_TEXT_PART = {
    "type": "object",
    "properties": {"type": {"const": "text"}, "text": {"type": "string"}},
    "required": ["type", "text"],
}
Content = Annotated[
    Any,
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string"},
                {"type": "array", "items": _TEXT_PART},
                {"type": "null"},
            ],
            "description": "Text, or text parts (joined); other parts are refused",
        }
    ),
]


class ChatMessage(BaseModel):
    # Other fields (name, tool_calls, refusal...) are accepted and not read.
    model_config = ConfigDict(extra="allow")

    role: Literal["system", "developer", "user", "assistant"]
    content: Content = None


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="allow")

    include_usage: bool = False


class CompletionRequest(BaseModel):
    """OpenAI's chat completion request. Parameters not listed (temperature, max_tokens,
    top_p...) are accepted and ignored; so are `tools` and `functions`: the assistant acts
    only through its own task tools."""

    model_config = ConfigDict(extra="allow")

    # Any other model is a 404 in OpenAI's words (model_not_found), not a validation error.
    model: str = Field(description="The assistant", json_schema_extra={"enum": [MODEL_ID]})
    messages: list[ChatMessage] = Field(
        min_length=1,
        max_length=MAX_MESSAGES,
        description="The whole conversation; the last message is the user's, answered now",
    )
    stream: bool | None = False
    stream_options: StreamOptions | None = None
    n: int | None = Field(default=None, description="1 if given")
    tools: list[Any] | None = None
    tool_choice: str | dict[str, Any] | None = Field(default=None, description="none or auto")
    functions: list[Any] | None = None
    function_call: str | dict[str, Any] | None = Field(default=None, description="none or auto")
    user: str | None = Field(default=None, description="Accepted, never read: the key says who")


@dataclass(frozen=True)
class AskedTurn:
    """The conversation before the turn, as the client shows it, and the turn's message."""

    before: list[Said]
    message: str


def model_not_found(model: str) -> OpenAIError:
    """OpenAI's 404 for a model it does not serve."""
    message = f"The model `{model[:100]}` does not exist or you do not have access to it."
    return OpenAIError(404, message, param="model", code="model_not_found")


def _invalid(message: str, param: str, code: str = "invalid_value") -> OpenAIError:
    return OpenAIError(400, message, param=param, code=code)


def _text(index: int, content: Any) -> str:
    """A message's text: a string, or its text parts joined by new lines."""
    where = f"messages[{index}].content"
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list):
        raise _invalid(
            f"Invalid type for '{where}': expected a string or parts.", where, "invalid_type"
        )
    texts = []
    for number, part in enumerate(content):
        at = f"{where}[{number}]"
        kind = part.get("type") if isinstance(part, dict) else None
        if not isinstance(kind, str):
            raise _invalid(f"Invalid '{at}': expected an object with a type.", at, "invalid_type")
        if kind != "text":
            message = f"Invalid '{at}': this assistant reads text only, not '{kind[:40]}' parts."
            raise _invalid(message, at, "unsupported_content")
        text = part.get("text")
        if not isinstance(text, str):
            raise _invalid(f"Invalid '{at}.text': expected a string.", f"{at}.text", "invalid_type")
        texts.append(text)
    return "\n".join(texts)


def _refuse_client_tools(body: CompletionRequest) -> None:
    for name, choice in (("tool_choice", body.tool_choice), ("function_call", body.function_call)):
        if choice not in _NO_CLIENT_TOOL:
            message = (
                f"Invalid '{name}': this assistant calls no client tools (only its own task "
                "tools); use 'none' or 'auto', or leave it out."
            )
            raise _invalid(message, name)


def asked_turn(body: CompletionRequest, max_message_chars: int) -> AskedTurn:
    """The turn a request asks for, or the OpenAIError refusing it."""
    if body.model != MODEL_ID:
        raise model_not_found(body.model)
    if body.n is not None and body.n != 1:
        raise _invalid("Invalid 'n': this assistant gives one answer (n = 1).", "n")
    _refuse_client_tools(body)
    said: list[Said] = []
    last = len(body.messages) - 1
    for index, sent in enumerate(body.messages):
        text = _text(index, sent.content)
        where = f"messages[{index}].content"
        problem = text_problem(text)
        if problem is not None:
            raise _invalid(f"Invalid '{where}': it {problem}.", where)
        role = _CONVERSATION_ROLES.get(sent.role)
        if role is MessageRole.USER and not text.strip():
            raise _invalid(f"Invalid '{where}': a user message must not be empty.", where)
        if role is not None:
            said.append((role, text))
    if body.messages[last].role != "user":
        where = f"messages[{last}].role"
        raise _invalid(f"Invalid '{where}': the last message must be the user's.", where)
    message = said[-1][1]
    if len(message) > max_message_chars:
        where = f"messages[{last}].content"
        raise _invalid(
            f"Invalid '{where}': string too long. Expected at most {max_message_chars} "
            f"characters, got {len(message)}.",
            where,
            "string_above_max_length",
        )
    return AskedTurn(said[:-1], message.strip())
