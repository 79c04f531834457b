"""One chat turn through the Agents SDK: history and message in, reply and tool calls out."""

from __future__ import annotations

import asyncio
import copy
import functools
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from agents import (
    Agent,
    FunctionTool,
    FunctionToolResult,
    ModelResponse,
    RunConfig,
    RunContextWrapper,
    Runner,
    RunResult,
    RunResultStreaming,
    Tool,
    ToolExecutionConfig,
    ToolsToFinalOutputResult,
    TResponseInputItem,
)
from agents.items import TResponseStreamEvent
from agents.mcp import MCPUtil
from agents.models.interface import Model
from agents.tool_context import ToolContext
from openai.types.responses import ResponseTextDeltaEvent

from backend.agent.brains import Brain
from backend.agent.delegating_model import DelegatingModel, ModelInput
from backend.agent.instructions import build_instructions, today_for_the_model
from backend.agent.llm import ModelProblem, failure_reply, model_failure
from backend.agent.mcp_bridge import InProcessTaskTools, failure_json
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.replies import SYSTEM_ERROR
from backend.agent.rules.types import ReplyMeta, Turn
from backend.agent.sdk_output import text_chunks
from backend.agent.turn import (
    PlansItsCalls,
    RepliesAfterTools,
    TurnContext,
    parse_arguments,
    parse_tool_output,
)
from backend.agent.turn_limits import StopReason, TurnLimits, notice, refusal
from backend.domain.due import DEFAULT_ZONE

logger = logging.getLogger(__name__)

# A turn needs at most a handful of tool calls (list, act, list); this bounds a runaway loop.
MAX_MODEL_CALLS = 16


@dataclass(frozen=True)
class AgentReply:
    text: str
    tool_calls: list[dict[str, Any]]
    meta: ReplyMeta = field(default_factory=lambda: ReplyMeta())


@dataclass(frozen=True)
class ToolCallDone:
    """A tool call has finished (streamed as it happens)."""

    call: dict[str, Any]


@dataclass(frozen=True)
class TextDelta:
    text: str


AgentEvent = ToolCallDone | TextDelta | AgentReply


def _record(
    turn: TurnContext, name: str, arguments: dict[str, Any], call: asyncio.Future[Any]
) -> None:
    """Records a tool call as it finishes, so calls made before a failure are kept too, and
    so is a call that finishes after its turn stopped waiting for it."""
    if call.cancelled() or call.exception() is not None:
        return  # it raised (malformed arguments): nothing was done
    result = parse_tool_output(call.result())
    turn.tool_calls.append({"name": name, "arguments": arguments, "result": result})
    turn.limits.record(name, result)


def _guarded(tool: FunctionTool) -> FunctionTool:
    """The tool, called only when its turn's limits admit the call; an admitted call runs to
    its end even if the turn is cancelled (its effect is then still recorded)."""
    invoke = tool.on_invoke_tool

    async def guarded(context: ToolContext[Any], arguments: str) -> Any:
        turn = context.context
        if not isinstance(turn, TurnContext):
            raise TypeError("task tools need a TurnContext run context")
        stop = await turn.limits.admit(tool.name)
        if stop is not None:
            return failure_json(refusal(stop))
        parsed = parse_arguments(arguments)
        call = asyncio.ensure_future(invoke(context, arguments))
        turn.limits.started(call, tool.name, parsed)
        call.add_done_callback(functools.partial(_record, turn, tool.name, parsed))
        return await asyncio.shield(call)

    tool.on_invoke_tool = guarded
    return tool


def _function_tool(tool: Tool) -> FunctionTool:
    if not isinstance(tool, FunctionTool):  # MCP tools convert to function tools
        raise TypeError(f"every task tool must be a function tool to be guarded: {tool.name}")
    return tool


class _BoundedModel(DelegatingModel):
    """The turn's model, each call of which its limits can cut short (a deadline, a
    shutdown): a model call has no effects, so it is safe to cancel."""

    def __init__(self, model: Model, limits: TurnLimits) -> None:
        self._model = model
        self._limits = limits

    def choose(self, input: ModelInput) -> Model:
        return self._model

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return await self._limits.model_call(super().get_response(*args, **kwargs))

    async def stream_response(
        self, *args: Any, **kwargs: Any
    ) -> AsyncIterator[TResponseStreamEvent]:
        events = super().stream_response(*args, **kwargs)
        try:
            while True:
                try:
                    event = await self._limits.model_call(anext(events))
                except StopAsyncIteration:
                    return
                yield event
        finally:
            close = getattr(events, "aclose", None)
            if close is not None:
                await close()


