"""The task service: every read and write of tasks, as one user may make it.

Used alike by the REST routes and the MCP tools. Callers pass validated `TaskCreate` /
`TaskUpdate` data and the acting user's id; a task is addressed by that user's number for it,
its seat (`seats.py`): their own tasks and those of lists shared with them
(specs/sharing.md). A viewer's seat reads; an owner's or an editor's changes. Tasks come
back as the user sees them (`seen_tasks.py`), never as stored for someone else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, time, timedelta
from enum import StrEnum
from functools import cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    and_,
    bindparam,
    case,
    delete,
    false,
    func,
    literal,
    or_,
    update,
)
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.timeutil import utcnow
from backend.domain.due import due_instant, today_in
from backend.domain.errors import (
    AccountGoneError,
    DueRangeError,
    DueTimeWithoutDateError,
    ListLimitError,
    ListLooksLikeError,
    MoveBetweenOwnersError,
    NoNextDateError,
    NotRepeatingError,
    ReadOnlyListError,
    RepeatRefusedError,
    ServiceError,
    TaskLimitError,
    TaskNotFoundError,
    TaskNumberTakenError,
)
from backend.domain.reminder_times import (
    Due,
    Reminding,
    after_due_change,
    after_move,
    asked,
    rearmed,
    relative,
)
from backend.domain.repeat_phrases import ended_why, read_repeat
from backend.domain.repeats import Repeat, first_due, next_due, repeat_problem
from backend.domain.title_words import canonical
from backend.models import (
    STARTING_LISTS,
    Reminder,
    Task,
    TaskCompletion,
    TaskCreate,
    TaskList,
    TaskSeat,
    TaskStatus,
    TaskUpdate,
    User,
)
from backend.models.task import DEFAULT_LIST, Priority, tags_text
from backend.services import change_notes, seats
from backend.services.change_notes import Kind
from backend.services.list_directory import ListDirectory, ListEntry, directory
from backend.services.lists import add_list
from backend.services.seen_tasks import seen, seen_one

# Tasks are read a page at a time: an account may hold MAX_TASKS_PER_USER (10,000) tasks,
# and reading them all at once held the event loop (and on SQLite the write lock) for seconds
# while every other user waited. A page is TASK_PAGE tasks unless the caller asks for up to
# TASK_PAGE_MAX; no read returns more.
TASK_PAGE = 100
TASK_PAGE_MAX = 1000
# Past the most tasks an account can hold (MAX_TASKS_PER_USER's ceiling): an empty page.
MAX_OFFSET = 1_000_000


def page_size(limit: int | None) -> int:
    """The tasks one read returns: as many as asked, at most TASK_PAGE_MAX (and that many
    when the caller names no number)."""
    return TASK_PAGE_MAX if limit is None else max(0, min(limit, TASK_PAGE_MAX))


# Statements every tool call runs are built once, with bound parameters: building one costs
# SQLAlchemy more CPU than executing it. ORM DML here returns the rows it changed (one round
# trip instead of a SELECT then a write), refreshing any copy the session already holds.
_ORM_DML: dict[str, Any] = {"synchronize_session": False, "populate_existing": True}
_NEXT_NUMBER = (
    update(User)
    .where(col(User.id) == bindparam("oid"))
    .values(last_task_number=User.last_task_number + 1)
    .returning(col(User.last_task_number), col(User.timezone))
)
# The same row lock as _NEXT_NUMBER, without taking a number: for a task brought back.
_LAST_NUMBER = (
    update(User)
    .where(col(User.id) == bindparam("oid"))
    .values(last_task_number=User.last_task_number)
    .returning(col(User.last_task_number), col(User.timezone))
)
_ZONE = select(User.timezone).where(col(User.id) == bindparam("oid"))
_LIST_NAMED = select(TaskList.name).where(
    (col(TaskList.owner_id) == bindparam("oid")) & (col(TaskList.name_key) == bindparam("key"))
)
# A task by the user's number for it: their seat. `_CHANGEABLE` is the task's row id if the
# seat may change it (the owner's, an editor's), else NULL: a write through it matches nothing.
_SEAT = (col(TaskSeat.user_id) == bindparam("uid")) & (col(TaskSeat.number) == bindparam("num"))
_SEEN = select(Task, TaskSeat.number).join(TaskSeat, col(TaskSeat.task_pk) == col(Task.pk))
_GET = _SEEN.where(_SEAT)
_CHANGEABLE = select(TaskSeat.task_pk).where(_SEAT, seats.may_change()).scalar_subquery()
_DELETE = (
    delete(Task).where(col(Task.pk) == _CHANGEABLE).returning(Task).execution_options(**_ORM_DML)
)
_SEAT_HELD = select(TaskSeat.task_pk).where(_SEAT)
_GET_CHANGEABLE = (
    select(Task)
    .join(TaskSeat, col(TaskSeat.task_pk) == col(Task.pk))
    .where(_SEAT, seats.may_change())
)


async def _next_task_number(session: AsyncSession, owner_id: int) -> tuple[int, str]:
    """The next task number, and the account's time zone (read in the same statement)."""
    # The row update locks the user's counter until commit (PostgreSQL row lock; SQLite
    # write lock), so concurrent creates get distinct numbers and deleted ones never return.
    result = await session.exec(_NEXT_NUMBER, params={"oid": owner_id})
    row = result.one_or_none()
    if row is None:
        raise AccountGoneError(owner_id)
    return int(row[0]), str(row[1])


