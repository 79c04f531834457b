"""Reading a sharing request (backend/agent/rules/sharing_requests.py): each family of
phrasings gives its kind and slots (the list as said, the person, an email exactly as typed,
the role); what is no sharing request is left to the other rules, and a change said as a
question is read as that question."""

from __future__ import annotations

import pytest

from backend.agent.rules.sharing_requests import SharingKind, SharingRequest, sharing_request
from backend.agent.rules.text import prepare


def read(message: str) -> SharingRequest | None:
    return sharing_request(prepare(message), typed=message)


def slots(message: str) -> tuple[SharingKind, str | None, str | None, str | None]:
    found = read(message)
    assert found is not None, message
    return found.kind, found.list_name, found.person, found.role


S, G, R = SharingKind.SHARE, SharingKind.GRANT, SharingKind.ROLE


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "share the packing list with alex@example.com as a viewer",
            (S, "packing", "alex@example.com", "viewer"),
        ),
        ("share the packing list with alex@example.com", (S, "packing", "alex@example.com", None)),
        ("Share my Trip list with bo@x.io so they can edit it", (S, "Trip", "bo@x.io", "editor")),
        (
            "share the packing list read-only with alex@example.com",
            (S, "packing", "alex@example.com", "viewer"),
        ),
        (
            "can you share the Family list with sam@example.com?",
            (S, "Family", "sam@example.com", None),
        ),
        (
            "please invite jo@example.com to the flat list as an editor",
            (S, "flat", "jo@example.com", "editor"),
        ),
        (
            "add jo@example.com to the flat list as a viewer",
            (S, "flat", "jo@example.com", "viewer"),
        ),
        (
            "give alex@example.com view access to the trip list",
            (S, "trip", "alex@example.com", "viewer"),
        ),
        ("give alex@example.com access to the trip list", (S, "trip", "alex@example.com", None)),
        ("let alex edit the packing list", (G, "packing", "alex", "editor")),
        ("let zoe@example.com see the packing list", (G, "packing", "zoe@example.com", "viewer")),
        ("make alex a viewer on the packing list", (R, "packing", "alex", "viewer")),
        ("change alex to an editor on the trip list", (R, "trip", "alex", "editor")),
        ("change alex's role on the trip list to viewer", (R, "trip", "alex", "viewer")),
        ("make the trip list read-only for alex", (R, "trip", "alex", "viewer")),
        ("don't let alex edit the trip list anymore", (R, "trip", "alex", "viewer")),
        ("let alex only see the trip list", (R, "trip", "alex", "viewer")),
    ],
)
def test_share_and_role_phrasings_give_the_list_the_person_and_the_role(
    message: str, expected: tuple[SharingKind, str, str, str | None]
) -> None:
    assert slots(message) == expected


@pytest.mark.parametrize(
    "email",
    # reading a message respells these ("b4" is "before", "ad" a slip for "add")
    ["b4@example.com", "ad@example.com", "user-eadd41bf23@example.com", "mon2@x.io"],
)
def test_an_email_reading_would_respell_is_still_taken_as_typed(email: str) -> None:
    found = read(f"share the packing list with {email}")
    assert found is not None and found.person == email
    asked = read(f"can {email} see the packing list?")
    assert asked is not None and asked.person == email


def test_a_quoted_list_name_is_taken_as_typed() -> None:
    found = read('leave the "Family (ad@example.com)" list')
    assert found is not None and found.list_name == "Family (ad@example.com)"


def test_several_emails_are_each_taken_as_typed() -> None:
    found = read("share the trip list with a@x.io, B@X.io and c@x.io as viewers")
    assert found is not None
    assert (found.person, found.others, found.role) == ("a@x.io", ("B@X.io", "c@x.io"), "viewer")


def test_several_people_one_named_only_is_no_request() -> None:
    assert read("share the trip list with alex and b@x.io") is None


def test_an_email_is_taken_exactly_as_typed() -> None:
    found = read("share the packing list with Alex.Smith+Trip@Example.COM as a viewer")
    assert found is not None and found.person == "Alex.Smith+Trip@Example.COM"


