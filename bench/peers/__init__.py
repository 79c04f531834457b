"""The delivery path's peers, run locally: a Web Push service written against the RFCs
(`push_service`) and an SMTP server (`smtp_server`). The tests (tests/notifications/,
tests/reliability/) use them to check what was sent, and `bench.delivery` to measure sending;
they live here because nothing outside tests/ may import `tests`."""
