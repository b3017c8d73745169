#!/bin/sh
# ladder show RUN --rung NAME: the rung's stored cases, every word with its
# exact value in the formats of the run's instruction; --json the same.
# Values by hand: f16 3c00 = 1, ffff = NaN; f32 3f800000 = 1, 7fc00000 and
# 7fffffff = NaN; e2m1 3 = 1.5, 2 = 1; ue8m0 7f = 2^0 = 1.
. tests/lib.sh

db=$TMP/ladder.db
sqlite3 "$db" <db/schema.sql && sqlite3 "$db" <"$TESTS_DATA/store-fixture.sql"
run_ladder show 1 --db "$db" --rung visible
expect_rc show-rung-rc 0
expect_out show-rung-title '^run 1 rung visible: 2 cases \(sm90-mma-f16-f32\)$'
expect_out show-rung-case '^case 2: j=1$'
expect_out show-rung-lane-one '^    lane 0: a 3c00 = 1, b 3c00 = 1$'
expect_out show-rung-lane-nan '^    lane 1: a ffff = nan, b 3c00 = 1$'
expect_out show-rung-zero-lanes '^    2 lanes with zero A and B words$'
expect_out show-rung-c '^    c 7fc00000 = nan$'
expect_out show-rung-d '^    d 3f800000 = 1$'
if grep -q 'window\|f=25' "$out"; then fail show-rung-only-rung "other rung's case shown"; else ok show-rung-only-rung; fi

run_ladder show 1 --db "$db" --rung window --json
expect_rc show-rung-json-rc 0
r=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cases"][0]
print(d["run"], d["rung"], len(d["cases"]), c["id"], c["label"], len(c["a"]), c["a"][0]["word"], c["b"][3]["word"], c["d"]["value"])' "$out" 2>&1)
# case 3: A words 1..4 and B 5..8 in f16 (subnormals), D 0.
check show-rung-json test "$r" = "1 window 1 3 f=25 4 0001 0008 0"

# A block-scaled sim run: e2m1 words, ue8m0 scales, the structured tags.
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" sm100-tcgen05-mxf4nvf4-4x-f32 256 >"$TMP/r.yaml"
run_ladder run "$TMP/r.yaml" --db "$TMP/s.db" --rungs zeros
run_ladder show 1 --db "$TMP/s.db" --rung zeros
expect_rc show-rung-scaled-rc 0
expect_out show-rung-scaled-series '^case [0-9]+: .*\[series zero-lane, target zero_floor'
expect_out show-rung-scaled-lane '^    lane 0: a 3 = 1.5, b 2 = 1$'
expect_out show-rung-scaled-scale '^    scale 0: a 7f = 1, b 7f = 1$'

run_ladder show 1 --db "$db" --rung nosuch
expect_rc show-rung-none-rc 2
expect_err show-rung-none "^ladder: run 1 stored no cases in rung 'nosuch'; its rungs: visible, window$"

test_done
