# The two commands a newcomer needs: `make run` (the service and its web UI on
# http://127.0.0.1:8000) and `make test` (lint, type checks, UI tests and the whole test
# suite, browser tests included). Both set everything up first.
.PHONY: run test setup frontend lint typecheck ui-test pytest migrate openapi

VENV := .venv/bin

setup:
	@./scripts/bootstrap.sh

frontend:
	@./scripts/build_frontend.sh

run: setup frontend
	$(VENV)/todo-chatbot serve

migrate: setup
	$(VENV)/todo-chatbot migrate

openapi: setup
	$(VENV)/python -m scripts.export_openapi
	cd frontend && npm run --silent gen:api

lint: setup
	$(VENV)/ruff check backend mcp_tools tests bench scripts
	$(VENV)/ruff format --check backend mcp_tools tests bench scripts

typecheck: setup
	$(VENV)/mypy

ui-test: frontend
	cd frontend && npx openapi-typescript openapi.json -o src/api/schema.d.ts --check
	cd frontend && npm run --silent typecheck && npm test --silent

pytest: setup frontend
	@./scripts/ensure_chromium.sh
	$(VENV)/pytest

test: lint typecheck ui-test pytest