def _reply_after_tools(
    context: RunContextWrapper[TurnContext], results: list[FunctionToolResult]
) -> ToolsToFinalOutputResult:
    """Ends the run after a step's tools when the turn's model already knows its final reply
    (the rule engine's is composed from the results): one model call fewer per turn. An LLM
    always gets its results back and speaks for itself."""
    if context.context.limits.stopped is not None:
        # A limit refused a call (or stopped the turn) in this step: the run ends here, and
        # the turn's reply says why.
        context.context.cut_short = True
        return ToolsToFinalOutputResult(is_final_output=True, final_output="")
    replier = context.context.replier
    text = replier.reply_after_tools(results) if replier is not None else None
    return ToolsToFinalOutputResult(is_final_output=text is not None, final_output=text)


def _instructions_for_the_turn(
    context: RunContextWrapper[TurnContext], agent: Agent[TurnContext]
) -> str:
    """The spec's instructions and the user's today: an LLM does not know what day it is."""
    return build_instructions() + today_for_the_model(context.context.zone, context.context.now)


def _input_items(history: Sequence[Turn], message: str) -> list[TResponseInputItem]:
    items: list[TResponseInputItem] = []
    for turn in history:
        if turn.role == "user":
            items.append({"role": "user", "content": turn.content})
        else:
            items.append({"role": "assistant", "content": turn.content})
    items.append({"role": "user", "content": message})
    return items


def _usage(result: RunResult | RunResultStreaming, brain: str, user_id: int) -> dict[str, int]:
    """Token usage of the turn; logged, and stored with the reply for cost visibility."""
    usage = result.context_wrapper.usage
    figures = {
        "requests": usage.requests,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
    }
    if usage.total_tokens:
        logger.info("turn usage user=%s brain=%s %s", user_id, brain, figures)
    return figures


def _stopped(turn: TurnContext) -> AgentReply:
    """The reply of a turn a limit stopped: what it did, and why it stopped there."""
    stop = turn.limits.stopped
    assert stop is not None
    text = notice(stop, turn.limits, turn.tool_calls)
    return AgentReply(text, turn.tool_calls, {"error": stop.reason.value})


def _failed(turn: TurnContext, error: Exception, brain: str, user_id: int) -> AgentReply:
    """The reply of a turn that failed. A model that could not answer is said so, with one
    log line naming its URL and the error (its traceback holds only the client's frames);
    anything else is a bug: its traceback is logged, the user gets the friendly retry reply."""
    failure = model_failure(error)
    if failure is None:
        logger.error("agent run failed for user %s", user_id, exc_info=error)
        return AgentReply(SYSTEM_ERROR, turn.tool_calls, {"error": True})
    # A 429 or 5xx passes; a model out of reach or a refused key needs someone to act.
    level = logging.WARNING if failure.problem is ModelProblem.FAILING else logging.ERROR
    logger.log(level, "%s [brain=%s user=%s]", failure.describe(), brain, user_id)
    text = failure_reply(failure, turn.limits.changes)
    return AgentReply(text, turn.tool_calls, {"error": f"model_{failure.problem.value}"})


async def _stopped_events(turn: TurnContext, streamed_text: bool) -> AsyncIterator[AgentEvent]:
    """A stopped turn's reply, as a stream ends: its text (unless the turn was interrupted,
    which its client hears as an error instead), then the reply."""
    reply = _stopped(turn)
    if not streamed_text and reply.meta.get("error") != StopReason.INTERRUPTED.value:
        for chunk in text_chunks(reply.text):
            yield TextDelta(chunk)
    yield reply


