"""Tables and API schemas (SQLModel families: Base -> table / Create / Update / Public)."""

from backend.models.access_token import PersonalAccessToken, TokenScope
from backend.models.calendar_feed import CalendarFeed
from backend.models.chat_thread import ChatThread
from backend.models.conversation import (
    Choice,
    Conversation,
    ConversationPublic,
    Message,
    MessagePublic,
    MessageRole,
)
from backend.models.notifications import (
    Channel,
    Delivery,
    NotificationSettings,
    PushSubscription,
    ServerKey,
)
from backend.models.reminder import Reminder, ReminderPublic
from backend.models.sharing import ChangeNote, ListMember, MemberRole, MemberStatus, TaskSeat
from backend.models.task import (
    TITLE_MAX_LENGTH,
    Task,
    TaskCreate,
    TaskPublic,
    TaskStatus,
    TaskUpdate,
)
from backend.models.task_completion import TaskCompletion
from backend.models.task_list import STARTING_LISTS, TaskList
from backend.models.user import User, UserPublic

__all__ = [
    "PersonalAccessToken",
    "TokenScope",
    "CalendarFeed",
    "ChatThread",
    "Channel",
    "Delivery",
    "NotificationSettings",
    "PushSubscription",
    "ServerKey",
    "STARTING_LISTS",
    "TITLE_MAX_LENGTH",
    "Choice",
    "Conversation",
    "ConversationPublic",
    "Message",
    "MessagePublic",
    "MessageRole",
    "ChangeNote",
    "ListMember",
    "MemberRole",
    "MemberStatus",
    "TaskSeat",
    "Reminder",
    "ReminderPublic",
    "Task",
    "TaskCompletion",
    "TaskCreate",
    "TaskList",
    "TaskPublic",
    "TaskStatus",
    "TaskUpdate",
    "User",
    "UserPublic",
]
