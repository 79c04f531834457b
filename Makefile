# The two commands a newcomer needs: `make run` (the service and its web UI on
# http://127.0.0.1:8000) and `make test` (lint, type checks, UI tests and the whole test
# suite, browser tests included). Each sets up what it needs first: `make run` only the
# runtime packages and the built UI, `make test` the dev tools and a browser as well.
.PHONY: run test setup setup-runtime frontend lint typecheck ui-test pytest migrate openapi explore

VENV := .venv/bin

# What serving needs: the project and its runtime dependencies.
setup-runtime:
	@./scripts/bootstrap.sh runtime

# Everything: the runtime plus the test, lint and type-check tools (the `dev` extra).
setup:
	@./scripts/bootstrap.sh dev

frontend:
	@./scripts/build_frontend.sh

run: setup-runtime frontend
	$(VENV)/todo-chatbot serve

migrate: setup-runtime
	$(VENV)/todo-chatbot migrate

openapi: setup
	$(VENV)/python -m scripts.export_openapi
	cd frontend && npm run --silent gen:api

# Random exploration of the API with Schemathesis, a fresh seed each run (see the docstring of
# scripts/explore_api.py; e.g. `make explore ARGS="--database postgresql --max-examples 500"`).
explore: setup
	$(VENV)/python -m scripts.explore_api $(ARGS)

lint: setup
	$(VENV)/ruff check backend mcp_tools corpus tests bench scripts
	$(VENV)/ruff format --check backend mcp_tools corpus tests bench scripts
	$(VENV)/lint-imports

typecheck: setup
	$(VENV)/mypy

ui-test: frontend
	cd frontend && npx openapi-typescript openapi.json -o src/api/schema.d.ts --check
	cd frontend && npm run --silent typecheck && npm test --silent
	cd frontend && npm run --silent lint && npm run --silent format:check

pytest: setup frontend
	@./scripts/ensure_chromium.sh
	$(VENV)/pytest

test: lint typecheck ui-test pytest
