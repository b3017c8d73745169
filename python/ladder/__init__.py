"""ladder: what a GPU tensor core returns, bit for bit, on the CPU.

    import numpy as np, ml_dtypes, ladder
    a = np.ones((4, 64), ml_dtypes.float8_e4m3fn)
    b = np.ones((64, 8), ml_dtypes.float8_e4m3fn)
    d = ladder.matmul(a, b, datapath="sm90-wgmma-e4m3-f32", program="fp8-promote4")

A thin layer over libladder.so (the C library `make` builds, see
docs/library.md) through ctypes. Arrays go in and come out as raw words:
float arrays (numpy's float16 and float32, ml_dtypes' bfloat16 and float8
types) are viewed as their bits, never converted, and unsigned integer
arrays are taken as the words themselves. The result's dtype is the float
type whose bits the output format's words are (float32 for f32 and its
cut e8m13, bfloat16, float16, ...), else an unsigned integer type.

The library is found at $LADDER_LIB, else in the build folder of the
source tree this package sits in (build/rel/libladder.so), else on the
system's library path.
"""

import ctypes
import ctypes.util
import os

import numpy as np

try:
    import ml_dtypes
except ImportError:  # bf16 and fp8 arrays need it; raw words do not
    ml_dtypes = None

__all__ = ["matmul", "dot", "LadderError"]


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


def _datapath(lib, name):
    dp = lib.lad_preset_find(name.encode())
    if not dp:
        raise LadderError(f"unknown preset '{name}' (ladder presets lists them)")
    return dp


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


def matmul(a, b, c=None, datapath="sm90-wgmma-e4m3-f32", program=None, threads=0):
    """D = the program over A (M x K), B (K x N) and C (M x N, or +0), word for
    word as the datapath computes it. datapath is a preset name; program is
    None (every MMA chained), a program preset name or a dict of program
    keys (docs/commands/gemm.md). threads 0 uses every CPU."""
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
    if lib.lad_gemm_err(dp, prog, M, N, K, ptr(A), K, ptr(B), N, ptr(C), N,
                        ptr(D), N, int(threads), ctypes.byref(err)):
        raise LadderError(err.msg.decode())
    out = _out_dtype(fmt["d"])
    return D.astype(_uint(8 * np.dtype(out).itemsize)).view(out)


def dot(a, b, c=None, datapath="sm90-wgmma-e4m3-f32", program=None):
    """One dot product: a and b of K elements (a multiple of the
    instruction's K: one MMA, or a chain of them), c a scalar or None.
    Returns a 0-d array holding the D word."""
    a, b = np.asarray(a), np.asarray(b)
    cm = None if c is None else np.asarray(c).reshape(1, 1)
    d = matmul(a.reshape(1, -1), b.reshape(-1, 1), cm, datapath=datapath,
               program=program, threads=1)
    return d.reshape(())
