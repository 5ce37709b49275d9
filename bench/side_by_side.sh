#!/usr/bin/env bash
# One side-by-side run of the loader and the pages against what users would pick instead
# (issue 16's "Done when"), every step on the same machine, one after the other:
#
#   bash bench/side_by_side.sh [loads|pages|all]     (default: all; a step whose output exists is skipped)
#
# loads, each load its own process, timed whole with the peak RSS of its process tree:
#   1. 20,000 papers, seed format: load_snapshot vs sqlite-utils vs raw executemany vs parse on SQLite,
#      vs COPY on PostgreSQL, medians of 3                         -> bench/out/load-*.md
#   2. 20,000 papers, archive dumps (Parquet): the same on both databases, medians of 3
#                                                                  -> bench/out/dumps-20000.md
#   3. archive size, PostgreSQL vs COPY, one run each (a run is 15-25 minutes here):
#      the dumps at 576,000 papers                                 -> bench/out/dumps-576000.md
#      the seed format at 500,000 papers                           -> bench/out/archive-500000.md
#   4. the seed format at 20,000 and 500,000 papers into the SQLite files the pages are served
#      from (timed, peak RSS)                                      -> bench/out/pages/load-*.txt
# pages: wrk (-t2 -c16 -d10s, and one connection) on the uncached and the cached paper,
#   code-entry, leaderboard and search pages and their API equivalents, Datasette serving a copy
#   of the same file, /healthz and /about (a page with no database: the template floor), 3 rounds,
#   at 20,000 and 500,000 papers
#                                                                  -> bench/out/pages-matrix-*.md
# The machine's load average is written beside every figure: these 2 cores are shared.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
OUT=bench/out
what=${1:-all}
mkdir -p "$OUT/pages"
stamp() { echo "== $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg): $*" >&2; }

load_sqlite() {  # a seed snapshot into the SQLite file the pages bench serves, timed
    local papers=$1 db="$OUT/pages/catalogue-$1.sqlite3" data="$OUT/data/papers-$1-seed-0"
    [[ -e "$OUT/pages/load-$papers.txt" && -e "$db" ]] && return
    rm -f "$db" "$db"-*
    DATABASE_URL="sqlite:///$PWD/$db" $PY manage.py migrate -v0
    stamp "load_snapshot $papers papers into SQLite"
    DATABASE_URL="sqlite:///$PWD/$db" /usr/bin/time -v -o "$OUT/pages/load-$papers.time" \
        $PY manage.py load_snapshot -v0 "$data" >/dev/null
    { echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; cat "$OUT/pages/load-$papers.time"; } \
        >"$OUT/pages/load-$papers.txt"
}

if [[ $what == loads || $what == all ]]; then
    for papers in 20000 500000; do  # generated once (streams; 500,000 is about 4 minutes)
        $PY -c "import sys; sys.path.insert(0, 'bench'); from load_bench import ensure_snapshot, OUT; \
ensure_snapshot($papers, 0, OUT / 'data')"
    done
    [[ -e $OUT/load-20000.md ]] || { stamp "load_bench 20000"; $PY bench/load_bench.py --papers 20000 --runs 3 \
        --backends sqlite postgres --peers ours sqlite-utils raw parse; }
    [[ -e $OUT/dumps-20000.md ]] || { stamp "dumps_bench 20000"; $PY bench/dumps_bench.py --papers 20000 \
        --forms parquet --backends sqlite postgres --runs 3; }
    [[ -e $OUT/dumps-576000.md ]] || { stamp "dumps_bench 576000"; $PY bench/dumps_bench.py --papers 576000 \
        --forms parquet --backends postgres --runs 1; }
    [[ -e $OUT/archive-500000.md ]] || { stamp "archive_bench 500000"; $PY bench/archive_bench.py --papers 500000; }
    load_sqlite 20000
    load_sqlite 500000
fi
if [[ $what == pages || $what == all ]]; then
    for papers in 20000 500000; do
        [[ -e $OUT/pages-matrix-$papers.md ]] || { stamp "pages matrix $papers"; $PY bench/pages_bench.py \
            --papers "$papers" --reuse --runs 3 --duration 10; }
    done
fi
stamp done
