#!/bin/sh
# ladder history: the runs of a store written by hand
# (tests/data/store-fixture.sql: run 1 ok on an H100, sm90-mma-f16-f32, 3
# cases; run 2 failed on a sim device, tcgen05.mma e4m3), its filters, its
# JSON (read back with Python's json module) and its errors.
. tests/lib.sh

db=$TMP/ladder.db
sqlite3 "$db" <db/schema.sql && sqlite3 "$db" <"$TESTS_DATA/store-fixture.sql"

run_ladder history --db "$db"
expect_rc history-rc 0
expect_out history-header '^ +ID +STATUS +STARTED \(UTC\) +CASES +VALIDATED +DEVICE +DATAPATH +COMMAND$'
# run 1's validation: 1 mismatch in 1000 cases; run 2 has none ('-').
expect_out history-run1 '^ +1 ok +2025-06-15 15:06:40 +3 1/1000 +NVIDIA H100 80GB HBM3 +sm90-mma-f16-f32 +run$'
expect_out history-run2 '^ +2 failed +2025-06-15 15:08:20 +0 - +sm100-tcgen05-e4m3-f32 +sm100-tcgen05-e4m3-f32 +run$'
order=$(awk 'NR > 1 { printf "%s ", $1 }' "$out")
if [ "$order" = "2 1 " ]; then ok history-newest-first; else fail history-newest-first "order '$order'"; fi

# ids listed by a filtered history
ids() {
    run_ladder history --db "$db" "$@"
    awk 'NR > 1 { printf "%s ", $1 }' "$out"
}
r=$(ids --gpu h100); [ "$r" = "1 " ] && ok history-gpu || fail history-gpu "got '$r'"
r=$(ids --gpu 'HBM3'); [ "$r" = "1 " ] && ok history-gpu-case || fail history-gpu-case "got '$r'"
r=$(ids --operand-format e4m3); [ "$r" = "2 " ] && ok history-format || fail history-format "got '$r'"
r=$(ids --operand-format f32); [ "$r" = "2 1 " ] && ok history-format-d || fail history-format-d "got '$r'"
r=$(ids --instruction mma.sync); [ "$r" = "1 " ] && ok history-instruction || fail history-instruction "got '$r'"
r=$(ids --instruction f8f6f4); [ "$r" = "2 " ] && ok history-instruction-kind || fail history-instruction-kind "got '$r'"
r=$(ids --instruction HMMA.16816.F32); [ "$r" = "1 " ] && ok history-instruction-sass || fail history-instruction-sass "got '$r'"
r=$(ids --limit 1); [ "$r" = "2 " ] && ok history-limit || fail history-limit "got '$r'"
run_ladder history --db "$db" --gpu a100
expect_rc history-none-rc 0
expect_out_eq history-none-says 'no runs match'

run_ladder history --db "$db" --json
expect_rc history-json-rc 0
r=$(python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))
r1 = [r for r in runs if r["id"] == 1][0]
print(len(runs), runs[0]["id"], r1["status"], r1["device"]["cc"], r1["cases"],
      r1["formats"]["a"], r1["argv"][2], r1["build"]["dirty"], r1["recipe"]["sha256"][:8],
      runs[0]["message"])' "$out" 2>&1)
want="2 2 ok 90 3 f16 recipes/sm90-mma-f16.yaml False ba7816bf device lost"
[ "$r" = "$want" ] && ok history-json-fields || fail history-json-fields "got '$r'"
run_ladder history --db "$db" --json --gpu nothing
expect_out_eq history-json-empty '[]'

# An empty store lists nothing.
sqlite3 "$TMP/empty.db" <db/schema.sql
sqlite3 "$TMP/empty.db" "PRAGMA application_id = 1279345746; PRAGMA user_version = 7"
run_ladder history --db "$TMP/empty.db"
expect_rc history-empty-rc 0
expect_out_eq history-empty-says 'no runs in the store'

# Errors.
expect_usage_error history-usage-limit history --db "$db" --limit 0
expect_usage_error history-usage-arg history --db "$db" extra
expect_usage_error history-usage-option history --db "$db" --gpux a
run_ladder history --db "$TMP/missing.db"
expect_rc history-missing-rc 3
expect_err history-missing-msg "^ladder: cannot open '.*missing.db': no such file$"
if [ ! -e "$TMP/missing.db" ]; then ok history-missing-not-created; else fail history-missing-not-created "file created"; fi
printf 'rungs: []\n' >"$TMP/recipe.yaml"
run_ladder history --db "$TMP/recipe.yaml"
expect_rc history-not-ladder-rc 3
expect_err history-not-ladder-msg "^ladder: '.*recipe.yaml' is not a ladder database$"
run_ladder history --help
expect_rc history-help-rc 0
expect_out history-help 'usage: ladder history'

test_done
