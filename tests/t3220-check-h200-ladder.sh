#!/bin/sh
# Every probe case the ladder stored on an H200 (results/h200/ladder.db,
# written by scripts/gpu-ladder.sh) must be reproduced by the preset of its
# datapath: the raw words are read back with plain SQL into vector files and
# given to `ladder check`. About 60,000 hardware words, mostly the targeted
# edge cases that random vectors never reach (anchor floors, specials).
. tests/lib.sh
DB=results/h200/ladder.db

if ! command -v sqlite3 > /dev/null; then
    fail check-h200-sqlite3 "sqlite3 is not installed (scripts/deps.sh installs it)"
    test_done
fi
runs=$(sqlite3 "$DB" "SELECT id || ' ' || datapath || ' ' || fmt_a || ' ' || fmt_b || ' ' ||
                      fmt_c || ' ' || fmt_d || ' ' || instr FROM runs WHERE command = 'run'")
[ -n "$runs" ] && ok check-h200-runs || fail check-h200-runs "no run in $DB"
while read -r id dp a b c d instr; do
    [ -n "$id" ] || continue
    f=$TMP/$dp.vec
    k=$(sqlite3 "$DB" "SELECT max(k) FROM cases WHERE run_id = $id")
    printf '# gpu: H200\n# arch: sm_90\n# instruction: %s\n# a: %s\n# b: %s\n# c: %s\n# d: %s\n# k: %s\n' \
        "$instr" "$a" "$b" "$c" "$d" "$k" > "$f"
    # words at their native width: 16-bit formats 4 digits, f32 8, bytes 2
    wa=$(case $a in f16|bf16) echo 4;; tf32|f32) echo 8;; *) echo 2;; esac)
    wb=$(case $b in f16|bf16) echo 4;; tf32|f32) echo 8;; *) echo 2;; esac)
    sqlite3 -separator ' ' "$DB" "SELECT c.id, c.c, c.d, (SELECT group_concat(value, ',') FROM json_each(c.a)),
                                  (SELECT group_concat(value, ',') FROM json_each(c.b))
                                  FROM cases c WHERE c.run_id = $id ORDER BY c.id" |
        awk -v wa="$wa" -v wb="$wb" '{
            n = split($4, A, ","); m = split($5, B, ",");
            line = "";
            for (i = 1; i <= n; i++) line = line (i > 1 ? "," : "") sprintf("%0" wa "x", A[i]);
            line = line ";";
            for (i = 1; i <= m; i++) line = line (i > 1 ? "," : "") sprintf("%0" wb "x", B[i]);
            printf "%s;%08x;%08x\n", line, $2, $3 }' >> "$f"
    run_ladder check --model "$dp" "$f"
    n=$(grep -vc '^#' "$f")
    if grep -q ": 0/$n mismatches" "$out"; then
        ok "check-h200-ladder-$dp"
    else
        fail "check-h200-ladder-$dp" "$(head -n 2 "$out")"
    fi
done <<EOF2
$runs
EOF2
test_done
