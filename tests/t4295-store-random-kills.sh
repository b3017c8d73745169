#!/bin/sh
# SIGKILL at random moments: run, infer and validate in turn, each killed
# after a pseudo-random delay (a fixed seed, so every run of the test kills
# at the same delays), and after each kill the store passes integrity and
# foreign-key checks, history reads it, and no run holds part of a rung or
# part of a set of inferences. LADDER_TEST_KILLS sets the count (default 12;
# `make test-long` runs 100). A last run, infer and validate complete.
. tests/lib.sh

db=$TMP/l.db
P=sm90-mma-bf16-f32
KILLS=${LADDER_TEST_KILLS:-12}
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" $P 256 >"$TMP/r.yaml"
"$LADDER" run "$TMP/r.yaml" --db "$db" >/dev/null 2>&1
"$LADDER" infer 1 --db "$db" >/dev/null 2>&1
ninf=$(sqlite3 "$db" "SELECT count(*) FROM inferences WHERE run_id = 1")
check store-kills-reference test "${ninf:-0}" -gt 2

# A linear congruential generator (seed 12345): delays of 0 to 0.99 s. The
# validation is far longer than that (50,000,000 cases), so that whatever
# the machine's speed, some kills land.
seed=12345
next() { seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); }
bad="" i=0 killed=0
while [ $i -lt $KILLS ]; do
    next
    ms=$(( seed / 65536 % 100 ))
    case $((i % 3)) in
    0) set -- run "$TMP/r.yaml" ;;
    1) set -- infer 1 ;;
    2) set -- validate 1 --cases 50000000 -q ;;
    esac
    "$LADDER" "$@" --db "$db" >/dev/null 2>&1 &
    pid=$!
    sleep "0.$(printf '%02d' $ms)"
    kill -9 $pid 2>/dev/null && killed=$((killed + 1))
    wait $pid 2>/dev/null
    ic=$(sqlite3 "$db" "PRAGMA integrity_check; PRAGMA foreign_key_check" 2>&1)
    [ "$ic" = ok ] || bad="$bad kill $i ($1 after ${ms}0 ms): $ic;"
    "$LADDER" history --db "$db" >/dev/null 2>&1 || bad="$bad kill $i: history fails;"
    n=$(sqlite3 "$db" "SELECT count(*) FROM (SELECT run_id, rung, count(*) AS n FROM cases
        WHERE run_id > 1 GROUP BY run_id, rung) AS c JOIN (SELECT rung, count(*) AS n
        FROM cases WHERE run_id = 1 GROUP BY rung) AS r USING (rung) WHERE c.n <> r.n")
    [ "$n" = 0 ] || bad="$bad kill $i ($1 after ${ms}0 ms): $n rungs in part;"
    n=$(sqlite3 "$db" "SELECT count(*) FROM inferences WHERE run_id = 1")
    [ "$n" = "$ninf" ] || bad="$bad kill $i ($1 after ${ms}0 ms): $n of $ninf inferences;"
    i=$((i + 1))
done
if [ -z "$bad" ]; then ok store-kills-whole; else fail store-kills-whole "$bad"; fi
check store-kills-some-killed test $killed -gt 0

run_ladder run "$TMP/r.yaml" --db "$db"
expect_rc store-kills-run-after 0
run_ladder infer 1 --db "$db"
expect_rc store-kills-infer-after 0
run_ladder validate 1 --db "$db" --cases 1000 -q
expect_rc store-kills-validate-after 0
run_ladder show 1 --db "$db"
expect_rc store-kills-show-after 0

test_done