async def _free_old_number(session: AsyncSession, user_id: int, number: int) -> str:
    """Checks that `number` was handed out to the user before and no seat of theirs holds it
    now (a deleted task brought back under its own number), and returns the account's time
    zone. Under the counter's lock, as a new number is, so two restores cannot both take it."""
    row = (await session.exec(_LAST_NUMBER, params={"oid": user_id})).one_or_none()
    if row is None:
        raise AccountGoneError(user_id)
    held = (await session.exec(_SEAT_HELD, params={"uid": user_id, "num": number})).first()
    if not 1 <= number <= int(row[0]) or held is not None:
        await session.rollback()
        raise TaskNumberTakenError(number)
    return str(row[1])


async def account_zone(session: AsyncSession, owner_id: int) -> str:
    zone = (await session.exec(_ZONE, params={"oid": owner_id})).first()
    if zone is None:
        raise AccountGoneError(owner_id)
    return str(zone)


async def list_named(
    session: AsyncSession, *, owner_id: int, name: str, max_lists: int | None = None
) -> str:
    """The account's list of that name (any casing), created if it has none: lists are made
    by use ("add milk to my hardware list"), within `max_lists` and never beside a list
    whose name looks the same (`lists.add_list`)."""
    if name == DEFAULT_LIST:
        return name
    key = name.lower()
    found = (await session.exec(_LIST_NAMED, params={"oid": owner_id, "key": key})).first()
    if found is not None:
        return str(found)
    try:
        await add_list(session, owner_id=owner_id, name=name, max_lists=max_lists)
    except (ListLimitError, ListLooksLikeError):
        await session.rollback()  # nothing of the change is kept (a create's counter too)
        raise
    return name


async def add_starting_lists(session: AsyncSession, *, owner_id: int) -> None:
    """Inbox and Shopping, which every account has (committed by the caller)."""
    for name in STARTING_LISTS:
        session.add(TaskList(owner_id=owner_id, name=name, name_key=name.lower()))


async def create_task(
    session: AsyncSession,
    *,
    user_id: int,
    data: TaskCreate,
    max_tasks: int | None = None,
    max_lists: int | None = None,
    number: int | None = None,
) -> Task:
    """A new task under the user's next number, or under `number`, a free one handed out
    before (a deleted task brought back: TaskNumberTakenError if it is not free).

    On a list shared with the user (an editor's) the task is the list owner's, numbered
    from the owner's counter, and every member gets a seat; on a list of the user's that
    is shared, so do its members. The list owner's `max_tasks` holds."""
    lists = await directory(session, user_id)
    target = lists.find(data.list or DEFAULT_LIST)
    if target is not None and target.role != "owner":
        if not target.may_change:
            raise ReadOnlyListError(target.shown)
        owner_id, list_name = target.owner_id, target.name
    else:
        owner_id = user_id
        list_name = await list_named(
            session, owner_id=user_id, name=data.list or DEFAULT_LIST, max_lists=max_lists
        )
    members = (
        await seats.accepted_members(session, target.list_id)
        if target is not None and (target.shared or target.role != "owner")
        else []
    )
    await seats.lock_counters(session, [owner_id, *(user for _, user in members)])
    restoring = number is not None
    if number is not None and owner_id == user_id:
        owner_number, zone = number, await _free_old_number(session, user_id, number)
    else:
        if number is not None:  # a member's own number, for a task of someone else's list
            await _free_old_number(session, user_id, number)
        owner_number, zone = await _next_task_number(session, owner_id)
    # Numbers only grow, so an account that never made `max_tasks` tasks cannot hold that
    # many: only those pay for the count (under the counter's lock: no race past the cap).
    if max_tasks is not None and (restoring or owner_number > max_tasks):
        if await _owned_count(session, owner_id) >= max_tasks:
            await session.rollback()
            raise TaskLimitError(max_tasks)
    repeat = _repeat_of(data.repeat, data.repeat_from)
    due_date = data.due_date
    if repeat is not None:
        due_date = _repeating_due(repeat, due_date, data.due_time, zone)
    reminding = asked(
        Due(due_date, data.due_time, zone),
        utcnow(),
        at=data.remind_at,
        before=data.remind_before,
        # an explicit null for either means "no reminder", even for a timed task
        default=not (data.model_fields_set & {"remind_at", "remind_before"}),
    )
    task = Task(
        owner_id=owner_id,
        number=owner_number,
        title=data.title,
        description=data.description,
        due_date=due_date,
        due_time=data.due_time,
        due_at=due_instant(due_date, data.due_time, zone),
        priority=(data.priority or Priority.NONE).value,
        list_name=list_name,
        tags_text=tags_text(data.tags),
        repeat_rule=repeat.rule if repeat else None,
        repeat_from="completion" if repeat and repeat.from_completion else "schedule",
        remind_at=reminding.at,
        remind_before=reminding.before,
        added_by_id=user_id,
        remind_user_id=user_id if reminding.at is not None else None,
    )
    session.add(task)
    # The owner's seat is the database's own doing (a trigger on insert); the members' are
    # taken here, in the same transaction.
    await session.flush()
    assert task.pk is not None
    given = {user_id: number} if number is not None and owner_id != user_id else None
    seated = await seats.seat_members(session, task.pk, members, given)
    if members and target is not None:
        await change_notes.note_list(session, target.list_id, Kind.TASKS, Kind.LISTS)
    await session.commit()
    return await seen_one(session, user_id, task, seated.get(user_id, owner_number), lists)


async def _owned_count(session: AsyncSession, owner_id: int) -> int:
    """The tasks the account owns (those of its lists, whoever added them): what its cap
    counts."""
    query = select(func.count()).select_from(Task).where(col(Task.owner_id) == owner_id)
    return int((await session.exec(query)).one())


def _repeating_due(repeat: Repeat, due: date | None, clock: time | None, zone: str) -> date:
    """The due day of a task repeating by `repeat`: `due`, or with none the rule's first day
    from today ("every monday": next Monday). RepeatRefusedError if from there the rule never
    comes round (a bounded search: backend/domain/repeats.py)."""
    today = today_in(zone)
    problem = repeat_problem(repeat, due, clock, today=today)
    if problem is not None:
        raise RepeatRefusedError(problem)
    found = due if due is not None else first_due(repeat, today)
    assert found is not None  # repeat_problem found the rule's first day
    return found


