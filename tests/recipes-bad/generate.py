#!/usr/bin/env python3
"""Writes the malformed recipes of tests/recipes-bad/ (run from anywhere).

Each case is the base recipe below with one mistake in it. The place of the
mistake is marked with MARK in the case's text; the generator removes the
mark and computes its line and column (1-based, in characters, line 1 being
the `# expect:` comment), so every expected location comes from where the
mistake was put, and every expected message is written here by hand from
docs/recipes.md. tests/t4000-recipe-malformed.sh checks each file against
its first line:  # expect: LINE:COL: MESSAGE
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MARK = "\u00a7"  # the section sign never appears in a recipe

BASE = """recipe: 1
description: a small recipe with one mistake
datapath:
  name: sm90-mma-bf16-f32
  arch: sm_90a
  instr: mma.sync
  shape: m16n8k16
  sass: HMMA.16816.F32.BF16
  a: bf16
  b: bf16
  c: f32
  d: f32
  k: 16
device: sim:sm90-mma-bf16-f32
rungs:
  - instruction
  - {rung: lanes, lanes: all}
  - {rung: visible, max_j: 40}
  - random
random:
  cases: 1000
  finite: 20
  seed: 1
"""

# A block-scaled base, for scale and format cases.
SCALED = """recipe: 1
datapath:
  name: sm100-tcgen05-mxf4nvf4-ue4m3-f32
  arch: sm_100a
  instr: tcgen05.mma
  kind: mxf4nvf4
  a: e2m1
  b: e2m1
  c: f32
  d: f32
  k: 64
  sa: ue4m3
  sb: ue4m3
  scale_block: 16
rungs:
  - {rung: scaling, max_shift: 40}
"""

# A base with a user format section.
FORMATS = """recipe: 1
formats:
  - {name: e3m4, width: 8, ebits: 3, mbits: 4}
  - {name: mystery8, width: 8}
datapath:
  name: new-format
  arch: sm_100a
  instr: tcgen05.mma
  a: mystery8
  b: e3m4
  c: f32
  d: f32
  k: 32
rungs:
  - lanes
