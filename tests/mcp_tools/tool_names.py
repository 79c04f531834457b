"""The tools every transport serves, for the tests that check the list."""

TASK_TOOLS = frozenset({"add_task", "list_tasks", "complete_task", "delete_task", "update_task"})
SHARING_TOOLS = frozenset(
    {
        "list_lists",
        "list_members",
        "share_list",
        "change_member_role",
        "remove_member",
        "stop_sharing",
        "leave_list",
        "list_invitations",
        "answer_invitation",
    }
)
ALL_TOOLS = TASK_TOOLS | SHARING_TOOLS
