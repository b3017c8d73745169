"""ladder: what a GPU tensor core returns, bit for bit, on the CPU.

    import numpy as np, ml_dtypes, ladder
    a = np.ones((4, 64), ml_dtypes.float8_e4m3fn)
    b = np.ones((64, 8), ml_dtypes.float8_e4m3fn)
    d = ladder.matmul(a, b, datapath="sm90-wgmma-e4m3-f32", program="fp8-promote4")
    d = ladder.matmul(a, b, datapath="inferred.yaml")       # a model file
    w = ladder.round(np.array([0.1, 3.0]), "e3m4:bias=5")  # words of any format
    x = ladder.decode(w, "e3m4:bias=5")                    # their values, float64
    ladder.presets()["sm90-mma-bf16-f32"]                  # one line on it

A thin layer over libladder.so (the C library `make` builds, see
docs/library.md) through ctypes. Operands go in as words, or as floats
whose values the operand's format holds exactly; results come out as
words: the result's dtype is the float type whose bits the output format's
words are (float32 for f32 and its cut e8m13, bfloat16, float16, ...),
else an unsigned integer type. CPU torch tensors go in and come out too;
torch is imported only by ladder.torch, never by `import ladder`.

The library is found at $LADDER_LIB, else beside this file (the
_libladder*.so `pip install ./python` builds: libladder and the model-file
reader), else in the build folder of the source tree this package sits in
(build/rel/libladder.so, which reads no model files), else on the system's
library path.
"""

import ctypes
import ctypes.util
import glob
import math
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

try:
    import ml_dtypes
except ImportError:  # bf16 and fp8 arrays need it; raw words do not
    ml_dtypes = None

__all__ = ["matmul", "dot", "round", "decode", "presets", "LadderError", "__version__"]

# The release, as `ladder --version` prints it (cli/cli.h LADDER_VERSION);
# python/pyproject.toml reads it from here.
__version__ = "0.1.0"


def __getattr__(name):
    """ladder.torch (the torch bindings) on first use: `import ladder`
    alone never imports torch."""
    if name == "torch":
        import importlib
        return importlib.import_module(".torch", __name__)
    raise AttributeError(f"module 'ladder' has no attribute '{name}'")


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
    lib.lad_decode.argtypes = [vp, ctypes.c_uint64]
    lib.lad_decode.restype = _Value
    for name in ("lad_format_nan", "lad_format_mask"):
        getattr(lib, name).argtypes = [vp]
        getattr(lib, name).restype = ctypes.c_uint64
    lib.lad_format_same_decode.argtypes = [vp, vp]
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


def _bits(x):
    """A float array (numpy's or ml_dtypes') as the unsigned words it holds."""
    return x.view(_uint(8 * x.dtype.itemsize))


def _words(x, fmt, what):
    """x as a C-order uint64 array of fmt's words (lad_word_t): unsigned
    integers are the words; an array of the dtype whose bits fmt's words
    are is viewed as its bits; any other float array (float64, float32,
    bfloat16, ...) is taken by value, each element exactly a value of fmt."""
    x = _numpy(x, what)
    name = fmt.name.decode()
    if x.dtype.kind == "u":
        if x.size and int(x.max()) >> fmt.width:
            raise LadderError(f"{what}: words wider than {name} ({fmt.width} bits)")
        return np.ascontiguousarray(x.astype(np.uint64))
    want = _ieee_dtype(fmt) or _float_dtypes().get(name)
    if want is not None and x.dtype.type is want:
        return np.ascontiguousarray(_bits(x).astype(np.uint64))
    if _is_float(x.dtype):
        return _encode_exact(x.astype(np.float64), fmt, what)
    raise LadderError(f"{what}: a {x.dtype} array holds neither {name} words nor "
                      f"float values (pass {np.dtype(want).name if want else 'unsigned'} "
                      f"words or floats)")


def _is_float(dtype):
    """Whether dtype is a float type: NumPy's or ml_dtypes'."""
    if dtype.kind == "f":
        return True
    if ml_dtypes is None or dtype.kind != "V":
        return False
    try:
        ml_dtypes.finfo(dtype)
        return True
    except (TypeError, ValueError, AttributeError):
        return False


class _Value(ctypes.Structure):
    _fields_ = [("cls", ctypes.c_int), ("neg", ctypes.c_int), ("mag", ctypes.c_uint64),
                ("exp", ctypes.c_int), ("raw", ctypes.c_int)]