"""

cases = []  # (slug, text with MARK, message)


def sub(base, old, new, slug, msg):
    """The base with line `old` (exact, whole line) replaced by `new`."""
    lines = base.split("\n")
    hits = [i for i, l in enumerate(lines) if l == old]
    if len(hits) != 1:
        sys.exit("generate.py: %r is not exactly one line of the base" % old)
    lines[hits[0]:hits[0] + 1] = new.split("\n")
    cases.append((slug, "\n".join(lines), msg))


def drop(base, old, slug, msg, mark_line):
    """The base without line `old`; mark_line (exact) gets the mark at its
    first non-blank character."""
    lines = [l for l in base.split("\n") if l != old]
    i = lines.index(mark_line)
    n = len(mark_line) - len(mark_line.lstrip())
    lines[i] = mark_line[:n] + MARK + mark_line[n:]
    cases.append((slug, "\n".join(lines), msg))


def add_after(base, after, new, slug, msg):
    lines = base.split("\n")
    i = lines.index(after)
    lines[i + 1:i + 1] = new.split("\n")
    cases.append((slug, "\n".join(lines), msg))


def raw(text, slug, msg):
    cases.append((slug, text, msg))


def at_top(base):
    """The base with the mark at its very start (the top mapping)."""
    return MARK + base


# ---- misspelled keys --------------------------------------------------------
for old, new in [("recipe: 1", "recpie: 1"),
                 ("description: a small recipe with one mistake",
                  "descripton: a small recipe with one mistake"),
                 ("datapath:", "datpath:"),
                 ("device: sim:sm90-mma-bf16-f32", "devices: sim:sm90-mma-bf16-f32"),
                 ("rungs:", "rung:"),
                 ("random:", "randon:")]:
    key = new.split(":")[0]
    sub(BASE, old, MARK + new, "key-top-" + key, "unknown key '%s'" % key)
sub(FORMATS, "formats:", MARK + "format:", "key-top-format", "unknown key 'format'")
sub(BASE, "random:", MARK + "Random:", "key-top-capital", "unknown key 'Random'")
sub(BASE, "recipe: 1", MARK + "version: 1", "key-top-version", "unknown key 'version'")

for old in ["name: sm90-mma-bf16-f32", "arch: sm_90a", "instr: mma.sync",
            "shape: m16n8k16", "sass: HMMA.16816.F32.BF16", "a: bf16", "b: bf16",
            "c: f32", "d: f32", "k: 16"]:
    key, val = old.split(": ")
    bad = {"name": "nmae", "arch": "acrh", "instr": "instruction", "shape": "shap",
           "sass": "sas", "a": "A", "b": "bb", "c": "C", "d": "dd", "k": "K"}[key]
    sub(BASE, "  " + old, "  " + MARK + bad + ": " + val, "key-dp-" + bad,
        "unknown key '%s'" % bad)
add_after(BASE, "  k: 16", "  " + MARK + "knid: f16", "key-dp-knid", "unknown key 'knid'")
sub(SCALED, "  sa: ue4m3", "  " + MARK + "scale_a: ue4m3", "key-dp-scale_a",
    "unknown key 'scale_a'")
sub(SCALED, "  scale_block: 16", "  " + MARK + "scaleblock: 16", "key-dp-scaleblock",
    "unknown key 'scaleblock'")
add_after(BASE, "  k: 16", "  " + MARK + "sprase: 2of4", "key-dp-sprase",
          "unknown key 'sprase'")
add_after(BASE, "  k: 16", "  " + MARK + "window: 25", "key-dp-window",
          "unknown key 'window'")
add_after(BASE, "  k: 16", "  " + MARK + "evidence: none yet", "key-dp-evidence",
          "unknown key 'evidence'")
for old, bad in [("cases: 1000", "case"), ("finite: 20", "finit"), ("seed: 1", "sed")]:
    sub(BASE, "  " + old, "  " + MARK + bad + ": " + old.split(": ")[1],
        "key-random-" + bad, "unknown key '%s'" % bad)
for bad in ["widht", "nmae", "ebit", "mbit", "baias", "padd", "sgn", "subnormal",
            "infs", "nans", "knd"]:
    sub(FORMATS, "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}",
        "  - {name: e3m4, width: 8, ebits: 3, mbits: 4, " + MARK + bad + ": 1}",
        "key-format-" + bad, "unknown key '%s'" % bad)
for rung, val in [("lanes", "lanes: all"), ("visible", "max_j: 40")]:
    pass
sub(BASE, "  - {rung: lanes, lanes: all}", "  - {rung: lanes, " + MARK + "lane: all}",
    "param-lanes-lane", "unknown parameter 'lane' for rung 'lanes'")
sub(BASE, "  - {rung: visible, max_j: 40}", "  - {rung: visible, " + MARK + "maxj: 40}",
    "param-visible-maxj", "unknown parameter 'maxj' for rung 'visible'")
sub(BASE, "  - {rung: visible, max_j: 40}", "  - {rung: internal, " + MARK + "max_i: 40}",
    "param-internal-max_i", "unknown parameter 'max_i' for rung 'internal'")
sub(BASE, "  - instruction", "  - {rung: ulp, " + MARK + "step: 4}",
    "param-ulp-step", "unknown parameter 'step' for rung 'ulp'")
sub(BASE, "  - instruction", "  - {rung: grouping, " + MARK + "max_passes: 4}",
    "param-grouping-max_passes", "unknown parameter 'max_passes' for rung 'grouping'")
sub(BASE, "  - instruction", "  - {rung: zeros, " + MARK + "minexp: -100}",
    "param-zeros-minexp", "unknown parameter 'minexp' for rung 'zeros'")
sub(BASE, "  - instruction", "  - {rung: truncation, " + MARK + "operands: a}",
    "param-truncation-operands", "unknown parameter 'operands' for rung 'truncation'")
sub(SCALED, "  - {rung: scaling, max_shift: 40}", "  - {rung: scaling, " + MARK + "shift: 40}",
    "param-scaling-shift", "unknown parameter 'shift' for rung 'scaling'")
sub(BASE, "  - instruction", "  - {rung: instruction, " + MARK + "sass: HMMA}",
    "param-instruction-none", "unknown parameter 'sass' for rung 'instruction'")
sub(BASE, "  - random", "  - {rung: random, " + MARK + "cases: 10}",
    "param-random-cases", "unknown parameter 'cases' for rung 'random'")
sub(BASE, "  - instruction", "  - {rung: specials, " + MARK + "all: true}",
    "param-specials-all", "unknown parameter 'all' for rung 'specials'")
sub(BASE, "  - instruction", "  - " + MARK + "{rnug: instruction}",
    "param-rung-misspelled", "missing key 'rung'")
sub(BASE, "  - {rung: visible, max_j: 40}", "  - " + MARK + "{max_j: 40}",
    "param-no-rung", "missing key 'rung'")

# ---- missing keys -------------------------------------------------------------
drop(BASE, "recipe: 1", "missing-recipe", "missing key 'recipe'",
     "description: a small recipe with one mistake")
lines = BASE.split("\n")
dp_block = lines[3:13]
nodp = "\n".join(lines[:2] + lines[13:])
raw(at_top(nodp), "missing-datapath", "missing key 'datapath'")
norungs = BASE.replace("rungs:\n  - instruction\n  - {rung: lanes, lanes: all}\n"
                       "  - {rung: visible, max_j: 40}\n  - random\n", "")
raw(at_top(norungs), "missing-rungs", "missing key 'rungs'")
for key in ["name", "arch", "instr", "a", "b", "c", "d", "k"]:
    old = [l for l in dp_block if l.startswith("  %s: " % key)][0]
    first = [l for l in dp_block if l != old][0]
    drop(BASE, old, "missing-dp-" + key, "missing key '%s'" % key, first)
drop(SCALED, "  sa: ue4m3", "missing-sa", "missing key 'sa' (scale_block is 16)",
     "  name: sm100-tcgen05-mxf4nvf4-ue4m3-f32")
drop(SCALED, "  sb: ue4m3", "missing-sb", "missing key 'sb' (scale_block is 16)",
     "  name: sm100-tcgen05-mxf4nvf4-ue4m3-f32")
sub(FORMATS, "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}",
    "  - " + MARK + "{width: 8, ebits: 3, mbits: 4}", "missing-format-name",
    "missing key 'name'")
sub(FORMATS, "  - {name: mystery8, width: 8}", "  - " + MARK + "{name: mystery8}",
    "missing-format-width", "missing key 'width'")
sub(FORMATS, "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}",
    "  - " + MARK + "{name: e3m4, width: 8, ebits: 3}", "missing-format-mbits",
    "missing key 'mbits'")
sub(FORMATS, "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}",
    "  - " + MARK + "{name: e3m4, width: 8, mbits: 4}", "missing-format-ebits",
    "missing key 'ebits'")
sub(FORMATS, "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}",
    "  - " + MARK + "{name: e3m4, width: 8, bias: 3}", "missing-format-ebits-bias",
    "missing key 'ebits'")
sub(FORMATS, "  - {name: mystery8, width: 8}",
    "  - " + MARK + "{name: mystery8, width: 8, sign: 1}", "missing-format-ebits-sign",
    "missing key 'ebits'")
sub(BASE, "  a: bf16", "  a: " + MARK + "{name: inline, width: 16, ebits: 8}",
    "missing-inline-mbits", "missing key 'mbits'")

# ---- wrong types ----------------------------------------------------------------
sub(BASE, "recipe: 1", "recipe: " + MARK + "one", "type-recipe-word",
    "'recipe' must be an integer, not 'one'")
sub(BASE, "recipe: 1", "recipe: " + MARK + "\"1\"", "type-recipe-quoted",
    "'recipe' must be an integer, not a quoted string")
sub(BASE, "recipe: 1", "recipe: " + MARK + "1.0", "type-recipe-float",
    "'recipe' must be an integer, not '1.0'")
sub(BASE, "recipe: 1", "recipe: " + MARK + "[1]", "type-recipe-seq",
    "'recipe' must be an integer, not a sequence")
sub(BASE, "recipe: 1", "recipe:" + MARK, "type-recipe-empty",
    "missing value for 'recipe'")
raw(BASE.replace("recipe: 1\n", "recipe:" + MARK + " \n"), "type-recipe-null",
    "missing value for 'recipe'")
sub(BASE, "description: a small recipe with one mistake",
    "description: " + MARK + "{text: hi}", "type-description-map",
    "'description' must be a string, not a mapping")
sub(BASE, "description: a small recipe with one mistake",
    "description: " + MARK + "\"\"", "type-description-empty",
    "'description' must not be empty")
sub(BASE, "description: a small recipe with one mistake",
    "description: " + MARK + "x" * 256, "type-description-long",
    "'description' must be at most 255 bytes long")
raw(BASE.replace("datapath:\n" + "\n".join(dp_block) + "\n",
                 "datapath: " + MARK + "sm90-mma-bf16-f32\n"),
    "type-datapath-scalar", "'datapath' must be a mapping, not a scalar")
raw(BASE.replace("datapath:\n" + "\n".join(dp_block) + "\n",
                 "datapath:\n  " + MARK + "- name\n"),
    "type-datapath-seq", "'datapath' must be a mapping, not a sequence")
for key, val in [("name", "sm90-mma-bf16-f32"), ("arch", "sm_90a"),
                 ("instr", "mma.sync"), ("shape", "m16n8k16"),
                 ("sass", "HMMA.16816.F32.BF16")]:
    sub(BASE, "  %s: %s" % (key, val), "  %s: %s[%s]" % (key, MARK, val),
        "type-dp-%s-seq" % key, "'%s' must be a string, not a sequence" % key)
sub(BASE, "  name: sm90-mma-bf16-f32", "  name: " + MARK + "{x: 1}", "type-dp-name-map",
    "'name' must be a string, not a mapping")
sub(BASE, "  name: sm90-mma-bf16-f32", "  name: " + MARK + "n" * 64, "type-dp-name-long",
    "'name' must be at most 63 bytes long")
sub(BASE, "  arch: sm_90a", "  arch: " + MARK + "sm_90a_but_much_longer", "type-dp-arch-long",
    "'arch' must be at most 15 bytes long")
sub(BASE, "  instr: mma.sync", "  instr: " + MARK + "''", "type-dp-instr-empty",
    "'instr' must not be empty")
sub(BASE, "  instr: mma.sync", "  instr:" + MARK, "type-dp-instr-null",
    "missing value for 'instr'")
sub(BASE, "  sass: HMMA.16816.F32.BF16", "  sass: " + MARK + "S" * 40, "type-dp-sass-long",
    "'sass' must be at most 39 bytes long")
sub(BASE, "  shape: m16n8k16", "  shape: " + MARK + "m16n8k16m16n8k16", "type-dp-shape-long",
    "'shape' must be at most 15 bytes long")
add_after(BASE, "  k: 16", "  kind: " + MARK + "mxf8f6f4-extended", "type-dp-kind-long",
          "'kind' must be at most 15 bytes long")
for key in ["a", "b", "c", "d"]:
    old = [l for l in dp_block if l.startswith("  %s: " % key)][0]
    sub(BASE, old, "  %s: %s[bf16]" % (key, MARK), "type-dp-%s-seq" % key,
        "'%s' must be a format name or mapping, not a sequence" % key)
for key in ["a", "c"]:
    old = [l for l in dp_block if l.startswith("  %s: " % key)][0]
    sub(BASE, old, "  %s:" % key + MARK, "type-dp-%s-null" % key,
        "missing value for '%s'" % key)
for val, msg in [("sixteen", "'k' must be an integer, not 'sixteen'"),
                 ("16.0", "'k' must be an integer, not '16.0'"),
                 ("0x10", "'k' must be an integer, not '0x10'"),
                 ("1e1", "'k' must be an integer, not '1e1'"),
                 ("'16'", "'k' must be an integer, not a quoted string"),
                 ("[16]", "'k' must be an integer, not a sequence"),
                 ("{k: 16}", "'k' must be an integer, not a mapping"),
                 ("16 lanes", "'k' must be an integer, not '16 lanes'"),
                 ("--16", "'k' must be an integer, not '--16'"),
                 ("1_6", "'k' must be an integer, not '1_6'")]:
    sub(BASE, "  k: 16", "  k: " + MARK + val, "type-k-" + val.strip("'[]{}: ")
        .replace(" ", "").replace(".", "p"), msg)
sub(SCALED, "  scale_block: 16", "  scale_block: " + MARK + "sixteen",
    "type-scale_block-word", "'scale_block' must be an integer, not 'sixteen'")
sub(SCALED, "  sparse: none" if False else "  scale_block: 16",
    "  scale_block: 16\n  sparse: " + MARK + "[2of4]", "type-sparse-seq",
    "'sparse' must be a name, not a sequence")
sub(BASE, "device: sim:sm90-mma-bf16-f32", "device: " + MARK + "[sim]", "type-device-seq",
    "'device' must be a string, not a sequence")
sub(BASE, "device: sim:sm90-mma-bf16-f32", "device:" + MARK, "type-device-null",
    "missing value for 'device'")
sub(BASE, "device: sim:sm90-mma-bf16-f32", "device: " + MARK + "\"\"", "type-device-empty",
    "'device' must not be empty")
raw(BASE.replace("rungs:\n  - instruction\n", "rungs: " + MARK + "instruction\nxrungs:\n  - instruction\n")
    .replace("xrungs:\n  - instruction\n  - {rung: lanes, lanes: all}\n  - {rung: visible, max_j: 40}\n  - random\n", ""),
    "type-rungs-scalar", "'rungs' must be a sequence, not a scalar")
raw(BASE.replace("rungs:\n  - instruction\n  - {rung: lanes, lanes: all}\n"
                 "  - {rung: visible, max_j: 40}\n  - random\n",
                 "rungs:\n  " + MARK + "instruction: yes\n"),
    "type-rungs-map", "'rungs' must be a sequence, not a mapping")
raw(BASE.replace("rungs:\n  - instruction\n  - {rung: lanes, lanes: all}\n"
                 "  - {rung: visible, max_j: 40}\n  - random\n",
                 "rungs: " + MARK + "[]\n"),
    "type-rungs-empty", "'rungs' must not be empty")
raw(BASE.replace("rungs:\n  - instruction\n  - {rung: lanes, lanes: all}\n"
                 "  - {rung: visible, max_j: 40}\n  - random\n",
                 "rungs:" + MARK + "\n"),
    "type-rungs-null", "missing value for 'rungs'")
sub(BASE, "  - instruction", "  - " + MARK + "[instruction]", "type-rung-seq",
    "a rung must be a name or a mapping, not a sequence")
sub(BASE, "  - instruction", "  - {rung: " + MARK + "[instruction]}", "type-rung-name-seq",
    "'rung' must be a name, not a sequence")
sub(BASE, "  - instruction", "  - {rung: " + MARK + "{a: b}}", "type-rung-name-map",
    "'rung' must be a name, not a mapping")
sub(BASE, "  - instruction", "  -" + MARK, "type-rung-null", "missing rung name")
sub(BASE, "  - instruction", "  - {rung: " + MARK + "}", "type-rung-name-null",
    "missing rung name")
sub(BASE, "random:", "random: " + MARK + "1000\nxrandom:", "type-random-scalar",
    "'random' must be a mapping, not a scalar")
raw(cases[-1][1].replace("xrandom:\n  cases: 1000\n  finite: 20\n  seed: 1\n", ""),
    "type-random-scalar", "'random' must be a mapping, not a scalar")
cases.pop(-2)
raw(BASE.replace("random:\n  cases: 1000\n  finite: 20\n  seed: 1\n",
                 "random:\n  " + MARK + "- 1000\n"),
    "type-random-seq", "'random' must be a mapping, not a sequence")
for key, val, msg in [("cases", "many", "'cases' must be an integer, not 'many'"),
                      ("cases", "1e6", "'cases' must be an integer, not '1e6'"),
                      ("cases", "1,000", "'cases' must be an integer, not '1,000'"),
                      ("cases", "\"1000\"", "'cases' must be an integer, not a quoted string"),
                      ("finite", "20%", "'finite' must be an integer, not '20%'"),
                      ("finite", "0.2", "'finite' must be an integer, not '0.2'"),
                      ("finite", "[20]", "'finite' must be an integer, not a sequence"),
                      ("seed", "random", "'seed' must be an integer, not 'random'"),
                      ("seed", "0xdead", "'seed' must be an integer, not '0xdead'"),
                      ("seed", "{a: 1}", "'seed' must be an integer, not a mapping")]:
    cur = {"cases": "1000", "finite": "20", "seed": "1"}[key]
    sub(BASE, "  %s: %s" % (key, cur), "  %s: %s%s" % (key, MARK, val),
        "type-random-%s-%s" % (key, "".join(c for c in val if c.isalnum())), msg)
sub(BASE, "  seed: 1", "  seed:" + MARK, "type-random-seed-null",
    "missing value for 'seed'")
for param, rung, val, msg in [
        ("lanes", "lanes", "every", "'lanes' must be all or an integer, not 'every'"),
        ("lanes", "lanes", "All", "'lanes' must be all or an integer, not 'All'"),
        ("lanes", "lanes", "[1, 2]", "'lanes' must be an integer, not a sequence"),
        ("lanes", "lanes", "'all'", "'lanes' must be an integer, not a quoted string"),
        ("max_j", "visible", "forty", "'max_j' must be an integer, not 'forty'"),
        ("max_j", "visible", "40.5", "'max_j' must be an integer, not '40.5'"),
        ("max_j", "visible", "{j: 40}", "'max_j' must be an integer, not a mapping")]:
    old = "  - {rung: lanes, lanes: all}" if rung == "lanes" else "  - {rung: visible, max_j: 40}"
    sub(BASE, old, "  - {rung: %s, %s: %s%s}" % (rung, param, MARK, val),
        "type-param-%s-%s" % (param, "".join(c for c in val if c.isalnum())), msg)
sub(BASE, "  - instruction", "  - {rung: truncation, operand: " + MARK + "[a]}",
    "type-param-operand-seq", "'operand' must be a name, not a sequence")
sub(BASE, "  - instruction", "  - {rung: ulp, steps: " + MARK + "four}",
    "type-param-steps-word", "'steps' must be an integer, not 'four'")
sub(BASE, "  - instruction", "  - {rung: zeros, min_exp: " + MARK + "-1e2}",
    "type-param-min_exp-exp", "'min_exp' must be an integer, not '-1e2'")
sub(BASE, "  - instruction", "  - {rung: grouping, max_pass: " + MARK + "half}",
    "type-param-max_pass-word", "'max_pass' must be all or an integer, not 'half'")
sub(SCALED, "  - {rung: scaling, max_shift: 40}",
    "  - {rung: scaling, max_shift: " + MARK + "~}", "type-param-max_shift-tilde",
    "'max_shift' must be an integer, not '~'")
sub(BASE, "  - {rung: visible, max_j: 40}", "  - {rung: visible, max_j: " + MARK + "}",
    "type-param-max_j-null", "missing value for 'max_j'")
for key, val, msg in [("width", "eight", "'width' must be an integer, not 'eight'"),
                      ("ebits", "[3]", "'ebits' must be an integer, not a sequence"),
                      ("mbits", "four", "'mbits' must be an integer, not 'four'"),
                      ("bias", "3.5", "'bias' must be an integer, not '3.5'"),
                      ("pad", "none", "'pad' must be an integer, not 'none'"),
                      ("sign", "true", "'sign' must be an integer, not 'true'"),
                      ("name", "[e3m4]", "'name' must be a string, not a sequence")]:
    base_fmt = "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}"
    if key in ("width", "ebits", "mbits", "name"):
        cur = {"width": "8", "ebits": "3", "mbits": "4", "name": "e3m4"}[key]
        new = base_fmt.replace("%s: %s" % (key, cur), "%s: %s%s" % (key, MARK, val))
    else:
        new = base_fmt[:-1] + ", %s: %s%s}" % (key, MARK, val)
    sub(FORMATS, base_fmt, new, "type-format-%s" % key, msg)
sub(FORMATS, "formats:\n  - {name: e3m4, width: 8, ebits: 3, mbits: 4}" if False else "formats:",
    "formats:\n  " + MARK + "e3m4: {width: 8}\nxformats:", "type-formats-map",
    "'formats' must be a sequence, not a mapping")
raw(cases[-1][1].replace("xformats:\n  - {name: e3m4, width: 8, ebits: 3, mbits: 4}\n"
                         "  - {name: mystery8, width: 8}\n", ""),
    "type-formats-map", "'formats' must be a sequence, not a mapping")
cases.pop(-2)
sub(FORMATS, "  - {name: mystery8, width: 8}", "  - " + MARK + "mystery8", "type-format-scalar",
    "'format' must be a mapping, not a scalar")
sub(FORMATS, "  - {name: mystery8, width: 8}", "  - " + MARK + "[mystery8, 8]",
    "type-format-seq", "'format' must be a mapping, not a sequence")

# ---- out of range ---------------------------------------------------------------
for val, msg in [("2", "unsupported recipe version 2 (this ladder reads 1)"),
                 ("0", "unsupported recipe version 0 (this ladder reads 1)"),
                 ("-1", "'recipe' must be in 0..1000000, not -1"),
                 ("99999999999999999999",
                  "'recipe' must be in 0..1000000, not 99999999999999999999")]:
    sub(BASE, "recipe: 1", "recipe: " + MARK + val, "range-recipe-" + val[:6].lstrip("-"), msg)
for val in ["0", "129", "-1", "-16", "1000", "99999999999999999999999"]:
    sub(BASE, "  k: 16", "  k: " + MARK + val, "range-k-" + val[:8].replace("-", "m"),
        "'k' must be in 1..128, not %s" % val)
for val in ["-1", "129", "100000"]:
    sub(SCALED, "  scale_block: 16", "  scale_block: " + MARK + val,
        "range-scale_block-" + val.replace("-", "m"),
        "'scale_block' must be in 0..128, not %s" % val)
for key, val, rng in [("cases", "100000001", "0..100000000"),
                      ("cases", "-1", "0..100000000"),
                      ("cases", "1000000000000", "0..100000000"),
                      ("finite", "101", "0..100"), ("finite", "-1", "0..100"),
                      ("finite", "1000", "0..100"),
                      ("seed", "-1", "0..9223372036854775807"),
                      ("seed", "9223372036854775808", "0..9223372036854775807"),
                      ("seed", "18446744073709551616", "0..9223372036854775807")]:
    cur = {"cases": "1000", "finite": "20", "seed": "1"}[key]
    sub(BASE, "  %s: %s" % (key, cur), "  %s: %s%s" % (key, MARK, val),
        "range-random-%s-%s" % (key, val[:10].replace("-", "m")),
        "'%s' must be in %s, not %s" % (key, rng, val))
for param, val, rng in [("max_j", "0", "1..200"), ("max_j", "201", "1..200"),
                        ("max_j", "-40", "1..200")]:
    sub(BASE, "  - {rung: visible, max_j: 40}",
        "  - {rung: visible, max_j: %s%s}" % (MARK, val),
        "range-visible-max_j-" + val.replace("-", "m"),
        "'max_j' must be in %s, not %s" % (rng, val))
sub(BASE, "  - {rung: visible, max_j: 40}", "  - {rung: internal, max_j: " + MARK + "500}",
    "range-internal-max_j", "'max_j' must be in 1..200, not 500")
for val in ["1", "65", "0"]:
    sub(BASE, "  - instruction", "  - {rung: ulp, steps: %s%s}" % (MARK, val),
        "range-ulp-steps-" + val, "'steps' must be in 2..64, not %s" % val)
for val in ["1", "-1001"]:
    sub(BASE, "  - instruction", "  - {rung: zeros, min_exp: %s%s}" % (MARK, val),
        "range-zeros-min_exp-" + val.replace("-", "m"),
        "'min_exp' must be in -1000..0, not %s" % val)
for val in ["255", "-1"]:
    sub(SCALED, "  - {rung: scaling, max_shift: 40}",
        "  - {rung: scaling, max_shift: %s%s}" % (MARK, val),
        "range-scaling-max_shift-" + val.replace("-", "m"),
        "'max_shift' must be in 0..254, not %s" % val)
for val in ["0", "129", "-1"]:
    sub(BASE, "  - {rung: lanes, lanes: all}", "  - {rung: lanes, lanes: %s%s}" % (MARK, val),
        "range-lanes-" + val.replace("-", "m"), "'lanes' must be in 1..128, not %s" % val)
sub(BASE, "  - {rung: lanes, lanes: all}", "  - {rung: lanes, lanes: " + MARK + "17}",
    "range-lanes-over-k", "'lanes' must be at most k (16), not 17")
sub(BASE, "  - {rung: lanes, lanes: all}", "  - {rung: lanes, lanes: " + MARK + "128}",
    "range-lanes-128-over-k", "'lanes' must be at most k (16), not 128")
sub(BASE, "  - instruction", "  - {rung: grouping, max_pass: " + MARK + "32}",
    "range-grouping-over-k", "'max_pass' must be at most k (16), not 32")
sub(BASE, "  - instruction", "  - {rung: grouping, max_pass: " + MARK + "0}",
    "range-grouping-zero", "'max_pass' must be in 1..128, not 0")
for key, val, rng in [("width", "0", "1..64"), ("width", "65", "1..64"),
                      ("ebits", "12", "0..11"), ("ebits", "-1", "0..11"),
                      ("mbits", "53", "0..52"), ("bias", "1001", "-1000..1000"),
                      ("bias", "-1001", "-1000..1000"), ("pad", "64", "0..63"),
                      ("pad", "-1", "0..63"), ("sign", "2", "0..1"),
                      ("sign", "-1", "0..1")]:
    base_fmt = "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}"
    if key in ("width", "ebits", "mbits"):
        cur = {"width": "8", "ebits": "3", "mbits": "4"}[key]
        new = base_fmt.replace("%s: %s" % (key, cur), "%s: %s%s" % (key, MARK, val))
    else:
        new = base_fmt[:-1] + ", %s: %s%s}" % (key, MARK, val)
    sub(FORMATS, base_fmt, new, "range-format-%s-%s" % (key, val.replace("-", "m")),
        "'%s' must be in %s, not %s" % (key, rng, val))

# ---- enums ----------------------------------------------------------------------
sub(SCALED, "  scale_block: 16", "  scale_block: 16\n  sparse: " + MARK + "2:4",
    "enum-sparse", "'sparse' must be one of none, 1of2, 2of4, pairs8, not '2:4'")
sub(SCALED, "  scale_block: 16", "  scale_block: 16\n  sparse: " + MARK + "true",
    "enum-sparse-bool", "'sparse' must be one of none, 1of2, 2of4, pairs8, not 'true'")
sub(SCALED, "  scale_block: 16", "  scale_block: 16\n  sparse: " + MARK + "None",
    "enum-sparse-case", "'sparse' must be one of none, 1of2, 2of4, pairs8, not 'None'")
sub(BASE, "  - instruction", "  - {rung: truncation, operand: " + MARK + "d}",
    "enum-operand", "'operand' must be one of all, a, b, c, not 'd'")
sub(BASE, "  - instruction", "  - {rung: truncation, operand: " + MARK + "A}",
    "enum-operand-case", "'operand' must be one of all, a, b, c, not 'A'")
for key, val, names in [("sub", "denormal", "ieee, flush, none"),
                        ("inf", "yes", "none, ieee"),
                        ("nan", "quiet", "none, ieee, ones, negzero"),
                        ("kind", "fixed", "float, int")]:
    sub(FORMATS, "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}",
        "  - {name: e3m4, width: 8, ebits: 3, mbits: 4, %s: %s%s}" % (key, MARK, val),
        "enum-format-" + key, "'%s' must be one of %s, not '%s'" % (key, names, val))

# ---- rungs ----------------------------------------------------------------------
# A name one slip from a rung (a third of its length in edits, at least
# one: util/suggest.h) gets the rung suggested; the edits counted by hand.
NEAR = {"instructions": "instruction", "Slice": "slice", "lane": "lanes",
        "ulps": "ulp", "zero": "zeros", "special": "specials", "grouping2": "grouping"}
for name in ["instructions", "Slice", "lane", "visibility", "precision", "scale",
             "rand", "ulps", "zero", "special", "grouping2", "5"]:
    sub(BASE, "  - instruction", "  - " + MARK + name, "rung-unknown-" + name,
        "unknown rung '%s'" % name +
        ("; did you mean '%s'?" % NEAR[name] if name in NEAR else ""))
sub(BASE, "  - instruction", "  - {rung: " + MARK + "truncate}", "rung-unknown-map",
    "unknown rung 'truncate'")
sub(BASE, "  - instruction", "  - " + MARK + "\"\"", "rung-empty-quoted", "missing rung name")
sub(BASE, "  - random", "  - random\n  - " + MARK + "instruction", "rung-twice",
    "rung 'instruction' is listed twice (first at 17:5)")
sub(BASE, "  - random", "  - " + MARK + "{rung: lanes, lanes: 4}", "rung-twice-map",
    "rung 'lanes' is listed twice (first at 18:5)")
sub(BASE, "  - random", "  - random\n  - " + MARK + "random", "rung-twice-last",
    "rung 'random' is listed twice (first at 20:5)")
sub(BASE, "  - instruction", "  - " + MARK + "scaling", "rung-scaling-unscaled",
    "rung 'scaling' needs a block-scaled datapath (scale_block)")
sub(BASE, "  - instruction", "  - " + MARK + "{rung: scaling, max_shift: 10}",
    "rung-scaling-unscaled-map",
    "rung 'scaling' needs a block-scaled datapath (scale_block)")
many = "\n".join("  - %s" % n for n in
                 ["instruction", "slice", "lanes", "truncation", "visible", "internal",
                  "ulp", "grouping", "zeros", "specials", "random"] * 3)
many_lines = many.split("\n")
many_lines.append("  - instruction")
many_lines[32] = "  - " + MARK + many_lines[32][4:]
raw(BASE.replace("  - instruction\n  - {rung: lanes, lanes: all}\n"
                 "  - {rung: visible, max_j: 40}\n  - random\n",
                 "\n".join(many_lines) + "\n"), "rung-too-many", "more than 32 rungs")

# ---- formats --------------------------------------------------------------------
# (eXmY with X up to 11 and Y up to 52 is a format spec, so e12m24 is the
# unknown one)
UNKNOWN = " (not a built-in name, eXmY, ueXmY, sN or uN)"
for key in ["a", "b", "c", "d"]:
    old = [l for l in dp_block if l.startswith("  %s: " % key)][0]
    sub(BASE, old, "  %s: %se12m24" % (key, MARK), "format-unknown-" + key,
        "unknown format 'e12m24'" + UNKNOWN)
sub(BASE, "  a: bf16", "  a: " + MARK + "BF16", "format-unknown-case",
    "unknown format 'BF16'" + UNKNOWN)
sub(BASE, "  a: bf16", "  a: " + MARK + "none", "format-none", "unknown format 'none'")
sub(BASE, "  a: bf16", "  a: " + MARK + "fp16", "format-fp16",
    "unknown format 'fp16'" + UNKNOWN)
sub(SCALED, "  sa: ue4m3", "  sa: " + MARK + "ue5m53", "format-unknown-sa",
    "unknown format 'ue5m53'" + UNKNOWN)
sub(SCALED, "  sb: ue4m3", "  sb: " + MARK + "e8m53", "format-unknown-sb",
    "unknown format 'e8m53'" + UNKNOWN)
sub(FORMATS, "  - {name: mystery8, width: 8}", "  - {name: " + MARK + "e4m3, width: 8}",
    "format-builtin-name", "format name 'e4m3' is taken by a built-in format")
sub(FORMATS, "  - {name: mystery8, width: 8}", "  - {name: " + MARK + "none, width: 8}",
    "format-none-name", "format name 'none' is taken by a built-in format")
sub(FORMATS, "  - {name: mystery8, width: 8}", "  - {name: " + MARK + "e3m4, width: 8}",
    "format-twice", "format 'e3m4' is defined twice (first at 4:5)")
sub(FORMATS, "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}",
    "  - {name: " + MARK + "\"\", width: 8}", "format-empty-name", "'name' must not be empty")
sub(FORMATS, "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}",
    "  - {name: " + MARK + "a_format_name_far_too_long, width: 8}", "format-long-name",
    "'name' must be at most 23 bytes long")
for new, msg, slug in [
        ("{name: e3m4, width: 8, ebits: 5, mbits: 4}",
         "format 'e3m4': pad + sign + ebits + mbits exceeds the width", "check-width"),
        ("{name: e3m4, width: 8, ebits: 0, mbits: 4}",
         "format 'e3m4': ebits must be 1..11", "check-ebits"),
        ("{name: e3m4, width: 8, ebits: 3, mbits: 4, bias: 1000}",
         None, "check-bias"),
        ("{name: e3m4, width: 8, ebits: 3, mbits: 4, kind: int}",
         "format 'e3m4': an integer format has no pad, ebits or mbits", "check-int"),
        ("{name: e3m4, width: 8, ebits: 3, mbits: 0}",
         "format 'e3m4': with no fraction bits the top exponent cannot be both Inf and NaN",
         "check-nan"),
        ("{name: e3m4, width: 8, ebits: 3, mbits: 0, inf: none}",
         "format 'e3m4': nan ieee needs fraction bits (use nan ones)", "check-nan-ieee"),
        ("{name: e3m4, width: 8, ebits: 3, mbits: 4, pad: 2}",
         "format 'e3m4': pad + sign + ebits + mbits exceeds the width", "check-pad")]:
    if msg is None:
        continue
    sub(FORMATS, "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}", "  - " + MARK + new,
        "format-" + slug, msg)
sub(BASE, "  a: bf16", "  a: " + MARK + "{name: x7, width: 8, ebits: 5, mbits: 5}",
    "format-inline-check", "format 'x7': pad + sign + ebits + mbits exceeds the width")
sub(SCALED, "  sa: ue4m3", "  sa: " + MARK + "{name: ux8, width: 8}",
    "format-scale-unknown-decode", "scale format 'ux8' must have a known decode")
sub(SCALED, "  scale_block: 16", "  " + MARK + "scale_block: 0", "format-sa-without-block",
    None)
cases.pop()
raw(SCALED.replace("  scale_block: 16\n", "").replace("  sa: ue4m3", "  sa: " + MARK + "ue4m3"),
    "format-sa-without-scale_block", "'sa' needs a nonzero 'scale_block'")
lines_s = SCALED.split("\n")
i = lines_s.index("  scale_block: 16")
lines_s[i] = "  scale_block: 0"
j = lines_s.index("  sa: ue4m3")
lines_s[j] = "  sa: " + MARK + "ue4m3"
lines_s.remove("  - {rung: scaling, max_shift: 40}")
lines_s.insert(lines_s.index("rungs:") + 1, "  - lanes")
raw("\n".join(lines_s), "format-sa-with-zero-block", "'sa' needs a nonzero 'scale_block'")
many_f = "\n".join("  - {name: f%d, width: 8}" % i for i in range(17))
mf = many_f.split("\n")
mf[16] = "  - " + MARK + mf[16][4:]
raw(FORMATS.replace("  - {name: e3m4, width: 8, ebits: 3, mbits: 4}\n"
                    "  - {name: mystery8, width: 8}\n", "\n".join(mf) + "\n")
    .replace("a: mystery8", "a: f0").replace("b: e3m4", "b: f1"),
    "format-too-many", "more than 16 formats")
sub(FORMATS, "  a: mystery8", "  a: " + MARK + "mystery9", "format-unknown-user",
    "unknown format 'mystery9'" + UNKNOWN)
sub(FORMATS, "  a: mystery8", "  a: " + MARK + "[mystery8]", "format-user-seq",
    "'a' must be a format name or mapping, not a sequence")

# ---- device ---------------------------------------------------------------------
for val, msg in [("gpu:0", "'device' must start with sim:, exec:, exec-framed: or cuda:, not 'gpu:0'"),
                 ("cuda", "'device' must start with sim:, exec:, exec-framed: or cuda:, not 'cuda'"),
                 ("SIM:x", "'device' must start with sim:, exec:, exec-framed: or cuda:, not 'SIM:x'"),
                 ("'sim:'", "'device' names no sim device"),
                 ("\"exec:\"", "'device' names no exec device"),
                 ("'cuda:'", "'device' names no cuda device")]:
    sub(BASE, "device: sim:sm90-mma-bf16-f32", "device: " + MARK + val,
        "device-" + "".join(c for c in val if c.isalnum()), msg)

# ---- datapath consistency (lad_datapath_check, at the datapath mapping) -------------
def dp_check(base, old, new, slug, msg):
    lines = base.split("\n")
    lines[lines.index(old)] = new
    k = lines.index("datapath:") + 1
    lines[k] = "  " + MARK + lines[k][2:]
    cases.append((slug, "\n".join(lines), msg))

dp_check(BASE, "  k: 16", "  k: 16\n  sparse: 1of2\n  kind: x\n  sass: y".split("\n")[0] + "\n  sparse: pairs8",
         "check-sparse-chunk", "k 16 is not a multiple of the sparsity chunk (8 lanes)")
cases.pop()
dp_check(BASE, "  k: 16", "  k: 6\n  sparse: 2of4", "check-sparse-chunk",
         "k 6 is not a multiple of the sparsity chunk (4 lanes)")
dp_check(BASE, "  k: 16", "  k: 12\n  sparse: pairs8", "check-sparse-pairs8",
         "k 12 is not a multiple of the sparsity chunk (8 lanes)")
dp_check(SCALED, "  scale_block: 16", "  scale_block: 4", "check-scale-blocks",
         "more than 8 scale blocks")
dp_check(SCALED, "  sa: ue4m3", "  sa: e4m3", "check-scale-signed",
         "scale formats must be unsigned floats")
dp_check(BASE, "  a: bf16", "  a: s8", "check-int-float-mix",
         "a float datapath needs float formats a, b, c, d and acc")

# ---- YAML itself --------------------------------------------------------------------
sub(BASE, "  a: bf16", "  a: " + MARK + "&fmt bf16", "yaml-anchor-scalar",
    "anchors are not allowed ('&fmt')")
sub(BASE, "  b: bf16", "  b: " + MARK + "*fmt", "yaml-alias-undefined", None)
cases.pop()  # libyaml rejects an undefined alias? (it does not: kept below)
raw(BASE.replace("  a: bf16\n  b: bf16\n", "  a: bf16\n  b: " + MARK + "*fmt\n"),
    "yaml-alias", "aliases are not allowed ('*fmt')")
raw(BASE.replace("datapath:\n", "datapath: " + MARK + "&dp\n"), "yaml-anchor-map",
    "anchors are not allowed ('&dp')")
raw(BASE.replace("rungs:\n", "rungs: " + MARK + "&r\n"), "yaml-anchor-seq",
    "anchors are not allowed ('&r')")
sub(BASE, "  - instruction", "  - " + MARK + "&first instruction", "yaml-anchor-item",
    "anchors are not allowed ('&first')")
sub(BASE, "recipe: 1", MARK + "&top recipe: 1", "yaml-anchor-key",
    "anchors are not allowed ('&top')")
raw(BASE + "copy: " + MARK + "*x\n", "yaml-alias-top", "aliases are not allowed ('*x')")
sub(BASE, "  - random", "  - <<: " + MARK + "*base", "yaml-merge-key",
    "aliases are not allowed ('*base')")
for val, tag in [("!!str 16", "!!str"), ("!!int 16", "!!int"), ("!custom 16", "!custom"),
                 ("!<tag:example.com,2000:k> 16", "tag:example.com,2000:k")]:
    sub(BASE, "  k: 16", "  k: " + MARK + val,
        "yaml-tag-" + "".join(c for c in tag if c.isalnum())[:12],
        "tags are not allowed ('%s')" % tag)
raw(BASE.replace("datapath:\n", "datapath: " + MARK + "!!map\n"), "yaml-tag-map",
    "tags are not allowed ('!!map')")
raw(BASE.replace("rungs:\n", "rungs: " + MARK + "!!seq\n"), "yaml-tag-seq",
    "tags are not allowed ('!!seq')")
sub(BASE, "  - instruction", "  - " + MARK + "! instruction", "yaml-tag-bang",
    "tags are not allowed ('!')")
sub(BASE, "random:", MARK + "recipe: 1\nrandom:", "yaml-dup-top", "duplicate key 'recipe'")
sub(BASE, "  k: 16", "  k: 16\n  " + MARK + "k: 32", "yaml-dup-dp", "duplicate key 'k'")
sub(BASE, "  seed: 1", "  seed: 1\n  " + MARK + "seed: 2", "yaml-dup-random",
    "duplicate key 'seed'")
sub(BASE, "  - {rung: visible, max_j: 40}", "  - {rung: visible, max_j: 40, " + MARK + "max_j: 30}",
    "yaml-dup-param", "duplicate key 'max_j'")
sub(BASE, "  - {rung: visible, max_j: 40}", "  - {rung: visible, " + MARK + "rung: internal}",
    "yaml-dup-rung", "duplicate key 'rung'")
sub(FORMATS, "  - {name: mystery8, width: 8}", "  - {name: mystery8, width: 8, " + MARK + "width: 9}",
    "yaml-dup-format", "duplicate key 'width'")
sub(BASE, "  a: bf16", "  a: bf16\n  " + MARK + "\"a\": f16", "yaml-dup-quoted",
    "duplicate key 'a'")
sub(BASE, "random:", "? " + MARK + "[a, b]\n: 1\nrandom:", "yaml-key-seq",
    "mapping keys must be scalars")
sub(BASE, "random:", MARK + "{x: 1}: 2\nrandom:", "yaml-key-map",
    "mapping keys must be scalars")
# The top mapping is the first level: 15 brackets make 16 levels.
deep = "deep: " + "[" * 15 + MARK + "[1" + "]" * 16
raw(BASE + deep + "\n", "yaml-deep-flow", "nesting deeper than 16 levels")
deep_block = "deep:\n" + "".join("  " * (i + 1) + "k%d:\n" % i for i in range(15))
deep_block += "  " * 16 + MARK + "- x\n"
raw(BASE + deep_block, "yaml-deep-block", "nesting deeper than 16 levels")
raw(BASE.replace("  - instruction\n", "  - " + "[" * 14 + MARK + "[x" + "]" * 15 + "\n"),
    "yaml-deep-rungs", "nesting deeper than 16 levels")
sub(BASE, "description: a small recipe with one mistake",
    "description: " + MARK + "d" * 4097, "yaml-long-scalar", "scalar longer than 4096 bytes")
sub(BASE, "  k: 16", "  k: " + MARK + "1" * 5000, "yaml-long-int", "scalar longer than 4096 bytes")
sub(BASE, "  name: sm90-mma-bf16-f32", "  name: " + MARK + "\"" + "n" * 4097 + "\"",
    "yaml-long-quoted", "scalar longer than 4096 bytes")
sub(BASE, "  name: sm90-mma-bf16-f32", "  name: " + MARK + "\"a\\0b\"", "yaml-nul",
    "scalar contains a nul byte")
raw("# only a comment\n", "yaml-empty", "@1:1 empty document")
raw("", "yaml-empty-file", "@1:1 empty document")
raw("\n\n\n", "yaml-blank", "@1:1 empty document")
raw(MARK + "- recipe: 1\n", "yaml-top-seq", "a recipe must be a mapping, not a sequence")
raw(MARK + "recipe\n", "yaml-top-scalar", "a recipe must be a mapping, not a scalar")
raw(MARK + "\"recipe: 1\"\n", "yaml-top-quoted", "a recipe must be a mapping, not a scalar")
raw("---\n" + MARK + "\n...\n", "yaml-top-null", None)
cases.pop()
raw(BASE + MARK + "---\nrecipe: 1\n", "yaml-two-docs", "more than one document in the file")
raw("---\n" + BASE + MARK + "---\n", "yaml-two-docs-empty", "more than one document in the file")
raw(BASE + "...\n" + MARK + "---\n", "yaml-two-docs-end", "more than one document in the file")
huge = "huge: [" + ",".join(["0"] * 99990) + "," + MARK + "0,0,0,0,0,0,0,0,0,0]\n"
# 99,990 + 1 more items before the mark; the base has fewer than 60 nodes, so
# the count is fixed below once the base's nodes are known.
cases.append(("yaml-too-many-nodes", None, "more than 100000 nodes"))

# Syntax errors (libyaml's own messages, at libyaml's mark).
sub(BASE, "  k: 16", "  k: 16\n " + MARK + "c: f32", "syntax-indent",
    "syntax error: did not find expected key (while parsing a block mapping at 2:1)")
sub(BASE, "  - {rung: lanes, lanes: all}", "  - {rung: lanes, lanes: all\n" + MARK + "  - random2",
    "syntax-unclosed-flow", None)
cases.pop()
sub(BASE, "description: a small recipe with one mistake",
    "description: \"unterminated\n" + MARK, "syntax-unclosed-quote", None)
cases.pop()
sub(BASE, "  k: 16", "  k: 16: 32" if False else "  k: 16 " + MARK + ": 32",
    "syntax-colon", "syntax error: mapping values are not allowed in this context")
sub(BASE, "  k: 16", "\t" + MARK + "k: 16", "syntax-tab", None)
cases.pop()
sub(BASE, "  - instruction", "  - instruction\n  " + MARK + "slice", "syntax-seq-scalar", None)
cases.pop()
sub(BASE, "  - instruction", "  - " + MARK + "@instruction", "syntax-at",
    "syntax error: found character that cannot start any token (while scanning for the next token at %LC%)")
sub(BASE, "  - instruction", "  - " + MARK + "`instruction`", "syntax-backquote",
    "syntax error: found character that cannot start any token (while scanning for the next token at %LC%)")
sub(BASE, "  k: 16", "  k: " + MARK + "%16", "syntax-percent",
    "syntax error: found character that cannot start any token (while scanning for the next token at %LC%)")
sub(BASE, "  a: bf16", "  a: *" + MARK, "syntax-alias-empty", None)
cases.pop()
sub(BASE, "  k: 16", "  k: " + MARK + "\"\\q\"", "syntax-escape", None)
cases.pop()
# Invalid text: bytes libyaml's reader refuses (marks from the byte offset).
sub(BASE, "  name: sm90-mma-bf16-f32", "  name: sm90" + MARK + "\udcff", "utf8-leading",
    "invalid text: invalid leading UTF-8 octet (0xff)")
sub(BASE, "  name: sm90-mma-bf16-f32", "  name: sm90\udcc3" + MARK + "(", "utf8-trailing",
    "invalid text: invalid trailing UTF-8 octet (0x28)")
sub(BASE, "description: a small recipe with one mistake",
    "description: a " + MARK + "\x01 control", "utf8-control",
    "invalid text: control characters are not allowed (0x01)")
sub(BASE, "description: a small recipe with one mistake",
    "description: a " + MARK + "\x7f delete", "utf8-del",
    "invalid text: control characters are not allowed (0x7f)")
sub(BASE, "  name: sm90-mma-bf16-f32", "  name: sm90" + MARK + "\udcc0\udc80", "utf8-overlong",
    "invalid text: invalid length of a UTF-8 sequence")
sub(BASE, "  name: sm90-mma-bf16-f32", "  name: sm90" + MARK + "\udced\udca0\udc80",
    "utf8-surrogate", "invalid text: invalid Unicode character (0xd800)")


def place(text):
    """Removes MARK; returns (text, line, col) with 1-based line and column
    counted in characters, line 1 being the expect comment."""
    i = text.index(MARK)
    before = text[:i]
    line = before.count("\n") + 2
    col = len(before) - (before.rfind("\n") + 1) + 1
    return text.replace(MARK, "", 1), line, col

# ---- format specs where a format is: the spec's own message, at the value ----
sub(BASE, "  a: bf16", "  a: " + MARK + "e3m4:bais=5", "format-spec-key",
    "unknown key 'bais' in format 'e3m4:bais=5'")
sub(BASE, "  b: bf16", "  b: " + MARK + "'e5m2:nan=some'", "format-spec-value",
    "bad value 'some' for 'nan' in format 'e5m2:nan=some'")
sub(BASE, "  a: bf16", "  a: " + MARK + "e1m2", "format-spec-check",
    "format 'e1m2': one exponent bit leaves no normal numbers beside the specials")
sub(BASE, "  a: bf16", "  a: " + MARK + "e3m4:name=f16", "format-spec-builtin-name",
    "format name 'f16' is taken by a built-in format")
sub(SCALED, "  sa: ue4m3", "  sa: " + MARK + "ue8m0:bias=300000", "format-spec-scale",
    "bad value '300000' for 'bias' in format 'ue8m0:bias=300000'")


def main():
    for f in os.listdir(HERE):
        if f.endswith(".yaml"):
            os.remove(os.path.join(HERE, f))
    seen = set()
    n = 0
    for slug, text, msg in cases:
        base, k = slug, 2
        while slug in seen:
            slug = "%s-%d" % (base, k)
            k += 1
        seen.add(slug)
        if text is None:  # the node-limit case: BASE plus a huge sequence
            base_nodes = 1 + 2 * 0  # counted exactly below
            text = huge_case()
        if msg.startswith("@"):  # no place to mark: an empty file
            loc, msg = msg[1:].split(" ", 1)
            line, col = map(int, loc.split(":"))
            body = text
        else:
            body, line, col = place(text)
        m = msg.replace("%LC%", "%d:%d" % (line, col))
        n += 1
        name = "%03d-%s.yaml" % (n, slug)
        data = ("# expect: %d:%d: %s\n" % (line, col, m) + body)
        if body and not body.endswith("\n"):
            data += "\n"
        with open(os.path.join(HERE, name), "wb") as fh:
            fh.write(data.encode("utf-8", "surrogateescape"))
    print("generate.py: %d malformed recipes" % n)


def huge_case():
    """BASE plus `huge: [0, 0, ...]` with the mark on the 100,001st node.
    Nodes of BASE: the top mapping, 7 keys + 7 values of which datapath (1 +
    20), rungs (1 + 1 + 5 + 5 + 1), random (1 + 6) are collections."""
    base_nodes = count_nodes()
    # `huge` key + its sequence, then items.
    items_before = 100000 - base_nodes - 2
    return (BASE + "huge: [" + "0," * items_before + MARK + "0]\n")


def count_nodes():
    # Counted by hand from BASE: 1 (top) + 12 (6 keys, 6 values; datapath,
    # rungs and random values are collections) + 20 (datapath: 10 keys, 10
    # values) + 4 items of rungs of which 2 are mappings with 4 scalars
    # each (8) + 6 (random: 3 keys, 3 values).
    return 1 + 12 + 20 + 4 + 8 + 6


if __name__ == "__main__":
    main()
