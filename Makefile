# The two commands a newcomer needs: `make run` (the service on http://127.0.0.1:8000)
# and `make test` (lint, type checks and the whole test suite). Both set everything up first.
.PHONY: run test setup lint typecheck pytest migrate

VENV := .venv/bin

setup:
	@./scripts/bootstrap.sh

run: setup
	$(VENV)/todo-chatbot serve

migrate: setup
	$(VENV)/todo-chatbot migrate

lint: setup
	$(VENV)/ruff check backend mcp_tools tests
	$(VENV)/ruff format --check backend mcp_tools tests

typecheck: setup
	$(VENV)/mypy

pytest: setup
	$(VENV)/pytest

test: lint typecheck pytest
