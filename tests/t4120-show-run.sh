#!/bin/sh
# ladder show: a run of tests/data/store-fixture.sql, rung by rung, as text
# and as JSON (read back with Python's json module), and its errors.
. tests/lib.sh

db=$TMP/ladder.db
sqlite3 "$db" <db/schema.sql && sqlite3 "$db" <"$TESTS_DATA/store-fixture.sql"

run_ladder show 1 --db "$db"
expect_rc show-rc 0
expect_no_err show-no-err
expect_out show-title '^run 1: ok$'
expect_out show-command '^  command +ladder run recipes/sm90-mma-f16.yaml$'
expect_out show-device '^  device +NVIDIA H100 80GB HBM3 \(cuda, sm_90, GPU-aaaa, driver 580.65, CUDA 13.0\)$'
expect_out show-build '^  build +ladder 0.1.0, commit abcdef123456$'
expect_out show-sass '^  sass +HMMA.16816.F32 \(expected HMMA.16816.F32\)$'
expect_out show-rung-visible '^  visible +2 cases \(ids 1..2\)$'
expect_out show-observation '^    last_j = 23 +\[cases 1, 2\]$'
expect_out show-rung-window '^  window +1 case \(ids 3..3\)$'
expect_out show-inference '^  window = 25 +\(last visible j; cases 2, 3\)$'
expect_out show-validation '^  1: sm90-mma-f16-f32, random seed 0xffffffffffffffff: 1000 cases, 1 mismatches \(1 stored\)$'
# Rungs in the order the run reached them.
order=$(grep -E '^  (visible|window) +[0-9]+ case' "$out" | awk '{ printf "%s ", $1 }')
[ "$order" = "visible window " ] && ok show-rung-order || fail show-rung-order "got '$order'"

run_ladder show latest --db "$db"
expect_out show-latest '^run 2: failed$'
expect_out show-latest-message '^  message +device lost$'

run_ladder show 1 --db "$db" --json
expect_rc show-json-rc 0
r=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
g = s["rungs"]
print(s["run"]["id"], [x["name"] for x in g], g[0]["cases"], g[0]["observations"][0]["cases"],
      s["inferences"][0]["parameter"], s["inferences"][0]["cases"],
      s["validations"][0]["seed"], s["validations"][0]["mismatches"])' "$out" 2>&1)
want="1 ['visible', 'window'] 2 [1, 2] window [2, 3] 0xffffffffffffffff 1"
[ "$r" = "$want" ] && ok show-json-fields || fail show-json-fields "got '$r'"

# Errors.
run_ladder show 9 --db "$db"
expect_rc show-missing-rc 2
expect_err show-missing-msg "^ladder: no run 9 in '.*ladder.db'$"
expect_usage_error show-usage-bad-run show first --db "$db"
expect_usage_error show-usage-no-run show --db "$db"
expect_usage_error show-usage-two-runs show 1 2 --db "$db"
sqlite3 "$TMP/empty.db" <db/schema.sql
sqlite3 "$TMP/empty.db" "PRAGMA application_id = 1279345746; PRAGMA user_version = 7"
run_ladder show latest --db "$TMP/empty.db"
expect_rc show-latest-empty-rc 2
expect_err show-latest-empty-msg "^ladder: no runs in '.*empty.db'$"

test_done
