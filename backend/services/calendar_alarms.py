"""A task's reminder as the VALARM of its event in the calendar feed (issue 33)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from icalendar import Alarm, vDuration

from backend.domain.due import due_instant, on_clock
from backend.domain.reminder_times import Due, relative
from backend.models import Task

# Before any reminder: `relative` then gives its instant whether or not it has passed.
_DAWN = datetime.min.replace(tzinfo=UTC)


def task_alarm(task: Task, zone_name: str, *, repeats: bool) -> Alarm | None:
    """The task's reminder as calendar apps alert (specs/api.md, "Calendar feed").

    An offset ("30 minutes before") is a trigger relative to the event's start, so it comes
    with every occurrence of a repeating task, as the service's own does; it stays after it
    fired (the next occurrence needs it, and apps do not alert for a time gone by). A fixed
    instant is an absolute trigger, which RFC 5545 fires once even on a repeating event, as
    the service does; once fired the task no longer has it, nor does the feed."""
    assert task.due_date is not None
    if task.remind_before is not None:
        due = Due(task.due_date, task.due_time, zone_name)
        fires = relative(due, task.remind_before, _DAWN).at
        start = due_instant(task.due_date, task.due_time, zone_name)
        reference = due.reference()
        assert fires is not None and start is not None and reference is not None
        # From the start an app counts from: the time, or an all-day event's midnight while
        # the domain counts from 09:00 that day ("PT9H" for "at its time"). Exact for this
        # occurrence; a repeating all-day event's later ones take 09:00 on the wall clock, so
        # only those on a day the clocks change are an hour off, not all of them.
        trigger: _ExactDuration | datetime = _ExactDuration(fires - start)
        if task.due_time is None and repeats:
            clock = on_clock(reference, zone_name)
            since_midnight = timedelta(hours=clock.hour, minutes=clock.minute)
            trigger = _ExactDuration(since_midnight - (reference - fires))
    elif task.remind_at is not None:
        trigger = task.remind_at.astimezone(UTC)
    else:
        return None
    component = Alarm()
    component.add("action", "DISPLAY")
    component.add("description", task.title)
    if isinstance(trigger, datetime):
        component.add("trigger", trigger, parameters={"VALUE": "DATE-TIME"})
    else:
        component.add("trigger", trigger)
    return component


class _ExactDuration(vDuration):
    """A duration in hours, minutes and seconds only ("-PT24H30M"). RFC 5545 counts a day
    ("-P1D") on the wall clock, 23 or 25 hours across a change of clocks, while a reminder's
    offset is exact: the domain takes its minutes from an instant."""

    def to_ical(self) -> bytes:
        total = int(self.td.total_seconds())
        hours, rest = divmod(abs(total), 3600)
        minutes, seconds = divmod(rest, 60)
        text = f"{hours}H" if hours else ""
        if minutes or (hours and seconds):  # "1H0M5S": RFC 5545 has no "1H5S"
            text += f"{minutes}M"
        if seconds or not text:
            text += f"{seconds}S"
        return f"{'-' if total < 0 else ''}PT{text}".encode()
