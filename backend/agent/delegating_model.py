"""A `Model` that hands each call to another model, for wrappers that choose or adapt."""

from __future__ import annotations

from collections.abc import AsyncIterator

from agents import ModelResponse, ModelSettings, Tool
from agents.agent_output import AgentOutputSchemaBase
from agents.handoffs import Handoff
from agents.items import TResponseInputItem, TResponseStreamEvent
from agents.models.interface import Model, ModelTracing
from openai.types.responses.response_prompt_param import ResponsePromptParam

ModelInput = str | list[TResponseInputItem]


class DelegatingModel(Model):
    """Subclasses say which model answers (`choose`) and what it is sent (`adapt`); they may
    hear how its call went (`answered`, `failed`) and name another model to answer instead of
    one that failed before it began to answer (`failed`)."""

    def choose(self, input: ModelInput) -> Model:
        raise NotImplementedError

    def adapt(self, input: ModelInput) -> ModelInput:
        return input

    def answered(self, model: Model) -> None:
        """`model` answered: a response, or a stream's first event."""

    def failed(self, model: Model, input: ModelInput, error: Exception) -> Model | None:
        """`model` raised `error` before it began to answer: the model to answer in its
        place (sent the same input), or None to raise `error`."""
        return None

    async def get_response(
        self,
        system_instructions: str | None,
        input: ModelInput,
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
        model = self.choose(input)
        adapted = self.adapt(input)

        async def answer(chosen: Model) -> ModelResponse:
            return await chosen.get_response(
                system_instructions,
                adapted,
                model_settings,
                tools,
                output_schema,
                handoffs,
                tracing,
                previous_response_id=previous_response_id,
                conversation_id=conversation_id,
                prompt=prompt,
            )

        try:
            response = await answer(model)
        except Exception as error:
            instead = self.failed(model, input, error)
            if instead is None:
                raise
            return await answer(instead)
        self.answered(model)
        return response

    async def stream_response(
        self,
        system_instructions: str | None,
        input: ModelInput,
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
        model = self.choose(input)
        adapted = self.adapt(input)

        def stream(of: Model) -> AsyncIterator[TResponseStreamEvent]:
            return of.stream_response(
                system_instructions,
                adapted,
                model_settings,
                tools,
                output_schema,
                handoffs,
                tracing,
                previous_response_id=previous_response_id,
                conversation_id=conversation_id,
                prompt=prompt,
            )

        events = stream(model)
        try:
            try:
                first = await anext(events)
            except StopAsyncIteration:
                self.answered(model)
                return
            except Exception as error:
                # Only before its first event: after it, the caller has part of an answer.
                instead = self.failed(model, input, error)
                if instead is None:
                    raise
                await _close(events)
                events = stream(instead)
                async for event in events:
                    yield event
                return
            self.answered(model)
            yield first
            async for event in events:
                yield event
        finally:
            await _close(events)


async def _close(events: AsyncIterator[TResponseStreamEvent]) -> None:
    """Ends a stream left early (an async generator is otherwise closed only when collected)."""
    close = getattr(events, "aclose", None)
    if close is not None:
        await close()