def _repeat_of(said: str | None, anchor: str | None) -> Repeat | None:
    """The stored rule of a repeat as the client gave it (checked by the model already)."""
    if said is None:
        return None
    return read_repeat(said, from_completion=None if anchor is None else anchor == "completion")


def _status_filter(status: TaskStatus) -> bool | None:
    if status is TaskStatus.PENDING:
        return False
    if status is TaskStatus.COMPLETED:
        return True
    return None


# Words that say nothing about which task is meant.
_STOPWORDS = frozenset(
    "the a an my our your to of for and or with on in at by from this that it task tasks todo "
    "item one list".split()
)
# A word's first letters find it despite a typo later in the word ("grocries" -> "groc").
_STEM_LENGTH = 4


def title_search_terms(text: str) -> list[str]:
    """The lower-cased word stems a title search narrows on."""
    words = [w.strip(".,!?;:'\"()[]") for w in text.lower().split()]
    words += [canonical(w) for w in words if canonical(w) != w]  # "mother" also finds "mom"
    return sorted({w[:_STEM_LENGTH] for w in words if _searchable(w) and w not in _STOPWORDS})


def _searchable(word: str) -> bool:
    """Three letters or more; or two with a digit ("q4", "5k"), which name a task as surely."""
    return len(word) >= 3 or (len(word) == 2 and any(c.isdigit() for c in word))


def _like_escape(term: str) -> str:
    return term.replace("/", "//").replace("%", "/%").replace("_", "/_")


def _inline(value: str) -> ColumnElement[str]:
    """A string rendered into the SQL (quoted by SQLAlchemy) when the statement runs. Bound
    parameters would let PostgreSQL switch, after five runs, to a generic plan that cannot
    use the trigram index on titles and scans every one of the user's tasks instead."""
    return literal(value, literal_execute=True)


def _title_filter(text: str) -> ColumnElement[bool]:
    title = func.lower(col(Task.title))
    conditions = [title == _inline(text.strip().lower())]
    conditions += [
        title.like(_inline(f"%{_like_escape(term)}%"), escape="/")
        for term in title_search_terms(text)
    ]
    return or_(*conditions)


async def list_page(
    session: AsyncSession,
    *,
    user_id: int,
    status: TaskStatus = TaskStatus.ALL,
    limit: int | None = None,
    offset: int = 0,
    title_search: str | None = None,
) -> TaskPage:
    """A page of the tasks the user sees, by their numbers (`page_size(limit)` of them, from
    `offset`), and whether another follows; `title_search` keeps only titles sharing a word
    stem (or equal to it), so resolving a title never loads a whole large list. One prepared
    statement."""
    size, offset = page_size(limit), max(0, offset)
    query = _list_statement(_status_filter(status))
    if title_search is not None and title_search.strip():
        query = query.where(_title_filter(title_search))
    params = {"uid": user_id, "limit": size + 1, "offset": offset}
    found = (await session.exec(query, params=params)).all()
    return _page(await seen(session, user_id, [(t, int(n)) for t, n in found]), size, offset)


class DueFilter(StrEnum):
    TODAY = "today"
    TOMORROW = "tomorrow"
    OVERDUE = "overdue"
    THIS_WEEK = "this_week"
    NEXT_7_DAYS = "next_7_days"
    NO_DATE = "no_date"


class TaskSort(StrEnum):
    NUMBER = "number"
    DUE = "due"
    PRIORITY = "priority"
    CREATED = "created"
    TITLE = "title"


@dataclass(frozen=True)
class TaskQuery:
    """What the task panel asks for: filters that all hold, and an order.

    `due_from` and `due_to` bound the due day (inclusive, days on the account's clock, as
    `Task.due_date` holds them); either may be left open, a task with no due day is never in
    a range, and they hold together with `due`. DueRangeError if `due_from` is after
    `due_to`."""

    status: TaskStatus = TaskStatus.ALL
    list_name: str | None = None
    tag: str | None = None
    priority: Priority | None = None
    due: DueFilter | None = None
    due_from: date | None = None
    due_to: date | None = None
    keyword: str | None = None
    sort: TaskSort = TaskSort.NUMBER
    # The MCP list's own: titles sharing a word with this.
    title_search: str | None = None
    # Only tasks with a fired reminder still shown (not dismissed), the most recently fired
    # first (the one the user is looking at): what "snooze that" in chat points at.
    fired_reminder: bool = False
    # The page: `page_size(limit)` tasks from the `offset`-th one.
    limit: int | None = None
    offset: int = 0

    def __post_init__(self) -> None:
        if self.due_from is not None and self.due_to is not None and self.due_from > self.due_to:
            raise DueRangeError(self.due_from, self.due_to)


_PRIORITY_RANK = case({"high": 0, "medium": 1, "low": 2}, value=col(Task.priority), else_=3)


def _due_filter(due: DueFilter, zone: str) -> ColumnElement[bool]:
    """The due filter in the account's zone: days compare with its today; a timed task is
    overdue once its instant has passed, an all-day one once its day has."""
    today = today_in(zone)
    day = col(Task.due_date)
    if due is DueFilter.NO_DATE:
        return day.is_(None)
    if due is DueFilter.TODAY:
        return day == today
    if due is DueFilter.TOMORROW:
        return day == today + timedelta(days=1)
    if due is DueFilter.NEXT_7_DAYS:
        return day.between(today, today + timedelta(days=6))
    if due is DueFilter.THIS_WEEK:  # today up to Sunday
        return day.between(today, today + timedelta(days=6 - today.weekday()))
    return and_(
        col(Task.completed).is_(False),
        or_(
            and_(col(Task.due_time).is_(None), day < today),
            and_(col(Task.due_time).is_not(None), col(Task.due_at) < utcnow()),
        ),
    )


