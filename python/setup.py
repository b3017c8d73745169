"""Builds the library the package loads (ladder/_libladder*.so): the
datapath model of libladder (model/, util/err.c) and the model-file reader
(io/modelfile.c, io/yaml.c over libyaml), from the source tree this folder
sits in. `pip install ./python` runs it; the C compiler and libyaml's
headers (Debian: libyaml-dev) must be there. The library is loaded through
ctypes, not imported: it has no Python entry point.
"""

import glob
import os
import shutil

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


# The C files and the headers beside them are copied under build/csrc (as
# laid out in the tree, so that their relative includes hold): setuptools
# takes only relative sources inside this folder.
FILES = sorted(glob.glob(os.path.join(ROOT, "model", "*.[ch]"))) + [
    os.path.join(ROOT, "model", "params.def")] + [
    os.path.join(ROOT, p) for p in (
        "util/err.c", "util/err.h", "util/buf.c", "util/buf.h", "util/suggest.c",
        "util/suggest.h", "io/modelfile.c", "io/modelfile.h", "io/yaml.c", "io/yaml.h",
        "util/outfile.c", "util/outfile.h")]
missing = [p for p in FILES if not os.path.exists(p)]
if missing or len(FILES) < 13:
    raise SystemExit("ladder: setup.py needs the source tree around python/ "
                     f"(missing {missing[:3] or 'model/*.c'})")
CSRC = os.path.join("build", "csrc")
for path in FILES:
    dest = os.path.join(HERE, CSRC, os.path.relpath(path, ROOT))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copyfile(path, dest)
SOURCES = [os.path.join(CSRC, os.path.relpath(p, ROOT)) for p in FILES if p.endswith(".c")]

setup(ext_modules=[Extension(
    "ladder._libladder",
    sources=SOURCES,
    include_dirs=[CSRC],
    define_macros=[("_GNU_SOURCE", None)],
    extra_compile_args=["-std=c11", "-O2", "-pthread"],
    extra_link_args=["-pthread"],
    libraries=["yaml"],
)])
