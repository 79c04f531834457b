"""A user's data as portable JSON: export and import (backup, restore, move between databases).

The document (`backup_format.UserBackup`) holds the account (with its password hash, so the
restored account signs in as before), every task with its number, and every conversation with
its messages. Treat it as the personal data it is.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.domain.due import due_instant
from backend.domain.errors import ServiceError
from backend.domain.reminder_times import Due, relative
from backend.domain.repeat_phrases import read_repeat
from backend.models import Conversation, Message, MessageRole, Task, TaskList, User
from backend.models.task import DEFAULT_LIST, Priority, tags_text
from backend.services.backup_format import (
    BackupConversation,
    BackupInvalidError,
    BackupMessage,
    BackupTask,
    BackupUser,
    LeftOutList,
    UserBackup,
    import_lists,
)
from backend.services.list_directory import directory
from backend.services.users import get_user_by_email


class ImportConflictError(ServiceError):
    pass


async def _export_conversation(
    session: AsyncSession, conversation: Conversation
) -> BackupConversation:
    messages = await session.exec(
        select(Message).where(Message.conversation_id == conversation.id).order_by(col(Message.id))
    )
    return BackupConversation.model_construct(
        title=conversation.title,
        created_at=conversation.created_at,
        updated_at=conversation.updated_at,
        messages=[
            BackupMessage.model_construct(
                role=MessageRole(m.role),
                content=m.content,
                tool_calls=m.tool_calls,
                meta=m.meta,
                created_at=m.created_at,
            )
            for m in messages.all()
        ],
    )


async def export_user(session: AsyncSession, *, email: str) -> dict[str, Any]:
    """The user's backup document, as JSON data."""
    user = await get_user_by_email(session, email=email)
    if user is None or user.id is None:
        raise LookupError(f"no user with email {email}")
    found_tasks = await session.exec(
        select(Task).where(Task.owner_id == user.id).order_by(col(Task.number))
    )
    tasks = [
        BackupTask.model_construct(
            number=t.number,
            title=t.title,
            description=t.description,
            completed=t.completed,
            created_at=t.created_at,
            updated_at=t.updated_at,
            due_date=t.due_date,
            due_time=t.due_time,
            priority=Priority(t.priority),
            list=t.list_name,
            tags=t.tag_list,
            repeat=t.repeat_rule,
            repeat_from="completion" if t.repeat_from == "completion" else "schedule",
            # A reminder that moves with the due is kept as its offset; a fixed one as its
            # instant, if it has yet to fire.
            remind_before=t.remind_before,
            remind_at=t.remind_at if t.remind_before is None else None,
        )
        for t in found_tasks.all()
    ]
    found_conversations = await session.exec(
        select(Conversation).where(Conversation.owner_id == user.id).order_by(col(Conversation.id))
    )
    # Built without checks: a backup is taken of whatever is stored. The counter is never
    # behind the tasks, so the document passes the import's consistency check.
    backup = UserBackup.model_construct(
        user=BackupUser.model_construct(
            email=user.email,
            hashed_password=user.hashed_password,
            last_task_number=max([user.last_task_number, *(t.number for t in tasks)]),
            created_at=user.created_at,
            timezone=user.timezone,
        ),
        tasks=tasks,
        conversations=[await _export_conversation(session, c) for c in found_conversations.all()],
        shared_with_you_left_out=[
            LeftOutList.model_construct(list=e.shown, owner=e.owner_email, role=e.role)
            for e in (await directory(session, user.id)).shared_with_me
        ],
    )
    return backup.model_dump(mode="json")


def _repeat_columns(repeat: str | None, anchor: str | None) -> tuple[str | None, str]:
    """The stored rule and anchor of an imported task's repeat (checked already)."""
    if repeat is None:
        return None, "schedule"
    said = read_repeat(repeat, from_completion=None if anchor is None else anchor == "completion")
    return said.rule, "completion" if said.from_completion else "schedule"


