"""Golden phrases of the due slot (backend/agent/rules/when.py), on a fixed clock.

Reference moment: Tuesday 24 November 2026, 19:30 on the user's clock. Each phrase names the
day and time it must mean, and the title left once it is taken out.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from backend.agent.rules.context import ConversationContext
from backend.agent.rules.when import find_due, whole_due

LONDON = ZoneInfo("Europe/London")
NOW = datetime(2026, 11, 24, 19, 30, tzinfo=LONDON)  # a Tuesday evening

GOLDEN: list[tuple[str, date, time | None, str]] = [
    ("pay rent tomorrow at 9", date(2026, 11, 25), time(9), "pay rent"),
    ("pay rent tomorrow at 9am", date(2026, 11, 25), time(9), "pay rent"),
    ("pay rent tomorrow 9:15", date(2026, 11, 25), time(9, 15), "pay rent"),
    ("finish report by friday", date(2026, 11, 27), None, "finish report"),
    ("finish report friday", date(2026, 11, 27), None, "finish report"),
    ("finish report by Fri", date(2026, 11, 27), None, "finish report"),
    ("dentist next tuesday evening", date(2026, 12, 1), time(18), "dentist"),
    ("dentist tuesday", date(2026, 12, 1), None, "dentist"),  # today is Tuesday: the next one
    ("dentist this thursday", date(2026, 11, 26), None, "dentist"),
    ("dentist on wed", date(2026, 11, 25), None, "dentist"),
    ("dentist on sat", date(2026, 11, 28), None, "dentist"),
    ("bins this sunday", date(2026, 11, 29), None, "bins"),
    ("pay bills on the 3rd", date(2026, 12, 3), None, "pay bills"),
    ("pay bills on the 30th", date(2026, 11, 30), None, "pay bills"),
    ("pay bills on the 24th", date(2026, 11, 24), None, "pay bills"),
    ("pay bills by the 31st", date(2026, 12, 31), None, "pay bills"),  # November has no 31st
    ("check oven in 2 hours", date(2026, 11, 24), time(21, 30), "check oven"),
    ("check oven in 45 minutes", date(2026, 11, 24), time(20, 15), "check oven"),
    ("check oven in half an hour", date(2026, 11, 24), time(20), "check oven"),
    ("check oven in an hour", date(2026, 11, 24), time(20, 30), "check oven"),
    ("call back in 5 hours", date(2026, 11, 25), time(0, 30), "call back"),
    ("renew passport in 3 weeks", date(2026, 12, 15), None, "renew passport"),
    ("renew passport in two days", date(2026, 11, 26), None, "renew passport"),
    ("renew passport in a month", date(2026, 12, 24), None, "renew passport"),
    ("invoice end of the month", date(2026, 11, 30), None, "invoice"),
    ("invoice by the end of the week", date(2026, 11, 27), None, "invoice"),
    ("invoice by end of day", date(2026, 11, 24), None, "invoice"),
    ("invoice eom", date(2026, 11, 30), None, "invoice"),
    ("call mom tonight", date(2026, 11, 24), time(20), "call mom"),
    ("call mom tonight at 10", date(2026, 11, 24), time(22), "call mom"),
    ("call mom today", date(2026, 11, 24), None, "call mom"),
    ("do laundry later today", date(2026, 11, 24), None, "do laundry"),
    ("water plants at 5pm", date(2026, 11, 25), time(17), "water plants"),  # 17:00 has passed
    ("water plants at 9pm", date(2026, 11, 24), time(21), "water plants"),
    ("water plants at 8:45 pm", date(2026, 11, 24), time(20, 45), "water plants"),
    ("water plants at 21:00", date(2026, 11, 24), time(21), "water plants"),
    ("call bank at 3", date(2026, 11, 25), time(15), "call bank"),
    ("gym at 7", date(2026, 11, 25), time(7), "gym"),
    ("pick up kids at noon", date(2026, 11, 25), time(12), "pick up kids"),
    ("meet steve at one pm tomorrow", date(2026, 11, 25), time(13), "meet steve"),
    ("pick up john tonight at eight", date(2026, 11, 24), time(20), "pick up john"),
    ("book flights dec 3", date(2026, 12, 3), None, "book flights"),
    ("book flights on 3 december", date(2026, 12, 3), None, "book flights"),
    ("book flights on the 3rd of december", date(2026, 12, 3), None, "book flights"),
    ("book flights jan 5", date(2027, 1, 5), None, "book flights"),
    ("book flights march 3", date(2027, 3, 3), None, "book flights"),
    ("book flights may 1st", date(2027, 5, 1), None, "book flights"),
    ("book flights on 2027-02-14", date(2027, 2, 14), None, "book flights"),
    ("xmas cards by 25/12", date(2026, 12, 25), None, "xmas cards"),
    ("meeting at 10:30 tomorrow", date(2026, 11, 25), time(10, 30), "meeting"),
    ("standup 9am friday", date(2026, 11, 27), time(9), "standup"),
    ("take out bins this weekend", date(2026, 11, 28), None, "take out bins"),
    ("take out bins next week", date(2026, 11, 30), None, "take out bins"),
    ("take out bins next month", date(2026, 12, 1), None, "take out bins"),
    ("mow lawn tomorrow morning", date(2026, 11, 25), time(9), "mow lawn"),
    ("mow lawn friday afternoon", date(2026, 11, 27), time(15), "mow lawn"),
    ("mow lawn in the morning", date(2026, 11, 25), time(9), "mow lawn"),
    ("send report tmrw", date(2026, 11, 25), None, "send report"),
    ("send report the day after tomorrow", date(2026, 11, 26), None, "send report"),
    ("library a week from today", date(2026, 12, 1), None, "library"),
    ("move the car before 8 tomorrow morning", date(2026, 11, 25), time(8), "move the car"),
    ("report due friday", date(2026, 11, 27), None, "report"),
    ("'call Mark' on Monday", date(2026, 11, 30), None, "'call Mark'"),
    # Said the way people say them (issue 32)
    ("call the bank tuesday week", date(2026, 12, 8), None, "call the bank"),
    ("call the bank monday week", date(2026, 12, 7), None, "call the bank"),
    ("pick up the kids half five tomorrow", date(2026, 11, 25), time(17, 30), "pick up the kids"),
    ("meet jo tomorrow at half past 3", date(2026, 11, 25), time(15, 30), "meet jo"),
    ("dentist friday at a quarter past two", date(2026, 11, 27), time(14, 15), "dentist"),
    ("dentist friday at quarter to six", date(2026, 11, 27), time(17, 45), "dentist"),
    ("renew the lease in a fortnight", date(2026, 12, 8), None, "renew the lease"),
    ("send invoices end of the month", date(2026, 11, 30), None, "send invoices"),
    ("call the vet first thing tomorrow", date(2026, 11, 25), time(9), "call the vet"),
    ("call the vet tomorrow first thing", date(2026, 11, 25), time(9), "call the vet"),
    ("call the vet first thing on friday", date(2026, 11, 27), time(9), "call the vet"),
    ("call the vet tomorrow at 5.30pm", date(2026, 11, 25), time(17, 30), "call the vet"),
    ("call the vet thurs", date(2026, 11, 26), None, "call the vet"),
    ("call the vet sat morning", date(2026, 11, 28), time(9), "call the vet"),
    ("call the vet 2moro", date(2026, 11, 25), None, "call the vet"),
    # a colon inside a time never ends it: "at 5" is no time of "at 5:30"
    (
        "call the vet at 5:30 to my list",
        date(2026, 11, 25),  # 17:30 has passed on the test's clock
        time(17, 30),
        "call the vet to my list",
    ),
]


@pytest.mark.parametrize(("text", "day", "clock", "rest"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_a_golden_phrase_means_its_day_and_time(
    text: str, day: date, clock: time | None, rest: str
) -> None:
    found = find_due(text, NOW)
    assert found is not None and found.unclear is None
    assert (found.day, found.clock) == (day, clock)
    assert found.remove_from(text) == rest


# Words that look like dates inside titles, and quoted text: never a due date.
NOT_DATES = [
    "call mark about the car",
    "buy a monitor",
    "march in the parade",
    "i may go to the gym",
    "buy sun cream",
    "sat nav update",
    "second hand shop",
    "2nd draft of essay",
    "read chapter 5",
    "buy 2 apples",
    "call 911",
    "fix the wed pipe",
    "mon ami pierre",
    "'call Mark on Monday'",
    '"pay rent tomorrow at 9"',
    "buy one apple",
    "the 3rd draft of the novel",
    "buy 3 eggs at 2 for 1",
    "go to the store every friday",
    "pay rent on the 30th of every month",
    "water the plants daily",
    "august rush dvd",
    "roast ingredients for the weekend lunch",
    "wednesday addams costume",
    "sat in the garden",
    "1️⃣ first thing",
    "do the first thing on the list",
    "half the pizza",
    "a quarter of the cake",
]


@pytest.mark.parametrize("text", NOT_DATES)
def test_words_that_only_look_like_dates_stay_in_the_title(text: str) -> None:
    assert find_due(text, NOW) is None


@pytest.mark.parametrize("text", ["taxes due 3/4", "party on feb 30", "book it for 2026-02-30"])
def test_a_date_that_reads_two_ways_or_none_is_asked_about(text: str) -> None:
    found = find_due(text, NOW)
    assert found is not None and found.unclear is not None


# The user's clock decides "today": the same instant is Wednesday at UTC+14 and still
# Tuesday at UTC-10.
@pytest.mark.parametrize(
    ("zone", "utc_now", "phrase", "day", "clock"),
    [
        # 23:30 local in Kiritimati (09:30 UTC): "tomorrow" is the next local day
        ("Pacific/Kiritimati", datetime(2026, 11, 24, 9, 30), "tomorrow", date(2026, 11, 25), None),
        # just after midnight there (10:10 UTC), the local day has turned
        (
            "Pacific/Kiritimati",
            datetime(2026, 11, 24, 10, 10),
            "tomorrow",
            date(2026, 11, 26),
            None,
        ),
        ("Pacific/Kiritimati", datetime(2026, 11, 24, 10, 10), "today", date(2026, 11, 25), None),
        # 23:30 local in Honolulu is 09:30 UTC the next day
        ("Pacific/Honolulu", datetime(2026, 11, 25, 9, 30), "today", date(2026, 11, 24), None),
        (
            "Pacific/Honolulu",
            datetime(2026, 11, 25, 9, 30),
            "at 11pm",
            date(2026, 11, 25),
            time(23),
        ),
        (
            "Pacific/Honolulu",
            datetime(2026, 11, 25, 10, 10),
            "tomorrow at 9",
            date(2026, 11, 26),
            time(9),
        ),
        # London, 00:30 GMT on the spring-forward night: two hours on is 03:30 BST
        (
            "Europe/London",
            datetime(2026, 3, 29, 0, 30),
            "in 2 hours",
            date(2026, 3, 29),
            time(3, 30),
        ),
        # and on the fall-back night, 00:30 BST plus two hours is 01:30 GMT
        (
            "Europe/London",
            datetime(2026, 10, 24, 23, 30),
            "in 2 hours",
            date(2026, 10, 25),
            time(1, 30),
        ),
        # that moment is already Sunday there: "sunday" is the next one
        (
            "Europe/London",
            datetime(2026, 10, 24, 23, 30),
            "sunday at 9",
            date(2026, 11, 1),
            time(9),
        ),
        (
            "Europe/London",
            datetime(2026, 10, 24, 23, 30),
            "today at 9",
            date(2026, 10, 25),
            time(9),
        ),
        # month ends and the leap day
        ("Europe/London", datetime(2028, 2, 28, 12, 0), "tomorrow", date(2028, 2, 29), None),
        (
            "Europe/London",
            datetime(2028, 2, 10, 12, 0),
            "end of the month",
            date(2028, 2, 29),
            None,
        ),
        ("Europe/London", datetime(2027, 1, 31, 12, 0), "in a month", date(2027, 2, 28), None),
        ("Europe/London", datetime(2026, 12, 31, 23, 30), "tomorrow", date(2027, 1, 1), None),
        ("Europe/London", datetime(2027, 2, 15, 12, 0), "on the 30th", date(2027, 3, 30), None),
    ],
)
def test_the_users_zone_decides_the_day(
    zone: str, utc_now: datetime, phrase: str, day: date, clock: time | None
) -> None:
    context = ConversationContext(zone=zone, now=utc_now.replace(tzinfo=UTC))
    found = find_due(f"call the bank {phrase}", context.local_now())
    assert found is not None
    assert (found.day, found.clock) == (day, clock)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("friday the 4th", date(2026, 12, 4)),
        ("Sunday, the 6th", date(2026, 12, 6)),
        ("tues the 1st", date(2026, 12, 1)),
    ],
)
def test_a_weekday_said_with_its_date_is_that_date(said: str, day: date) -> None:
    found = whole_due(said, NOW)
    assert found is not None
    assert found.day == day


def test_a_weekday_that_disagrees_with_its_date_reads_no_day() -> None:
    assert whole_due("thursday the 4th", NOW) is None
