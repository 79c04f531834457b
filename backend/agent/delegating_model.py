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
    """Subclasses say which model answers (`choose`) and what it is sent (`adapt`)."""

    def choose(self, input: ModelInput) -> Model:
        raise NotImplementedError

    def adapt(self, input: ModelInput) -> ModelInput:
        return input

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
        return await self.choose(input).get_response(
            system_instructions,
            self.adapt(input),
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
        async for event in self.choose(input).stream_response(
            system_instructions,
            self.adapt(input),
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
