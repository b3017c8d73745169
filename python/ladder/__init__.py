"""ladder: what a GPU tensor core returns, bit for bit, on the CPU.

    import numpy as np, ml_dtypes, ladder
    a = np.ones((4, 64), ml_dtypes.float8_e4m3fn)
    b = np.ones((64, 8), ml_dtypes.float8_e4m3fn)
    d = ladder.matmul(a, b, datapath="sm90-wgmma-e4m3-f32", program="fp8-promote4")
    d = ladder.matmul(a, b, datapath="inferred.yaml")       # a model file
    w = ladder.round(np.array([0.1, 3.0]), "e3m4:bias=5")  # words of any format
    ladder.presets()["sm90-mma-bf16-f32"]                  # one line on it

A thin layer over libladder.so (the C library `make` builds, see
docs/library.md) through ctypes. Arrays go in and come out as raw words:
float arrays (numpy's float16 and float32, ml_dtypes' bfloat16 and float8
types) are viewed as their bits, never converted, and unsigned integer
arrays are taken as the words themselves. The result's dtype is the float
type whose bits the output format's words are (float32 for f32 and its
cut e8m13, bfloat16, float16, ...), else an unsigned integer type.

The library is found at $LADDER_LIB, else beside this file (the
_libladder*.so `pip install ./python` builds: libladder and the model-file
reader), else in the build folder of the source tree this package sits in
(build/rel/libladder.so, which reads no model files), else on the system's
library path.
"""

import ctypes
import ctypes.util
import glob
import os
import re

import numpy as np

try:
    import ml_dtypes
except ImportError:  # bf16 and fp8 arrays need it; raw words do not
    ml_dtypes = None

__all__ = ["matmul", "dot", "round", "presets", "LadderError"]


class LadderError(ValueError):
    """A datapath, program or operand the library refused."""


class _Err(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("msg", ctypes.c_char * 512),
                ("key", ctypes.c_char * 32)]


class _Format(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 24)] + [
        (f, ctypes.c_int) for f in
        ("kind", "width", "pad", "sign", "ebits", "mbits", "bias", "sub", "inf", "nan")]


_lib = None