def _keyword_filter(keyword: str) -> ColumnElement[bool]:
    pattern = f"%{_like_escape(keyword.strip().lower())}%"
    return or_(
        func.lower(col(Task.title)).like(pattern, escape="/"),
        func.lower(func.coalesce(col(Task.description), "")).like(pattern, escape="/"),
    )


async def query_tasks(session: AsyncSession, *, user_id: int, query: TaskQuery) -> Sequence[Task]:
    """A page of the tasks the user sees that pass every filter of `query`, in its order
    (ties by number)."""
    lists = await directory(session, user_id)
    statement = await _query_statement(session, user_id, query, lists)
    size = page_size(query.limit)
    found = (await session.exec(statement.limit(size).offset(max(0, query.offset)))).all()
    return await seen(session, user_id, [(t, int(n)) for t, n in found], lists)


@dataclass(frozen=True)
class TaskPage:
    tasks: Sequence[Task]
    # Where the next page starts; None on the last page.
    next_offset: int | None


async def task_page(session: AsyncSession, *, user_id: int, query: TaskQuery) -> TaskPage:
    """`query_tasks`, and whether another page follows (read as one more task)."""
    lists = await directory(session, user_id)
    statement = await _query_statement(session, user_id, query, lists)
    size, offset = page_size(query.limit), max(0, query.offset)
    found = (await session.exec(statement.limit(size + 1).offset(offset))).all()
    return _page(await seen(session, user_id, [(t, int(n)) for t, n in found], lists), size, offset)


def _page(found: Sequence[Task], size: int, offset: int) -> TaskPage:
    """A page of `size` from tasks read as `size + 1`: the one more says another follows."""
    return TaskPage(found[:size], offset + size if len(found) > size else None)


async def matching_total(
    session: AsyncSession, *, user_id: int, query: TaskQuery, page: TaskPage
) -> int:
    """How many tasks pass `query`'s filters, pages aside. A last page that is not empty
    tells it without another query; otherwise they are counted."""
    if page.next_offset is None and (page.tasks or query.offset <= 0):
        return max(0, query.offset) + len(page.tasks)
    statement = await _query_statement(session, user_id, query, await directory(session, user_id))
    counted = select(func.count()).select_from(statement.order_by(None).subquery())
    return (await session.exec(counted)).one()


async def _query_statement(
    session: AsyncSession, user_id: int, query: TaskQuery, lists: ListDirectory
) -> Any:
    # The list as this user calls it, then its owner and stored spelling: an exact match the
    # (owner_id, list_name) index serves. A name the user has no list of matches none.
    entry = lists.find(query.list_name) if query.list_name is not None else None
    number: Any = col(TaskSeat.number)
    if entry is not None and entry.role == "owner":
        # A list of the user's own: its tasks are theirs, under the numbers their seats hold
        # (the owner's seat is the task's own number), read without the seats: the plan
        # cannot then depend on how many seats other people hold.
        number = col(Task.number)
        statement = select(Task, number).where(
            col(Task.owner_id) == user_id, col(Task.list_name) == entry.name
        )
    else:
        statement = _SEEN.where(col(TaskSeat.user_id) == user_id)
        if entry is not None:
            # A list shared with the user: exactly the seats that came with its membership
            # (a task moved off the list leaves it: `seats.reseat`), in their order, read on
            # the (member_id, number) index whatever the planner thinks of the tasks.
            statement = statement.where(col(TaskSeat.member_id) == entry.member_id)
        elif query.list_name is not None:
            statement = statement.where(false())
    completed = _status_filter(query.status)
    if completed is not None:
        statement = statement.where(col(Task.completed) == completed)
    if query.tag is not None:
        tag = _like_escape(query.tag.strip().lstrip("#").lower())
        statement = statement.where(col(Task.tags_text).like(f"% {tag} %", escape="/"))
    if query.priority is not None:
        statement = statement.where(col(Task.priority) == query.priority.value)
    if query.due is not None:
        zone = await account_zone(session, user_id)
        statement = statement.where(_due_filter(query.due, zone))
    # Days compare as days (the stored due day is the account's): no zone is needed, and a
    # NULL due day never compares true.
    if query.due_from is not None:
        statement = statement.where(col(Task.due_date) >= query.due_from)
    if query.due_to is not None:
        statement = statement.where(col(Task.due_date) <= query.due_to)
    if query.keyword is not None and query.keyword.strip():
        statement = statement.where(_keyword_filter(query.keyword))
    if query.title_search is not None and query.title_search.strip():
        statement = statement.where(_title_filter(query.title_search))
    first: list[Any] = []
    if query.fired_reminder:
        shown = _shown_reminders(user_id)
        statement = statement.join(shown, col(Task.pk) == shown.c.task_pk)
        first = [shown.c.newest.desc()]
    orders: dict[TaskSort, list[Any]] = {
        TaskSort.NUMBER: [],
        # undated last, on both databases (PostgreSQL puts NULLs last, SQLite first)
        TaskSort.DUE: [col(Task.due_at).is_(None), col(Task.due_at)],
        TaskSort.PRIORITY: [_PRIORITY_RANK],
        TaskSort.CREATED: [col(Task.created_at)],
        TaskSort.TITLE: [func.lower(col(Task.title))],
    }
    return statement.order_by(*first, *orders[query.sort], number)


def _shown_reminders(owner_id: int) -> Any:
    """Per task, the user's newest fired reminder of it not yet dismissed (`task_pk`,
    `newest`: the reminder's id, which grows with each firing)."""
    return (
        select(col(Reminder.task_pk).label("task_pk"), func.max(Reminder.id).label("newest"))
        .where(col(Reminder.owner_id) == owner_id, col(Reminder.seen_at).is_(None))
        .group_by(col(Reminder.task_pk))
        .subquery()
    )


