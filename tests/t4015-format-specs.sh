#!/bin/sh
# Format specs where recipes and model files take a format: a recipe whose
# formats are specs runs on a model file whose formats are specs; the model
# file is written back as specs and reads back the same; bad specs are
# refused at their value with the spec's own message.
. tests/lib.sh

cat >"$TMP/m.yaml" <<'END'
name: spec-e3m4b5-f32
arch: sm_90a
instr: mma.sync
a: e3m4:bias=5
b: "e3m4:bias=5,name=e3m4b5"
c: f32
d: f32
k: 16
window: 20
acc: e8m13:pad=10
END
run_ladder model check "$TMP/m.yaml"
expect_out spec-model-check '^ok .*m.yaml spec-e3m4b5-f32$'

# Written back: each non-built-in format as its spec, which reads back as
# the same model (the second writing equals the first).
run_ladder model show "$TMP/m.yaml"
cp "$out" "$TMP/show1.yaml"
expect_out spec-write-a '^a: "e3m4:bias=5"$'
expect_out spec-write-b '^b: "e3m4:bias=5,name=e3m4b5"$'
expect_out spec-write-acc '^acc: "e8m13:pad=10"$'
expect_out spec-write-c '^c: f32$'
run_ladder model show "$TMP/show1.yaml"
check spec-roundtrip cmp -s "$out" "$TMP/show1.yaml"

# Bias 5: 1.0 is exponent field 5, 0 0101 0000 = 0x50; sixteen lanes of
# 1.0 x 1.0 plus C = 0 give 16 (0x41800000), words the model file's formats
# decide, compared as integers.
printf '%s\n' '50,50,50,50,50,50,50,50,50,50,50,50,50,50,50,50;50,50,50,50,50,50,50,50,50,50,50,50,50,50,50,50;00000000' >"$TMP/in.txt"
run_ladder_in "$TMP/in.txt" eval --model "$TMP/m.yaml"
expect_out spec-eval-bias '^41800000$'

# A recipe with specs where it names formats, run on that device.
cat >"$TMP/r.yaml" <<'END'
recipe: 1
datapath:
  name: spec-e3m4b5-f32
  arch: sm_90a
  instr: mma.sync
  a: e3m4:bias=5
  b: "e3m4:bias=5,name=e3m4b5"
  c: f32
  d: f32
  k: 16
rungs: [slice, lanes, visible]
END
run_ladder recipe check "$TMP/r.yaml"
expect_rc spec-recipe-check 0
run_ladder run "$TMP/r.yaml" --device "sim:$TMP/m.yaml" --db "$TMP/l.db" --no-decide
expect_rc spec-recipe-run 0
expect_out spec-recipe-slice '^slice .*gave 0x41800000'

# Bad specs, at their value, in a model file and in a recipe.
printf 'name: x\na: bf16\nb: "e3m4:bias=x"\n' >"$TMP/bad.yaml"
run_ladder model check "$TMP/bad.yaml"
expect_rc spec-bad-model-rc 3
expect_err_line spec-bad-model-one-line
expect_err spec-bad-model-msg "^ladder: .*/bad.yaml:3:4: bad value 'x' for 'bias' in format 'e3m4:bias=x'\$"
sed 's/^  c: f32$/  c: e8m23:sub=never/' "$TMP/r.yaml" >"$TMP/badr.yaml"
run_ladder recipe check "$TMP/badr.yaml"
expect_rc spec-bad-recipe-rc 3
expect_err_line spec-bad-recipe-one-line
expect_err spec-bad-recipe-msg "^ladder: .*/badr.yaml:8:6: bad value 'never' for 'sub' in format 'e8m23:sub=never'\$"
test_done
