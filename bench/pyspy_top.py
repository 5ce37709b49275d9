"""Where a load's wall time goes: the top functions of a py-spy profile of ``load_snapshot``.

    .venv/bin/py-spy record --idle --subprocesses --rate 50 --format raw -o PROFILE.txt -- \
        .venv/bin/python manage.py load_snapshot -v0 SNAPSHOT
    .venv/bin/python bench/pyspy_top.py PROFILE.txt [--top 10] [--out PROFILE.md]

Why this reading of the profile: the load's main thread drives everything (it waits for the
reading workers, then runs the merge), so with ``--idle`` its samples are its wall time, and a
function's share of them (any frame of the stack, counted once per sample: "inclusive") is its
share of the load's wall time; "self" is the share where it is the innermost frame. The
reading workers' own CPU samples are summed apart. Functions are named without line numbers
(``where_from (catalogue/loader/merge/resolve.py)``).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

_LINE = re.compile(r"^(.*) (\d+)$")
_AT_LINE = re.compile(r":\d+\)$")


def read(path: Path):
    """(process chain, frames, count) per collapsed stack of py-spy's raw output."""
    for line in path.read_text().splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        parts = match[1].split(";")
        processes = [p for p in parts if p.startswith("process ")]
        frames = [_AT_LINE.sub(")", p) for p in parts if not p.startswith(("process ", "thread "))]
        yield processes, frames, int(match[2])


# The merge's SQL helpers (execute, rows, materialize…): the SQL they run is their caller's.
HELPERS = ("catalogue/loader/merge/sql.py",)


def top(path: Path, n: int = 10, project: str = "(catalogue/") -> str:
    """Markdown: the project's functions by inclusive share of the main thread's samples, each
    with its share as the innermost project frame (the SQL a function runs through the merge's
    helpers counts as its own); then the innermost frames of all code."""
    inclusive, innermost, own = Counter(), Counter(), Counter()
    main_samples = worker_samples = 0
    for processes, frames, count in read(path):
        if any("forkserver" in p for p in processes):  # a reading worker (under the forkserver)
            worker_samples += count
            continue
        if not frames or not frames[0].startswith("<module> (manage.py"):
            continue  # another thread of the main process (the pool's manager thread)
        main_samples += count
        ours = [fn for fn in frames if project in fn and not any(h in fn for h in HELPERS)]
        for fn in set(ours):
            inclusive[fn] += count
        innermost[ours[-1] if ours else "(outside the project: start-up, Django)"] += count
        own[frames[-1]] += count
    if not main_samples:
        sys.exit(f"{path}: no samples of manage.py's main thread")
    lines = [
        f"main thread: {main_samples:,} samples (its wall time); reading workers: {worker_samples:,} samples",
        "",
        "| function | share of wall (inclusive) | as innermost project frame |",
        "|---|---|---|",
    ]
    for fn, count in inclusive.most_common(n):
        lines.append(f"| `{fn}` | {count / main_samples:.1%} | {innermost[fn] / main_samples:.1%} |")
    lines += ["", "| innermost project frame | share of wall |", "|---|---|"]
    for fn, count in innermost.most_common(n):
        lines.append(f"| `{fn}` | {count / main_samples:.1%} |")
    lines += ["", "| innermost frame of any code (self) | share of wall |", "|---|---|"]
    for fn, count in own.most_common(n):
        lines.append(f"| `{fn}` | {count / main_samples:.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    report = top(args.profile, args.top)
    print(report)
    if args.out:
        args.out.write_text(report + "\n")


if __name__ == "__main__":
    main()
