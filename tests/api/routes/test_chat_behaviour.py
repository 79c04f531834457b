"""The behaviour spec, end to end through POST /api/chat (real MCP tools, both databases).

Every "Testing Scenarios" example of the source spec is here, plus the multi-turn flows of
Rules 2-5, chaining, replies, error recovery and the beyond-the-spec behaviours.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import ChatFn, UserSession


async def seed(
    client: httpx.AsyncClient, user: UserSession, *titles: str, done: tuple[int, ...] = ()
) -> None:
    for title in titles:
        response = await client.post("/api/tasks", json={"title": title}, headers=user.headers)
        assert response.status_code == 201
    for number in done:
        await client.patch(f"/api/tasks/{number}", json={"completed": True}, headers=user.headers)


async def tasks(client: httpx.AsyncClient, user: UserSession) -> list[dict[str, Any]]:
    return list((await client.get("/api/tasks", headers=user.headers)).json())


def names(body: dict[str, Any]) -> list[str]:
    return [call["name"] for call in body["tool_calls"]]


# --- the spec's Testing Scenarios --------------------------------------------------------


async def test_scenario_create_and_complete(chat: ChatFn) -> None:
    assert (await chat("Add buy groceries"))[
        "response"
    ] == "I've added 'buy groceries' to your list."
    done = await chat("Mark it as done")
    assert done["response"] == "Great job! I've marked 'buy groceries' as complete."
    assert done["tool_calls"][0]["arguments"] == {"task_id": 1}


async def test_scenario_list_filtered(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Call mom", "Submit report")
    body = await chat("Show my pending tasks")
    assert body["response"] == "Here are your pending tasks:\n1. Call mom\n2. Submit report"


async def test_scenario_delete_by_title(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Buy groceries", "Call mom")
    body = await chat("Delete the groceries task")
    assert body["response"] == "I've deleted 'Buy groceries' from your list."
    assert names(body) == ["list_tasks", "delete_task"]  # list first, then act (chaining rule 1)
    assert body["tool_calls"][1]["arguments"] == {"task_id": 1}


async def test_scenario_empty_list(chat: ChatFn) -> None:
    body = await chat("Show my tasks")
    assert body["response"] == "You don't have any tasks. You're all caught up!"


async def test_scenario_ambiguous_request(chat: ChatFn) -> None:
    body = await chat("Do that thing")
    assert body["response"].startswith(
        "I'm not sure what you'd like me to do. Could you rephrase that?"
    )
    assert "'Add buy groceries'" in body["response"]  # recovery offers examples
    assert body["tool_calls"] == []


async def test_scenario_task_not_found(chat: ChatFn) -> None:
    body = await chat("Complete task 999")
    assert body["response"] == "I couldn't find task 999. Would you like to see your current tasks?"


async def test_task_zero_is_not_found_rather_than_a_system_error(chat: ChatFn) -> None:
    body = await chat("delete task 0")
    assert body["response"] == "I couldn't find task 0. Would you like to see your current tasks?"
    assert body["tool_calls"] == []


async def test_scenario_multiple_matches(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Finish report", "Review report")
    body = await chat("Delete the report")
    assert body["response"] == (
        "I found multiple tasks matching 'report':\n"
        "1. Finish report (ID: 1)\n"
        "2. Review report (ID: 2)\n"
        "Which task would you like to delete? Please specify by number."
    )
    assert "delete_task" not in names(body)


async def test_scenario_clarification_flow(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Call mom", "Pay rent", "Buy groceries")
    asked = await chat("Delete it")
    assert asked["response"] == (
        "Which task would you like to delete? You can say the task number or title."
    )
    body = await chat("Task 3")
    assert body["response"] == "I've deleted 'Buy groceries' from your list."


async def test_a_title_is_shown_in_chat_exactly_as_the_panel_and_the_api_store_it(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "iPhone repair", "Call Mom")
    added = await chat("add buy milk")
    listed = await chat("show my tasks")
    stored = (await client.get("/api/tasks", headers=user.headers)).json()
    assert added["response"] == "I've added 'buy milk' to your list."
    assert [task["title"] for task in stored] == ["iPhone repair", "Call Mom", "buy milk"]
    assert listed["response"].splitlines()[1:] == [
        "1. iPhone repair",
        "2. Call Mom",
        "3. buy milk",
    ]


async def test_scenario_chained_actions(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Call mom")
    body = await chat("Add buy milk and show me all tasks")
    assert names(body) == ["add_task", "list_tasks"]
    assert body["response"] == (
        "I've added 'buy milk' to your list. Here are all your tasks:\n1. Call mom\n2. buy milk"
    )


# --- Rules 2-5: resolution, clarification, context ---------------------------------------


async def test_the_first_one_after_a_clarification_uses_the_first_listed_task(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Call mom", "Finish Q4 Report", "Review Report Draft")
    await chat("Delete the report")
    body = await chat("The first one")
    assert body["tool_calls"][0] == {
        "name": "delete_task",
        "arguments": {"task_id": 2},
        "result": {"task_id": 2, "status": "deleted", "title": "Finish Q4 Report"},
    }
    again = await chat("delete the report")  # only one left now: no question
    assert again["response"] == "I've deleted 'Review Report Draft' from your list."


async def test_number_2_answers_a_clarification_by_position(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Finish report", "Review report")
    await chat("complete the report")
    body = await chat("number 2")
    assert body["response"] == "Great job! I've marked 'Review report' as complete."


async def test_explicit_id_beats_the_title(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Buy groceries", "Call mom", "Walk the dog")
    body = await chat("delete task 3 groceries")  # AC-CB9
    assert body["tool_calls"][0]["arguments"] == {"task_id": 3}
    assert [t["title"] for t in await tasks(client, user)] == ["Buy groceries", "Call mom"]


async def test_a_fuzzy_title_resolves_to_the_one_close_task(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Buy groceries from store", "Call mom")
    body = await chat("I finished the grocries")  # a typo, still above 60% similar
    assert body["response"] == "Great job! I've marked 'Buy groceries from store' as complete."


async def test_no_matching_title_says_so_and_offers_the_list_which_yes_shows(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Call mom")
    body = await chat("delete the gym session")
    assert body["response"] == (
        "I couldn't find a task matching 'gym session'. Would you like to see your current tasks?"
    )
    shown = await chat("yes")
    assert shown["response"] == "Here are your pending tasks:\n1. Call mom"


async def test_delete_the_first_one_after_a_list_uses_list_positions(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Call mom", "Pay rent", "Walk the dog", done=(1,))
    await chat("what's left?")
    body = await chat("delete the first one")
    assert body["response"] == "I've deleted 'Pay rent' from your list."


async def test_that_one_after_a_list_is_the_first_listed_task_deleted_only_after_a_yes(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Buy groceries", "Call mom")
    await chat("Show my tasks")
    asked = await chat("Delete that one")  # the first row of two: a guess, asked first
    assert asked["response"] == "Do you want me to delete 'Buy groceries'?"
    assert asked["tool_calls"] == []
    body = await chat("yes")
    assert body["response"] == "I've deleted 'Buy groceries' from your list."


async def test_actually_make_it_after_an_add_updates_that_task(chat: ChatFn) -> None:
    await chat("add buy milk")
    body = await chat("Actually, make it oat milk")
    assert body["tool_calls"][0]["arguments"] == {"task_id": 1, "title": "oat milk"}
    assert body["response"] == "I've updated 'oat milk'."


async def test_context_survives_the_window_only_within_50_messages(chat: ChatFn) -> None:
    await chat("add task A")
    for _ in range(25):
        await chat("hello")
    body = await chat("Delete it")  # AC-CB10: task A was mentioned 52 messages ago
    assert body["response"] == (
        "Which task would you like to delete? You can say the task number or title."
    )


# --- chaining ----------------------------------------------------------------------------


async def test_update_title_and_description_together(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "a", "b", "Call mom")
    body = await chat(
        "Change task 3 title to 'Call mom tonight' and add description 'Ask about weekend plans'"
    )
    assert body["tool_calls"][0]["arguments"] == {
        "task_id": 3,
        "title": "Call mom tonight",
        "description": "Ask about weekend plans",
    }
    assert body["response"] == "I've updated task 3 with the new title and description."
    assert (await tasks(client, user))[2]["description"] == "Ask about weekend plans"


async def test_several_adds_in_one_message(chat: ChatFn) -> None:
    body = await chat("add these: milk, eggs and bread")
    assert [c["arguments"]["title"] for c in body["tool_calls"]] == ["milk", "eggs", "bread"]
    assert body["response"] == "I've added 3 tasks to your list: 'milk', 'eggs' and 'bread'."


async def test_a_compound_message_removes_then_adds(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "buy milk")
    body = await chat("remove milk and add eggs")
    assert names(body) == ["list_tasks", "delete_task", "add_task"]
    assert [t["title"] for t in await tasks(client, user)] == ["eggs"]


async def test_a_chain_stops_at_the_first_error(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    body = await chat("delete task 7 and add call the bank")
    assert names(body) == ["delete_task"]
    assert body["response"] == "I couldn't find task 7. Would you like to see your current tasks?"
    assert await tasks(client, user) == []


async def test_delete_and_tell_me_whats_left(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "a", "b", "c")
    body = await chat("Delete task 3 and tell me what's left")
    assert names(body) == ["delete_task", "list_tasks"]
    assert body["tool_calls"][1]["arguments"] == {"status": "pending", "limit": 51}


# --- replies ------------------------------------------------------------------------------


async def test_same_request_in_different_words_makes_the_same_call(chat: ChatFn) -> None:
    for phrasing in ("add buy milk", "I need to buy milk", "remind me to buy milk"):  # AC-CB7
        body = await chat(phrasing)
        assert body["tool_calls"][0]["name"] == "add_task"
        assert body["tool_calls"][0]["arguments"] == {"title": "buy milk"}


async def test_remember_gets_the_casual_confirmation(chat: ChatFn) -> None:
    body = await chat("Remember to call mom")
    assert body["response"] == "Got it! 'call mom' is now on your list."


async def test_all_tasks_mark_completed_ones(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "Submit report", "Buy groceries", done=(1,))
    body = await chat("show all my tasks")
    assert body["response"] == "Here are all your tasks:\n1. ✓ Submit report\n2. Buy groceries"


async def test_a_similar_pending_task_is_mentioned_after_an_add(chat: ChatFn) -> None:
    await chat("add buy groceries")
    body = await chat("Add buy milk")
    assert body["response"] == (
        "I've added 'buy milk' to your list. (You also have 'buy groceries' pending.)"
    )
    assert names(body) == ["add_task"]  # the note comes from the conversation, not a look-up


async def test_a_run_of_adds_without_completions_gets_a_nudge(chat: ChatFn) -> None:
    await chat("add wash the car")
    await chat("add pay rent")
    body = await chat("add call the plumber")
    assert body["response"] == (
        "I've added 'call the plumber'. You now have 3 pending tasks. Ready to tackle one?"
    )


async def test_completions_rotate_their_encouragement(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "a", "b")
    first = await chat("complete task 1")
    second = await chat("complete task 2")
    assert first["response"].startswith("Great job!")
    assert second["response"].startswith("Awesome!")


# --- errors -------------------------------------------------------------------------------


async def test_update_with_nothing_to_change_asks_what_then_takes_the_answer(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "a", "b", "old title")
    asked = await chat("Update task 3")
    assert asked["response"] == (
        "What would you like to change about task 3? You can update the title or description."
    )
    body = await chat("Change title to call mom")
    assert body["tool_calls"][0]["arguments"] == {"task_id": 3, "title": "call mom"}
    assert body["response"] == "I've updated 'call mom'."


async def test_missing_title_for_an_add_is_asked_for(chat: ChatFn) -> None:
    asked = await chat("add a task")
    assert asked["tool_calls"] == []
    assert "What would you like to add?" in asked["response"]
    body = await chat("water the plants")
    assert body["tool_calls"][0]["arguments"] == {"title": "water the plants"}


# --- beyond the spec ----------------------------------------------------------------------


async def test_clear_my_list_asks_first_and_deletes_all_after_yes(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "a", "b", "c")
    asked = await chat("clear my list")
    assert asked["response"] == (
        "Are you sure you want to delete all 3 tasks? This can't be undone. Say 'yes' to confirm."
    )
    assert "delete_task" not in names(asked)
    assert len(await tasks(client, user)) == 3
    done = await chat("yes")
    # One statement for the three: the tasks the question counted, by number.
    [delete] = [c for c in done["tool_calls"] if c["name"] == "delete_task"]
    assert delete["arguments"] == {"task_ids": [1, 2, 3]}
    assert await tasks(client, user) == []


async def test_a_yes_to_clearing_deletes_only_the_tasks_it_counted(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "a", "b")
    await chat("delete everything")
    await seed(client, user, "added from another device")
    done = await chat("yes")
    assert done["response"] == "Done! I've deleted 2 tasks."
    assert [t["title"] for t in await tasks(client, user)] == ["added from another device"]


async def test_clearing_completed_tasks_says_what_went_and_keeps_the_rest(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "buy milk", "walk the dog", "call mom")
    await chat("complete task 3")
    asked = await chat("delete all completed tasks")
    assert asked["response"].startswith("Are you sure you want to delete your 1 completed task?")
    done = await chat("yes")
    assert done["response"] == "Done! I've deleted 1 completed task."
    assert [t["title"] for t in await tasks(client, user)] == ["buy milk", "walk the dog"]


async def test_a_long_list_to_add_is_added_whole_and_summed_up(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    items = "\n".join(f"- errand number {n}" for n in range(1, 25))
    body = await chat(f"add these:\n{items}")
    assert names(body) == ["add_task"] * 24
    assert body["response"].startswith("I've added 24 tasks to your list: 'errand number 1',")
    assert body["response"].endswith(" and 16 more.")
    assert [t["title"] for t in await tasks(client, user)][-1] == "errand number 24"


async def test_clear_my_list_then_no_keeps_everything(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "a", "b")
    await chat("delete everything")
    body = await chat("no")
    assert body["response"] == "Okay, I won't delete anything."
    assert len(await tasks(client, user)) == 2


async def test_is_it_on_my_list_answers_yes_or_no(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "buy milk")
    yes = await chat("is milk on my list?")
    assert yes["response"] == "Yes, 'buy milk' is on your list (task 1, still pending)."
    no = await chat("is bread on my list?")
    assert no["response"] == "No, I don't see 'bread' on your list. Would you like me to add it?"
    added = await chat("yes")
    assert added["tool_calls"][0]["arguments"] == {"title": "bread"}


async def test_undo_reverses_the_last_change(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add buy bread")
    undone = await chat("undo")
    assert undone["tool_calls"][0]["name"] == "delete_task"
    assert await tasks(client, user) == []
    await seed(client, user, "walk the dog")
    await chat("complete task 2")
    reopened = await chat("undo that")
    assert reopened["tool_calls"][0]["arguments"] == {"task_id": 2, "completed": False}
    assert (await tasks(client, user))[0]["completed"] is False
    nothing = await chat("undo")
    assert nothing["response"] == "There's nothing I can undo right now."


async def test_undo_of_a_chat_deletion_brings_the_task_back_under_its_old_number(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, "walk the dog", "buy bread", "call mom")
    await chat("delete buy bread")
    undone = await chat("undo")
    assert undone["response"] == "Undone: I've restored 'buy bread' as task 2 again."
    assert [(task["id"], task["title"]) for task in await tasks(client, user)] == [
        (1, "walk the dog"),
        (2, "buy bread"),
        (3, "call mom"),
    ]


async def test_unicode_and_emoji_titles_survive_the_chat(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await chat("add café ☕ avec Zoë — 東京 🎉")
    [task] = await tasks(client, user)
    assert task["title"] == "café ☕ avec Zoë"
    assert task["description"] == "東京 🎉"
    body = await chat("delete the café ☕ avec Zoë task")
    assert body["response"] == "I've deleted 'café ☕ avec Zoë' from your list."


async def test_a_long_list_shows_fifty_and_says_there_are_more(
    client: httpx.AsyncClient, user: UserSession, chat: ChatFn
) -> None:
    await seed(client, user, *(f"chore {i}" for i in range(60)))
    body = await chat("show my tasks")
    lines = body["response"].splitlines()
    assert lines[0] == "Here are all your tasks:"
    assert lines[1] == "1. chore 0" and lines[50] == "50. chore 49"
    assert lines[-1].startswith("…and more.")
    assert len(body["tool_calls"][0]["result"]) == 51  # one more than shown, never all
