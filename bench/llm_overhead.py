"""What the server adds to an LLM brain's own latency (issue 16, target 5):
`.venv/bin/python -m bench.llm_overhead`.

    .venv/bin/python -m bench.llm_overhead              # 40 turns each way, PostgreSQL
    .venv/bin/python -m bench.llm_overhead --quick      # a smoke run
    .venv/bin/python -m bench.llm_overhead --history 48 # turns of a conversation 48 messages long
    .venv/bin/python -m bench.llm_overhead --first-token-ms 0 --chunk-gap-ms 0  # an instant model

A fake OpenAI-compatible model (`bench.fake_llm`: a fixed 200 ms to the first token, then
the text in five pieces 10 ms apart) serves a real uvicorn server (one worker,
`AGENT_BRAIN=compatible`) on a fresh PostgreSQL database. Each turn asks "what's on my list?"
in a new conversation (with `--history N`, in one conversation already N messages long, as
a real chat is): the model asks for `list_tasks`, the MCP tool runs, the model answers.

- **Added per turn** (`POST /api/chat`): the turn's wall time at the client less the time the
  model server spent on its two requests (from each request reaching the model's app to the
  last byte of its response written, see `bench.fake_llm`). What remains is the server's own
  work (HTTP, auth, storing, the Runner, the MCP call, the `openai` client) and the loopback
  hops to the model.
- **Of which the turn itself**: the same request to a second server on the same database with
  the rules brain, whose model is in-process (no HTTP, one model step), turn for turn
  alternated with the LLM turns so both see the same machine. It is the part every brain
  pays (HTTP, auth, the chat limit, storing the message and the reply, the Runner, the MCP
  call), which `bench.turn_cost` and target 1 are about.
- **Of which the LLM path**: each LLM turn's added time less the rules turn next to it: the
  two requests through the `openai` client, their loopback hops, the Runner's second model
  step and converting the conversation for the model.
- **First text byte** (`POST /api/chat/stream`, a new conversation each turn): when the client
  reads the first `delta` event, less when the model wrote its first text token (the same
  machine's clock).

With an instant model (`--first-token-ms 0 --chunk-gap-ms 0`) the server never sits idle in a
turn; the LLM path then shows the work alone, without what the machine adds when the worker
wakes from a wait with its caches gone cold (see the README).

Targets: at most 5 ms added per turn (median), first text within 5 ms (median).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from bench import stats
from bench.fake_llm import FakeModel
from bench.report import markdown_table
from bench.run import Databases, python_speed_ms
from bench.server import register_accounts, serve_in_thread, server

TARGET_ADDED_MS = 5.0
TARGET_FIRST_TEXT_MS = 5.0
QUESTION = "what's on my list?"
TITLES = ("buy milk", "call mom", "finish the report")


def _percentiles(values: list[float]) -> tuple[float, float, float]:
    summary = stats.summarize(values)
    return round(summary.median, 2), round(summary.p95, 2), round(summary.max, 2)


class _Account:
    """A client of one server, signed in as a fresh account with three tasks. With `history`,
    its turns continue one conversation that already holds that many messages; without, each
    turn starts a new one."""

    def __init__(self, http: httpx.Client, prefix: str, history: int = 0) -> None:
        [account] = register_accounts(str(http.base_url), 1, prefix)
        self.http = http
        self.headers = {"Authorization": f"Bearer {account['token']}"}
        self.continues = history > 0
        self.conversation_id: int | None = None
        for title in TITLES:
            http.post("/api/tasks", json={"title": title}, headers=self.headers)
        for _ in range(0, history, 2):  # a turn stores the message and the reply
            self.turn()

    def turn(self) -> float:
        """One turn: its wall time at the client, in seconds."""
        body: dict[str, object] = {"message": QUESTION}
        if self.conversation_id is not None:
            body["conversation_id"] = self.conversation_id
        started = time.perf_counter()
        response = self.http.post("/api/chat", json=body, headers=self.headers)
        wall = time.perf_counter() - started
        response.raise_for_status()
        assert response.json()["tool_calls"], response.text
        if self.continues:
            self.conversation_id = response.json()["conversation_id"]
        return wall


def _added(
    llm: _Account, rules: _Account, model: FakeModel, turns: int
) -> tuple[list[float], list[float]]:
    """Per turn, ms: what the server added to the model's time, and a rules turn's time."""
    added, own = [], []
    for _ in range(turns):
        own.append(rules.turn() * 1000)
        before = len(model.served)
        wall = llm.turn()
        spent = sum(served.seconds for served in model.served[before:])
        added.append((wall - spent) * 1000)
    return added, own


def _first_text(llm: _Account, model: FakeModel, turns: int) -> list[float]:
    delays = []
    for _ in range(turns):
        before = len(model.served)
        first_delta: float | None = None
        with llm.http.stream(
            "POST", "/api/chat/stream", json={"message": QUESTION}, headers=llm.headers
        ) as stream:
            for line in stream.iter_lines():
                if line.startswith("event: delta") and first_delta is None:
                    first_delta = time.time()
        written = [s.first_text_at for s in model.served[before:] if s.first_text_at]
        if first_delta is None or not written:
            raise RuntimeError("the streamed turn sent no text")
        delays.append((first_delta - written[0]) * 1000)
    return delays


@contextmanager
def _client(base: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=60) as http:
        yield http


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.llm_overhead", description=__doc__)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--history",
        type=int,
        default=0,
        help="messages already in the conversation each measured turn continues (0: a new "
        "conversation each turn); the server sends up to CONTEXT_WINDOW_MESSAGES of them",
    )
    parser.add_argument(
        "--first-token-ms",
        type=float,
        default=200.0,
        help="the model's latency to its first token (0 with --chunk-gap-ms 0: a model that "
        "answers at once, so the server never waits idle in a turn)",
    )
    parser.add_argument("--chunk-gap-ms", type=float, default=10.0)
    args = parser.parse_args()
    turns = 5 if args.quick else args.turns
    model = FakeModel(
        first_token_seconds=args.first_token_ms / 1000,
        chunk_gap_seconds=args.chunk_gap_ms / 1000,
    )
    base_url, fake, _thread = serve_in_thread(model.app())
    model_url = f"{base_url}/v1"
    print(f"python speed: {python_speed_ms()} ms (a fixed loop; lower is faster)")
    print(
        f"model: {model.first_token_seconds * 1000:.0f} ms to the first token, "
        f"{model.model_seconds() * 1000:.0f} ms a response; two responses a turn; "
        f"{args.history} messages of history\n"
    )
    with tempfile.TemporaryDirectory() as directory:
        databases = Databases(Path(directory))
        try:
            url = databases.url("postgresql")
            with (
                server(
                    url,
                    1,
                    Path(directory) / "llm.log",
                    agent_brain="compatible",
                    openai_base_url=model_url,
                    openai_model="fake-model",
                ) as (llm_base, _llm_process),
                server(url, 1, Path(directory) / "rules.log") as (rules_base, _rules_process),
                _client(llm_base) as llm_http,
                _client(rules_base) as rules_http,
            ):
                llm = _Account(llm_http, "llm", args.history)
                rules = _Account(rules_http, "rules", args.history)
                _added(llm, rules, model, 3)  # warm: connections, first-call costs
                added, own = _added(llm, rules, model, turns)
                first = _first_text(llm, model, turns)
        finally:
            databases.drop()
            fake.should_exit = True
    llm_path = [one - other for one, other in zip(added, own, strict=True)]
    rows = [
        ("server time added a turn (ms: median / p95 / max)", added, TARGET_ADDED_MS),
        ("first text byte after the model's (ms: median / p95 / max)", first, TARGET_FIRST_TEXT_MS),
        ("of the time added: the turn itself, the rules brain's same turn (ms)", own, None),
        ("of the time added: the LLM path, added less that rules turn (ms)", llm_path, None),
    ]
    cells = []
    for label, values, target in rows:
        median, p95, worst = _percentiles(values)
        figure = f"{median} / {p95} / {worst}"
        if target is None:
            cells.append((label, figure, "", ""))
            continue
        met = "yes" if median <= target else "NO"
        cells.append((label, figure, f"<= {target} ms median", met))
    print(markdown_table(("measure", "PostgreSQL", "target", "met"), cells))


if __name__ == "__main__":
    main()