@cache
def _list_statement(completed: bool | None) -> Any:
    query = _SEEN.where(col(TaskSeat.user_id) == bindparam("uid"))
    if completed is not None:
        query = query.where(col(Task.completed) == completed)
    query = query.order_by(col(TaskSeat.number))
    return query.limit(bindparam("limit")).offset(bindparam("offset"))


async def count_tasks(
    session: AsyncSession, *, user_id: int, status: TaskStatus = TaskStatus.ALL
) -> int:
    """How many tasks the user sees (theirs and those of lists shared with them)."""
    query = (
        select(func.count())
        .select_from(TaskSeat)
        .join(Task, col(Task.pk) == col(TaskSeat.task_pk))
        .where(col(TaskSeat.user_id) == user_id)
    )
    completed = _status_filter(status)
    if completed is not None:
        query = query.where(col(Task.completed) == completed)
    result = await session.exec(query)
    return int(result.one())


async def _stored(session: AsyncSession, user_id: int, number: int) -> tuple[Task, int]:
    """The stored task behind the user's number, for this service's own use."""
    row = (await session.exec(_GET, params={"uid": user_id, "num": number})).first()
    if row is None:
        raise TaskNotFoundError(number)
    return row[0], int(row[1])


async def _changeable(session: AsyncSession, user_id: int, number: int) -> Task:
    """The stored task behind the user's number, if the user may change it (one read)."""
    task = (await session.exec(_GET_CHANGEABLE, params={"uid": user_id, "num": number})).first()
    if task is None:
        raise await _refusal(session, user_id, number)
    return task


async def _refusal(session: AsyncSession, user_id: int, number: int) -> ServiceError:
    """Why a write through the user's number matched nothing: no such task of theirs, or
    one they only view (its list named as they call it)."""
    await session.rollback()
    row = (await session.exec(_GET, params={"uid": user_id, "num": number})).first()
    if row is None:
        return TaskNotFoundError(number)
    entry = (await directory(session, user_id)).of_task(row[0].owner_id, row[0].list_name)
    return ReadOnlyListError(entry.shown if entry is not None else row[0].list_name)


async def get_task(session: AsyncSession, *, user_id: int, task_id: int) -> Task:
    task, number = await _stored(session, user_id, task_id)
    return await seen_one(session, user_id, task, number)


@dataclass(frozen=True)
class Changed:
    """A task as a change left it. A repeating task completed on its last date (its rule never
    comes round again) is completed as a one-off and stops repeating: `repeat_ended` says why."""

    task: Task
    repeat_ended: str | None = None


async def update_task(
    session: AsyncSession,
    *,
    user_id: int,
    task_id: int,
    data: TaskUpdate,
    max_lists: int | None = None,
) -> Task:
    changed = await change_task(
        session, user_id=user_id, task_id=task_id, data=data, max_lists=max_lists
    )
    return changed.task


async def change_task(
    session: AsyncSession,
    *,
    user_id: int,
    task_id: int,
    data: TaskUpdate,
    max_lists: int | None = None,
    restore_reminder: bool = False,
) -> Changed:
    """`update_task`, saying too whether a completion ended the task's repeat.

    A reminder asked for that leaves one to come supersedes the task's fired reminders still
    shown: they are dismissed in the same transaction (a snooze from chat moves the card's
    reminder to its new time). `restore_reminder` undoes that: the fired reminders the task's
    last change dismissed so (those dismissed at its `updated_at`) are shown again.

    On a shared list, the completion records who completed it, and a reminder asked for is
    the asker's. A task moves only between lists of the same owner."""
    changes = data.model_dump(exclude_unset=True)
    reminder_asked = bool(changes.keys() & {"remind_at", "remind_before"})
    # An explicit null title means "leave it"; a title is never removed. So for the
    # completion, the priority ("none" clears it), the list and the tags.
    for name in ("title", "completed", "priority", "list", "tags"):
        if changes.get(name) is None:
            changes.pop(name, None)
    if "priority" in changes:
        changes["priority"] = str(changes["priority"])
    if "tags" in changes:
        changes["tags_text"] = tags_text(changes.pop("tags"))
    moved_to: ListEntry | None = None
    moving = "list" in changes
    moved_from: list[tuple[int, str]] = []
    stored: Task | None = None
    if moving:
        stored = await _changeable(session, user_id, task_id)
        moved_from = [(stored.owner_id, stored.list_name)]
        changes["list_name"], moved_to = await _move_target(
            session, user_id, stored, changes.pop("list"), max_lists
        )
    current: Task | None = None
    if changes.keys() & _NEEDS_THE_TASK or changes.get("completed") is False or restore_reminder:
        # These read the task as it stands (and its owner's zone): once.
        current = stored if stored is not None else await _changeable(session, user_id, task_id)
        zone = await account_zone(session, current.owner_id)
        if "repeat" in changes or "repeat_from" in changes:
            changes.update(_repeat_changes(zone, current, changes))
        if "due_date" in changes or "due_time" in changes:
            changes.update(_due_changes(zone, current, changes))
        _check_repeat(zone, current, changes)
        changes.update(_reminder_changes(zone, current, changes))
    if not changes:
        return Changed(await get_task(session, user_id=user_id, task_id=task_id))
    # Read now: the update refreshes this same object in the session.
    last_changed = current.updated_at if restore_reminder and current is not None else None
    where = [col(Task.pk) == _CHANGEABLE]
    closing: dict[str, Any] = {}
    if changes.get("completed") is True:
        # A repeating task is not closed by its completion (below): only one that repeats
        # not is, so a plain completion stays one statement. A done task reminds no more.
        where.append(col(Task.repeat_rule).is_(None))
        closing = {"remind_at": None, "completed_by_id": user_id}
    elif changes.get("completed") is False:
        closing = {"completed_by_id": None}
    if reminder_asked:
        closing["remind_user_id"] = user_id
    # One set of values: the completion's own win over what the request asked of the same
    # columns ({"completed": true, "remind_before": null} clears remind_at twice over).
    values = {**changes, **closing, "updated_at": utcnow()}
    statement = (
        update(Task).where(*where).values(values).returning(Task).execution_options(**_ORM_DML)
    )
    params = {"uid": user_id, "num": task_id}
    task: Task | None = (await session.exec(statement, params=params)).scalars().first()
    if task is None and changes.get("completed") is True:
        return await _complete_repeating(session, user_id, task_id, changes)
    if task is None:
        raise await _refusal(session, user_id, task_id)
    if reminder_asked and task.remind_at is not None:
        await _supersede_shown(session, task, values["updated_at"])
    if last_changed is not None and not task.completed:
        await _show_superseded(session, task, last_changed)
    if moving and task.pk is not None:
        await seats.reseat(session, task.pk, await _members_of(session, moved_to))
    kinds = (Kind.TASKS, Kind.LISTS) if moving or "completed" in changes else (Kind.TASKS,)
    await change_notes.note_lists_of_tasks(
        session, [(task.owner_id, task.list_name), *moved_from], *kinds
    )
    await session.commit()
    return Changed(await seen_one(session, user_id, task, task_id))


