"""The assistant's brains. Every brain runs the same Agents SDK Runner with the same MCP
tools; they differ only in the model that decides what to call and say."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from agents import FunctionToolResult
from agents.models.interface import Model

from backend.agent.delegating_model import DelegatingModel, ModelInput
from backend.agent.llm import LLM, ModelWatch, build_llm, model_failure
from backend.agent.rule_model import RuleModel, read_turn
from backend.agent.rules.context import ConversationContext
from backend.agent.rules.types import Intent, ReplyMeta
from backend.core.config import Settings

logger = logging.getLogger(__name__)


class Brain(Protocol):
    """Chooses the model for a turn; the rest of the turn is the same for every brain."""

    name: str
    # Whether the model must be sent the conversation (an LLM) or derives it itself (rules).
    needs_history: bool
    # Whether its LLM answers (for /readyz); None for a brain without one.
    watch: ModelWatch | None

    def model_for(self, context: ConversationContext) -> Model: ...

    def reply_meta(self, model: Model) -> ReplyMeta: ...


class RuleBrain:
    name = "rules"
    needs_history = False
    watch: ModelWatch | None = None

    def model_for(self, context: ConversationContext) -> Model:
        return RuleModel(context)

    def reply_meta(self, model: Model) -> ReplyMeta:
        if isinstance(model, RuleModel) and model.final is not None:
            return {**model.final.meta, "brain": "rules"}
        return {"brain": "rules"}


class LLMBrain:
    needs_history = True

    def __init__(self, name: str, llm: LLM) -> None:
        self.name = name
        self._model = llm.model
        self.watch: ModelWatch | None = llm.watch

    def model_for(self, context: ConversationContext) -> Model:
        return self._model  # stateless: safe to share between turns

    def reply_meta(self, model: Model) -> ReplyMeta:
        return {"brain": "llm"}


# What the hybrid brain hands to the LLM.
_FOR_THE_LLM = (Intent.UNCLEAR, Intent.SOCIAL, Intent.OFF_TOPIC)


class HybridModel(DelegatingModel):
    """Rules for whatever they understand; the LLM for what they would call unclear, small talk
    or another assistant's job (it can say more there than a template), and for a reading
    they are unsure of and would ask about (`Plan.unsure`). When the LLM cannot answer, the
    rules answer that turn as the rules brain would: after a failure of its first call (logged
    here, once), and without trying while the LLM was just seen not to answer (`watch`)."""

    def __init__(self, rules: RuleModel, llm: Model, watch: ModelWatch | None = None) -> None:
        self.rules = rules
        self.llm = llm
        self.watch = watch
        self.chosen: Model | None = None

    def choose(self, input: ModelInput) -> Model:
        if self.chosen is None:
            message, _ = read_turn(input)
            plan = self.rules.plan_for(message)
            unclear = plan.unsure or (
                all(intent in _FOR_THE_LLM for intent in plan.intents) and not plan.answered
            )
            # A turn need not wait for a model that just failed to answer: every such turn
            # would pay its connection errors or timeout, then fall back anyway.
            down = self.watch is not None and self.watch.down()
            self.chosen = self.llm if unclear and not down else self.rules
        return self.chosen

    def failed(self, model: Model, input: ModelInput, error: Exception) -> Model | None:
        failure = model_failure(error)
        _, outcomes = read_turn(input)
        # After the LLM's own tool calls the rules cannot take over (they would read those
        # outcomes as their plan's): that turn fails as an LLM turn does. An error that is
        # no model call's is a bug, not a model down.
        if model is not self.llm or failure is None or outcomes:
            return None
        logger.warning("%s; the rules answered [brain=hybrid]", failure.describe())
        self.chosen = self.rules
        return self.rules

    def reply_after_tools(self, results: Sequence[FunctionToolResult]) -> str | None:
        return self.rules.reply_after_tools(results) if self.chosen is self.rules else None

    def model_calls_for(self, message: str) -> int:
        return self.rules.model_calls_for(message)


class HybridBrain:
    name = "hybrid"
    needs_history = True

    def __init__(self, llm: LLM) -> None:
        self._llm = llm.model
        self.watch: ModelWatch | None = llm.watch
        self._rules = RuleBrain()

    def model_for(self, context: ConversationContext) -> Model:
        return HybridModel(RuleModel(context), self._llm, self.watch)

    def reply_meta(self, model: Model) -> ReplyMeta:
        if isinstance(model, HybridModel) and model.chosen is model.llm:
            return {"brain": "llm"}
        if isinstance(model, HybridModel):
            return self._rules.reply_meta(model.rules)
        return {}


def build_brain(settings: Settings) -> Brain:
    if settings.agent_brain == "rules":
        return RuleBrain()
    if settings.agent_brain == "hybrid":
        return HybridBrain(build_llm(settings))
    return LLMBrain(settings.agent_brain, build_llm(settings))
