#!/bin/sh
# scripts/gpu-ladder.sh: `ladder survey` on a GPU (docs/commands/survey.md),
# for machines whose results are fetched from one folder.
#
#     sh scripts/gpu-ladder.sh [survey options]     # ladder survey --device cuda:0
#     DEVICE=sim:sm_90a sh scripts/gpu-ladder.sh    # the same on simulated devices
#
# Environment: LADDER (default ./ladder, built with `make` when missing),
# DEVICE (cuda:0), CASES (1000000), DB (ladder.db; never emptied, and the
# survey resumes there), OUT (also write table.txt, survey.json and a copy
# of the store there). The exit code is the survey's.
set -u

LADDER=${LADDER:-./ladder}
DEVICE=${DEVICE:-cuda:0}
CASES=${CASES:-1000000}
DB=${DB:-ladder.db}

[ -x "$LADDER" ] || make -j"$(nproc 2>/dev/null || echo 2)" || exit 2

if [ -z "${OUT:-}" ]; then
    exec "$LADDER" survey --device "$DEVICE" --cases "$CASES" --db "$DB" --resume "$@"
fi
"$LADDER" survey --device "$DEVICE" --cases "$CASES" --db "$DB" --resume \
    -o "$OUT/survey.json" "$@" >"$OUT/table.txt"
rc=$?
cat "$OUT/table.txt"
[ -f "$DB" ] && sqlite3 "$DB" ".backup '$OUT/ladder.db'"
exit $rc
