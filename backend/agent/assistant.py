"""One chat turn through the Agents SDK: history and message in, reply and tool calls out."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from agents import Agent, RunConfig, RunContextWrapper, RunHooks, Runner, Tool, TResponseInputItem
from agents.models.interface import Model
from agents.tool_context import ToolContext
from openai.types.responses import ResponseTextDeltaEvent

from backend.agent.mcp_bridge import InProcessTaskTools
from backend.agent.rule_model import RuleModel
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.replies import SYSTEM_ERROR
from backend.agent.rules.types import Turn
from backend.agent.turn import TurnContext, parse_arguments, parse_tool_output

logger = logging.getLogger(__name__)

INSTRUCTIONS = (
    "You are a friendly task assistant. Manage the user's todo list only through the task "
    "tools, confirm what you did in one or two sentences, and never reveal internal errors."
)
# A turn needs at most a handful of tool calls (list, act, list); this bounds a runaway loop.
MAX_MODEL_CALLS = 16


class Brain(Protocol):
    """Chooses the model for a turn; the rest of the turn is the same for every brain."""

    name: str

    def model_for(self, context: ConversationContext) -> Model: ...

    def reply_meta(self, model: Model) -> dict[str, Any]: ...


class RuleBrain:
    name = "rules"

    def model_for(self, context: ConversationContext) -> Model:
        return RuleModel(context)

    def reply_meta(self, model: Model) -> dict[str, Any]:
        if isinstance(model, RuleModel) and model.final is not None:
            return dict(model.final.meta)
        return {}


@dataclass(frozen=True)
class AgentReply:
    text: str
    tool_calls: list[dict[str, Any]]
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolCallDone:
    """A tool call has finished (streamed as it happens)."""

    call: dict[str, Any]


@dataclass(frozen=True)
class TextDelta:
    text: str


AgentEvent = ToolCallDone | TextDelta | AgentReply


class _ToolCallRecorder(RunHooks[TurnContext]):
    """Records each tool call as it finishes, so calls made before a failure are kept too."""

    async def on_tool_end(
        self,
        context: RunContextWrapper[TurnContext],
        agent: Agent[TurnContext],
        tool: Tool,
        result: object,
    ) -> None:
        if isinstance(context, ToolContext):
            context.context.tool_calls.append(
                {
                    "name": context.tool_name,
                    "arguments": parse_arguments(context.tool_arguments),
                    "result": parse_tool_output(result),
                }
            )


def _input_items(history: Sequence[Turn], message: str) -> list[TResponseInputItem]:
    items: list[TResponseInputItem] = []
    for turn in history:
        if turn.role == "user":
            items.append({"role": "user", "content": turn.content})
        else:
            items.append({"role": "assistant", "content": turn.content})
    items.append({"role": "user", "content": message})
    return items


class Assistant:
    def __init__(self, tools: InProcessTaskTools, brain: Brain) -> None:
        self.brain = brain
        self._recorder = _ToolCallRecorder()
        self._run_config = RunConfig(tracing_disabled=True, workflow_name="todo-chat")
        # Built once; each turn clones it with that turn's model.
        self._agent: Agent[TurnContext] = Agent(
            name="Todo assistant", instructions=INSTRUCTIONS, mcp_servers=[tools]
        )

    def _prepare(
        self, user_id: int, history: Sequence[Turn]
    ) -> tuple[Model, TurnContext, Agent[TurnContext]]:
        model = self.brain.model_for(ConversationContext.from_turns(history))
        return model, TurnContext(user_id=user_id), self._agent.clone(model=model)

    async def respond(self, *, user_id: int, history: Sequence[Turn], message: str) -> AgentReply:
        model, turn, agent = self._prepare(user_id, history)
        try:
            result = await Runner.run(
                agent,
                _input_items(history, message),
                context=turn,
                max_turns=MAX_MODEL_CALLS,
                hooks=self._recorder,
                run_config=self._run_config,
            )
        except Exception:
            # The user gets the friendly retry message; the details go to the log only.
            logger.exception("agent run failed for user %s", user_id)
            return AgentReply(SYSTEM_ERROR, turn.tool_calls, {"error": True})
        text = str(result.final_output or "") or SYSTEM_ERROR
        return AgentReply(text, turn.tool_calls, self.brain.reply_meta(model))

    async def stream(
        self, *, user_id: int, history: Sequence[Turn], message: str
    ) -> AsyncIterator[AgentEvent]:
        """The same turn, event by event: tool calls as they finish, text as it is produced,
        then the whole reply (which is authoritative: after a failure it replaces the text)."""
        model, turn, agent = self._prepare(user_id, history)
        sent = 0
        try:
            result = Runner.run_streamed(
                agent,
                _input_items(history, message),
                context=turn,
                max_turns=MAX_MODEL_CALLS,
                hooks=self._recorder,
                run_config=self._run_config,
            )
            async for event in result.stream_events():
                for call in turn.tool_calls[sent:]:
                    yield ToolCallDone(call)
                sent = len(turn.tool_calls)
                if event.type == "raw_response_event" and isinstance(
                    event.data, ResponseTextDeltaEvent
                ):
                    yield TextDelta(event.data.delta)
        except Exception:
            logger.exception("agent run failed for user %s", user_id)
            for call in turn.tool_calls[sent:]:
                yield ToolCallDone(call)
            yield AgentReply(SYSTEM_ERROR, turn.tool_calls, {"error": True})
            return
        for call in turn.tool_calls[sent:]:
            yield ToolCallDone(call)
        text = str(result.final_output or "") or SYSTEM_ERROR
        yield AgentReply(text, turn.tool_calls, self.brain.reply_meta(model))
