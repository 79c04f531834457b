"""Fired reminders beyond the open page: the outbox, Web Push, email and the daily digest
(specs/notifications.md)."""