async def _members_of(session: AsyncSession, entry: ListEntry | None) -> Sequence[tuple[int, int]]:
    if entry is None:
        return []
    return await seats.accepted_members(session, entry.list_id)


async def _move_target(
    session: AsyncSession, user_id: int, task: Task, name: str, max_lists: int | None
) -> tuple[str, ListEntry | None]:
    """The stored name of the list a task moves to, as the user named it, and that list's
    entry (None: a list of the user's made by this move). Lists of the task's own owner
    only; on a list shared with the user, an editor's."""
    lists = await directory(session, user_id)
    entry = lists.find(name)
    if entry is None or entry.role == "owner":
        if task.owner_id != user_id:
            raise MoveBetweenOwnersError(entry.shown if entry is not None else name)
        stored = await list_named(session, owner_id=user_id, name=name, max_lists=max_lists)
        return stored, entry
    if entry.owner_id != task.owner_id:
        raise MoveBetweenOwnersError(entry.shown)
    if not entry.may_change:
        raise ReadOnlyListError(entry.shown)
    return entry.name, entry


async def _supersede_shown(session: AsyncSession, task: Task, at: Any) -> None:
    """Dismisses the task's fired reminders still shown: a new reminder to come replaces
    them. Stamped with the change's own `updated_at`, which is how `_show_superseded` knows
    them again."""
    await session.exec(
        update(Reminder)
        .where(col(Reminder.task_pk) == task.pk, col(Reminder.seen_at).is_(None))
        .values(seen_at=at)
        .execution_options(synchronize_session=False)
    )


async def _show_superseded(session: AsyncSession, task: Task, last_changed: Any) -> None:
    """Shows again the fired reminders the task's last change superseded (dismissed at that
    change's moment, `last_changed`, and not snoozed since)."""
    await session.exec(
        update(Reminder)
        .where(
            col(Reminder.task_pk) == task.pk,
            col(Reminder.seen_at) == last_changed,
            col(Reminder.snoozed_until).is_(None),
        )
        .values(seen_at=None)
        .execution_options(synchronize_session=False)
    )


# Changes that are worked out from the task as it stands.
_NEEDS_THE_TASK = frozenset(
    {"repeat", "repeat_from", "due_date", "due_time", "remind_at", "remind_before"}
)


def _repeat_changes(zone: str, current: Task, changes: dict[str, Any]) -> dict[str, Any]:
    """The stored rule and anchor after a change; a task that starts repeating with no due
    date gets the rule's first day. A null repeat stops it repeating."""
    new_rule = "repeat" in changes
    said = changes.pop("repeat", current.repeat_rule)
    anchor = changes.pop("repeat_from", None)
    if said is None:
        return {"repeat_rule": None, "repeat_from": "schedule"}
    if anchor is None and not new_rule:
        anchor = current.repeat_from  # only the due date or title changed: keep the anchor
    repeat = _repeat_of(said, anchor)
    assert repeat is not None
    found: dict[str, Any] = {
        "repeat_rule": repeat.rule,
        "repeat_from": "completion" if repeat.from_completion else "schedule",
    }
    if current.due_date is None and changes.get("due_date") is None:
        # None if the rule never comes round: _check_repeat refuses it
        found["due_date"] = first_due(repeat, today_in(zone))
        found["due_time"] = changes.get("due_time", current.due_time)
    return found


def _check_repeat(zone: str, current: Task, changes: dict[str, Any]) -> None:
    """A repeating task keeps a rule that comes round from its due date, whichever of the two
    a change touches (a bounded search). RepeatRefusedError says why not."""
    if not changes.keys() & {"repeat_rule", "repeat_from", "due_date", "due_time"}:
        return
    rule = changes["repeat_rule"] if "repeat_rule" in changes else current.repeat_rule
    if rule is None:
        return
    anchor = changes.get("repeat_from", current.repeat_from)
    due = changes["due_date"] if "due_date" in changes else current.due_date
    clock = changes["due_time"] if "due_time" in changes else current.due_time
    repeat = Repeat(rule, from_completion=anchor == "completion")
    problem = repeat_problem(repeat, due, clock, today=today_in(zone))
    if problem is not None:
        raise RepeatRefusedError(problem)


