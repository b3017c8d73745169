#!/bin/sh
# ladder history's filters by arch, status and start date, and the
# validation counts of each run, on the store of tests/data/store-fixture.sql
# (run 1 ok on sm_90a with one validation of 1000 cases and 1 mismatch;
# run 2 failed on sm_100a, none).
. tests/lib.sh

db=$TMP/ladder.db
sqlite3 "$db" <db/schema.sql && sqlite3 "$db" <"$TESTS_DATA/store-fixture.sql"
ids() {
    run_ladder history --db "$db" "$@"
    awk 'NR > 1 { printf "%s ", $1 }' "$out"
}
r=$(ids --arch sm_90a); [ "$r" = "1 " ] && ok history-arch || fail history-arch "got '$r'"
r=$(ids --arch SM_100); [ "$r" = "2 " ] && ok history-arch-no-a || fail history-arch-no-a "got '$r'"
r=$(ids --arch sm_9); [ "$r" = "" ] && ok history-arch-exact || fail history-arch-exact "got '$r'"
r=$(ids --status failed); [ "$r" = "2 " ] && ok history-status || fail history-status "got '$r'"
r=$(ids --status ok --limit 1); [ "$r" = "1 " ] && ok history-status-limit || fail history-status-limit "got '$r'"
# Both runs started on 2025-06-15 (UTC): 1750000000 and 1750000100.
r=$(ids --since 2025-06-15 --until 2025-06-15); [ "$r" = "2 1 " ] && ok history-date-day || fail history-date-day "got '$r'"
r=$(ids --since 2025-06-16); [ "$r" = "" ] && ok history-since-after || fail history-since-after "got '$r'"
r=$(ids --until 2025-06-14); [ "$r" = "" ] && ok history-until-before || fail history-until-before "got '$r'"
r=$(ids --since 2024-02-29 --instruction mma.sync); [ "$r" = "1 " ] && ok history-since-leap || fail history-since-leap "got '$r'"
expect_usage_error history-date-bad history --db "$db" --since 2025-02-29
expect_usage_error history-date-form history --db "$db" --until 2025-6-15
expect_usage_error history-status-bad history --db "$db" --status done

run_ladder history --db "$db" --json
r=$(python3 -c '
import json, sys
runs = {r["id"]: r["validations"] for r in json.load(open(sys.argv[1]))}
print(runs[1]["count"], runs[1]["cases"], runs[1]["mismatches"], runs[2]["count"])' "$out" 2>&1)
[ "$r" = "1 1000 1 0" ] && ok history-json-validations || fail history-json-validations "got '$r'"

test_done