_ZERO, _SUBNORMAL, _NORMAL, _INFINITE, _NAN = range(5)


def _f64_holds(f):
    """Whether float64 holds every value of format f exactly."""
    if f.kind == 1:
        return f.width <= 53
    top = (1 << f.ebits) - 1 - (1 if f.inf == 1 or f.nan == 1 else 0)
    low = 0 if f.sub == 2 else 1
    return f.mbits <= 52 and top - f.bias <= 1023 and low - f.bias - f.mbits >= -1074


_tables = {}


def _table(lib, f):
    """Every word of a format of at most 16 bits decoded to float64 (NaN,
    +-Inf as such), and the class of each: two arrays indexed by word."""
    key = bytes(f)
    if key not in _tables:
        vals = np.zeros(1 << f.width, np.float64)
        cls = np.zeros(1 << f.width, np.int8)
        for w in range(1 << f.width):
            vals[w], cls[w] = _value(lib, f, w)
        _tables[key] = vals, cls
    return _tables[key]


def _value(lib, f, w):
    """(float64 value, class) of word w of f, exact (f64_holds checked)."""
    v = lib.lad_decode(ctypes.byref(f), w)
    if v.cls == _NAN:
        x = float("nan")
    elif v.cls == _INFINITE:
        x = float("inf")
    else:
        x = math.ldexp(float(v.mag), v.exp)
    return (-x if v.neg else x), v.cls


def _format_of(lib, fmt):
    """A _Format from a name or spec string (or a _Format as it is)."""
    if isinstance(fmt, _Format):
        return fmt
    f, err = _Format(), _Err()
    if lib.lad_format_parse(str(fmt).encode(), ctypes.byref(f), ctypes.byref(err)):
        raise LadderError(err.msg.decode())
    return f


def _specials(lib, f, vals, cls, c):
    """The words of class c (zero, Inf, NaN) for a + and a - value: (+, -),
    None where f has none. -0 becomes +0 where f has no -0 (fnuz, unsigned);
    a NaN of either sign becomes f's canonical NaN."""
    if c == _NAN:
        nan = np.flatnonzero(cls == _NAN)
        w = int(lib.lad_format_nan(ctypes.byref(f))) if len(nan) else None
        return w, w
    pos = np.flatnonzero((cls == c) & ~np.signbit(vals))
    neg = np.flatnonzero((cls == c) & np.signbit(vals))
    p = int(pos[0]) if len(pos) else None
    n = int(neg[0]) if len(neg) else None
    return p, (n if n is not None or c == _INFINITE else p)


def _same(lib, f, builtin):
    """Whether f decodes every word as the built-in format named builtin."""
    b = lib.lad_format_find(builtin.encode())
    return bool(b) and lib.lad_format_same_decode(ctypes.byref(f), b)


def _encode_exact(x, f, what):
    """Float64 array x as f's words, each element exactly a value of f;
    LadderError naming the first that is not."""
    lib = _library()
    name = f.name.decode()
    flat = x.reshape(-1)
    if f.width <= 16:
        vals, cls = _table(lib, f)
        fin = np.flatnonzero((cls == _SUBNORMAL) | (cls == _NORMAL))
        order = fin[np.argsort(vals[fin], kind="stable")]
        sv = vals[order]
        at = np.searchsorted(sv, flat).clip(0, max(len(sv) - 1, 0))
        words = order[at].astype(np.uint64) if len(sv) else np.zeros(flat.shape, np.uint64)
        ok = sv[at] == flat if len(sv) else np.zeros(flat.shape, bool)
        for test, special in ((flat == 0, _specials(lib, f, vals, cls, _ZERO)),
                              (np.isinf(flat), _specials(lib, f, vals, cls, _INFINITE)),
                              (np.isnan(flat), _specials(lib, f, vals, cls, _NAN))):
            for neg in (False, True):
                sel = test & (np.signbit(flat) == neg)
                if special[neg] is not None:
                    words[sel], ok[sel] = special[neg], True
    elif _ieee_dtype(f) is np.float64:
        words, ok = flat.view(np.uint64).copy(), np.ones(flat.shape, bool)
    elif _same(lib, f, "f32") or _same(lib, f, "tf32"):
        y = flat.astype(np.float32)
        words = y.view(np.uint32).astype(np.uint64)
        ok = (y == flat) | np.isnan(flat)
        ok &= (words & ~np.uint64(lib.lad_format_mask(ctypes.byref(f)))) == 0
    else:  # wide formats of other shapes: one exact conversion per element
        words, ok = np.zeros(flat.shape, np.uint64), np.zeros(flat.shape, bool)
        word, flags, err = ctypes.c_uint64(), ctypes.c_int(), _Err()
        for i, v in enumerate(flat.tolist()):
            text = v.hex() if v == v and abs(v) != float("inf") else repr(v)
            if lib.lad_decimal_parse(text.encode(), ctypes.byref(f), 1, 2, ctypes.byref(word),
                                     ctypes.byref(flags), ctypes.byref(err)) == 0:
                words[i], ok[i] = word.value, not flags.value & 1
    bad = np.flatnonzero(~ok)
    if bad.size:
        i = int(bad[0])
        at = ", ".join(str(int(j)) for j in np.unravel_index(i, x.shape))
        raise LadderError(f"{what}[{at}] = {float(flat[i])!r} is not a value of {name}: "
                          f"{bad.size} of {flat.size} elements are not (round them "
                          f"first, ladder.round(x, \"{name}\"), or pass {name} words)")
    return words.reshape(x.shape)