async def last_completed_due(session: AsyncSession, *, user_id: int, task_id: int) -> date | None:
    """The due day a repeating task had when it was last completed."""
    task, _ = await _stored(session, user_id, task_id)
    statement = (
        select(col(TaskCompletion.due_date))
        .where(
            col(TaskCompletion.owner_id) == task.owner_id,
            col(TaskCompletion.task_number) == task.number,
        )
        .order_by(col(TaskCompletion.id).desc())
        .limit(1)
    )
    found = (await session.exec(statement)).first()
    return found


async def skip_occurrence(session: AsyncSession, *, user_id: int, task_id: int) -> Task:
    """ "Skip this one": a repeating task moves to its next date with no completion recorded.
    NotRepeatingError for a task that does not repeat."""
    task = await _changeable(session, user_id, task_id)
    if task.repeats is None:
        raise NotRepeatingError(task_id)
    return (await _move_on(session, user_id, task, task_id, {}, record=False)).task


async def _complete_repeating(
    session: AsyncSession, user_id: int, task_id: int, changes: dict[str, Any]
) -> Changed:
    """Completing a repeating task records the completion and moves the same task to its
    next date, still pending (one task, as in Todoist); other changes in the same request
    (a title) apply too."""
    task = await _changeable(session, user_id, task_id)
    return await _move_on(session, user_id, task, task_id, changes, record=True)


async def _move_on(
    session: AsyncSession,
    user_id: int,
    task: Task,
    number: int,
    changes: dict[str, Any],
    *,
    record: bool,
) -> Changed:
    repeat = task.repeats
    assert repeat is not None  # the plain completion matched every other task
    zone = await account_zone(session, task.owner_id)
    today = today_in(zone)
    # None: the rule never comes round again, or was stored before rules were checked
    next_day = next_due(repeat, task.due_date or today, task.due_time, today=today)
    ended = None if next_day is not None else ended_why(repeat, task.due_date or today, today)
    if ended is not None and not record:
        raise NoNextDateError(number, ended)
    if record:
        session.add(
            TaskCompletion(
                owner_id=task.owner_id,
                task_number=task.number,
                title=task.title,
                due_date=task.due_date,
            )
        )
    for name, value in changes.items():
        if name != "completed":
            setattr(task, name, value)
    if next_day is None:
        # The series has ended: the task is completed as a one-off (it reminds no more) and
        # stops repeating, its rule dropped (one that ends cannot be set again anyway).
        task.completed, task.remind_at = True, None
        task.completed_by_id = user_id
        task.repeat_rule, task.repeat_from = None, "schedule"
        task.updated_at = utcnow()
        session.add(task)
        await _note_changed(session, [task])
        await session.commit()
        return Changed(await seen_one(session, user_id, task, number), ended)
    reminding = after_move(
        Reminding(task.remind_at, task.remind_before),
        Due(task.due_date, task.due_time, zone),
        Due(next_day, task.due_time, zone),
        utcnow(),
    )
    task.due_date = next_day
    task.due_at = due_instant(next_day, task.due_time, zone)
    task.remind_at, task.remind_before = reminding.at, reminding.before
    task.updated_at = utcnow()
    session.add(task)
    await _note_changed(session, [task])
    await session.commit()
    return Changed(await seen_one(session, user_id, task, number))


def _due_changes(zone: str, current: Task, changes: dict[str, Any]) -> dict[str, Any]:
    """The due day, time and instant after a change to either: a cleared day clears the
    time too; a time needs a day (given now or already there)."""
    day = changes["due_date"] if "due_date" in changes else current.due_date
    clock = changes["due_time"] if "due_time" in changes else current.due_time
    if day is None:
        if changes.get("due_time") is not None:
            raise DueTimeWithoutDateError()
        clock = None
    return {"due_date": day, "due_time": clock, "due_at": due_instant(day, clock, zone)}


def _reminder_changes(zone: str, current: Task, changes: dict[str, Any]) -> dict[str, Any]:
    """The reminder after a change: as asked, or moved with the due, or armed again for a
    reopened task (backend/domain/reminder_times.py)."""
    now = utcnow()
    have = Reminding(current.remind_at, current.remind_before)
    old = Due(current.due_date, current.due_time, zone)
    new = Due(
        changes.get("due_date", current.due_date), changes.get("due_time", current.due_time), zone
    )
    if "remind_at" in changes or "remind_before" in changes:
        result = asked(
            new,
            now,
            at=changes.pop("remind_at", None),
            before=changes.pop("remind_before", None),
            default=False,
        )
    elif "due_date" in changes or "due_time" in changes:
        result = after_due_change(have, old, new, now)
    elif changes.get("completed") is False and current.completed:
        result = rearmed(have, new, now)
    else:
        return {}
    return {"remind_at": result.at, "remind_before": result.before}


async def set_account_zone(session: AsyncSession, *, owner_id: int, zone: str) -> None:
    """Moves the account to another zone. Due days and times keep their wall-clock values
    ("9:00 on Tuesday" stays so), so every due instant is recomputed, in one transaction."""
    await session.exec(update(User).where(col(User.id) == owner_id).values(timezone=zone))
    due = await session.exec(
        select(Task).where(col(Task.owner_id) == owner_id, col(Task.due_date).is_not(None))
    )
    now = utcnow()
    for task in due.all():
        task.due_at = due_instant(task.due_date, task.due_time, zone)
        if task.remind_before is not None:  # a relative reminder keeps its wall-clock time
            task.remind_at = relative(
                Due(task.due_date, task.due_time, zone), task.remind_before, now
            ).at
        session.add(task)
    await session.commit()


async def complete_task(session: AsyncSession, *, user_id: int, task_id: int) -> Task:
    return await update_task(
        session, user_id=user_id, task_id=task_id, data=TaskUpdate(completed=True)
    )


