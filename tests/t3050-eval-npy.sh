#!/bin/sh
# ladder eval on .npy arrays (--a --b --c --sa --sb -o): the same D words as
# ladder eval on the same cases as vector lines, for unscaled, block-scaled,
# f16-result and f64 models, on raw bit patterns (NaNs, Infs, overflows);
# D's dtype; and its errors, which leave an existing D file as it was.
. tests/lib.sh

need_venv eval-npy-setup

# cases PRESET N SEED: N random cases of PRESET's formats, raw bits, as
# .npy files in $TMP/<preset>/ and as vector lines in lines.txt beside them;
# prints the options that name the arrays.
cases() {
    "$LADDER" model show "$1" >"$TMP/model.yaml" || return 1
    "$py" - "$TMP/model.yaml" "$TMP/$1" "$2" "$3" <<'PY'
import os, sys, numpy as np
model, out, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
keys = {}
for line in open(model):
    if ":" in line and not line.startswith("#"):
        k, v = line.split(":", 1)
        keys[k.strip()] = v.split("#")[0].strip().strip('"')
width = {"f64": 64, "f32": 32, "tf32": 32, "f16": 16, "bf16": 16, "e2m1": 4, "e2m3": 6,
         "e3m2": 6}
def bits(f):
    return width.get(f.split(":")[0], 8)
rng = np.random.default_rng(seed)
k = int(keys["k"])
block = int(keys.get("scale_block", "0") or 0)
os.makedirs(out, exist_ok=True)
def draw(f, shape):
    b = bits(f)
    dt = np.uint8 if b <= 8 else np.uint16 if b <= 16 else np.uint32 if b <= 32 else np.uint64
    x = rng.integers(0, 1 << min(b, 63), size=shape, dtype=np.uint64)
    if b == 64:
        x |= rng.integers(0, 2, size=shape, dtype=np.uint64) << np.uint64(63)
    return x.astype(dt)
arrays = {"a": draw(keys["a"], (n, k)), "b": draw(keys["b"], (n, k)), "c": draw(keys["c"], (n,))}
if block:
    arrays["sa"] = rng.integers(117, 138, size=(n, k // block)).astype(np.uint8)
    arrays["sb"] = rng.integers(117, 138, size=(n, k // block)).astype(np.uint8)
for name, x in arrays.items():
    np.save(os.path.join(out, name + ".npy"), x)
def hexes(f, row):
    d = (bits(f) + 3) // 4
    return ",".join("%0*x" % (d, int(w)) for w in row)
with open(os.path.join(out, "lines.txt"), "w") as f:
    for i in range(n):
        line = "%s;%s;%s" % (hexes(keys["a"], arrays["a"][i]), hexes(keys["b"], arrays["b"][i]),
                             hexes(keys["c"], [arrays["c"][i]]))
        if block:
            line += ";%s;%s;" % (hexes("e8m0", arrays["sa"][i]), hexes("e8m0", arrays["sb"][i]))
        f.write(line + "\n")
print(" ".join("--%s %s" % (name, os.path.join(out, name + ".npy")) for name in arrays))
PY
}

# words FILE: a saved array's dtype and its words, one per line, hex.
words() {
    "$py" - "$1" <<'PY'
import sys, numpy as np
x = np.load(sys.argv[1])
print(x.dtype.name, x.shape)
for w in x.reshape(-1).view("u%d" % x.dtype.itemsize):
    print("%x" % w)
PY
}

# same NAME PRESET DTYPE: eval on arrays gives the words eval on lines gives,
# in a 1-D array of N elements of DTYPE.
same() {
    _opts=$(cases "$2" 3000 7) || { fail "$1" "cannot make the cases"; return; }
    # shellcheck disable=SC2086
    run_ladder eval --model "$2" $_opts -o "$TMP/$2/d.npy"
    if [ "$rc" -ne 0 ]; then
        fail "$1" "exit $rc: $(_peek "$err")"
        return
    fi
    "$LADDER" eval --model "$2" "$TMP/$2/lines.txt" | sed 's/^0*\(.\)/\1/' >"$TMP/want"
    words "$TMP/$2/d.npy" >"$TMP/got"
    if [ "$(head -n 1 "$TMP/got")" != "$3 (3000,)" ]; then
        fail "$1" "D is '$(head -n 1 "$TMP/got")', expected '$3 (3000,)'"
    elif tail -n +2 "$TMP/got" | cmp -s - "$TMP/want"; then
        ok "$1"
    else
        fail "$1" "words differ from eval on lines: $(tail -n +2 "$TMP/got" | diff - "$TMP/want" | head -n 3)"
    fi
}
same eval-npy-bf16 sm90-mma-bf16-f32 float32
same eval-npy-tf32-two-passes sm80-mma-tf32-f32 float32
same eval-npy-e4m3 sm89-mma-e4m3-f32 float32
same eval-npy-f16-result sm80-mma-f16-f16 float16
same eval-npy-mxf4nvf4 sm100-tcgen05-mxf4nvf4-ue4m3-f32 float32
same eval-npy-mxf8f6f4 sm100-tcgen05-mxf8f6f4-e2m1-f32 float32
same eval-npy-cdna3 cdna3-mfma-bf16-f32 float32
same eval-npy-f64 sm90-mma-f64-f64 float64

# C left out is +0: 1 x 1 + 1 x 1 (bf16, first lane) = 2 with C +0.
"$py" - "$TMP" <<'PY'
import sys, numpy as np
t = sys.argv[1]
a = np.zeros((2, 16), np.uint16); a[:, 0] = 0x3f80; a[1, 1] = 0x3f80
b = np.zeros((2, 16), np.uint16); b[:, 0] = 0x3f80; b[1, 1] = 0x3f80
np.save(t + "/a.npy", a); np.save(t + "/b.npy", b)
np.save(t + "/c2.npy", np.array([[0x40000000], [0xbf800000]], np.uint32))
np.save(t + "/c3.npy", np.zeros(3, np.uint32))
np.save(t + "/a8.npy", a.astype(np.uint8))
np.save(t + "/af.npy", a.astype(np.float16))
np.save(t + "/a15.npy", a[:, :15].copy())
wide = np.zeros((2, 32), np.uint8); wide[1, 3] = 0x10
np.save(t + "/wide.npy", wide)
np.save(t + "/a3d.npy", np.zeros((2, 16, 1), np.uint16))
np.save(t + "/s.npy", np.zeros((2, 1), np.uint8))
PY
run_ladder eval --model sm90-mma-bf16-f32 --a "$TMP/a.npy" --b "$TMP/b.npy" -o "$TMP/d.npy"
words "$TMP/d.npy" >"$TMP/got"
if [ "$rc" -eq 0 ] && [ "$(tr '\n' ' ' <"$TMP/got")" = "float32 (2,) 3f800000 40000000 " ]; then
    ok eval-npy-c-default-zero
else
    fail eval-npy-c-default-zero "rc $rc, D $(tr '\n' ' ' <"$TMP/got") $(_peek "$err")"
fi
# C as N x 1: 1 + 2 = 3, 2 - 1 = 1
run_ladder eval --model sm90-mma-bf16-f32 --a "$TMP/a.npy" --b "$TMP/b.npy" --c "$TMP/c2.npy" \
    -o "$TMP/d.npy"
words "$TMP/d.npy" >"$TMP/got"
if [ "$rc" -eq 0 ] && [ "$(tr '\n' ' ' <"$TMP/got")" = "float32 (2,) 40400000 3f800000 " ]; then
    ok eval-npy-c-column
else
    fail eval-npy-c-column "rc $rc, D $(tr '\n' ' ' <"$TMP/got") $(_peek "$err")"
fi

# --help names every option of the arrays.
run_ladder eval --help
help() {
    if grep -qF -- "$2" "$out"; then ok "$1"; else fail "$1" "'$2' not in --help"; fi
}
help eval-npy-help-a '--a <A.npy>'
help eval-npy-help-b '--b <B.npy>'
help eval-npy-help-c '--c <C.npy>'
help eval-npy-help-sa '--sa <SA.npy>'
help eval-npy-help-sb '--sb <SB.npy>'
help eval-npy-help-output '-o, --output <D.npy>'
help eval-npy-help-quiet '-q, --quiet'

# Errors: one line, exit 3 (data) or 2 (usage), and D as it was.
echo before >"$TMP/keep.npy"
bad() {
    _n=$1 _rc=$2 _re=$3
    shift 3
    run_ladder eval "$@"
    if [ "$rc" -eq "$_rc" ] && grep -Eq -- "$_re" "$err" && [ "$(cat "$TMP/keep.npy")" = before ]; then
        ok "$_n"
    else
        fail "$_n" "rc $rc (expected $_rc), stderr '$(_peek "$err")', D '$(head -c 20 "$TMP/keep.npy")'"
    fi
}
M="--model sm90-mma-bf16-f32"
# shellcheck disable=SC2086
{
bad eval-npy-no-output 2 'needs --a <A.npy>, --b <B.npy> and -o' $M --a "$TMP/a.npy" --b "$TMP/b.npy"
bad eval-npy-no-b 2 'needs --a <A.npy>, --b <B.npy> and -o' $M --a "$TMP/a.npy" -o "$TMP/keep.npy"
bad eval-npy-and-lines 2 'not both' $M --a "$TMP/a.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy" "$TMP/a.npy"
bad eval-npy-and-device 2 'not both' $M --a "$TMP/a.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy" \
    --device sim:sm90-mma-bf16-f32
bad eval-npy-output-is-input 2 'A' $M --a "$TMP/keep.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy"
bad eval-npy-quiet-lines 2 '-q is for eval on arrays' $M -q "$TMP/a.npy"
bad eval-npy-c-rows 3 "c3.npy is 3 x 1, not 2 x 1 \(N addends of sm90-mma-bf16-f32\)" \
    $M --a "$TMP/a.npy" --b "$TMP/b.npy" --c "$TMP/c3.npy" -o "$TMP/keep.npy"
bad eval-npy-k 3 "a15.npy is 2 x 15, not 2 x 16 \(N cases of K words" \
    $M --a "$TMP/a15.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy"
bad eval-npy-dtype 3 "a8.npy: elements of 1 byte, but A is bf16, whose words need 2-byte" \
    $M --a "$TMP/a8.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy"
bad eval-npy-float-dtype 3 "af.npy: a float16 array does not hold bf16 words" \
    $M --a "$TMP/af.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy"
bad eval-npy-wide-word 3 "wide.npy: element \[1\]\[3\] = 0x10 is wider than e2m1 \(4 bits\)" \
    --model sm100-tcgen05-e2m1-f32 --a "$TMP/wide.npy" --b "$TMP/wide.npy" -o "$TMP/keep.npy"
bad eval-npy-three-dims 3 "a3d.npy: more than two dimensions" \
    $M --a "$TMP/a3d.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy"
bad eval-npy-missing 3 "cannot open '$TMP/none.npy'" \
    $M --a "$TMP/none.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy"
bad eval-npy-scales-unscaled 3 "has no block scales: --sa and --sb are for block-scaled" \
    $M --a "$TMP/a.npy" --b "$TMP/b.npy" --sa "$TMP/s.npy" --sb "$TMP/s.npy" -o "$TMP/keep.npy"
bad eval-npy-sa-alone 2 'takes --sa and --sb together' \
    $M --a "$TMP/a.npy" --b "$TMP/b.npy" --sa "$TMP/s.npy" -o "$TMP/keep.npy"
bad eval-npy-scaled-no-scales 3 "is block-scaled: give its scales with --sa and --sb" \
    --model sm100-tcgen05-mxf4-e2m1-f32 --a "$TMP/a.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy"
bad eval-npy-sparse 3 "is sparse: its cases take metadata" \
    --model sm100-tcgen05-sp-bf16-f32 --a "$TMP/a.npy" --b "$TMP/b.npy" -o "$TMP/keep.npy"
}

test_done
