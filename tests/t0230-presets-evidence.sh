#!/bin/sh
# The evidence column of `ladder presets` names files: every file a preset
# names must reproduce with that preset, word for word.
#   - "vectors <file>.vec": `ladder check --model <preset> vectors/<file>.vec`
#     gives 0 mismatches;
#   - "H200 captures (results/h200/captures)": at least one capture whose
#     header names the preset (sm<N>-<instr>-<a>[x<b>]-<d>[-sat], as check
#     reads headers), and every such capture gives 0 mismatches with it;
#   - "frozen B200 vectors": the frozen file has lines for the preset and
#     all of them reproduce.
# A preset that cites a file its words do not reproduce (as the wgmma fp8
# f16 presets once cited h100-e*-f16.vec, which only mma.sync reproduces)
# fails here.
. tests/lib.sh
CAP=results/h200/captures
FROZEN=vectors/b200-tcgen05-frozen.txt

# header name of each capture, as lad_vechdr_preset forms it
: >"$TMP/caps"
for f in "$CAP"/*.vec; do
    h() { sed -n "s/^# $1: //p" "$f" | head -n 1; }
    arch=$(h arch | tr -cd '0-9')
    ins=$(h instruction)
    case "$ins" in wgmma*) i=wgmma ;; tcgen05*) i=tcgen05 ;; *) i=mma ;; esac
    a=$(h a); b=$(h b)
    case "$a" in s8|u8) ab=${a}x$b ;; *) if [ "$a" = "$b" ]; then ab=$a; else ab=${a}x$b; fi ;; esac
    sat=""
    case "$ins" in *satfinite*) sat=-sat ;; esac
    printf 'sm%s-%s-%s-%s%s %s\n' "$arch" "$i" "$ab" "$(h d)" "$sat" "$f" >>"$TMP/caps"
done

run_ladder presets
expect_rc evidence-presets-rc 0
grep -E '\.vec|results/h200/captures|frozen B200' "$out" | awk '{print $1}' >"$TMP/names"
: >"$TMP/used"
nvec=0 ncap=0 nfro=0
bad=""
while read -r p; do
    ev=$("$LADDER" model show "$p" | sed -n 's/^evidence: "\(.*\)"$/\1/p')
    for v in $(printf '%s\n' "$ev" | grep -oE '[a-z0-9-]+\.vec'); do
        nvec=$((nvec + 1))
        r=$("$LADDER" check --model "$p" "vectors/$v" 2>&1 | head -n 1)
        case "$r" in
        "vectors/$v: 0/"*" mismatches ($p)") ;;
        *) bad="$bad; $p: $r" ;;
        esac
    done
    case "$ev" in *"results/h200/captures"*)
        files=$(awk -v p="$p" '$1 == p {print $2}' "$TMP/caps")
        [ -n "$files" ] || bad="$bad; $p names the H200 captures, none of which is its"
        for f in $files; do
            ncap=$((ncap + 1))
            echo "$f" >>"$TMP/used"
            r=$("$LADDER" check --model "$p" "$f" 2>&1 | head -n 1)
            case "$r" in "$f: 0/"*" mismatches ($p)") ;; *) bad="$bad; $p: $r" ;; esac
        done ;;
    esac
    case "$ev" in *"frozen B200 vectors"*)
        nfro=$((nfro + 1))
        r=$("$LADDER" check --model "$p" "$FROZEN" 2>&1 | head -n 1)
        case "$r" in "$FROZEN: 0/"*" mismatches ($p)") ;; *) bad="$bad; $p: $r" ;; esac ;;
    esac
done <"$TMP/names"
echo "# $nvec vector files, $ncap H200 captures, $nfro presets' frozen lines replayed"
[ "$nvec" -ge 26 ] && ok evidence-vec-files-named || fail evidence-vec-files-named "only $nvec .vec files named"
# and every capture is cited by the preset its header names
unused=$(awk '{print $2}' "$TMP/caps" | sort | comm -23 - "$(sort "$TMP/used" >"$TMP/used.s"; echo "$TMP/used.s")")
[ "$ncap" -ge 40 ] && [ -z "$unused" ] && ok evidence-captures-named ||
    fail evidence-captures-named "$ncap replayed; not cited: $(echo $unused)"
[ "$nfro" -ge 20 ] && ok evidence-frozen-named || fail evidence-frozen-named "only $nfro presets name the frozen file"
[ -z "$bad" ] && ok evidence-files-reproduce || fail evidence-files-reproduce "${bad#; }"

# the wgmma fp8 f16 presets cite their own captures, not the H100 files
for fmt in e4m3 e5m2; do
    if grep -E "^sm90-wgmma-$fmt-f16 " "$out" | grep -q "h100-"; then
        fail "evidence-wgmma-$fmt-f16" "$(grep -E "^sm90-wgmma-$fmt-f16 " "$out")"
    else
        ok "evidence-wgmma-$fmt-f16"
    fi
done
test_done