async def delete_task(session: AsyncSession, *, user_id: int, task_id: int) -> Task:
    """Deletes the task, for everyone who sees it; the task as the user saw it."""
    lists = await directory(session, user_id)
    result = await session.exec(_DELETE, params={"uid": user_id, "num": task_id})
    task: Task | None = result.scalars().first()
    if task is None:
        raise await _refusal(session, user_id, task_id)
    await _note_changed(session, [task], Kind.TASKS, Kind.LISTS)
    await session.commit()
    return await seen_one(session, user_id, task, task_id, lists)


async def _note_changed(session: AsyncSession, changed: Sequence[Task], *kinds: Kind) -> None:
    """Tells whoever has these tasks' lists, if shared, to read them again."""
    where = {(task.owner_id, task.list_name) for task in changed}
    await change_notes.note_lists_of_tasks(session, where, *(kinds or (Kind.TASKS,)))


@dataclass(frozen=True)
class BulkChange:
    """What one bulk statement changed: task numbers in order, with their titles."""

    numbers: list[int]
    titles: list[str]
    # Asked-for numbers that are none of the user's tasks (bulk by numbers only).
    missing: list[int] = field(default_factory=list)
    # Repeating tasks completed on their last date: they stopped repeating (`Changed`).
    repeat_ended: list[int] = field(default_factory=list)
    # Asked-for numbers of tasks the user only views (on a list shared with them as a
    # viewer): left as they were.
    read_only: list[int] = field(default_factory=list)


async def _bulk_seats(
    session: AsyncSession,
    user_id: int,
    numbers: Sequence[int] | None,
    status: TaskStatus | None,
    *,
    pending_only: bool = False,
) -> tuple[dict[int, int], list[int]]:
    """The tasks a bulk change reaches: task row id -> the user's number, for those the user
    may change; and the asked-for numbers the user only views."""
    if (numbers is None) == (status is None):
        raise ValueError("give task numbers or a status, not both")
    scope = [col(TaskSeat.user_id) == user_id]
    if numbers is not None:
        scope.append(col(TaskSeat.number).in_(sorted(set(numbers))))
    else:
        # "Every task" is every task of the user's own lists: a shared list's tasks are
        # changed in bulk only when named, never swept up by "delete all my tasks".
        scope.append(col(Task.owner_id) == user_id)
        if (completed := _status_filter(status or TaskStatus.ALL)) is not None:
            scope.append(col(Task.completed) == completed)
    if pending_only:
        scope.append(col(Task.completed).is_(False))
    rows = (
        await session.exec(
            select(TaskSeat.task_pk, TaskSeat.number, seats.may_change())
            .join(Task, col(Task.pk) == col(TaskSeat.task_pk))
            .where(*scope)
        )
    ).all()
    reached = {int(pk): int(number) for pk, number, changeable in rows if changeable}
    viewed = sorted(int(number) for _, number, changeable in rows if not changeable)
    return reached, viewed if numbers is not None else []


async def _run_bulk(
    session: AsyncSession,
    statement: Any,
    reached: dict[int, int],
    numbers: Sequence[int] | None,
    read_only: list[int],
) -> BulkChange:
    rows = sorted(
        (reached[int(pk)], str(title)) for pk, title in (await session.exec(statement)).all()
    )
    await session.commit()
    changed = [number for number, _ in rows]
    found = set(changed) | set(read_only)
    missing = sorted({n for n in numbers or () if n not in found})
    return BulkChange(changed, [title for _, title in rows], missing, read_only=read_only)


async def complete_tasks(
    session: AsyncSession,
    *,
    user_id: int,
    numbers: Sequence[int] | None = None,
    status: TaskStatus | None = None,
) -> BulkChange:
    """Completes the given tasks, or every task of `status`, in one statement (a pending
    task asked for by number; with `status`, only pending ones change)."""
    reached, read_only = await _bulk_seats(
        session, user_id, numbers, status, pending_only=status is not None
    )
    statement = (
        update(Task)
        .where(col(Task.pk).in_(list(reached)), col(Task.repeat_rule).is_(None))
        .values(completed=True, remind_at=None, completed_by_id=user_id, updated_at=utcnow())
        .returning(col(Task.pk), col(Task.title))
        .execution_options(synchronize_session=False)
    )
    # Repeating tasks move to their next date instead, each by its own rule.
    repeating = [
        reached[int(pk or 0)]
        for pk in (
            await session.exec(
                select(Task.pk).where(
                    col(Task.pk).in_(list(reached)),
                    col(Task.repeat_rule).is_not(None),
                    col(Task.completed).is_(False),
                )
            )
        ).all()
    ]
    change = await _run_bulk(session, statement, reached, numbers, read_only)
    if not repeating:
        return change
    moved = [
        await _complete_repeating(session, user_id, number, {"completed": True})
        for number in sorted(repeating)
    ]
    done = sorted(
        [
            *zip(change.numbers, change.titles, strict=True),
            *((c.task.number, c.task.title) for c in moved),
        ]
    )
    missing = [n for n in change.missing if n not in repeating]
    ended = sorted(c.task.number for c in moved if c.repeat_ended is not None)
    return BulkChange([n for n, _ in done], [t for _, t in done], missing, ended, read_only)


async def delete_tasks(
    session: AsyncSession,
    *,
    user_id: int,
    numbers: Sequence[int] | None = None,
    status: TaskStatus | None = None,
) -> BulkChange:
    """Deletes the given tasks, or every task of `status`, in one statement."""
    reached, read_only = await _bulk_seats(session, user_id, numbers, status)
    statement = (
        delete(Task)
        .where(col(Task.pk).in_(list(reached)))
        .returning(col(Task.pk), col(Task.title))
        .execution_options(synchronize_session=False)
    )
    return await _run_bulk(session, statement, reached, numbers, read_only)
