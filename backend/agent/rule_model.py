"""The rule engine as an Agents SDK `Model`: no network, no tokens, same Runner and tools.

One instance serves one chat turn: it is built with the conversation's context, re-reads the
tool outcomes of the turn on every call and asks the pure engine for the next step.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Sequence
from typing import Any

from agents import FunctionToolResult, ModelResponse, ModelSettings, Tool
from agents.agent_output import AgentOutputSchemaBase
from agents.handoffs import Handoff
from agents.items import TResponseInputItem, TResponseOutputItem, TResponseStreamEvent
from agents.models.interface import Model, ModelTracing
from openai.types.responses.response_prompt_param import ResponsePromptParam

from backend.agent import sdk_output
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.engine import FinalReply, Plan, advance, interpret
from backend.agent.rules.types import Batch, ToolCall, ToolOutcome
from backend.agent.turn import parse_arguments, parse_tool_output

MODEL_NAME = "todo-rules"


def _field(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(str(_field(part, "text") or "") for part in content or [])


def read_turn(items: str | list[TResponseInputItem]) -> tuple[str, list[ToolOutcome]]:
    """The user's message of this turn and the tool outcomes that followed it, in order."""
    if isinstance(items, str):
        return items, []
    last_user = max(
        (i for i, item in enumerate(items) if _field(item, "role") == "user"), default=-1
    )
    message = _text(_field(items[last_user], "content")) if last_user >= 0 else ""
    calls: dict[str, ToolCall] = {}
    outcomes: list[ToolOutcome] = []
    for item in items[last_user + 1 :]:
        kind = _field(item, "type")
        if kind == "function_call":
            calls[str(_field(item, "call_id"))] = ToolCall(
                str(_field(item, "name")), parse_arguments(str(_field(item, "arguments") or ""))
            )
        elif kind == "function_call_output":
            call = calls.get(str(_field(item, "call_id")), ToolCall("unknown", {}))
            outcomes.append(_outcome(call, _field(item, "output")))
    return message, outcomes


def _outcome(call: ToolCall, output: Any) -> ToolOutcome:
    return ToolOutcome.read(call, parse_tool_output(output))


class RuleModel(Model):
    def __init__(self, context: ConversationContext) -> None:
        self.context = context
        self.final: FinalReply | None = None
        self._plan: tuple[str, Plan] | None = None
        self._ids = itertools.count(1)
        # For `reply_after_tools`: the calls of the last step (in order) and the outcomes of
        # the steps before it.
        self._issued: list[tuple[str, ToolCall]] = []
        self._outcomes: list[ToolOutcome] = []

    def plan_for(self, message: str) -> Plan:
        if self._plan is None or self._plan[0] != message:
            self._plan = (message, interpret(message, self.context))
        return self._plan[1]

    def model_calls_for(self, message: str) -> int:
        """An upper bound: each step of the plan takes at most a look-up, an action and a
        follow-up, plus the final answer."""
        return 3 * len(self.plan_for(message).steps) + 1

    def decide(self, items: str | list[TResponseInputItem]) -> list[TResponseOutputItem]:
        message, outcomes = read_turn(items)
        action = advance(self.plan_for(message), outcomes)
        n = next(self._ids)
        self._outcomes = outcomes
        if isinstance(action, ToolCall | Batch):
            calls = action.calls if isinstance(action, Batch) else (action,)
            self._issued = [(f"call_rules_{n}_{i}", call) for i, call in enumerate(calls)]
            return [
                sdk_output.function_call(call.name, call.arguments, call_id)
                for call_id, call in self._issued
            ]
        self._issued = []
        self.final = action
        return [sdk_output.assistant_message(action.text, f"msg_rules_{n}")]

    def reply_after_tools(self, results: Sequence[FunctionToolResult]) -> str | None:
        """The final reply, when the tools just run were the plan's last step: the Runner can
        end the turn here instead of calling the model again only to hear this text."""
        outputs = {}
        for result in results:
            item = result.run_item.raw_item if result.run_item is not None else None
            outputs[str(_field(item, "call_id"))] = _field(item, "output")
        if (
            self._plan is None
            or not self._issued
            or any(call_id not in outputs for call_id, _ in self._issued)
        ):
            return None
        outcomes = self._outcomes + [_outcome(call, outputs[i]) for i, call in self._issued]
        action = advance(self._plan[1], outcomes)
        if not isinstance(action, FinalReply):
            return None  # more tools to call: the model's next step issues them
        self._issued = []
        self.final = action
        return action.text

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
        output = self.decide(input)
        return ModelResponse(
            output=output, usage=sdk_output.no_usage(), response_id=f"resp_{next(self._ids)}"
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
        output = self.decide(input)
        for event in sdk_output.stream_events(output, f"resp_{next(self._ids)}", MODEL_NAME):
            yield event
