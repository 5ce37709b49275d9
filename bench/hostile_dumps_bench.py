"""Issue 34: how long, and in how much memory, the dump reader refuses a hostile JSON dump.

Two dumps, written to a temporary folder:

* ``nested``: a papers dump of one record that nests 100,000 levels deep (about 200 KB);
* ``long-string``: a papers dump of one record whose title is one string of 1 GB, gzipped
  (about 1 MB on disk);
* ``clean``: an ordinary papers dump of ``--clean-records`` records (default 100,000; an abstract
  of 1,000 characters, three authors, two tasks, a method each), gzipped: what the bounds cost a
  dump that has nothing wrong with it (read through, not refused).

Each is read by the loader's reader (``archive.records``, what ``load_snapshot`` reads a dump
with) in a child process of its own; its wall time and peak RSS (``ru_maxrss`` of the child) are
reported, with what the reader said. ``--before`` also runs the reader the loader had before
issue 34 (``ijson.items`` over the gzip stream, as ``archive._json_records`` was) under a cap on
its address space (``--before-cap-gb``, default 4) and a time-out (``--before-timeout``, default
120 s), so that it cannot take the machine down.

    .venv/bin/python bench/hostile_dumps_bench.py --runs 3 --before
"""

import argparse
import gzip
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAPER = "https://paperswithcode.com/paper/deep"

AFTER = """
import os, sys, django
sys.path.insert(0, {root!r})
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from catalogue.loader import archive
from catalogue.loader.documents import SnapshotError
dump = archive.open_dump({folder!r}, {name!r})
import time
start = time.perf_counter()
try:
    n = sum(1 for _ in archive.records(dump))
    print(f"read {{n}} records in {{time.perf_counter() - start:.2f}} s")
except SnapshotError as exc:
    print(f"refused: {{str(exc)[:160]}}")
"""

BEFORE = """
import gzip, resource, time, ijson
cap = {cap}
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
path = {path!r}
with open(path, "rb") as raw:
    stream = gzip.open(raw) if raw.read(2) == b"\\x1f\\x8b" else raw
    raw.seek(0)
    start = time.perf_counter()
    try:
        n = sum(1 for _ in ijson.items(stream, "item", use_float=True))
        print(f"read {{n}} records in {{time.perf_counter() - start:.2f}} s")
    except MemoryError:
        print("MemoryError (address space capped)")
    except ijson.JSONError as exc:
        print(f"refused: {{exc}}")
"""


def write_dumps(folder: Path) -> dict[str, Path]:
    nested = folder / "papers-with-abstracts-nested.json"
    depth = 100_000
    nested.write_text(
        '[{"paper_url": "' + PAPER + '", "title": "Deep", "extra": ' + "[" * depth + "]" * depth + "}]"
    )
    long_string = folder / "papers-with-abstracts-long.json.gz"
    with gzip.open(long_string, "wb", compresslevel=9) as out:
        out.write(b'[{"paper_url": "' + PAPER.encode() + b'", "title": "')
        chunk = b"a" * (1 << 24)
        for _ in range(64):  # 64 × 16 MB = 1 GB
            out.write(chunk)
        out.write(b'"}]')
    return {"nested": nested, "long-string": long_string}


def write_clean(folder: Path, n: int) -> Path:
    clean = folder / "papers-with-abstracts-clean.json.gz"
    with gzip.open(clean, "wt", compresslevel=6) as out:
        out.write("[")
        for i in range(n):
            record = {
                "paper_url": f"{PAPER}-{i}",
                "arxiv_id": f"2001.{i:05d}",
                "title": f"Paper number {i}",
                "abstract": ("An abstract of a paper, word after word. " * 25)[:1000],
                "authors": ["Ada Lovelace", "Alan Turing", f"Author {i}"],
                "tasks": ["Image Classification", "Object Detection"],
                "date": "2020-01-02",
                "methods": [{"name": "ResNet", "full_name": "Residual Network", "description": "A network."}],
            }
            out.write(("," if i else "") + json.dumps(record))
        out.write("]")
    return clean


def run(code: str, timeout: float) -> tuple[float, float, str]:
    """(seconds, peak RSS in MB, what it printed) of ``code`` run in a child Python."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT, text=True
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
        said = (out.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        said = f"still running after {timeout:.0f} s: killed"
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return seconds, peak, said


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", action="store_true", help="also run the reader of before issue 34")
    parser.add_argument("--before-cap-gb", type=float, default=4.0)
    parser.add_argument("--before-timeout", type=float, default=120.0)
    parser.add_argument("--clean-records", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        dumps = write_dumps(folder)
        if args.clean_records:
            dumps["clean"] = write_clean(folder, args.clean_records)
        for label, path in dumps.items():
            print(f"{label}: {path.name}, {path.stat().st_size:,} bytes on disk")
        rows = []
        for label, path in dumps.items():
            versions = [("after", AFTER.format(root=str(ROOT), folder=str(folder), name=path.name), 600.0)]
            if args.before:
                cap = int(args.before_cap_gb * 2**30)
                versions.append(("before", BEFORE.format(cap=cap, path=str(path)), args.before_timeout))
            for version, code, timeout in versions:
                times, peaks = [], []
                for _ in range(args.runs):
                    # each child is measured alone: ru_maxrss of RUSAGE_CHILDREN is the largest child
                    # so far, so every run goes through a fresh grandchild (see _isolated)
                    seconds, peak, said = _isolated(code, timeout)
                    times.append(seconds)
                    peaks.append(peak)
                rows.append((label, version, times, peaks, said))
                print(
                    f"{label:<12} {version:<6} median {statistics.median(times):6.2f} s, "
                    f"{statistics.median(peaks):7.0f} MB peak; runs: "
                    + ", ".join(f"{t:.2f} s/{p:.0f} MB" for t, p in zip(times, peaks, strict=True))
                    + f"; {said}",
                    flush=True,
                )


def _isolated(code: str, timeout: float) -> tuple[float, float, str]:
    """``run`` in a fresh process, so that its RUSAGE_CHILDREN peak is this child's alone."""
    wrapper = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'bench')!r})\n"
        "from hostile_dumps_bench import run\n"
        f"print(json.dumps(run({code!r}, {timeout!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", wrapper], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout
    seconds, peak, said = json.loads(out.strip().splitlines()[-1])
    return seconds, peak, said


if __name__ == "__main__":
    main()
