"""Shared lists in chat, through the rule engine and the in-memory tools (specs/sharing.md;
backend/agent/rules/sharing_steps.py): each request family's calls, reply and state, and the
first duty: a question never changes anything, a change is made only on the one list (and
person) the words name, anything unclear is asked with its readings as choices, and a
viewer's change is refused with the tool's reason, nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from backend.agent.turn_limits import CHANGING_TOOLS
from corpus.fake_sharing import FakeInvitation, FakeList, FakeMember
from corpus.fake_tools import Conversation, Exchange, FakeTaskStore

ME = "me@example.com"
CHANGING = CHANGING_TOOLS


def _task(number: int, title: str, where: str = "Inbox", **more: Any) -> dict[str, Any]:
    return {
        "id": number,
        "title": title,
        "description": None,
        "completed": False,
        "list": where,
        **more,
    }


def store() -> FakeTaskStore:
    """Mine: Inbox, Packing (nobody shares it), Trip (shared with alex, bea invited), Family.
    Shared with me: House (sam's, I edit), Chores (jo's, I view), Flat (kim's), and sam's
    own Family, called "Family (sam@example.com)" beside mine. Two invitations wait."""
    tasks = [
        _task(1, "buy milk"),
        _task(2, "tent", "Packing"),
        _task(3, "passport", "Trip"),
        _task(4, "paint", "House", added_by="sam@example.com"),
        _task(5, "dishes", "Chores"),
        _task(6, "pay the rent", "Flat", added_by="kim@example.com"),
        _task(7, "paint brushes", "Trip", completed=True, completed_by="alex@example.com"),
        _task(8, "bake a cake", "Family"),
        _task(9, "buy candles", "Family (sam@example.com)", added_by="sam@example.com"),
    ]
    lists = [
        FakeList(
            "Trip",
            ME,
            members=[
                FakeMember("alex@example.com"),
                FakeMember("bea@example.com", "viewer", "pending"),
            ],
        ),
        FakeList("House", "sam@example.com", "editor", [FakeMember("sam.b@example.com")]),
        FakeList("Chores", "jo@example.com", "viewer"),
        FakeList("Flat", "kim@example.com", "editor"),
        FakeList("Family (sam@example.com)", "sam@example.com", "editor"),
    ]
    invitations = [
        FakeInvitation("Book club", "ann@example.com", "viewer", [_task(0, "read chapter 3")]),
        FakeInvitation("Garden", "sam@example.com", "editor"),
    ]
    return FakeTaskStore(tasks, lists=lists, invitations=invitations)


@pytest.fixture
def talk() -> Conversation:
    return Conversation(store())


def calls(exchange: Exchange) -> list[str]:
    return [c["name"] for c in exchange.tool_calls]


def changes(exchange: Exchange) -> list[dict[str, Any]]:
    return [
        c
        for c in exchange.tool_calls
        if c["name"] in CHANGING and not (isinstance(c["result"], dict) and "error" in c["result"])
    ]


def titles(talk: Conversation) -> dict[str, bool]:
    return {t["title"]: t["completed"] for t in talk.store.tasks}


def choices(exchange: Exchange) -> list[str]:
    return [c["message"] for c in exchange.meta.get("choices", [])]


# --- tasks on a shared list ------------------------------------------------------------


def test_adding_to_a_shared_list_names_the_list(talk: Conversation) -> None:
    said = talk.say("add milk to the house list")
    assert said.reply == "I've added 'milk' to the shared House list."
    added = next(t for t in talk.store.tasks if t["title"] == "milk")
    assert (added["list"], added["added_by"]) == ("House", ME)


def test_several_adds_to_a_shared_list_are_summed_up_naming_it(talk: Conversation) -> None:
    said = talk.say("add eggs, flour and butter to the house list")
    assert (
        said.reply == "I've added 3 tasks to the shared House list: 'eggs', 'flour' and 'butter'."
    )


def test_an_add_to_ones_own_list_is_said_as_before(talk: Conversation) -> None:
    assert (
        talk.say("add socks to my packing list").reply == "I've added 'socks' to your Packing list."
    )


def test_what_is_on_a_shared_list_is_shown_as_that_list(talk: Conversation) -> None:
    said = talk.say("what's on the house list")
    assert said.reply == "Here's the shared House list:\n4. paint"


def test_a_change_to_a_task_on_a_shared_list_names_the_list(talk: Conversation) -> None:
    said = talk.say("mark the paint done")
    assert said.reply == "Great job! I've marked 'paint' on the shared House list as complete."
    deleted = talk.say("delete the rent")
    assert deleted.reply == "I've deleted 'pay the rent' from the shared Flat list."


@pytest.mark.parametrize(
    "message",
    [
        "mark the dishes done",
        "delete the dishes",
        "rename dishes to plates",
        "move the dishes to tomorrow",
        "add soap to the chores list",
        "complete task 5",
    ],
)
def test_a_viewers_change_is_refused_with_the_reason_and_nothing_changes(
    talk: Conversation, message: str
) -> None:
    before = [dict(t) for t in talk.store.tasks]
    said = talk.say(message)
    assert said.reply == (
        "'Chores' is shared with you as a viewer: you can see its tasks but not change them."
    )
    assert talk.store.tasks == before
    assert changes(said) == []


def test_clearing_my_list_leaves_the_lists_others_share_with_me(talk: Conversation) -> None:
    asked = talk.say("clear my list")
    assert "all 5 tasks" in asked.reply  # mine: milk, tent, passport, paint brushes, cake
    talk.say("yes")
    assert set(titles(talk)) == {"paint", "dishes", "pay the rent", "buy candles"}


def test_completing_the_tasks_shown_says_it_left_those_i_only_view(talk: Conversation) -> None:
    talk.say("show my pending tasks")
    said = talk.say("complete them")
    assert said.reply == (
        "Great job! I've marked those 7 tasks as complete. I left 1 task as it was: it's on a "
        "list shared with you as a viewer, so you can see it but not change it."
    )
    assert titles(talk)["dishes"] is False


def test_completing_tasks_by_number_stops_at_the_one_i_only_view(talk: Conversation) -> None:
    said = talk.say("complete tasks 1 and 5")
    assert said.reply == (
        "Great job! I've marked 'buy milk' as complete. 'Chores' is shared with you as a "
        "viewer: you can see its tasks but not change them."
    )
    assert titles(talk)["dishes"] is False


# --- who added or completed a task ---------------------------------------------------------


def test_who_added_a_task_names_the_person_and_the_list(talk: Conversation) -> None:
    said = talk.say("who added the paint?")
    assert said.reply == "sam@example.com added 'paint' (House list, shared)."
    assert changes(said) == []
    assert said.meta["focus"] == 4  # "mark it done" next is the paint


def test_who_added_a_task_i_added_is_me(talk: Conversation) -> None:
    talk.say("add ladder to the house list")
    assert talk.say("who added the ladder").reply == "You added 'ladder' (House list, shared)."


def test_who_added_a_task_of_my_own_unshared_list(talk: Conversation) -> None:
    said = talk.say("who added the tent?")
    assert said.reply == "You added it: 'tent' is on your own Packing list, which only you can see."


def test_who_completed_a_task(talk: Conversation) -> None:
    said = talk.say("who completed the paint brushes?")
    assert said.reply == "alex@example.com completed 'paint brushes' (Trip list, shared)."
    assert talk.say("who finished the paint?").reply == "'paint' isn't done yet (House list)."


def test_who_added_several_matching_tasks_asks_which_and_a_choice_answers(
    talk: Conversation,
) -> None:
    said = talk.say("who added the buy?")
    assert said.reply.startswith("I found several tasks matching 'buy':")
    assert choices(said) == ["who added task 1", "who added task 9"]
    picked = talk.say("the second one")
    assert (
        picked.reply
        == "sam@example.com added 'buy candles' (Family (sam@example.com) list, shared)."
    )


def test_who_added_a_task_on_the_list_said(talk: Conversation) -> None:
    said = talk.say("who put the paint on the house list?")
    assert said.reply == "sam@example.com added 'paint' (House list, shared)."


def test_who_did_something_no_task_names_is_left_to_the_other_rules(talk: Conversation) -> None:
    said = talk.say("who did the programming for this ai")
    assert changes(said) == []
    assert said.meta["acts"] != ["sharing"]


# --- sharing, roles, removing, stopping, leaving ------------------------------------------


def test_sharing_a_list_invites_the_email_as_typed_as_an_editor(talk: Conversation) -> None:
    said = talk.say("share the packing list with Zoe.Lee@Example.com")
    assert said.tool_calls[-1]["name"] == "share_list"
    assert said.tool_calls[-1]["arguments"] == {
        "list": "Packing",
        "email": "Zoe.Lee@Example.com",
        "role": "editor",
    }
    assert said.reply == (
        "I've invited zoe.lee@example.com to your Packing list as an editor: once they accept, "
        "they can add, change and complete its tasks."
    )


def test_sharing_as_a_viewer(talk: Conversation) -> None:
    said = talk.say("share the packing list with zoe@example.com as a viewer")
    assert said.tool_calls[-1]["arguments"]["role"] == "viewer"
    assert said.reply.endswith("they can see its tasks but not change them.")


def test_undo_withdraws_the_invitation_just_sent(talk: Conversation) -> None:
    talk.say("share the packing list with zoe@example.com")
    undone = talk.say("undo")
    assert undone.tool_calls[0]["name"] == "remove_member"
    assert undone.reply == "Undone: zoe@example.com is no longer invited to Packing."
    packing = next(x for x in talk.store.shared_lists if x.name == "Packing")
    assert packing.members == []


def test_sharing_with_several_emails_invites_each(talk: Conversation) -> None:
    said = talk.say(
        "share the trip list with zoe@example.com, Kim@Example.com and alex@example.com"
    )
    assert [c["arguments"]["email"] for c in said.tool_calls[1:]] == [
        "zoe@example.com",
        "Kim@Example.com",
        "alex@example.com",
    ]
    assert said.reply == (
        "I've invited zoe@example.com and kim@example.com to your Trip list as editors: each "
        "sees it once they accept. alex@example.com is a member already: change their role "
        "instead."
    )


def test_a_role_said_after_a_comma(talk: Conversation) -> None:
    said = talk.say("share the packing list with zoe@example.com, as a viewer")
    assert said.tool_calls[-1]["arguments"]["role"] == "viewer"


def test_a_question_is_answered_by_naming_one_of_its_choices(talk: Conversation) -> None:
    talk.say("leave the family list")
    said = talk.say("the sam one")
    assert said.tool_calls[-1]["arguments"] == {"list": "Family (sam@example.com)"}


def test_sharing_with_a_name_asks_for_the_email(talk: Conversation) -> None:
    said = talk.say("share the packing list with zoe")
    assert "share_list" not in calls(said)
    assert said.reply.startswith("Sharing goes by email: what's zoe's email?")


def test_sharing_a_list_that_is_not_there_changes_nothing(talk: Conversation) -> None:
    said = talk.say("share the camping list with zoe@example.com")
    assert changes(said) == []
    assert said.reply.startswith("You don't have a list called 'camping' yet.")


def test_sharing_a_list_only_like_one_asks_and_the_choice_shares_it(talk: Conversation) -> None:
    said = talk.say("share the paking list with zoe@example.com")
    assert changes(said) == []
    assert said.reply == "You don't have a list called 'paking'. Did you mean 'Packing'?"
    assert choices(said) == ['share the "Packing" list with zoe@example.com as an editor']
    done = talk.say("the first one")
    assert done.tool_calls[-1]["name"] == "share_list"
    assert done.tool_calls[-1]["arguments"]["list"] == "Packing"


def test_sharing_inbox_is_refused_with_the_reason(talk: Conversation) -> None:
    said = talk.say("share my inbox list with zoe@example.com")
    assert said.reply == "Inbox is yours alone: make a list to share (or move the tasks to one)."
    assert changes(said) == []


def test_sharing_someone_elses_list_is_theirs_to_do(talk: Conversation) -> None:
    said = talk.say("share the house list with zoe@example.com")
    assert said.reply == "Only the owner of 'House' (sam@example.com) can invite people to it."
    assert calls(said) == ["list_lists"]


def test_sharing_the_list_just_shown(talk: Conversation) -> None:
    talk.say("show my packing list")
    said = talk.say("share it with zoe@example.com")
    assert said.tool_calls[-1]["arguments"]["list"] == "Packing"


def test_sharing_with_someone_already_on_it_offers_their_role(talk: Conversation) -> None:
    said = talk.say("share the trip list with alex@example.com as a viewer")
    assert said.reply == "alex@example.com is a member already: change their role instead."
    assert choices(said) == ['make alex@example.com a viewer on the "Trip" list']
    talk.say("the first one")
    trip = next(x for x in talk.store.shared_lists if x.name == "Trip")
    assert trip.members[0].role == "viewer"


def test_making_someone_a_viewer_changes_their_role_and_undo_gives_it_back(
    talk: Conversation,
) -> None:
    said = talk.say("make alex a viewer on the trip list")
    assert said.reply == "Done: alex@example.com is now a viewer on your Trip list."
    assert said.tool_calls[-1]["arguments"] == {
        "list": "Trip",
        "email": "alex@example.com",
        "role": "viewer",
    }
    talk.say("undo")
    trip = next(x for x in talk.store.shared_lists if x.name == "Trip")
    assert trip.members[0].role == "editor"


def test_letting_someone_edit_who_already_may_changes_nothing(talk: Conversation) -> None:
    said = talk.say("let alex edit the trip list")
    assert said.reply == (
        "alex@example.com can already edit your Trip list (as an editor), so nothing changed."
    )
    assert changes(said) == []


def test_letting_a_new_email_see_a_list_shares_it_as_a_viewer(talk: Conversation) -> None:
    said = talk.say("let zoe@example.com see the packing list")
    assert said.tool_calls[-1]["arguments"] == {
        "list": "Packing",
        "email": "zoe@example.com",
        "role": "viewer",
    }


def test_a_role_for_a_name_nobody_on_the_list_has_asks(talk: Conversation) -> None:
    said = talk.say("make zoe an editor on the trip list")
    assert changes(said) == []
    assert said.reply.startswith("zoe isn't on your Trip list, so nothing changed.")


def test_removing_someone_from_a_list(talk: Conversation) -> None:
    said = talk.say("remove alex from the trip list")
    assert (
        said.reply == "I've removed alex@example.com from your Trip list: they no longer have it."
    )
    assert talk.say("undo").reply.startswith("Sorry, I can't undo that")


def test_removing_someone_invited_withdraws_the_invitation(talk: Conversation) -> None:
    said = talk.say("remove bea@example.com from the trip list")
    assert said.reply == "I've withdrawn bea@example.com's invitation to your Trip list."


def test_removing_a_task_from_a_list_still_deletes_the_task(talk: Conversation) -> None:
    said = talk.say("remove passport from the trip list")
    assert calls(said)[-1] == "delete_task"
    assert "passport" not in titles(talk)


def test_removing_a_name_that_is_neither_a_task_nor_a_member_changes_nothing(
    talk: Conversation,
) -> None:
    said = talk.say("remove bob from the trip list")
    assert changes(said) == []
    assert (
        said.reply
        == "I couldn't find a task matching 'bob'. Would you like to see your current tasks?"
    )


def test_stopping_sharing_a_list(talk: Conversation) -> None:
    said = talk.say("stop sharing the trip list")
    assert said.reply == (
        "I've stopped sharing your Trip list: alex@example.com and bea@example.com no longer "
        "have it. Its tasks stay yours."
    )
    assert calls(said) == ["list_lists", "stop_sharing"]


def test_stopping_sharing_someone_elses_list_is_theirs_to_do(talk: Conversation) -> None:
    said = talk.say("stop sharing the house list")
    assert said.reply == "Only the owner of 'House' (sam@example.com) can stop sharing it."
    assert calls(said) == ["list_lists"]


def test_leaving_a_list(talk: Conversation) -> None:
    said = talk.say("leave the flat list")
    assert said.reply == "You've left Flat: its tasks stay with kim@example.com, its owner."
    assert "pay the rent" not in titles(talk)


def test_leaving_ones_own_list_explains(talk: Conversation) -> None:
    said = talk.say("leave the trip list")
    assert said.reply.startswith("'Trip' is your own list, so there's nothing to leave.")
    assert changes(said) == []


def test_leaving_a_list_whose_name_is_mine_too_asks_which(talk: Conversation) -> None:
    said = talk.say("leave the family list")
    assert changes(said) == []
    assert choices(said) == ['leave the "Family (sam@example.com)" list']
    left = talk.say("the first one")
    assert left.tool_calls[-1]["arguments"] == {"list": "Family (sam@example.com)"}


def test_a_list_nobody_has_is_no_list_to_leave(talk: Conversation) -> None:
    said = talk.say("leave the boat list")
    assert changes(said) == []
    assert said.reply.startswith("You don't have a list called 'boat'. Your lists are: Inbox,")


def test_a_change_that_names_no_list_asks_which_offering_the_lists(talk: Conversation) -> None:
    said = talk.say("stop sharing the list")
    assert changes(said) == []
    assert choices(said) == ['stop sharing the "Trip" list']


# --- questions ---------------------------------------------------------------------------


def test_who_is_on_my_list(talk: Conversation) -> None:
    said = talk.say("who is on the trip list?")
    assert said.reply == (
        "Your Trip list is shared with alex@example.com (editor) and bea@example.com (viewer, "
        "invited, not accepted yet)."
    )


def test_who_is_on_a_list_shared_with_me(talk: Conversation) -> None:
    said = talk.say("who can see the house list")
    assert said.reply == (
        "House belongs to sam@example.com and is shared with you (editor) and "
        "sam.b@example.com (editor)."
    )


def test_who_is_on_a_list_nobody_shares(talk: Conversation) -> None:
    said = talk.say("who is on the packing list?")
    assert said.reply.startswith("Only you can see your Packing list: it isn't shared")


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        (
            "can alex see the trip list?",
            "Yes: alex@example.com can see and edit your Trip list (an editor).",
        ),
        (
            "is alex on the trip list?",
            "Yes: alex@example.com can see and edit your Trip list (an editor).",
        ),
        (
            "can bea see the trip list?",
            "Not yet: bea@example.com is invited to your Trip list as a viewer but hasn't "
            "accepted.",
        ),
        ("can zoe@example.com see the trip list?", "No: zoe@example.com isn't on your Trip list."),
        ("can sam see the house list?", "Yes: sam@example.com owns House."),
    ],
)
def test_whether_someone_may_see_a_list(talk: Conversation, message: str, reply: str) -> None:
    said = talk.say(message)
    assert said.reply == reply
    assert changes(said) == []


@pytest.mark.parametrize(
    "message",
    [
        "who is on the trip list?",
        "who can see the family list",
        "can alex see the trip list?",
        "who added the paint?",
        "do I have any invitations?",
        "which lists are shared with me?",
        "is the trip list shared?",
        "let alex edit the trip list?",
        "stop sharing the trip list?",
        "share the packing list with zoe@example.com?",
        "accept the invitation?",
    ],
)
def test_a_question_never_changes_anything(talk: Conversation, message: str) -> None:
    before = [dict(t) for t in talk.store.tasks]
    members = [(x.name, [(m.email, m.role) for m in x.members]) for x in talk.store.shared_lists]
    said = talk.say(message)
    assert changes(said) == []
    assert talk.store.tasks == before
    assert [
        (x.name, [(m.email, m.role) for m in x.members]) for x in talk.store.shared_lists
    ] == members
    assert len(talk.store.invitations) == 2


def test_the_lists_overview_marks_the_shared_ones(talk: Conversation) -> None:
    said = talk.say("what lists do I have?")
    assert "- Trip (shared): 1 pending, 1 done" in said.reply.splitlines()
    assert "- Packing: 1 pending" in said.reply.splitlines()


def test_which_lists_are_shared(talk: Conversation) -> None:
    said = talk.say("which lists are shared with me?")
    assert said.reply.splitlines() == [
        "Your shared lists:",
        "- Trip: yours, shared with 1 person",
        "- Chores: jo@example.com's, you're a viewer",
        "- Family (sam@example.com): sam@example.com's, you're an editor",
        "- Flat: kim@example.com's, you're an editor",
        "- House: sam@example.com's, you're an editor",
    ]


# --- invitations -------------------------------------------------------------------------


def test_invitations_are_listed_and_offered(talk: Conversation) -> None:
    said = talk.say("do I have any invitations?")
    assert said.reply.startswith(
        "You have 2 invitations: Book club from ann@example.com (as a viewer); Garden from "
        "sam@example.com (as an editor)."
    )
    assert len(choices(said)) == 2
    joined = talk.say("the second one")
    assert joined.reply == "You've joined Garden (shared with you by sam@example.com) as an editor."


def test_accepting_the_invitation_to_a_list_by_its_name(talk: Conversation) -> None:
    said = talk.say("accept the invitation to the book club list")
    assert said.reply == "You've joined Book club (shared with you by ann@example.com) as a viewer."
    assert "read chapter 3" in titles(talk)
    assert talk.say("undo").tool_calls[0]["name"] == "leave_list"
    assert "read chapter 3" not in titles(talk)


def test_declining_an_invitation_by_who_sent_it(talk: Conversation) -> None:
    said = talk.say("decline ann's invitation")
    assert said.reply == "I've declined ann@example.com's invitation to Book club."
    assert [i.list for i in talk.store.invitations] == ["Garden"]


def test_an_invitation_said_unclearly_is_asked_about(talk: Conversation) -> None:
    said = talk.say("accept the invitation")
    assert changes(said) == []
    assert said.reply.startswith("Which invitation do you mean:")
    assert len(choices(said)) == 2


def test_a_list_nobody_invited_me_to_is_no_invitation(talk: Conversation) -> None:
    said = talk.say("join the chess list")
    assert changes(said) == []
    assert said.reply.startswith("You have no invitation matching 'chess'.")


def test_an_email_added_to_a_list_is_asked_about(talk: Conversation) -> None:
    said = talk.say("add zoe@example.com to the packing list")
    assert changes(said) == []
    assert choices(said) == [
        'share the "packing" list with zoe@example.com',
        "add 'zoe@example.com' to my packing list",
    ]


# --- share inside a task, as before ------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("add share the photos to my list", "share the photos"),
        ("remind me to share the slides", "share the slides"),
        ("add invite sam to the party", "invite sam to the party"),
    ],
)
def test_sharing_words_in_a_task_title_still_add_the_task(
    talk: Conversation, message: str, title: str
) -> None:
    said = talk.say(message)
    assert [c["name"] for c in changes(said)] == ["add_task"]
    assert changes(said)[0]["arguments"]["title"] == title
