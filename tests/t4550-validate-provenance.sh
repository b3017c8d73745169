#!/bin/sh
# A sim device given a model FILE is stored by the file, not by the model's
# `name:` (which may be a preset's): the spec as given, the file's absolute
# path and the sha256 of its text. `validate <run>` opens exactly that file,
# from any directory, and refuses it once its text has changed.
. tests/lib.sh

L=$(cd "$(dirname "$LADDER")" && pwd)/$(basename "$LADDER")
P=sm90-mma-bf16-f32
db=$TMP/l.db
mkdir "$TMP/w" "$TMP/elsewhere"
W=$(cd "$TMP/w" && pwd -P) # the absolute path, as the store keeps it
# The preset with a narrower window, under the preset's own name.
"$LADDER" model show $P | sed 's/^window: .*/window: 20/' >"$W/m.yaml"
check validate-provenance-named-like-preset grep -q "^name: $P\$" "$W/m.yaml"
sh "$TESTS_DATA/recipe-gen.sh" "$LADDER" $P 256 |
    sed 's/^random: .*/random: {cases: 300, finite: 100, seed: 9}/' >"$TMP/r.yaml"

# Climbed from the file's directory, by a relative path.
(cd "$TMP/w" && "$L" run "$TMP/r.yaml" --db "$db" --device sim:m.yaml) >"$TMP/o" 2>&1
check validate-provenance-run-ok grep -q '^run 1 ok$' "$TMP/o"
q() { sqlite3 "$db" "$1"; }
check validate-provenance-spec test "$(q 'SELECT device_spec FROM runs WHERE id = 1')" = sim:m.yaml
check validate-provenance-file test "$(q 'SELECT model_file FROM runs WHERE id = 1')" = "$W/m.yaml"
sum=$(sha256sum "$W/m.yaml" | cut -d' ' -f1)
check validate-provenance-sha256 test "$(q 'SELECT model_sha256 FROM runs WHERE id = 1')" = "$sum"
run_ladder history --db "$db" --json
r=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))[0]["device"]; print(d["spec"], d["model_file"], d["model_sha256"], d["name"])' "$out")
check validate-provenance-history-json test "$r" = "sim:m.yaml $W/m.yaml $sum $P"
run_ladder infer 1 --db "$db"
expect_rc validate-provenance-infer-rc 0

# From another directory: the file, not the preset of the same name (whose
# window of 25 would not match what was inferred from the file's 20).
(cd "$TMP/elsewhere" && "$L" validate 1 --db "$db") >"$TMP/o" 2>"$TMP/e"
check validate-provenance-elsewhere test "$(cat "$TMP/o")" = \
    "validate: 0/300 mismatches (run 1 inferred vs sim:$W/m.yaml)"
run_ladder validate 1 --db "$db" --cases 300 --device sim:$P
expect_rc validate-provenance-preset-differs-rc 1

# The file changed (one comment more): refused, saying so.
echo "# edited" >>"$W/m.yaml"
run_ladder validate 1 --db "$db" --cases 10
expect_rc validate-provenance-changed-rc 3
expect_err validate-provenance-changed "^ladder: model file '$W/m.yaml' of run 1's device changed since the run \\(sha256 $(echo "$sum" | cut -c1-12)\\.\\.\\. then, "
expect_err_line validate-provenance-changed-one-line
# --device names the device as it is now.
run_ladder validate 1 --db "$db" --cases 10 --device "sim:$W/m.yaml"
expect_rc validate-provenance-device-option-rc 0

# The file gone: the error names it.
rm "$W/m.yaml"
run_ladder validate 1 --db "$db" --cases 10
expect_rc validate-provenance-gone-rc 3
expect_err validate-provenance-gone "^ladder: device 'sim:$W/m.yaml': unknown preset or model file '$W/m.yaml'$"

# A preset device stores its spec and no file.
run_ladder run "$TMP/r.yaml" --db "$db" --device sim:$P --rungs visible
check validate-provenance-preset-spec test "$(q "SELECT device_spec || '|' || model_file || '|' || model_sha256 FROM runs WHERE id = 2")" = "sim:$P||"

test_done
