"""Reminders at run time: the scheduler that fires them and the fan-out that streams them to
the users with the web UI open (specs/reminders.md)."""