def _find_library():
    env = os.environ.get("LADDER_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    bundled = sorted(glob.glob(os.path.join(here, "_libladder*.so")))
    if bundled:
        return bundled[0]
    local = os.path.join(here, "..", "..", "build", "rel", "libladder.so")
    if os.path.exists(local):
        return local
    found = ctypes.util.find_library("ladder")
    if found is None:
        raise LadderError("libladder.so not found: run make, or set LADDER_LIB")
    return found


def _library():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(_find_library())
    vp, cp, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    lib.lad_preset_find.argtypes = [cp]
    lib.lad_preset_find.restype = vp
    lib.lad_program_preset_find.argtypes = [cp]
    lib.lad_program_preset_find.restype = vp
    lib.lad_program_size.restype = ctypes.c_size_t
    lib.lad_program_init.argtypes = [vp]
    lib.lad_program_set.argtypes = [vp, cp, cp, ctypes.POINTER(_Err)]
    lib.lad_program_operand.argtypes = [vp, vp, i]
    lib.lad_program_operand.restype = ctypes.POINTER(_Format)
    lib.lad_gemm_err.argtypes = [vp, vp, i, i, i, vp, i, vp, i, vp, i, vp, i, i,
                                 ctypes.POINTER(_Err)]
    lib.lad_gemm_err.restype = i
    lib.lad_gemm_scaled.argtypes = [vp, vp, i, i, i, vp, i, vp, i, vp, i, vp, i, vp, i,
                                    vp, i, i, vp, vp, ctypes.POINTER(_Err)]
    lib.lad_gemm_scaled.restype = i
    lib.lad_param_find.argtypes = [cp]
    lib.lad_param_find.restype = vp
    lib.lad_param_get.argtypes = [vp, vp, vp]
    lib.lad_param_get.restype = ctypes.c_int64
    lib.lad_preset_get.argtypes = [i]
    lib.lad_preset_get.restype = vp
    lib.lad_preset_summary.argtypes = [vp, cp, ctypes.c_size_t]
    lib.lad_preset_summary.restype = cp
    lib.lad_format_find.argtypes = [cp]
    lib.lad_format_find.restype = vp
    lib.lad_format_parse.argtypes = [cp, ctypes.POINTER(_Format), ctypes.POINTER(_Err)]
    lib.lad_decimal_parse.argtypes = [cp, ctypes.POINTER(_Format), i, i,
                                      ctypes.POINTER(ctypes.c_uint64),
                                      ctypes.POINTER(i), ctypes.POINTER(_Err)]
    lib.lad_round_parse.argtypes = [cp]
    # The model-file reader: in the library pip builds, not in build/rel's.
    lib.files = hasattr(lib, "lad_model_resolve")
    if lib.files:
        lib.lad_model_datapath_size.restype = ctypes.c_size_t
        lib.lad_model_resolve.argtypes = [cp, vp, ctypes.POINTER(_Err)]
        lib.lad_model_parse.argtypes = [cp, cp, ctypes.c_size_t, vp, cp, ctypes.c_size_t,
                                        ctypes.POINTER(_Err)]
    _lib = lib
    return lib


def _float_dtypes():
    """Float dtypes by the name of the format whose words they are."""
    types = {"f32": np.float32, "tf32": np.float32, "f16": np.float16}
    if ml_dtypes is not None:
        for fmt, name in (("bf16", "bfloat16"), ("e4m3", "float8_e4m3fn"),
                          ("e5m2", "float8_e5m2"), ("e2m3", "float6_e2m3fn"),
                          ("e3m2", "float6_e3m2fn"), ("e2m1", "float4_e2m1fn"),
                          ("ue8m0", "float8_e8m0fnu")):
            if hasattr(ml_dtypes, name):
                types[fmt] = np.dtype(getattr(ml_dtypes, name)).type
    return types


def _uint(width):
    return np.uint8 if width <= 8 else np.uint16 if width <= 16 \
        else np.uint32 if width <= 32 else np.uint64


def _ieee_dtype(fmt):
    """float32 for f32 containers (e8m13), float64 for f64, else None."""
    if fmt.kind == 0 and fmt.width == 32 and fmt.ebits == 8 and fmt.bias == 127 \
            and fmt.mbits + fmt.pad == 23:
        return np.float32
    if fmt.kind == 0 and fmt.width == 64 and fmt.ebits == 11 and fmt.bias == 1023 \
            and fmt.mbits + fmt.pad == 52:
        return np.float64
    return None


def _out_dtype(fmt):
    """The dtype whose bits fmt's words are: f32 containers (e8m13) read as
    float32, f64 as float64."""
    name = fmt.name.decode()
    return _ieee_dtype(fmt) or _float_dtypes().get(name, _uint(fmt.width))


def _words(x, fmt, what):
    """x as a C-order uint64 array of fmt's words (lad_word_t)."""
    x = np.asarray(x)
    name = fmt.name.decode()
    if x.dtype.kind == "u":
        if x.size and int(x.max()) >> fmt.width:
            raise LadderError(f"{what}: words wider than {name} ({fmt.width} bits)")
        return np.ascontiguousarray(x.astype(np.uint64))
    want = _ieee_dtype(fmt) or _float_dtypes().get(name)
    if want is None or x.dtype.type is not want:
        raise LadderError(f"{what}: a {x.dtype} array does not hold {name} words "
                          f"(pass {np.dtype(want).name if want else 'unsigned'} "
                          f"or raw words)")
    bits = x.view(_uint(8 * x.dtype.itemsize))
    return np.ascontiguousarray(bits.astype(np.uint64))


_PLAIN = re.compile(r"^[A-Za-z0-9_.:=,+-]+$")


def _yaml_value(value):
    """A model-file value as YAML: plain where the reader wants it plain
    (names, numbers, none, true/false), quoted otherwise; lists for order."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    if isinstance(value, dict):  # a format as a mapping
        return "{" + ", ".join(f"{k}: {_yaml_value(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "none"
    text = str(value)
    if _PLAIN.match(text) and not text.startswith(("-", ":")) or re.match(r"^-?[0-9]+$", text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _datapath(lib, spec):
    """A buffer holding the datapath: a preset name, a model file's path (as
    `ladder gemm --datapath` takes them), or a dict of a model file's keys."""
    if isinstance(spec, str) and not lib.files:
        dp = lib.lad_preset_find(spec.encode())
        if not dp:
            raise LadderError(f"unknown preset '{spec}' (this libladder reads no model "
                              f"files: pip install ./python builds one that does)")
        return dp
    if not lib.files:
        raise LadderError("this libladder reads no model files: pip install ./python "
                          "builds one that does")
    buf = ctypes.create_string_buffer(lib.lad_model_datapath_size())
    err = _Err()
    if isinstance(spec, dict):
        text = "".join(f"{k}: {_yaml_value(v)}\n" for k, v in spec.items()).encode()
        rc = lib.lad_model_parse(b"<dict>", text, len(text), buf, None, 0, ctypes.byref(err))
    elif isinstance(spec, (str, os.PathLike)):
        rc = lib.lad_model_resolve(os.fsencode(spec), buf, ctypes.byref(err))
    else:
        raise LadderError(f"datapath must be a preset name, a model file or a dict, "
                          f"not {type(spec).__name__}")
    if rc:
        raise LadderError(err.msg.decode())
    return buf


