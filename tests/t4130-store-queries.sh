#!/bin/sh
# The example queries of docs/queries/ read the raw words of a store with
# plain sqlite3, nothing of ladder involved: run against the hand-written
# store of tests/data/store-fixture.sql, they print the words it holds
# (expected values are the fixture's integers written in hex by hand).
. tests/lib.sh

db=$TMP/ladder.db
sqlite3 "$db" <db/schema.sql && sqlite3 "$db" <"$TESTS_DATA/store-fixture.sql"

q() {
    sqlite3 "$db" -cmd '.parameter set :run 1' -cmd ".parameter set :rung 'visible'" \
        -cmd '.parameter set :validation 1' <"docs/queries/$1.sql" >"$out" 2>"$err"
}

q run-words
expect_no_err queries-run-words-runs
expect_out queries-run-words-1 '^1\|visible\|j=0\|00003c00,00000000,00000000,00000000\|00003c00,00000000,00000000,00000000\|00000000\|3f800000$'
expect_out queries-run-words-2 '^2\|visible\|j=1\|00003c00,ffffffff,00000000,00000000\|00003c00,00003c00,00000000,00000000\|7fc00000\|7fffffff$'

q rung-cases
expect_no_err queries-rung-cases-runs
expect_out queries-rung-cases '^2\|j=1\|a0=00003c00 a1=ffffffff b0=00003c00 b1=00003c00\|7fc00000\|7fffffff$'
n=$(wc -l <"$out")
[ "$n" -eq 2 ] && ok queries-rung-cases-count || fail queries-rung-cases-count "$n rows"

q validation-mismatches
expect_no_err queries-mismatches-runs
expect_out queries-mismatches '^sm90-mma-f16-f32\|17\|00003c00,00000001\|00003c00,00000002\|00000000\|3f800000\|3f800001\|00000001$'

q inferred-parameters
expect_no_err queries-inferred-runs
expect_out queries-inferred-2 '^window\|25\|last visible j\|2\|visible\|j=1\|7fffffff$'
expect_out queries-inferred-3 '^window\|25\|last visible j\|3\|window\|f=25\|00000000$'

q runs
expect_no_err queries-runs-runs
expect_out queries-runs '^1\|ok\|2025-06-15 15:06:40\|NVIDIA H100 80GB HBM3\|90\|580.65\|abcdef123456\|sm90-mma-f16-f32\|HMMA.16816.F32\|3$'

# The words are integers in the file, never text or reals.
t=$(sqlite3 "$db" "SELECT DISTINCT typeof(word) FROM case_words UNION SELECT DISTINCT typeof(d) FROM cases")
[ "$t" = integer ] && ok queries-words-integer || fail queries-words-integer "types '$t'"

# series.sql groups a run's cases by their structured evidence (the
# fixture's two visible cases given a series here, its window case none).
sqlite3 "$db" "UPDATE cases SET series = 'c', target = 'd window', vary = id + 22 WHERE id IN (1, 2)"
q series
expect_no_err queries-series-runs
expect_out queries-series-visible '^visible\|c\|d window\|2\|23\|24$'
expect_out queries-series-none '^window\|-\|-\|1\|\|$'

test_done
