#!/bin/sh
# ladder presets, ladder model show and ladder model check: presets print as
# model files that read back; bad model files are data errors with a place.
. tests/lib.sh

run_ladder presets
expect_rc presets-rc 0
expect_out presets-h100-bf16 '^sm90-mma-bf16-f32 +mma\.sync +bf16 x bf16 \+ f32 -> f32 '
expect_out presets-nvf4 '^sm100-tcgen05-mxf4nvf4-ue4m3-f32 +tcgen05\.mma\.mxf4nvf4 +e2m1 x e2m1 \+ f32 -> f32 scale ue4m3/16 '

# Hopper: 25 fraction bits, 16 products per pass, f32 truncated (docs/datapaths.md).
run_ladder model show sm90-mma-bf16-f32
expect_rc model-show-rc 0
expect_out model-show-window '^window: 25$'
expect_out model-show-pass '^pass: 16$'
expect_out model-show-a '^a: bf16$'
expect_out model-show-d-round '^d_round: rz$'
expect_out model-show-nan '^nan: 0x7fffffff$'
expect_no_err model-show-no-err
cp "$out" "$TMP/h100.yaml"
run_ladder model check "$TMP/h100.yaml"
expect_rc model-check-shown-rc 0
expect_out model-check-shown "^ok $TMP/h100.yaml sm90-mma-bf16-f32\$"
run_ladder model show "$TMP/h100.yaml"
cmp -s "$out" "$TMP/h100.yaml" && ok model-show-file-same || fail model-show-file-same "rewritten file differs"

printf 'name: x\nwindow: 25\nwidht: 3\n' >"$TMP/bad.yaml"
run_ladder model check "$TMP/bad.yaml"
expect_rc model-check-bad-rc 3
expect_err_line model-check-bad-one-line
expect_err model-check-bad-msg "^ladder: $TMP/bad.yaml:3:1: unknown key 'widht'\$"
[ -s "$out" ] && fail model-check-bad-stdout "stdout not empty" || ok model-check-bad-stdout

printf 'k: 16\nwindow: twenty\n' >"$TMP/bad2.yaml"
run_ladder model show "$TMP/bad2.yaml"
expect_rc model-show-bad-rc 3
expect_err model-show-bad-msg "^ladder: $TMP/bad2.yaml:2:9: 'window' must be an integer, not 'twenty'\$"
[ -s "$out" ] && fail model-show-bad-stdout "stdout not empty" || ok model-show-bad-stdout

run_ladder model show sm99-nothing
expect_rc model-show-unknown-rc 2
expect_err model-show-unknown-msg "^ladder: unknown preset or model file 'sm99-nothing'\$"
expect_usage_error model-no-subcommand model
expect_usage_error model-bad-subcommand model frob x

# The keys table of docs/model-files.md is the registry as `model params`
# prints it (regenerate between the markers with ./ladder model params).
run_ladder model params
expect_rc model-params-rc 0
expect_out model-params-window '^\| `window` \| integer 1\.\.60 \|  \| yes \| '
expect_out model-params-k-required '^\| `k` \| integer 1\.\.128 \| yes \|'
sed -n '/^<!-- begin: ladder model params -->$/,/^<!-- end: ladder model params -->$/p' \
    docs/model-files.md | sed '1d;$d' >"$TMP/doc-params"
if cmp -s "$out" "$TMP/doc-params"; then ok model-params-doc-current
else fail model-params-doc-current "docs/model-files.md's table differs from 'ladder model params'"; fi
expect_usage_error model-params-extra model params x

# With --json and a base, each searched row lists the values inference
# tries there (model/params.c: window 8..48; the passes of K = 16 whole
# first, then 1, 2, 4, 8; a scaled row nothing on an unscaled base), as a
# model file spells them; the usual values of params.def's LAD_USUAL lines.
run_ladder model params --json sm90-mma-bf16-f32
expect_rc model-params-base-rc 0
expect_out model-params-base-window '^ ?.?\{"key": "window", .*"default": "24", "usual": \[13, 40\], "candidates": \["8", "9", .*"47", "48"\], '
expect_out model-params-base-pass '"key": "pass", .*"candidates": \["16", "1", "2", "4", "8"\], '
expect_out model-params-base-scaled '"key": "group", .*"candidates": \[\], '
expect_out model-params-base-acc '"key": "acc", .*"candidates": \["f32", "e8m22:pad=1", .*"e8m10:pad=13", "f16", "bf16"\], '
run_ladder model params --json
check model-params-json-no-candidates sh -c "! grep -q candidates '$out'"
run_ladder model params --json sm99-nothing
expect_rc model-params-base-unknown-rc 2

# A model file cut short is refused (it once read as a K=1 all-f32 model);
# a whole-datapath error points at the key it is about.
"$LADDER" model show sm90-mma-bf16-f32 | head -n 16 >"$TMP/cut.yaml"
run_ladder model check "$TMP/cut.yaml"
expect_rc model-check-cut-rc 3
expect_err model-check-cut-msg "^ladder: $TMP/cut.yaml:3:1: missing key 'b'\$"
printf 'a: bf16\nb: bf16\nc: f32\nd: f32\nk: 16\npass: 8\norder: [1, 0]\n' >"$TMP/order.yaml"
run_ladder model check "$TMP/order.yaml"
expect_rc model-check-order-rc 3
expect_err model-check-order-at-key "^ladder: $TMP/order.yaml:7:8: order has 2 lanes, not 16\$"

test_done
