"""Every SQL statement of one ``load_snapshot``, timed: where a load's time goes, statement by statement.

    DATABASE_URL=sqlite:////tmp/x.sqlite3 .venv/bin/python bench/statement_time.py OUT.json INPUT [INPUT…]
    … bench/statement_time.py --loaded FIRST OUT.json INPUT   (a reload: FIRST loaded untimed before)
    .venv/bin/python bench/statement_time.py --compare BEFORE.json AFTER.json [--rows 40]

Migrates the (empty) database ``DATABASE_URL`` names, then loads INPUT in this process with
Django's ``execute_wrapper`` around every statement; statements are grouped by their text with
numbers and parameter lists folded. Writes the load's total, and per statement its seconds and
count, to OUT.json. ``--compare`` lists the statements whose time moved most between two such
files. Run it from the checkout to measure (``cd`` into a worktree of the commit before).
"""

import collections
import json
import os
import re
import sys
import time


def _statement(sql: str) -> str:
    text = re.sub(r"\s+", " ", sql)
    text = re.sub(r"%s(, %s)*", "?", text)
    text = re.sub(r"\(\?\)(, \(\?\))*", "(?)", text)
    return re.sub(r"\b\d+\b", "N", text)[:160]


def measure(out: str, inputs: list[str], loaded: str | None = None) -> None:
    sys.path.insert(0, os.getcwd())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    spent: dict[str, list] = collections.defaultdict(lambda: [0.0, 0])

    def timed(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            entry = spent[_statement(sql)]
            entry[0] += time.perf_counter() - start
            entry[1] += 1

    call_command("migrate", verbosity=0)
    if loaded:
        call_command("load_snapshot", loaded, verbosity=0)
    start = time.perf_counter()
    with connection.execute_wrapper(timed):
        call_command("load_snapshot", *inputs)
    total = time.perf_counter() - start
    with open(out, "w") as f:
        json.dump({"total": total, "statements": dict(spent)}, f)
    print(f"load {total:.2f} s, SQL {sum(s for s, _ in spent.values()):.2f} s")


def compare(before_path: str, after_path: str, shown: int) -> None:
    with open(before_path) as f:
        before = json.load(f)
    with open(after_path) as f:
        after = json.load(f)
    b, a = before["statements"], after["statements"]
    print(
        f"load {before['total']:.2f} -> {after['total']:.2f} s, SQL "
        f"{sum(s for s, _ in b.values()):.2f} -> {sum(s for s, _ in a.values()):.2f} s"
    )
    moved = sorted(set(b) | set(a), key=lambda k: -abs(a.get(k, [0, 0])[0] - b.get(k, [0, 0])[0]))
    for text in moved[:shown]:
        (bs, bn), (as_, an) = b.get(text, [0, 0]), a.get(text, [0, 0])
        print(f"{bs:8.2f} {as_:8.2f} {as_ - bs:+8.2f}  {bn:>4}/{an:<4} {text}")


if __name__ == "__main__":  # the loader's reading workers import this module again
    if sys.argv[1:2] == ["--compare"]:
        rows = int(sys.argv[5]) if sys.argv[4:5] == ["--rows"] else 40
        compare(sys.argv[2], sys.argv[3], rows)
    elif sys.argv[1:2] == ["--loaded"]:
        measure(sys.argv[3], sys.argv[4:], loaded=sys.argv[2])
    else:
        measure(sys.argv[1], sys.argv[2:])
