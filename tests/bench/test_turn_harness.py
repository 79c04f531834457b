"""`bench.turn_harness`: an in-process turn is a whole chat turn, the Agents SDK Runner and the
MCP task tools in it, in one conversation. No timing is asserted."""

from __future__ import annotations

from pathlib import Path

from backend.main import create_app
from bench.turn_harness import TASK_TITLES, bench_settings, in_process_chat


async def test_a_turn_calls_the_mcp_tools_on_the_account_s_tasks_in_one_conversation(
    tmp_path: Path,
) -> None:
    app = create_app(bench_settings(f"sqlite+aiosqlite:///{tmp_path / 'harness.db'}"))
    async with in_process_chat(app, email="harness@example.com", task_titles=TASK_TITLES) as chat:
        listed = await chat.turn("show my tasks")
        first_conversation = chat.conversation_id
        added = await chat.turn("add buy milk")
    assert first_conversation is not None
    assert added["conversation_id"] == first_conversation == chat.conversation_id
    # The brain's calls, which the Runner made to the MCP tools.
    assert [call["name"] for call in listed["tool_calls"]] == ["list_tasks"]
    assert [call["name"] for call in added["tool_calls"]] == ["add_task"]
    for title in TASK_TITLES:
        assert title in listed["response"].lower()
