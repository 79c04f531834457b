"""Undo as the safety net: several changes of one turn at once, and step after step."""

from __future__ import annotations

from backend.agent.turn_limits import CHANGING_TOOLS
from corpus.fake_tools import Conversation, FakeTaskStore
from corpus.fresh import CLOCK, TODAY, dated_start

CHANGING = CHANGING_TOOLS


def _talk() -> Conversation:
    return Conversation(FakeTaskStore(dated_start(), TODAY), now=CLOCK)


def _state(talk: Conversation) -> dict[int, tuple[str, bool]]:
    return {int(t["id"]): (str(t["title"]), bool(t["completed"])) for t in talk.store.tasks}


def test_undo_reverses_every_change_of_a_turn_with_two_requests() -> None:
    talk = _talk()
    before = _state(talk)
    talk.say("add milk and delete the eggs")
    exchange = talk.say("undo")
    assert exchange.reply.startswith("Undone: I've reversed those 2 changes")
    # the eggs come back (as a new number), the milk is gone again
    after = sorted(title for title, _ in _state(talk).values())
    assert after == sorted(title for title, _ in before.values())


def test_undo_reopens_every_task_a_complete_all_finished() -> None:
    talk = _talk()
    before = _state(talk)
    talk.say("mark everything done")
    talk.say("undo")
    assert _state(talk) == before


def test_undo_reopens_each_of_several_tasks_completed_by_name() -> None:
    talk = _talk()
    before = _state(talk)
    talk.say("complete milk, eggs and paper towels")
    talk.say("undo")
    assert _state(talk) == before


def test_undo_goes_back_step_after_step_and_then_says_there_is_nothing_left() -> None:
    talk = _talk()
    before = _state(talk)
    talk.say("add stamps")
    talk.say("add envelopes")
    assert talk.say("undo").reply == "Undone: I've removed 'envelopes' again."
    assert talk.say("undo that too").reply == "Undone: I've removed 'stamps' again."
    assert _state(talk) == before
    assert talk.say("undo").reply == "There's nothing I can undo right now."
