"""Checks the links of the repository's Markdown files: `python -m scripts.check_doc_links`.

Every relative link in a `*.md` file (inline `[text](target)`, images, reference definitions
`[id]: target`) must name a file or directory that exists in the repository, and a link to a
heading of a Markdown file (`page.md#a-heading`, `#a-heading`) must name a heading it has. No
link may leave the repository: absolute paths (`/work/...`, `file://...`) and `../` paths that
climb out of it are refused. A `../` path in inline code must name something in the
repository too (`../shared/spec.md` does not). Web links (`https://...`, `mailto:`) are not
fetched. Links inside fenced code blocks are not links.

Prints one line per problem (`path:line: what`) and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

# Directories never searched: dependencies, build output, caches, virtual environments.
SKIPPED_DIRS = frozenset(
    {"node_modules", "dist", "build", "test-artifacts", "__pycache__", "venv", "data"}
)

_FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_INLINE_LINK = re.compile(
    r"!?\[(?:[^\]\\]|\\.)*\]\(\s*(?P<target><[^>]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(?P<target><[^>]*>|\S+)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*?)\s*#*\s*$")


@dataclass(frozen=True)
class Problem:
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def _skipped(directory: str) -> bool:
    return directory.startswith(".") or directory in SKIPPED_DIRS or directory.endswith(".egg-info")


def markdown_files(root: Path) -> Iterator[Path]:
    """The repository's Markdown files, without dependencies, build output and dot folders
    (never walked into: `node_modules` alone holds tens of thousands of files)."""
    found: list[Path] = []
    for folder, directories, files in os.walk(root):
        directories[:] = [d for d in directories if not _skipped(d)]
        found.extend(Path(folder) / name for name in files if name.endswith(".md"))
    yield from sorted(found)


def _prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """Each line outside fenced code blocks, numbered from 1."""
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        yield number, line


def slug(heading: str) -> str:
    """A heading's anchor, as GitHub makes it: lower case, punctuation dropped, spaces to
    hyphens."""
    text = _CODE_SPAN.sub(lambda m: m.group(2), heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text only
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (a repeated one gets -1, -2, ...)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for _, line in _prose_lines(path.read_text(encoding="utf-8")):
        heading = _HEADING.match(line)
        if heading is None:
            continue
        base = slug(heading["text"])
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


class Checker:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._anchors: dict[Path, set[str]] = {}

    def _anchors_of(self, path: Path) -> set[str]:
        if path not in self._anchors:
            self._anchors[path] = anchors(path)
        return self._anchors[path]

    def target_problem(self, source: Path, target: str) -> str | None:
        """What is wrong with a link from `source` to `target`, or None."""
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1]
        if target.lower().startswith("file:"):
            return f"link to a file outside the repository: {target}"
        if _SCHEME.match(target):
            return None  # a web address or the like: not checked here
        path_part, _, fragment = target.partition("#")
        path_part = unquote(path_part.partition("?")[0])
        if path_part.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", path_part):
            return f"absolute path (links must be relative to the file): {target}"
        resolved = (source.parent / path_part).resolve() if path_part else source
        if not _inside(resolved, self.root):
            return f"link leaves the repository: {target}"
        if not resolved.exists():
            return f"no such file: {target}"
        if fragment and resolved.is_file() and resolved.suffix == ".md":
            if fragment.lower() not in self._anchors_of(resolved):
                return f"no heading #{fragment} in {resolved.relative_to(self.root)}"
        return None

    def code_problem(self, source: Path, code: str) -> str | None:
        """Inline code naming a `../` path that climbs out of the repository or names nothing
        in it (`../shared/spec.md`)."""
        for word in code.split():
            if not word.startswith("../"):
                continue
            resolved = (source.parent / word.rstrip(".,;:)")).resolve()
            if not _inside(resolved, self.root):
                return f"path outside the repository: {word}"
            if not resolved.exists():
                return f"no such file: {word}"
        return None

    def check_file(self, path: Path) -> list[Problem]:
        problems: list[Problem] = []
        shown = path.relative_to(self.root)
        for number, line in _prose_lines(path.read_text(encoding="utf-8")):
            for span in _CODE_SPAN.finditer(line):
                problem = self.code_problem(path, span.group(2))
                if problem is not None:
                    problems.append(Problem(shown, number, problem))
            prose = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
            targets = [m["target"] for m in _INLINE_LINK.finditer(prose)]
            reference = _REFERENCE.match(prose)
            if reference is not None:
                targets.append(reference["target"])
            for target in targets:
                problem = self.target_problem(path, target)
                if problem is not None:
                    problems.append(Problem(shown, number, problem))
        return problems

    def check(self) -> list[Problem]:
        problems: list[Problem] = []
        for path in markdown_files(self.root):
            problems.extend(self.check_file(path.resolve()))
        return problems


def check(root: Path) -> list[Problem]:
    """Every problem with the links of the Markdown files under `root` (the repository)."""
    return Checker(root).check()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    default_root = Path(__file__).resolve().parents[1]
    parser.add_argument("root", nargs="?", type=Path, default=default_root)
    args = parser.parse_args(argv)
    problems = check(args.root)
    for problem in problems:
        print(problem)  # noqa: T201 - a command-line check reports on stdout
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