def _reminder_columns(task: BackupTask, zone: str, now: datetime) -> dict[str, Any]:
    """An imported task's reminder: an offset is counted from its due again, a fixed one
    kept; either is armed only if still ahead (what fired before the export stays fired)."""
    if task.remind_before is not None and task.due_date is not None:
        found = relative(Due(task.due_date, task.due_time, zone), task.remind_before, now)
        return {"remind_at": found.at, "remind_before": found.before}
    at = task.remind_at
    if at is not None and at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return {"remind_at": at if at is not None and at > now else None, "remind_before": None}


async def _write(session: AsyncSession, backup: UserBackup) -> User:
    account = backup.user
    now = utcnow()
    # The account key is not part of a backup: the restored account gets a new one, so no
    # token issued before the restore opens it.
    user = User(
        email=account.email,
        hashed_password=account.hashed_password,
        last_task_number=account.last_task_number,
        created_at=account.created_at,
        timezone=account.timezone,
    )
    session.add(user)
    await session.flush()
    assert user.id is not None
    lists = import_lists(backup)
    session.add_all(TaskList(owner_id=user.id, name=n, name_key=k) for k, n in lists.items())
    session.add_all(
        Task(
            owner_id=user.id,
            number=task.number,
            title=task.title,
            description=task.description,
            completed=task.completed,
            created_at=task.created_at,
            updated_at=task.updated_at,
            due_date=task.due_date,
            due_time=task.due_time,
            due_at=due_instant(task.due_date, task.due_time, account.timezone),
            priority=(task.priority or Priority.NONE).value,
            list_name=lists[(task.list or DEFAULT_LIST).lower()],
            tags_text=tags_text(task.tags),
            repeat_rule=_repeat_columns(task.repeat, task.repeat_from)[0],
            repeat_from=_repeat_columns(task.repeat, task.repeat_from)[1],
            **_reminder_columns(task, account.timezone, now),
        )
        for task in backup.tasks
    )
    for exported in backup.conversations:
        conversation = Conversation(
            owner_id=user.id,
            title=exported.title,
            created_at=exported.created_at,
            updated_at=exported.updated_at,
        )
        session.add(conversation)
        await session.flush()
        assert conversation.id is not None
        session.add_all(
            Message(
                conversation_id=conversation.id,
                owner_id=user.id,
                role=message.role.value,
                content=message.content,
                tool_calls=message.tool_calls,
                meta=message.meta,
                created_at=message.created_at,
            )
            for message in exported.messages
        )
    return user


async def import_user(
    session: AsyncSession,
    backup: UserBackup,
    *,
    max_tasks: int | None = None,
    max_lists: int | None = None,
) -> User:
    """Restores one exported user (checked by `backup_format.parse_backup`), with the same
    task numbers, in one transaction: all of it or nothing. Refuses to overwrite: an existing
    account with that email must be removed first. `max_tasks` and `max_lists` are the
    service's caps."""
    problems = []
    if max_tasks is not None and len(backup.tasks) > max_tasks:
        problems.append(
            f"tasks: {len(backup.tasks):,} tasks, more than the {max_tasks:,} an account "
            "may hold here (MAX_TASKS_PER_USER)"
        )
    lists = len(import_lists(backup))
    if max_lists is not None and lists > max_lists:
        problems.append(
            f"lists: {lists:,} lists, more than the {max_lists:,} an account may hold here "
            "(MAX_LISTS_PER_USER)"
        )
    if problems:
        raise BackupInvalidError(problems)
    email = backup.user.email
    if await get_user_by_email(session, email=email) is not None:
        raise ImportConflictError(f"a user with email {email} already exists")
    try:
        user = await _write(session, backup)
        await session.commit()
    except Exception as exc:
        # One transaction: whatever failed, nothing of it stays.
        await session.rollback()
        # The email is unique: an account may have taken it since the check above.
        if isinstance(exc, IntegrityError) and await get_user_by_email(session, email=email):
            raise ImportConflictError(f"a user with email {email} already exists") from exc
        raise
    return user
