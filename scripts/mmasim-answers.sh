#!/bin/sh
# Writes vectors/mmasim/<preset>.vec: for every preset MMA-Sim models, 2,000
# cases of ladder's seeded generator (probes/gen.c: half raw bit patterns
# with every special code, half finite cases built for cancellation, window
# edges, zero lanes and the bottom and top of the range) with MMA-Sim's D
# words. The cases are drawn by `ladder validate` through an exec device that
# records what it is asked (tee) and answers with ladder's own model, so the
# files hold exactly the generator's stream; MMA-Sim then answers all of them
# in one process (scripts/mmasim-oracle.py --fill).
#
#   scripts/mmasim-answers.sh [PYTHON] [LADDER] [PATTERN] [GEN]
#
# PYTHON must import mmasim and torch (default build/peers/bin/python, made
# by `make test-peers`); LADDER defaults to build/rel/ladder. PATTERN, an
# extended regular expression (grep -E), makes the files of the presets
# whose names it matches only ('f64-f64' for the f64 presets); the others
# stay as they are. GEN names the generator of `ladder validate --gen`
# (probes/gen.h; default mix): another one writes vectors/mmasim/GEN/
# <preset>.vec, its cases drawn with --gen GEN (and its default raw share,
# 0), for the presets PATTERN matches that the generator accepts. CASES
# (environment, default 2000) sets the cases per file.
set -eu
cd "$(dirname "$0")/.."
PY=${1:-build/peers/bin/python}
LADDER=${2:-build/rel/ladder}
PATTERN=${3:-}
GEN=${4:-mix}
CASES=${CASES:-2000}
SEED=3200
OUT=vectors/mmasim
RAW=50
if [ "$GEN" != mix ]; then
    OUT=$OUT/$GEN
    RAW=0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmasim-answers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT"

: > "$tmp/list"
for p in $("$LADDER" presets | awk '{print $1}' | grep -E -- "${PATTERN:-.}"); do
    rm -f "$tmp/db"
    "$LADDER" validate --model "$p" --db "$tmp/db" --cases $CASES --seed $SEED --gen "$GEN" \
        -q --device "exec-framed:tee '$tmp/$p.in' | '$LADDER' eval --model '$p'" \
        >/dev/null 2>"$tmp/err" || {
        # a generator refuses a datapath it draws nothing for (exit 2)
        grep -q "generator $GEN" "$tmp/err" && continue
        cat "$tmp/err" >&2
        exit 1
    }
    echo "$p $tmp/$p.in $tmp/$p.out" >> "$tmp/list"
done
"$PY" scripts/mmasim-oracle.py --ladder "$LADDER" --fill "$tmp/list" > "$tmp/log"
grep '^skip' "$tmp/log" >&2 || true

versions=$("$PY" -c 'import importlib.metadata as m; print("mmasim", m.version("mmasim"), "torch", m.version("torch"))' 2>/dev/null)
n=0
for p in $(sed -n 's/^done \([^:]*\):.*/\1/p' "$tmp/log"); do
    op=$(sed -n "s/^done $p: [0-9]* cases (\(.*\))\$/\1/p" "$tmp/log")
    {
        echo "# source: MMA-Sim (MIT), $versions: its answers to ladder's cases"
        echo "# preset: $p"
        echo "# mmasim: $op"
        "$LADDER" model show "$p" | awk -F': ' '
            $1 == "arch" { print "# arch: " $2 }
            $1 == "instr" { print "# instruction: " $2 }
            $1 == "a" || $1 == "b" || $1 == "c" { print "# " $1 ": " $2 }
            $1 == "k" { print "# k: " $2 }'
        if [ "$GEN" = mix ]; then
            echo "# generator: ladder validate --cases $CASES --seed $SEED --raw $RAW"
        else
            echo "# generator: ladder validate --gen $GEN --cases $CASES --seed $SEED --raw $RAW"
        fi
        echo "# cases: $CASES"
        cat "$tmp/$p.out"
    } > "$OUT/$p.vec"
    n=$((n + 1))
done
echo "mmasim-answers: $n files in $OUT ($versions)"