def _numpy(x, what):
    """x as a NumPy array; a CPU torch tensor viewed without a copy."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(x, torch.Tensor):
        return np.asarray(x)
    if x.device.type != "cpu":
        raise LadderError(f"{what}: a tensor on {x.device}: ladder computes on the CPU "
                          f"(pass {what}.cpu())")
    x = x.detach()
    if x.is_conj() or x.is_neg():
        x = x.resolve_conj().resolve_neg()
    for tname, mname in _TORCH_BITS:
        if x.dtype == getattr(torch, tname, None):
            size = x.element_size()
            holder = {1: torch.uint8, 2: torch.int16}[size]
            return x.view(holder).numpy().view(getattr(ml_dtypes, mname))
    return x.numpy()


# torch dtypes that NumPy lacks, and the ml_dtypes type of the same bits
_TORCH_BITS = (("bfloat16", "bfloat16"), ("float8_e4m3fn", "float8_e4m3fn"),
               ("float8_e5m2", "float8_e5m2"), ("float8_e4m3fnuz", "float8_e4m3fnuz"),
               ("float8_e5m2fnuz", "float8_e5m2fnuz"), ("float8_e8m0fnu", "float8_e8m0fnu"))


def _to_torch(torch, d):
    """A NumPy result as a torch tensor over the same memory."""
    for tname, mname in _TORCH_BITS:
        if ml_dtypes is not None and d.dtype == np.dtype(getattr(ml_dtypes, mname, "V1")) \
                and hasattr(torch, tname):
            holder = np.uint8 if d.dtype.itemsize == 1 else np.int16
            return torch.from_numpy(np.ascontiguousarray(d).view(holder)).view(
                getattr(torch, tname))
    if d.dtype.kind == "V" or d.dtype.kind == "f" and d.dtype.type not in (
            np.float16, np.float32, np.float64):
        d = _bits(d)  # float6/float4 and others torch lacks: words
    return torch.from_numpy(np.ascontiguousarray(d))


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
    of program-file keys (floats allowed for scale_a and scale_b; "preset":
    a name starts from that preset instead of the plain program)."""
    buf = ctypes.create_string_buffer(lib.lad_program_size())
    if program is None or isinstance(program, dict):
        program = dict(program or {})
        base = program.pop("preset", None)
        if base is None:
            lib.lad_program_init(buf)
        else:
            ctypes.memmove(buf, _program(lib, base), lib.lad_program_size())
        err = _Err()
        for key, value in program.items():
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


def _scales(x, inner, batch, vec, col, what):
    """x as C-order uint8 scale words of shape batch + inner (matmul's
    rules: a 1-D operand's scales have no M, or no N, dimension)."""
    x = _numpy(x, what)
    if x.dtype.itemsize != 1 or x.dtype.kind not in "uVf":
        raise LadderError(f"{what}: {x.dtype} is not a 1-byte array of scale words")
    if vec and x.ndim >= 1:
        x = x[..., None] if col else x[None, :]
    if x.ndim < 2 or x.shape[-2:] != inner:
        raise LadderError(f"{what} is {_shape(x)}, not ... x {inner[0]} x {inner[1]}")
    try:
        x = np.broadcast_to(x, batch + inner)
    except ValueError:
        raise LadderError(f"{what} is {x.shape}: its leading dimensions do not "
                          f"broadcast to {batch}") from None
    return np.ascontiguousarray(_bits(x) if x.dtype.kind != "u" else x)


