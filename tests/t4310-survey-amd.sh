#!/bin/sh
# ladder survey on the AMD generations: sim:cdna1|cdna2|cdna3 and their
# arches sim:gfx908|gfx90a|gfx942 each name the MFMA presets of that arch;
# a survey of a CDNA3 datapath runs; --help lists every generation a preset
# belongs to.
. tests/lib.sh

# Each name resolves to its arch: an --only that matches nothing says which
# generation it looked in (a usage error, before any store).
for pair in cdna1:gfx908 cdna2:gfx90a cdna3:gfx942 gfx908:gfx908 gfx90a:gfx90a gfx942:gfx942; do
    name=${pair%%:*}
    arch=${pair#*:}
    run_ladder survey --device "sim:$name" --only 'nothing*' --db "$TMP/none.db"
    expect_rc "survey-amd-$name-resolves-rc" 2
    expect_err "survey-amd-$name-resolves" "^ladder: no datapath of $arch matches --only 'nothing\*'"
done
check survey-amd-no-db test ! -e "$TMP/none.db"

# One CDNA3 datapath surveyed end to end, by either name.
run_ladder survey --device sim:cdna3 --only cdna3-mfma-bf16-f32-k4 --cases 200 --db "$TMP/c3.db"
expect_rc survey-amd-cdna3-rc 0
expect_out survey-amd-cdna3-header '^survey 1 on sim:cdna3 \(gfx942\): 1 datapath$'
expect_out survey-amd-cdna3-row '^cdna3-mfma-bf16-f32-k4 +[0-9]+ += preset +0/200 +0/200 '
check survey-amd-cdna3-run test "$(sqlite3 "$TMP/c3.db" 'SELECT datapath || " " || arch || " " || device_spec FROM runs')" = 'cdna3-mfma-bf16-f32-k4 gfx942 sim:cdna3-mfma-bf16-f32-k4'
run_ladder survey --device sim:gfx908 --only cdna1-mfma-bf16-f32-k2 --cases 100 --db "$TMP/c1.db"
expect_rc survey-amd-gfx908-rc 0
expect_out survey-amd-gfx908-header '^survey 1 on sim:gfx908 \(gfx908\): 1 datapath$'

# The generations of all datapaths (from the presets' own list) in --help.
run_ladder presets --json
archs=$(sqlite3 :memory: "SELECT DISTINCT json_extract(value, '\$.arch') FROM json_each(readfile('$out'))")
run_ladder survey --help
for a in $archs; do
    check "survey-amd-help-lists-$a" grep -q -- "$a" "$out"
done
for g in cdna1 cdna2 cdna3; do
    check "survey-amd-help-lists-$g" grep -q -- "$g" "$out"
done

test_done