def _program(lib, program):
    """A buffer holding the program: None (plain), a preset name, or a dict
    of program-file keys (floats allowed for scale_a and scale_b)."""
    buf = ctypes.create_string_buffer(lib.lad_program_size())
    if program is None or isinstance(program, dict):
        lib.lad_program_init(buf)
        err = _Err()
        for key, value in (program or {}).items():
            if key in ("scale_a", "scale_b") and not isinstance(value, str):
                value = "0x%08x" % int(np.float32(value).view(np.uint32))
            if lib.lad_program_set(buf, str(key).encode(), str(value).encode(),
                                   ctypes.byref(err)):
                raise LadderError(err.msg.decode())
        return buf
    found = lib.lad_program_preset_find(str(program).encode())
    if not found:
        raise LadderError(f"unknown program preset '{program}'")
    ctypes.memmove(buf, found, lib.lad_program_size())
    return buf


def _scales(x, shape, what):
    """x as a C-order uint8 array of scale words of the given shape."""
    x = np.asarray(x)
    if x.dtype.itemsize != 1 or x.dtype.kind not in "uVf":
        raise LadderError(f"{what}: {x.dtype} is not a 1-byte array of scale words")
    if x.shape != shape:
        raise LadderError(f"{what} is {x.shape}, not {shape}")
    return np.ascontiguousarray(x.view(np.uint8))