def matmul(a, b, c=None, *, datapath, program=None, threads=0, sa=None, sb=None):
    """D = A @ B (+ C) word for word as `datapath` and `program` compute it.

    a is ... x M x K and b ... x K x N, with NumPy's matmul rules: a 1-D a
    is one row, a 1-D b one column (that dimension is dropped from D), and
    the leading (batch) dimensions broadcast; c, when given, broadcasts to
    D's shape (else the accumulator starts from +0). Each batch element is
    one GEMM; threads (0: every CPU) are spread over the batch.

    datapath (required) is a preset name (ladder.presets()), a model file's
    path (`ladder infer -o`, docs/model-files.md) or a dict of a model
    file's keys. program is None (every MMA chained), a program preset name
    ("fp8-promote4") or a dict of program keys (docs/commands/gemm.md;
    scale_a and scale_b may be numbers; "preset": name starts from that
    preset).

    Operands are unsigned words; or arrays of the dtype whose bits the
    operand format's words are (ml_dtypes.bfloat16 for bf16, float32 for
    f32 and tf32, ...), viewed as bits; or any other float array (float64,
    float32, ...), taken by value when every element is exactly a value of
    the operand's format (LadderError names the first that is not). CPU
    torch tensors go in the same way (bfloat16, float16, float8_e4m3fn,
    float8_e5m2, float32, uint8 words), viewed without a copy; D is then a
    torch tensor.

    A block-scaled datapath takes its scales, 1-byte words: sa (... x M x
    K/scale_block) for A's rows, sb (... x K/scale_block x N) for B's
    columns. D has the dtype whose bits the output format's words are
    (float32, bfloat16, ...), else unsigned words."""
    lib = _library()
    dp = _datapath(lib, datapath)
    prog = _program(lib, program)
    fmt = {w: lib.lad_program_operand(dp, prog, ord(w)).contents for w in "abcd"}
    torch = _torch_in(a, b, c)
    A, B = _words(a, fmt["a"], "a"), _words(b, fmt["b"], "b")
    if A.ndim == 0 or B.ndim == 0:
        raise LadderError(f"a is {A.shape} and b is {B.shape}: matmul takes no scalars")
    va, vb = A.ndim == 1, B.ndim == 1
    A = A[None, :] if va else A
    B = B[:, None] if vb else B
    (M, K), (K2, N) = A.shape[-2:], B.shape[-2:]
    if K != K2:
        raise LadderError(f"a is {_shape(a)} and b is {_shape(b)}: K {K} of a is not "
                          f"K {K2} of b")
    try:
        batch = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    except ValueError:
        raise LadderError(f"a is {_shape(a)} and b is {_shape(b)}: their leading "
                          f"dimensions do not broadcast") from None
    shape = batch + ((M,) if not va else ()) + ((N,) if not vb else ())
    A = np.broadcast_to(A, batch + (M, K))
    B = np.broadcast_to(B, batch + (K, N))
    C = None
    if c is not None:
        C = _words(c, fmt["c"], "c")
        try:
            C = np.broadcast_to(C, shape)
        except ValueError:
            raise LadderError(f"c is {C.shape}: it does not broadcast to D's "
                              f"{shape}") from None
        C = np.ascontiguousarray(C.reshape(batch + (M, N)))
    blk = lib.lad_param_get(lib.lad_param_find(b"scale_block"), dp, dp)
    name = ctypes.string_at(dp).decode()
    SA = SB = None
    if (sa is None) != (sb is None):
        raise LadderError("sa and sb go together")
    if blk > 0 and sa is None:
        raise LadderError(f"datapath '{name}' is block-scaled (blocks of {blk} along "
                          f"K): pass its scales as sa= (M x K/{blk}) and sb= "
                          f"(K/{blk} x N), 1-byte words")
    if sa is not None:
        if blk <= 0:
            raise LadderError(f"datapath '{name}' has no block scales: sa and sb are "
                              f"for block-scaled datapaths")
        if K % blk:
            raise LadderError(f"K {K} is not a multiple of the scale block {blk}")
        SA = _scales(sa, (M, K // blk), batch, va, False, "sa")
        SB = _scales(sb, (K // blk, N), batch, vb, True, "sb")
    D = np.zeros(batch + (M, N), np.uint64)
    ptr = lambda x: None if x is None else x.ctypes.data_as(ctypes.c_void_p)

    def one(i):
        at = lambda x: None if x is None else x[i]
        err = _Err()
        if SA is not None:
            rc = lib.lad_gemm_scaled(dp, prog, M, N, K, ptr(A[i]), K, ptr(B[i]), N,
                                     ptr(SA[i]), K // blk, ptr(SB[i]), N, ptr(at(C)), N,
                                     ptr(D[i]), N, per, None, None, ctypes.byref(err))
        else:
            rc = lib.lad_gemm_err(dp, prog, M, N, K, ptr(A[i]), K, ptr(B[i]), N,
                                  ptr(at(C)), N, ptr(D[i]), N, per, ctypes.byref(err))
        if rc:  # the library's words for its scales, in this function's
            raise LadderError(err.msg.decode().replace(
                "lad_gemm_scaled, ladder gemm --sa --sb", "matmul's sa= and sb="))

    todo = list(np.ndindex(*batch))
    if len(todo) <= 1:
        per = int(threads)
        for i in todo:
            one(i)
    else:
        total = int(threads) if threads and threads > 0 else os.cpu_count() or 1
        workers = min(total, len(todo))
        per = max(1, total // workers)
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(one, todo))
    out = _out_dtype(fmt["d"])
    D = D.astype(_uint(8 * np.dtype(out).itemsize)).view(out).reshape(shape)
    return D if torch is None else _to_torch(torch, D)


def _shape(x):
    """x's shape as the user passed it (an array's, a tensor's, a list's)."""
    return tuple(getattr(x, "shape", np.shape(x)))


def _torch_in(*xs):
    """The torch module when one of xs is a torch tensor, else None; torch
    is never imported here."""
    torch = sys.modules.get("torch")
    if torch is not None and any(isinstance(x, torch.Tensor) for x in xs):
        return torch
    return None


def dot(a, b, c=None, *, datapath, program=None):
    """One dot product as matmul computes it: a and b of K elements, c a
    scalar or None. Returns a scalar of matmul's result dtype holding the
    D word."""
    a, b = _numpy(a, "a"), _numpy(b, "b")
    cm = None if c is None else _numpy(c, "c").reshape(1, 1)
    d = matmul(a.reshape(1, -1), b.reshape(-1, 1), cm, datapath=datapath,
               program=program, threads=1)
    return d[0, 0]


def decode(words, fmt):
    """The values of words of format fmt (a name or a spec such as
    "e3m4:bias=5", docs/commands/format.md) as float64, exactly: the
    inverse of ladder.round. words are unsigned integers (a list or array),
    or an array whose dtype's bits are the words (bfloat16, float8, ...).
    NaN and Inf words give NaN and Inf. LadderError when float64 cannot
    hold every value of fmt (more than 52 fraction bits or a wider
    exponent range)."""
    lib = _library()
    f = _format_of(lib, fmt)
    name = f.name.decode()
    if not _f64_holds(f):
        raise LadderError(f"decode: float64 cannot hold every value of {name} "
                          f"({f.ebits} exponent bits, bias {f.bias}, {f.mbits} fraction bits)")
    w = _numpy(words, "words")
    if _is_float(w.dtype):
        w = _bits(w)
    if w.dtype.kind not in "ui" or w.size and (int(w.min()) < 0 or int(w.max()) >> f.width):
        raise LadderError(f"decode: words must be unsigned integers of at most "
                          f"{f.width} bits ({name})")
    w = w.astype(np.uint64)
    if f.width <= 16:
        return _table(lib, f)[0][w]
    if _ieee_dtype(f) is np.float64:
        return w.view(np.float64).copy()
    if _same(lib, f, "f32") or _same(lib, f, "tf32"):
        mask = np.uint64(lib.lad_format_mask(ctypes.byref(f)))
        with np.errstate(invalid="ignore"):  # signalling NaNs stay NaN
            return (w & mask).astype(np.uint32).view(np.float32).astype(np.float64)
    flat = [_value(lib, f, int(x))[0] for x in w.reshape(-1).tolist()]
    return np.array(flat, np.float64).reshape(w.shape)


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
    arithmetic touches it. ladder.decode gives the words' values back."""
    lib = _library()
    f, err = _format_of(lib, fmt), _Err()
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
