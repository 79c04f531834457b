"""The LLM brain is told of shared lists as the rule engine acts on them (backend/agent/
instructions.py): the roles, the list and sharing tools, and that sharing changes are made
only when asked and named, refusals said with their reason."""

from __future__ import annotations

from backend.agent.instructions import build_instructions


def test_the_instructions_name_every_sharing_tool_and_the_roles() -> None:
    told = " ".join(build_instructions().split())
    for tool in (
        "list_lists",
        "list_members(list)",
        "share_list(list, email",
        "change_member_role(list",
        "remove_member(list, email)",
        "stop_sharing(list)",
        "leave_list(list)",
        "list_invitations()",
        "answer_invitation(invitation_id, accept)",
    ):
        assert tool in told, tool
    for said in ("viewer only reads", "added_by", "exactly as typed", "never changes anything"):
        assert said in told, said
