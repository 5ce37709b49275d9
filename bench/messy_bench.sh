#!/usr/bin/env bash
# Issue 35: the loader on the messy snapshot (bench/generate.py --messy), side by side, one step
# after the other on this machine (the README's "Issue 35: the messy snapshot"):
#
#   bash bench/messy_bench.sh [loads|profile|large|all]    (default: all; a step whose output exists is skipped)
#
# loads    20,000 papers, seeds 0 and 1: load_snapshot vs sqlite-utils vs raw executemany vs parse on
#          SQLite, vs COPY on PostgreSQL; after each of our loads a no-change reload and a 5 %-touched
#          reload (then --keep-going where refused); medians of 3, fresh database per load, round-robin
#                                                       -> bench/out/load-20000-seed-{0,1}-messy.{md,json}
# profile  py-spy on one SQLite load of the 20,000-paper messy snapshot (seed 0)
#                                                       -> bench/out/profile-20000-messy.{txt,md}
# large    100,000 papers, seed 0, SQLite: the peers once (load_bench), then our load once, stopped
#          after LARGE_TIMEOUT seconds (default 1200), with py-spy attached at 20 Hz and a py-spy dump
#          of its stack every 2 minutes (how far it got)
#                                                       -> bench/out/load-100000-seed-0-messy.md,
#                                                          bench/out/messy-100000-ours.{log,time,dumps,txt,md}
# The machine's load averages are written beside every figure: these 2 cores are shared.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
SPY=.venv/bin/py-spy  # pip install py-spy into the venv (not a project dependency)
OUT=bench/out
DATA=$OUT/data
what=${1:-all}
LARGE_TIMEOUT=${LARGE_TIMEOUT:-1200}
mkdir -p "$OUT"
stamp() { echo "== $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg): $*" >&2; }

fresh_sqlite() {  # a migrated, empty SQLite file; prints its path
    local dir
    dir=$(mktemp -d /tmp/cwp-messy-XXXXXX)
    DATABASE_URL="sqlite:///$dir/bench.sqlite3" $PY manage.py migrate -v0 >&2
    echo "$dir/bench.sqlite3"
}

if [[ $what == loads || $what == all ]]; then
    for seed in 0 1; do
        [[ -e $OUT/load-20000-seed-$seed-messy.md ]] && continue
        stamp "load_bench 20000 seed $seed, messy"
        $PY bench/load_bench.py --papers 20000 --seed "$seed" --mess all --reloads --runs 3 \
            --backends sqlite postgres --peers ours sqlite-utils raw parse
    done
fi

if [[ $what == profile || $what == all ]] && [[ ! -e $OUT/profile-20000-messy.md ]]; then
    snapshot=$DATA/papers-20000-seed-0-messy
    [[ -e $snapshot/.complete ]] || $PY -c "import sys; sys.path.insert(0, 'bench'); \
from load_bench import ensure_snapshot, OUT; ensure_snapshot(20000, 0, OUT / 'data', 'all')"
    db=$(fresh_sqlite)
    stamp "py-spy: load_snapshot 20000 messy, SQLite"
    DATABASE_URL="sqlite:///$db" $SPY record --idle --subprocesses --rate 50 --format raw \
        -o $OUT/profile-20000-messy.txt -- $PY manage.py load_snapshot -v0 "$snapshot" \
        >$OUT/profile-20000-messy.log 2>&1 || true
    stamp "py-spy done"
    { echo "load averages at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; echo;
      $PY bench/pyspy_top.py $OUT/profile-20000-messy.txt --top 12; } >$OUT/profile-20000-messy.md
    rm -rf "$(dirname "$db")"
fi

if [[ $what == large || $what == all ]]; then
    [[ -e $OUT/load-100000-seed-0-messy.md ]] || { stamp "load_bench 100000 peers, messy"; \
        $PY bench/load_bench.py --papers 100000 --seed 0 --mess all --runs 1 --backends sqlite \
            --peers sqlite-utils raw parse; }
    if [[ ! -e $OUT/messy-100000-ours.md ]]; then
        snapshot=$DATA/papers-100000-seed-0-messy
        db=$(fresh_sqlite)
        stamp "load_snapshot 100000 messy, SQLite, stopped after $LARGE_TIMEOUT s"
        start=$(date +%s)
        DATABASE_URL="sqlite:///$db" /usr/bin/time -v -o $OUT/messy-100000-ours.time \
            timeout -s TERM "$LARGE_TIMEOUT" $PY manage.py load_snapshot "$snapshot" \
            >$OUT/messy-100000-ours.log 2>&1 &
        runner=$!
        sleep 5
        pid=$(pgrep -f "^$PY manage.py load_snapshot $snapshot\$" | head -1)  # python, not time or timeout
        $SPY record --pid "$pid" --idle --subprocesses --rate 20 --format raw \
            -o $OUT/messy-100000-ours.txt >$OUT/messy-100000-ours.spy.log 2>&1 &
        spy=$!
        : >$OUT/messy-100000-ours.dumps
        while kill -0 "$pid" 2>/dev/null; do
            sleep 120
            kill -0 "$pid" 2>/dev/null || break
            { echo "== $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg)";
              $SPY dump --nonblocking --pid "$pid" 2>&1 | head -40 || true; } >>$OUT/messy-100000-ours.dumps
        done
        status=0
        wait "$runner" || status=$?
        wait "$spy" || true
        end=$(date +%s)
        { echo "exit status $status (124: stopped by the timeout) after $(( end - start )) s";
          echo "load averages at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; echo;
          $PY bench/pyspy_top.py $OUT/messy-100000-ours.txt --top 12; } >$OUT/messy-100000-ours.md
        rm -rf "$(dirname "$db")"
    fi
fi
stamp done
