"""Change notes (live updates of shared lists) are kept for KEPT_FOR, then pruned, on both
databases."""

from __future__ import annotations

from datetime import timedelta

from fastapi import FastAPI
from sqlmodel import col, select

from backend.core.timeutil import utcnow
from backend.models import ChangeNote
from backend.services import change_notes
from backend.services.change_notes import KEPT_FOR, Kind
from tests.conftest import UserSession


async def test_notes_older_than_they_are_kept_for_are_pruned_and_newer_ones_stay(
    app: FastAPI, user: UserSession
) -> None:
    async with app.state.sessionmaker() as session:
        await change_notes.note_users(session, [user.id], Kind.LISTS)
        await session.commit()
        later = utcnow() + KEPT_FOR + timedelta(seconds=1)
        kept = await change_notes.prune(session, now=utcnow())
        mine = select(ChangeNote).where(col(ChangeNote.user_id) == user.id)
        assert len((await session.exec(mine)).all()) == 1, kept
        await change_notes.prune(session, now=later)
        assert (await session.exec(mine)).all() == []
