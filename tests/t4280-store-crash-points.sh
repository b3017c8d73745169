#!/bin/sh
# Every commit point of run, infer and validate, killed there in turn
# (LADDER_CRASH_AT=<point>:<n> raises SIGKILL before the n-th commit of that
# point, util/hooks.h): after each kill the store is whole (integrity and
# foreign keys), history and show read it, every rung stored is the whole
# rung of an uninterrupted run with the same words, a run's inferences are
# none or the whole set, and the killed validation reads as interrupted
# with the counts of its last committed chunk; a killed survey keeps whole
# datapaths only.
. tests/lib.sh

db=$TMP/l.db
ref=$TMP/ref.db
P=sm90-mma-bf16-f32
RUNGS=instruction,slice,visible,random
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" $P 256 >"$TMP/r.yaml"
"$LADDER" run "$TMP/r.yaml" --db "$ref" >/dev/null 2>&1
"$LADDER" run "$TMP/r.yaml" --db "$ref" --rungs $RUNGS >/dev/null 2>&1
"$LADDER" infer 1 --db "$ref" >/dev/null 2>&1
ninf=$(sqlite3 "$ref" "SELECT count(*) FROM inferences WHERE run_id = 1")
check store-crash-reference test "${ninf:-0}" -gt 2

# What is wrong with the store after a kill, "" when nothing: run $1 is
# compared with the reference's run $2.
problems() {
    ic=$(sqlite3 "$db" "PRAGMA integrity_check" 2>&1)
    [ "$ic" = ok ] || echo "integrity: $ic"
    fk=$(sqlite3 "$db" "PRAGMA foreign_key_check" 2>&1)
    [ -z "$fk" ] || echo "foreign keys: $fk"
    "$LADDER" history --db "$db" >/dev/null 2>&1 || echo "history fails"
    [ -z "$1" ] && return
    "$LADDER" show "$1" --db "$db" >/dev/null 2>&1 || echo "show $1 fails"
    n=$(sqlite3 "$db" "ATTACH '$ref' AS ref;
        SELECT count(*) FROM (SELECT rung, count(*) AS n FROM cases
            WHERE run_id = $1 GROUP BY rung) AS c
        LEFT JOIN (SELECT rung, count(*) AS n FROM ref.cases
            WHERE run_id = $2 GROUP BY rung) AS r USING (rung)
        WHERE r.n IS NULL OR r.n <> c.n")
    [ "$n" = 0 ] || echo "run $1: $n rungs stored in part"
    n=$(sqlite3 "$db" "ATTACH '$ref' AS ref;
        SELECT count(*) FROM cases AS c WHERE c.run_id = $1 AND NOT EXISTS (
            SELECT 1 FROM ref.cases AS r WHERE r.run_id = $2 AND r.rung = c.rung
            AND r.label = c.label AND r.a = c.a AND r.b = c.b AND r.c = c.c
            AND r.d = c.d AND r.sa = c.sa AND r.sb = c.sb AND r.meta = c.meta)")
    [ "$n" = 0 ] || echo "run $1: $n cases unlike the reference's"
    n=$(sqlite3 "$db" "ATTACH '$ref' AS ref;
        SELECT count(*) FROM rungs AS g WHERE g.run_id = $1 AND
        (SELECT count(*) FROM observations AS o WHERE o.run_id = $1 AND o.rung = g.name) <>
        (SELECT count(*) FROM ref.observations AS o WHERE o.run_id = $2 AND o.rung = g.name)")
    [ "$n" = 0 ] || echo "run $1: $n rungs with observations in part"
    n=$(sqlite3 "$db" "SELECT count(*) FROM inferences WHERE run_id = $1")
    [ "$n" = 0 ] || [ "$n" = "$ninf" ] || echo "run $1: $n of $ninf inferences"
}

# Kills `ladder $@` at point:1, point:2, ... until it no longer reaches
# the point; one check per point: every kill left a whole store. $3 is
# `same` to compare the newest run with the reference, `none` not to; $4
# `must` when the command commits at that point, `may` for the points of
# single writes, which a step takes in (they must never leave a part).
kill_loop() {
    name=$1 point=$2 cmp=$3 must=$4
    shift 4
    n=1 kills=0 bad=""
    while [ $n -le 40 ]; do
        LADDER_CRASH_AT=$point:$n "$LADDER" "$@" --db "$db" >/dev/null 2>"$TMP/kerr"
        r=$?
        [ $r -eq 137 ] || break
        kills=$((kills + 1))
        last=$(sqlite3 "$db" "SELECT max(id) FROM runs")
        p=$(problems "$($cmp "$last")" "$(ref_of "$last")")
        [ -z "$p" ] || bad="$bad kill $n: $p;"
        n=$((n + 1))
    done
    if [ $kills -eq 0 ] && [ $must = must ]; then
        fail "store-crash-$name" "never reached $point (exit $r: $(head -1 "$TMP/kerr"))"
    elif [ -n "$bad" ]; then
        fail "store-crash-$name" "$bad"
    elif [ $r -ne 0 ] && [ $r -ne 1 ]; then
        fail "store-crash-$name" "the pass after $kills kills exits $r: $(head -1 "$TMP/kerr")"
    else
        ok "store-crash-$name"
    fi
}
same() { echo "$1"; }
none() { :; }
# The reference run a run of $db is climbed like: rungs of run 2, or all.
ref_of() {
    argv=$(sqlite3 "$db" "SELECT argv FROM runs WHERE id = ${1:-0}")
    case "$argv" in *--rungs*) echo 2 ;; *) echo 1 ;; esac
}

kill_loop run-begin begin-run same must run "$TMP/r.yaml" --rungs $RUNGS
kill_loop run-rung rung same must run "$TMP/r.yaml" --rungs $RUNGS
kill_loop run-end end-run same must run "$TMP/r.yaml" --rungs $RUNGS
kill_loop run-cases cases same may run "$TMP/r.yaml" --rungs $RUNGS
kill_loop run-observe observe same may run "$TMP/r.yaml" --rungs $RUNGS
st=$(sqlite3 "$db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM runs ORDER BY id)")
check store-crash-run-statuses test "$(echo "$st" | cut -d' ' -f1-8)" = "ok interrupted interrupted interrupted interrupted ok interrupted ok"

# infer on a whole run: killed, the run keeps no inference or all of them.
"$LADDER" run "$TMP/r.yaml" --db "$db" >/dev/null 2>&1
full=$(sqlite3 "$db" "SELECT max(id) FROM runs")
kill_loop infer-inferences inferences same must infer "$full"
kill_loop infer-inference inference same may infer "$full"
p=$(problems "$full" 1)
if [ -z "$p" ]; then ok store-crash-infer-whole; else fail store-crash-infer-whole "$p"; fi
# the previous set stays whole when a second infer is killed
nmodel=$(sqlite3 "$db" "SELECT count(*) FROM inferences WHERE run_id = $full")
LADDER_CRASH_AT=inferences:1 "$LADDER" infer "$full" --db "$db" >/dev/null 2>&1
n=$(sqlite3 "$db" "SELECT count(*) FROM inferences WHERE run_id = $full")
check store-crash-infer-old-kept test "$n" = "$nmodel" -a "$n" = "$ninf"

# validate RUN: a killed validation reads as interrupted, with the cases of
# its committed chunks (8192 each) and their mismatches.
kill_loop validate-begin begin-validation none must validate "$full" --cases 20000 -q
kill_loop validate-chunk validation-chunk none must validate "$full" --cases 20000 -q
kill_loop validate-end end-validation none must validate "$full" --cases 20000 -q
v=$(sqlite3 "$db" "SELECT group_concat(s, ' ') FROM (SELECT status || ':' || cases || '/'
    || planned AS s FROM validations WHERE run_id = $full ORDER BY id)")
check store-crash-validate-statuses test "$v" = "ok:20000/20000 interrupted:0/20000 interrupted:8192/20000 interrupted:16384/20000 ok:20000/20000 interrupted:20000/20000 ok:20000/20000"
run_ladder show "$full" --db "$db"
expect_out store-crash-validate-show '^  [0-9]+: run [0-9]+ inferred, gen1:raw=50 seed 0x0000000000000001: interrupted after 8192 of 20000 cases, 0 mismatches \(0 stored\)$'

# validate --model: its own run and its validation both end interrupted.
kill_loop validate-model-chunk validation-chunk same must validate --model $P --device sim:$P --cases 10000 -q
r=$(sqlite3 "$db" "SELECT r.status || ' ' || v.status FROM runs AS r JOIN validations AS v
    ON v.run_id = r.id WHERE r.command = 'validate' ORDER BY v.id LIMIT 1")
check store-crash-validate-model-interrupted test "$r" = "interrupted interrupted"

# The next writer marks dead rows interrupted in one commit; killed there,
# the rows stay 'running' in the file and read as interrupted.
LADDER_CRASH_AT=validation-chunk:1 "$LADDER" validate "$full" --db "$db" --cases 20000 -q >/dev/null 2>&1
LADDER_CRASH_AT=mark-interrupted:1 "$LADDER" infer "$full" --db "$db" >/dev/null 2>&1
r=$?
st=$(sqlite3 "$db" "SELECT status FROM validations ORDER BY id DESC LIMIT 1")
check store-crash-mark-killed test $r = 137 -a "$st" = running
p=$(problems "$full" 1)
if [ -z "$p" ]; then ok store-crash-mark-whole; else fail store-crash-mark-whole "$p"; fi
run_ladder show "$full" --db "$db"
expect_out store-crash-mark-reads-interrupted 'interrupted after 0 of 20000 cases'

# survey: one transaction per datapath (its run, rungs, inference,
# validations and survey row). Killed before the n-th datapath's commit,
# the store holds the n-1 datapaths before it whole and nothing of the
# n-th: every run belongs to a survey row and ended ok; --resume then does
# only what is missing.
db=$TMP/s.db
S="survey --device sim:sm_90a --only sm90-mma-f16-f?? --cases 2000"
kill_loop survey-datapath survey-datapath none must $S
n=$(sqlite3 "$db" "SELECT (SELECT count(*) FROM runs) - (SELECT count(*) FROM runs
    WHERE status = 'ok' AND id IN (SELECT run_id FROM survey_datapaths))")
check store-crash-survey-no-orphan-run test "$n" = 0
LADDER_CRASH_AT=survey-datapath:2 "$LADDER" $S --db "$db" >/dev/null 2>&1
runs=$(sqlite3 "$db" "SELECT count(*) FROM runs")
"$LADDER" $S --db "$db" --resume >/dev/null 2>&1
r=$?
check store-crash-survey-resume test $r = 0 -a \
    "$(sqlite3 "$db" "SELECT count(*) FROM runs")" = $((runs + 1)) -a \
    "$(sqlite3 "$db" "SELECT status FROM surveys ORDER BY id DESC LIMIT 1")" = ok

test_done
