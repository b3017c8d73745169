"""Runs the python blocks of a tutorial page as written, and checks the
claims of docs/tutorials/4-model-numerics.md.

Run by tests/torch/t9110-tutorial-model-numerics.sh as:
python tutorial_check.py PAGE.md SVG (in an empty folder, with PYTHONPATH
holding python/ and LADDER_LIB the library), SVG the figure committed
beside the page. Every ```python block runs in one namespace, in order; a
block passes when it raises nothing and what it prints is the ```text
block that follows it (before the next block), line for line, where `...`
stands for any text. Prints one check line per check ("ok   name" or
"FAIL name: detail").

Then the claims the page makes, checked on the values it computed: the
fp8 GEMM on sm100 equals the exact int64 sum, promotion every 4 MMAs is
closer than chaining, the chained error grows with K, and the figure it
wrote (and the one committed) has one line per run and measure.
"""

import contextlib
import io
import re
import sys
import traceback
import xml.etree.ElementTree as ET

PAGE, COMMITTED = sys.argv[1], sys.argv[2]


def check(name, good, detail=""):
    print(f"ok   {name}" if good else f"FAIL {name}: {detail}", flush=True)


def blocks(text):
    """[(code, expected output or None)] of the page's python blocks."""
    out, lines, i = [], text.split("\n"), 0
    last_python = False
    while i < len(lines):
        fence = lines[i]
        if not fence.startswith("```"):
            i += 1
            continue
        j = i + 1
        while lines[j] != "```":
            j += 1
        body = "\n".join(lines[i + 1:j]) + "\n"
        if fence == "```python":
            out.append([body, None])
        elif fence == "```text" and out and out[-1][1] is None and last_python:
            out[-1][1] = body
        last_python = fence == "```python"
        i = j + 1
    return out


def shows(want, got):
    """None when got is want line for line (`...` any text), else why not."""
    w, g = want.rstrip("\n").split("\n"), got.rstrip("\n").split("\n")
    for n in range(max(len(w), len(g))):
        if n >= len(g):
            return f"line {n + 1} missing: {w[n]}"
        if n >= len(w):
            return f"line {n + 1} not shown: {g[n]}"
        pat = "^" + ".*".join(re.escape(p) for p in w[n].split("...")) + "$"
        if not re.match(pat, g[n]):
            return f"line {n + 1} is {g[n]!r}, not {w[n]!r}"
    return None


with open(PAGE) as f:
    found = blocks(f.read())
check("tutorial-python-blocks", len(found) >= 4, f"{len(found)} blocks")
ns = {"__name__": "__tutorial__"}
for n, (code, want) in enumerate(found, 1):
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(code, f"{PAGE} block {n}", "exec"), ns)
    except Exception:
        check(f"tutorial-block-{n}", False, traceback.format_exc(limit=3).replace("\n", " "))
        continue
    why = shows(want or "", buf.getvalue())
    check(f"tutorial-block-{n}", why is None, why)

gemm, runs, widths = ns.get("gemm_err", {}), ns.get("RUNS", []), ns.get("WIDTHS", ())
if len(runs) == 4 and gemm:
    names = [r[0] for r in runs]
    chain, promo, sm100 = names[1], names[2], names[3]
    check("claim-sm100-fp8-exact", all(gemm[sm100, k] == 0 for k in widths),
          str([gemm[sm100, k] for k in widths]))
    check("claim-promote-closer", all(gemm[promo, k] < gemm[chain, k] for k in widths),
          str([(gemm[promo, k], gemm[chain, k]) for k in widths]))
    check("claim-chain-grows", all(gemm[chain, a] < gemm[chain, b]
                                   for a, b in zip(widths, widths[1:])),
          str([gemm[chain, k] for k in widths]))
else:
    check("claim-values", False, "the page computed no gemm_err for four runs")
for name, path in (("written", "model-numerics.svg"), ("committed", COMMITTED)):
    try:
        root = ET.parse(path).getroot()
        lines = [e for e in root.iter("{http://www.w3.org/2000/svg}polyline")
                 if e.get("class") == "run"]
        check(f"figure-{name}", len(lines) == 8 and
              all(len(e.get("points").split()) == 3 for e in lines), f"{len(lines)} lines")
    except (OSError, ET.ParseError) as e:
        check(f"figure-{name}", False, str(e))
