"""The chat turn: the user's message stored first, the assistant run within its limits, the
reply stored before the budget ends, idempotent retries and shutdown (`turns`), and the
statement-level storage that makes it cheap on PostgreSQL (`turn_statements`). Sits between
the API and the agent."""