@pytest.mark.parametrize(
    ("message", "kind", "list_name"),
    [
        ("stop sharing the trip list", SharingKind.STOP, "trip"),
        ("stop sharing the trip list with everyone", SharingKind.STOP, "trip"),
        ("unshare Trip", SharingKind.STOP, "Trip"),
        ("make the trip list private again", SharingKind.STOP, "trip"),
        ("I don't want to share the trip list anymore", SharingKind.STOP, "trip"),
        ("leave the flat list", SharingKind.LEAVE, "flat"),
        ("take me off the flat list", SharingKind.LEAVE, "flat"),
        ("I'd like to leave the flat list", SharingKind.LEAVE, "flat"),
        ("who is on the family list?", SharingKind.MEMBERS, "family"),
        ("who can see the family list", SharingKind.MEMBERS, "family"),
        ("who has access to the Family list?", SharingKind.MEMBERS, "Family"),
        ("who's the family list shared with?", SharingKind.MEMBERS, "family"),
        ("is the family list shared?", SharingKind.MEMBERS, "family"),
        ("who owns the house list", SharingKind.MEMBERS, "house"),
        ("do I have any invitations?", SharingKind.INVITATIONS, None),
        ("any invites?", SharingKind.INVITATIONS, None),
        ("has anyone shared a list with me?", SharingKind.INVITATIONS, None),
        ("which lists are shared with me?", SharingKind.SHARED_LISTS, None),
        ("show my shared lists", SharingKind.SHARED_LISTS, None),
        ("accept the invitation to the family list", SharingKind.ANSWER, "family"),
        ("accept the family list invite", SharingKind.ANSWER, "family"),
        ("join the family list", SharingKind.ANSWER, "family"),
        ("decline the invitation", SharingKind.ANSWER, None),
    ],
)
def test_stop_leave_question_and_invitation_phrasings(
    message: str, kind: SharingKind, list_name: str | None
) -> None:
    found = read(message)
    assert found is not None, message
    assert (found.kind, found.list_name) == (kind, list_name)


def test_a_declined_invitation_is_no_acceptance() -> None:
    found = read("decline sam's invitation")
    assert found is not None and (found.kind, found.person, found.accept) == (
        SharingKind.ANSWER,
        "sam",
        False,
    )


def test_an_invitation_may_be_named_by_its_number() -> None:
    found = read("accept invitation 12")
    assert found is not None and (found.invitation_id, found.accept) == (12, True)


@pytest.mark.parametrize(
    ("message", "kind", "task", "list_name"),
    [
        ("who added the paint?", SharingKind.WHO_ADDED, "paint", None),
        ("who put the paint on the house list?", SharingKind.WHO_ADDED, "paint", "house"),
        ("who completed the paint", SharingKind.WHO_COMPLETED, "paint", None),
        ("who ticked off the milk?", SharingKind.WHO_COMPLETED, "milk", None),
    ],
)
def test_who_added_or_completed_a_task(
    message: str, kind: SharingKind, task: str, list_name: str | None
) -> None:
    found = read(message)
    assert found is not None
    assert (found.kind, found.task, found.list_name) == (kind, task, list_name)


def test_who_added_a_task_by_its_number() -> None:
    found = read("who added task 7?")
    assert found is not None and (found.task, found.task_id) == (None, 7)


@pytest.mark.parametrize(
    "message",
    [
        "remove alex from the packing list",  # or a task called alex
        "is alex on the family list?",  # or a task
        "remove milk from my shopping list",
    ],
)
def test_words_that_may_name_a_task_read_the_task_first(message: str) -> None:
    found = read(message)
    assert found is not None and found.may_be_a_task


def test_a_person_named_by_email_is_no_task() -> None:
    found = read("remove alex@example.com from the packing list")
    assert found is not None and (found.kind, found.may_be_a_task) == (SharingKind.REMOVE, False)


@pytest.mark.parametrize(
    "message",
    [
        "add share the photos to my list",  # "share" inside a task
        "add milk to the family list",
        "what's on the house list",
        "share",
        "remind me to share the slides",
        "I shared the packing list with alex",  # said of the past
        "should I share the packing list with alex?",
        "who made you",
        "show my tasks",
        "leave the keys under the mat",  # no list named
    ],
)
def test_what_is_no_sharing_request_is_left_to_the_other_rules(message: str) -> None:
    assert read(message) is None


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("alex@example.com can edit the packing list?", None),
        ("let alex edit the packing list?", SharingKind.ACCESS),
        ("share the packing list with alex@example.com?", SharingKind.ACCESS),
        ("stop sharing the trip list?", SharingKind.MEMBERS),
        ("accept the invitation?", SharingKind.INVITATIONS),
    ],
)
def test_a_change_said_as_a_question_is_that_question(
    message: str, kind: SharingKind | None
) -> None:
    found = read(message)
    assert (found.kind if found else None) == kind
    assert found is None or not found.changes


def test_the_list_pointed_at_is_left_to_the_conversation() -> None:
    found = read("share it with alex@example.com")
    assert found is not None and found.list_name is None
