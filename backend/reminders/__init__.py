"""Reminders, in one package: the store of fired and pending reminders (`store`), the
scheduler that fires them and the fan-out that streams them to the users with the web UI
open (specs/reminders.md). Reminder *times* (when a task reminds) are domain rules:
backend/domain/reminder_times.py."""