class Assistant:
    """Runs chat turns. Call `start()` once (it reads the MCP server's tools) before use."""

    def __init__(self, tools: InProcessTaskTools, brain: Brain, *, tracing: bool = False) -> None:
        self.brain = brain
        self._tools = tools
        self._tracing = tracing
        self._agent: Agent[TurnContext] | None = None
        self._run_config = RunConfig(
            tracing_disabled=not tracing,
            workflow_name="todo-chat",
            # One response's tool calls run in the order the model gave them: "add eggs, add
            # flour" numbers eggs first, and the turn records them in that order.
            tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1),
        )

    async def start(self) -> None:
        """Builds the one agent every turn runs: its tools are the MCP server's, converted
        once (every call still goes through the MCP protocol)."""
        placeholder: Agent[TurnContext] = Agent(name="Todo assistant")
        function_tools = await MCPUtil.get_function_tools(
            self._tools,
            convert_schemas_to_strict=False,
            run_context=RunContextWrapper(context=None),
            agent=placeholder,
        )
        self._agent = Agent(
            name="Todo assistant",
            instructions=_instructions_for_the_turn,
            tools=[_guarded(_function_tool(tool)) for tool in function_tools],
            tool_use_behavior=_reply_after_tools,
        )

    def _prepare(
        self,
        user_id: int,
        history: Sequence[Turn],
        message: str,
        tool_calls: list[dict[str, Any]] | None = None,
        zone: str = DEFAULT_ZONE,
        limits: TurnLimits | None = None,
    ) -> tuple[Model, TurnContext, Agent[TurnContext], RunConfig, list[TResponseInputItem], int]:
        if self._agent is None:
            raise RuntimeError("Assistant.start() was not awaited")
        turn = TurnContext(user_id=user_id, zone=zone, limits=limits or TurnLimits())
        conversation = replace(ConversationContext.from_turns(history), zone=zone, now=turn.now)
        model = self.brain.model_for(conversation)
        # The rule model reads the conversation from its context, not from the input, so
        # only an LLM is sent the history.
        items = _input_items(history if self.brain.needs_history else (), message)
        # A shallow copy of the one config with this turn's model: building a RunConfig
        # resolves its declared types (about 0.4 ms); a copy only copies its fields.
        run_config = copy.copy(self._run_config)
        run_config.model = _BoundedModel(model, turn.limits)
        turn.replier = model if isinstance(model, RepliesAfterTools) else None
        if tool_calls is not None:
            turn.tool_calls = tool_calls
        # A long list to add is many steps, not a runaway: the rule plan says how many.
        max_turns = MAX_MODEL_CALLS
        if isinstance(model, PlansItsCalls):
            max_turns = max(max_turns, model.model_calls_for(message))
        return model, turn, self._agent, run_config, items, max_turns

    async def respond(
        self,
        *,
        user_id: int,
        history: Sequence[Turn],
        message: str,
        tool_calls: list[dict[str, Any]] | None = None,
        zone: str = DEFAULT_ZONE,
        limits: TurnLimits | None = None,
    ) -> AgentReply:
        """One turn, within `limits`. Tool calls are recorded into `tool_calls` (if given) as
        each finishes, so a caller that is cancelled mid-turn still knows what was done."""
        model, turn, agent, run_config, items, max_turns = self._prepare(
            user_id, history, message, tool_calls, zone, limits
        )
        try:
            result = await Runner.run(
                agent, items, context=turn, max_turns=max_turns, run_config=run_config
            )
        except Exception as error:
            if turn.limits.stopped is not None:
                return _stopped(turn)
            return _failed(turn, error, self.brain.name, user_id)
        if turn.cut_short:
            return _stopped(turn)
        text = str(result.final_output or "") or SYSTEM_ERROR
        meta = self.brain.reply_meta(model).copy()
        meta["usage"] = _usage(result, self.brain.name, user_id)
        return AgentReply(text, turn.tool_calls, meta)

    async def stream(
        self,
        *,
        user_id: int,
        history: Sequence[Turn],
        message: str,
        tool_calls: list[dict[str, Any]] | None = None,
        zone: str = DEFAULT_ZONE,
        limits: TurnLimits | None = None,
    ) -> AsyncIterator[AgentEvent]:
        """The same turn, event by event: tool calls as they finish, text as it is produced,
        then the whole reply (which is authoritative: after a failure it replaces the text)."""
        model, turn, agent, run_config, items, max_turns = self._prepare(
            user_id, history, message, tool_calls, zone, limits
        )
        sent = 0
        streamed_text = False
        result = Runner.run_streamed(
            agent, items, context=turn, max_turns=max_turns, run_config=run_config
        )
        try:
            async for event in result.stream_events():
                for call in turn.tool_calls[sent:]:
                    yield ToolCallDone(call)
                sent = len(turn.tool_calls)
                if event.type == "raw_response_event" and isinstance(
                    event.data, ResponseTextDeltaEvent
                ):
                    streamed_text = True
                    yield TextDelta(event.data.delta)
        except Exception as error:
            stopped = turn.limits.stopped is not None
            failed = None if stopped else _failed(turn, error, self.brain.name, user_id)
            for call in turn.tool_calls[sent:]:
                yield ToolCallDone(call)
            if failed is None:
                async for stop_event in _stopped_events(turn, streamed_text):
                    yield stop_event
            else:
                yield failed
            return
        finally:
            if not result.is_complete:  # its consumer went away (or was cancelled): end it
                result.cancel()
        for call in turn.tool_calls[sent:]:
            yield ToolCallDone(call)
        if turn.cut_short:
            async for stop_event in _stopped_events(turn, streamed_text):
                yield stop_event
            return
        text = str(result.final_output or "") or SYSTEM_ERROR
        if not streamed_text:  # the run ended after its tools: no model streamed this text
            for chunk in text_chunks(text):
                yield TextDelta(chunk)
        meta = self.brain.reply_meta(model).copy()
        meta["usage"] = _usage(result, self.brain.name, user_id)
        yield AgentReply(text, turn.tool_calls, meta)
