"""The repository's Markdown links resolve, and none leaves the repository
(scripts/check_doc_links.py)."""

from __future__ import annotations

from pathlib import Path

from scripts.check_doc_links import check, main, slug

ROOT = Path(__file__).resolve().parents[2]


def test_every_markdown_link_in_the_repository_resolves() -> None:
    problems = check(ROOT)
    assert not problems, "\n".join(str(problem) for problem in problems)


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "repo" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path / "repo"


def _messages(root: Path) -> list[str]:
    return [f"{problem.path}:{problem.line}: {problem.message}" for problem in check(root)]


def test_links_to_files_and_headings_that_exist_pass(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        {
            "README.md": "# Top\n\nSee [the spec](specs/api.md#the-api-in-short), [code](src/),\n"
            "[here](#top), [web](https://example.com/x.md) and [mail](mailto:a@b.c).\n",
            "specs/api.md": "# The API, in short\n\n[back](../README.md)\n",
            "src/main.py": "",
        },
    )
    assert _messages(root) == []


def test_a_missing_file_a_missing_heading_and_a_reference_link_are_reported(
    tmp_path: Path,
) -> None:
    root = _repo(
        tmp_path,
        {
            "README.md": "# Top\n\n[gone](specs/gone.md)\n[no heading](#nowhere)\n\n"
            "[ref]: specs/also-gone.md\n",
        },
    )
    assert _messages(root) == [
        "README.md:3: no such file: specs/gone.md",
        "README.md:4: no heading #nowhere in README.md",
        "README.md:6: no such file: specs/also-gone.md",
    ]


def test_links_that_leave_the_repository_are_refused(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "design.md").write_text("# Design\n", encoding="utf-8")
    root = _repo(
        tmp_path,
        {
            "specs/a.md": "[up](../../shared/design.md) [abs](/work/main/README.md)\n"
            "[file](file:///etc/passwd) and `../../shared/design.md` in code\n"
            "`../shared/spec.md` names nothing here; `../specs/a.md` does\n",
        },
    )
    assert _messages(root) == [
        "specs/a.md:1: link leaves the repository: ../../shared/design.md",
        "specs/a.md:1: absolute path (links must be relative to the file): /work/main/README.md",
        "specs/a.md:2: path outside the repository: ../../shared/design.md",
        "specs/a.md:2: link to a file outside the repository: file:///etc/passwd",
        "specs/a.md:3: no such file: ../shared/spec.md",
    ]


def test_links_in_code_blocks_and_code_spans_are_not_links(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        {
            "README.md": "```\n[x](missing.md)\n```\n`[y](missing.md)` and ~~~ is prose\n"
            "~~~md\n[z](missing.md)\n~~~\n",
        },
    )
    assert _messages(root) == []


def test_dependencies_and_build_output_are_not_checked(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        {
            "frontend/node_modules/pkg/README.md": "[x](missing.md)\n",
            "frontend/dist/notes.md": "[x](missing.md)\n",
            ".venv/lib/README.md": "[x](missing.md)\n",
        },
    )
    assert _messages(root) == []


def test_headings_become_anchors_as_github_makes_them() -> None:
    assert slug("Stopping, your data, starting over") == "stopping-your-data-starting-over"
    assert slug("The `list_tasks` tool (MCP)") == "the-list_tasks-tool-mcp"
    assert slug("0.3 and 0.9: the thresholds") == "03-and-09-the-thresholds"


def test_the_command_exits_1_on_a_problem_and_0_without(tmp_path: Path) -> None:
    bad = _repo(tmp_path, {"README.md": "[gone](gone.md)\n"})
    assert main([str(bad)]) == 1
    (bad / "gone.md").write_text("# Here\n", encoding="utf-8")
    assert main([str(bad)]) == 0