def matmul(a, b, c=None, datapath="sm90-wgmma-e4m3-f32", program=None, threads=0,
           sa=None, sb=None):
    """D = the program over A (M x K), B (K x N) and C (M x N, or +0), word for
    word as the datapath computes it. datapath is a preset name; program is
    None (every MMA chained), a program preset name or a dict of program
    keys (docs/commands/gemm.md). threads 0 uses every CPU. datapath is
    a preset name, a model file (docs/model-files.md) or a dict of a model
    file's keys. A block-scaled datapath takes its scales, 1-byte words:
    sa (M x K/scale_block) of A's rows, sb (K/scale_block x N) of B's
    columns, as `ladder gemm --sa --sb`."""
    lib = _library()
    dp = _datapath(lib, datapath)
    prog = _program(lib, program)
    fmt = {w: lib.lad_program_operand(dp, prog, ord(w)).contents for w in "abcd"}
    A, B = _words(a, fmt["a"], "a"), _words(b, fmt["b"], "b")
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[0]:
        raise LadderError(f"a is {A.shape} and b is {B.shape}: not M x K and K x N")
    M, K = A.shape
    N = B.shape[1]
    C = None
    if c is not None:
        C = _words(c, fmt["c"], "c")
        if C.shape != (M, N):
            raise LadderError(f"c is {C.shape}, not {(M, N)}")
    D = np.zeros((M, N), np.uint64)
    ptr = lambda x: None if x is None else x.ctypes.data_as(ctypes.c_void_p)
    err = _Err()
    if (sa is None) != (sb is None):
        raise LadderError("sa and sb go together")
    if sa is not None:
        blk = lib.lad_param_get(lib.lad_param_find(b"scale_block"), dp, dp)
        if blk <= 0:
            raise LadderError("the datapath has no block scales: sa and sb are for "
                              "block-scaled datapaths")
        if K % blk:
            raise LadderError(f"K {K} is not a multiple of the scale block {blk}")
        SA = _scales(sa, (M, K // blk), "sa")
        SB = _scales(sb, (K // blk, N), "sb")
        rc = lib.lad_gemm_scaled(dp, prog, M, N, K, ptr(A), K, ptr(B), N, ptr(SA), K // blk,
                                 ptr(SB), N, ptr(C), N, ptr(D), N, int(threads), None, None,
                                 ctypes.byref(err))
    else:
        rc = lib.lad_gemm_err(dp, prog, M, N, K, ptr(A), K, ptr(B), N, ptr(C), N,
                              ptr(D), N, int(threads), ctypes.byref(err))
    if rc:
        raise LadderError(err.msg.decode())
    out = _out_dtype(fmt["d"])
    return D.astype(_uint(8 * np.dtype(out).itemsize)).view(out)


def dot(a, b, c=None, datapath="sm90-wgmma-e4m3-f32", program=None):
    """One dot product: a and b of K elements (a multiple of the
    instruction's K: one MMA, or a chain of them), c a scalar or None.
    Returns a scalar of matmul's result dtype holding the D word."""
    a, b = np.asarray(a), np.asarray(b)
    cm = None if c is None else np.asarray(c).reshape(1, 1)
    d = matmul(a.reshape(1, -1), b.reshape(-1, 1), cm, datapath=datapath,
               program=program, threads=1)
    return d[0, 0]


def presets():
    """The compiled-in datapaths: {name: one line (instruction, shape,
    formats, K, evidence)}, in the order `ladder presets` lists them."""
    lib = _library()
    out = {}
    buf = ctypes.create_string_buffer(512)
    for i in range(lib.lad_preset_count()):
        p = lib.lad_preset_get(i)
        out[ctypes.string_at(p).decode()] = lib.lad_preset_summary(p, buf, 512).decode()
    return out


_OVERFLOW = {"inf": 0, "sat": 1, "ieee": 2}


def round(x, fmt, rounding="rne", overflow="ieee", words=False):
    """x (float64 values, any shape) rounded into format fmt: a name or a
    format spec such as "e3m4:bias=5" (docs/commands/format.md), exactly, as
    `ladder format encode` rounds (rounding rz, rne, ru, rd or rna; overflow
    ieee, inf or sat). Returns the words as an array of fmt's NumPy or
    ml_dtypes type when it has one and words is False, else as unsigned
    integers. Each value goes in as its exact hex form: no host
    arithmetic touches it."""
    lib = _library()
    f, err = _Format(), _Err()
    if lib.lad_format_parse(str(fmt).encode(), ctypes.byref(f), ctypes.byref(err)):
        raise LadderError(err.msg.decode())
    mode = lib.lad_round_parse(str(rounding).encode())
    if mode < 0:
        raise LadderError(f"unknown rounding '{rounding}' (rz, rne, ru, rd or rna)")
    if overflow not in _OVERFLOW:
        raise LadderError(f"unknown overflow '{overflow}' (ieee, inf or sat)")
    xs = np.asarray(x, dtype=np.float64)
    out = np.zeros(xs.shape, np.uint64)
    word, flags = ctypes.c_uint64(), ctypes.c_int()
    flat = out.reshape(-1)
    for i, v in enumerate(xs.reshape(-1).tolist()):
        text = v.hex() if v == v and abs(v) != float("inf") else repr(v)
        if lib.lad_decimal_parse(text.encode(), ctypes.byref(f), mode, _OVERFLOW[overflow],
                                 ctypes.byref(word), ctypes.byref(flags), ctypes.byref(err)):
            raise LadderError(err.msg.decode())
        flat[i] = word.value
    want = None if words else _ieee_dtype(f)
    if want is None and not words:
        # a type by name only for the built-in itself, not a spec that
        # changes it ("e4m3:bias=8" is named e4m3)
        bi = lib.lad_format_find(f.name)
        if bi and ctypes.string_at(bi, ctypes.sizeof(_Format)) == bytes(f):
            want = _float_dtypes().get(f.name.decode())
    if want is not None:
        return out.astype(_uint(8 * np.dtype(want).itemsize)).view(want)
    return out.astype(_uint(f.width))
