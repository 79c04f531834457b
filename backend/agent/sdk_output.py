"""Building Responses-API output items and stream events for models that are not OpenAI's."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from typing import Any

from agents import Usage
from agents.items import TResponseOutputItem, TResponseStreamEvent
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseFunctionToolCall,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseTextDeltaEvent,
    ResponseTextDoneEvent,
)

_WORDS = re.compile(r"\S+\s*|\s+")


def function_call(name: str, arguments: dict[str, Any], call_id: str) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        type="function_call",
        id=f"fc_{call_id}",
        call_id=call_id,
        name=name,
        arguments=json.dumps(arguments, ensure_ascii=False),
        status="completed",
    )


def assistant_message(text: str, item_id: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        type="message",
        id=item_id,
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def text_chunks(text: str) -> list[str]:
    """Text in the word-sized pieces a streamed reply is sent in."""
    return _WORDS.findall(text)


def no_usage() -> Usage:
    """A rule model spends no tokens; one request is still one request."""
    return Usage(requests=1, input_tokens=0, output_tokens=0, total_tokens=0)


def stream_events(
    output: list[TResponseOutputItem], response_id: str, model: str
) -> Iterator[TResponseStreamEvent]:
    """The events an OpenAI streaming response would carry for `output`, text in word chunks."""
    response = Response(
        id=response_id,
        created_at=0,
        model=model,
        object="response",
        output=output,
        tool_choice="auto",
        tools=[],
        parallel_tool_calls=False,
        status="completed",
    )
    sequence = itertools.count()
    yield ResponseCreatedEvent(
        type="response.created",
        response=response.model_copy(update={"output": [], "status": "in_progress"}),
        sequence_number=next(sequence),
    )
    for index, item in enumerate(output):
        yield ResponseOutputItemAddedEvent(
            type="response.output_item.added",
            item=item,
            output_index=index,
            sequence_number=next(sequence),
        )
        if isinstance(item, ResponseOutputMessage):
            for part_index, part in enumerate(item.content):
                if not isinstance(part, ResponseOutputText):
                    continue
                yield ResponseContentPartAddedEvent(
                    type="response.content_part.added",
                    item_id=item.id,
                    output_index=index,
                    content_index=part_index,
                    part=ResponseOutputText(type="output_text", text="", annotations=[]),
                    sequence_number=next(sequence),
                )
                for chunk in text_chunks(part.text):
                    yield ResponseTextDeltaEvent(
                        type="response.output_text.delta",
                        item_id=item.id,
                        output_index=index,
                        content_index=part_index,
                        delta=chunk,
                        logprobs=[],
                        sequence_number=next(sequence),
                    )
                yield ResponseTextDoneEvent(
                    type="response.output_text.done",
                    item_id=item.id,
                    output_index=index,
                    content_index=part_index,
                    text=part.text,
                    logprobs=[],
                    sequence_number=next(sequence),
                )
                yield ResponseContentPartDoneEvent(
                    type="response.content_part.done",
                    item_id=item.id,
                    output_index=index,
                    content_index=part_index,
                    part=part,
                    sequence_number=next(sequence),
                )
        yield ResponseOutputItemDoneEvent(
            type="response.output_item.done",
            item=item,
            output_index=index,
            sequence_number=next(sequence),
        )
    yield ResponseCompletedEvent(
        type="response.completed", response=response, sequence_number=next(sequence)
    )
