"""Service-layer exceptions; routes map them to HTTP, tools let the MCP SDK mark them isError."""

from __future__ import annotations

from datetime import date


class ServiceError(Exception):
    """Base class for expected, user-facing failures."""


class NotFoundError(ServiceError):
    pass


class TaskNotFoundError(NotFoundError):
    def __init__(self, task_id: int) -> None:
        super().__init__(f"Task {task_id} not found")
        self.task_id = task_id


class TaskLimitError(ServiceError):
    def __init__(self, limit: int) -> None:
        super().__init__(
            f"You have reached the limit of {limit:,} tasks; delete or clear some to add more"
        )
        self.limit = limit


class ConversationNotFoundError(NotFoundError):
    def __init__(self) -> None:
        super().__init__("Conversation not found")


class EmailTakenError(ServiceError):
    def __init__(self) -> None:
        super().__init__("A user with this email already exists")


class AccountGoneError(ServiceError):
    """The caller's account no longer exists (removed after its token was issued)."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} does not exist")
        self.user_id = user_id


class InvalidTaskChangeError(ServiceError):
    """Fields that are each valid but do not fit the task as it stands (a 422 on `field`)."""

    field = "body"


class TaskNumberTakenError(InvalidTaskChangeError):
    """A task brought back under a number that is not free: one a task holds now, or one the
    account has not reached yet (numbers are handed out in order and never reused)."""

    field = "number"

    def __init__(self, number: int) -> None:
        super().__init__(f"task number {number} is not free: it is in use or was never given")
        self.number = number


class DueTimeWithoutDateError(InvalidTaskChangeError):
    """A time of day for a task that has no due day."""

    field = "due_time"

    def __init__(self) -> None:
        super().__init__("due_time needs a due_date (the task has none)")


class DueRangeError(ServiceError):
    """A due range that ends before it starts (`due_from` after `due_to`)."""

    field = "due_from"

    def __init__(self, due_from: date, due_to: date) -> None:
        super().__init__(
            f"due_from ({due_from.isoformat()}) is after due_to ({due_to.isoformat()}): "
            "a range runs from its first day to its last"
        )
        self.due_from, self.due_to = due_from, due_to


class ListNotFoundError(NotFoundError):
    def __init__(self) -> None:
        super().__init__("List not found")


class ListExistsError(ServiceError):
    def __init__(self, name: str) -> None:
        super().__init__(f"You already have a list called {name!r}")


class ListLooksLikeError(ListExistsError):
    """A new name that looks like a list the account has ("Іnbox" in Cyrillic, "Inbox")."""

    def __init__(self, name: str, existing: str) -> None:
        ServiceError.__init__(
            self,
            f"{name!r} looks like your list {existing!r}: use that list, or a name that "
            "looks different",
        )
        self.existing = existing


class ListLimitError(ServiceError):
    def __init__(self, limit: int) -> None:
        super().__init__(
            f"You have reached the limit of {limit:,} lists; delete one to make another"
        )
        self.limit = limit


class InboxIsFixedError(ServiceError):
    def __init__(self) -> None:
        super().__init__("Inbox is where tasks go by default: it cannot be renamed or deleted")


class NotRepeatingError(ServiceError):
    """A skip asked of a task that does not repeat."""

    def __init__(self, task_id: int) -> None:
        super().__init__(f"Task {task_id} does not repeat")
        self.task_id = task_id


class RepeatRefusedError(InvalidTaskChangeError):
    """A repeat the task cannot keep: from its due date, the rule never comes round."""

    field = "repeat"


class NoNextDateError(ServiceError):
    """A skip asked of a repeating task whose rule has no next date."""

    def __init__(self, task_id: int, why: str) -> None:
        super().__init__(f"Task {task_id} has no next date to skip to: {why}")
        self.task_id = task_id


class ReminderInPastError(InvalidTaskChangeError):
    field = "remind_at"

    def __init__(self) -> None:
        super().__init__("remind_at must be in the future")


class ReminderNeedsDueError(InvalidTaskChangeError):
    """A reminder relative to a due time, for a task that has no due day."""

    field = "remind_before"

    def __init__(self) -> None:
        super().__init__("remind_before needs a due_date (the task has none)")


class ForbiddenError(ServiceError):
    """Something the caller can see but may not do (a 403): a viewer's change, a member's
    invitation. A list or task the caller cannot see is a NotFoundError instead, so an
    answer never tells a stranger it exists."""


class ReadOnlyListError(ForbiddenError):
    def __init__(self, list_name: str) -> None:
        super().__init__(
            f"{list_name!r} is shared with you as a viewer: you can see its tasks but not "
            "change them"
        )
        self.list_name = list_name


class NotListOwnerError(ForbiddenError):
    def __init__(self, list_name: str, what: str) -> None:
        super().__init__(f"Only the owner of {list_name!r} can {what}")
        self.list_name = list_name


class SharingRefusedError(ServiceError):
    """An invitation that cannot be made (a 409): to oneself, to a member already, on Inbox,
    past the list's member limit."""


class MemberNotFoundError(NotFoundError):
    def __init__(self) -> None:
        super().__init__("Member not found")


class InvitationNotFoundError(NotFoundError):
    """No pending invitation of that id for the caller's email: another account's, a declined
    one and one that never was all read the same."""

    def __init__(self) -> None:
        super().__init__("Invitation not found")


class MoveBetweenOwnersError(ServiceError):
    """A task moved between lists of different owners (a 409): it would change hands."""

    def __init__(self, list_name: str) -> None:
        super().__init__(
            f"A task cannot move to {list_name!r}: the two lists belong to different people. "
            "Add it there as a new task instead"
        )
        self.list_name = list_name
