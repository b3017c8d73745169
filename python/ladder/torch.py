"""ladder.torch: a torch model's matmuls computed as a tensor core computes them.

    import torch, ladder.torch
    with torch.no_grad(), ladder.torch.emulate("sm90-mma-bf16-f32"):
        y = model(x)                      # every matmul through the datapath

emulate(datapath, program=None) is a TorchFunctionMode: inside it,
torch.matmul, the @ operator, mm, bmm, addmm, nn.functional.linear (so
nn.Linear) and torch._scaled_mm run as ladder.matmul with that datapath and
GEMM program, on the CPU; every other op runs as torch runs it
(F.scaled_dot_product_attention too: its GEMMs are inside one op). Importing
this module imports torch; `import ladder` alone does not.
"""

import torch
from torch.overrides import TorchFunctionMode

from . import LadderError, matmul
from . import _Format, _datapath, _library, _program, _same

__all__ = ["emulate"]

# torch's dtype for the words of each built-in format that has one; formats
# without one (e2m1, e2m3, e3m2, ...) travel as uint8 words.
_DTYPES = (("bf16", "bfloat16"), ("f16", "float16"), ("f32", "float32"),
           ("tf32", "float32"), ("e4m3", "float8_e4m3fn"), ("e5m2", "float8_e5m2"),
           ("e4m3fnuz", "float8_e4m3fnuz"), ("e5m2fnuz", "float8_e5m2fnuz"),
           ("ue8m0", "float8_e8m0fnu"))


def _dtype_of(lib, f):
    """The torch dtype whose bits f's words are, or None."""
    for name, tname in _DTYPES:
        if hasattr(torch, tname) and _same(lib, f, name):
            return getattr(torch, tname)
    return None


def _round_tf32(x):
    """float32 tensor x rounded to nearest even into tf32 (10 fraction
    bits, the low 13 bits zero); Inf and NaN kept."""
    bits = x.contiguous().view(torch.int32)
    up = (bits + 0xfff + ((bits >> 13) & 1)) & ~0x1fff
    special = (bits & 0x7f800000) == 0x7f800000
    return torch.where(special, bits, up).view(torch.float32)


class emulate(TorchFunctionMode):
    """Inside `with emulate(datapath, program=None):`, torch.matmul, @,
    mm, bmm, addmm, nn.functional.linear and torch._scaled_mm are computed
    by ladder.matmul through `datapath` (a preset name, a model file or a
    dict, as ladder.matmul takes) and its GEMM `program`; other ops run as
    torch runs them. Forward only: the results carry no autograd history.

    A and B must be CPU tensors of the datapath's operand formats
    (bfloat16, float16, float8_e4m3fn, float8_e5m2, float32 for f32 and
    tf32; uint8 words for the 6- and 4-bit formats); with cast="rne" other
    float tensors are rounded into those formats to nearest even first. A
    bias (addmm's input, linear's bias) is the GEMM's C: its values must be
    exact in C's format, or rounded into it with cast="rne". The result
    has the dtype torch would give (the promoted dtype of A and B, as they
    were passed; out_dtype of _scaled_mm), rounded from the datapath's D
    words to nearest even; out_dtype= here fixes it for every op, and D's
    own dtype (float32 for an f32 D) keeps D's words as they are. uint8
    word operands give D's words. threads is ladder.matmul's.

    torch._scaled_mm takes per-tensor scales (one float32 each), which
    become the program's scale_a and scale_b (one f32 multiplication each
    in the epilogue); its bias is added to D's f32 values afterwards, one
    f32 addition; use_fast_accum is ignored (the datapath says how the
    GEMM accumulates)."""

    def __init__(self, datapath, program=None, *, cast=None, out_dtype=None, threads=0):
        super().__init__()
        if cast not in (None, "rne"):
            raise LadderError(f"cast must be None (refuse other dtypes) or 'rne', not {cast!r}")
        lib = _library()
        dp = _datapath(lib, datapath)
        prog = _program(lib, program)
        self.formats = {w: _Format.from_buffer_copy(lib.lad_program_operand(dp, prog, ord(w))
                                                    .contents) for w in "abcd"}
        self.dtypes = {w: _dtype_of(lib, f) for w, f in self.formats.items()}
        self.datapath, self.program = datapath, program
        self.cast, self.out_dtype, self.threads = cast, out_dtype, threads
        self.lib = lib

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        op = _OPS.get(func)
        if op is None:
            return func(*args, **kwargs)
        if kwargs.get("out") is not None:
            raise LadderError(f"{_name(func)}: out= is not supported under ladder.torch.emulate")
        kwargs.pop("out", None)
        return op(self, *args, **kwargs)

    def _operand(self, x, which, what):
        """Tensor x as an operand of format `which`: itself, or rounded."""
        if not isinstance(x, torch.Tensor):
            raise LadderError(f"{what}: a {type(x).__name__}, not a tensor")
        want = self.dtypes[which]
        f = self.formats[which]
        name = f.name.decode()
        if want is not None and x.dtype == want or want is None and x.dtype == torch.uint8:
            return x
        if self.cast == "rne" and x.is_floating_point():
            if want is torch.float32 and name == "tf32":
                return _round_tf32(x.float())
            if want is not None:
                return x.to(want)
            from . import round as lround
            w = lround(x.detach().double().cpu().numpy(), f, words=True)
            return torch.from_numpy(w)
        if which == "c":
            return x  # taken by value: ladder.matmul names a value C cannot hold
        have = str(x.dtype).replace("torch.", "")
        shown = str(want).replace("torch.", "") if want is not None else "uint8 words"
        raise LadderError(f"{what}: a {have} tensor, but the datapath's {which.upper()} "
                          f"is {name} ({shown}): pass {shown}, or emulate(..., cast='rne') "
                          f"to round into it")

    def _result_dtype(self, a, b, out_dtype):
        if out_dtype is not None or self.out_dtype is not None:
            return out_dtype if out_dtype is not None else self.out_dtype
        if not a.is_floating_point() or not b.is_floating_point():
            return None  # words in, words out
        try:
            return torch.promote_types(a.dtype, b.dtype)
        except RuntimeError:
            return None

    def gemm(self, a, b, c=None, out_dtype=None, program=None):
        """D of a @ b (+ c) in the result dtype: the core of every op."""
        res = self._result_dtype(a, b, out_dtype)
        A, B = self._operand(a, "a", "a"), self._operand(b, "b", "b")
        C = None if c is None else self._operand(c, "c", "bias")
        if C is not None and self.cast == "rne" and self.dtypes["c"] is not None:
            C = C.to(self.dtypes["c"])
        D = matmul(A, B, C, datapath=self.datapath,
                   program=self.program if program is None else program,
                   threads=self.threads)
        if res is None or D.dtype == res:
            return D
        return D.to(res)


def _name(func):
    """A torch function's name, for messages."""
    return getattr(func, "__name__", str(func))


# The intercepted ops, each as torch's signature has it (less out=, which
# __torch_function__ refuses), down to emulate.gemm.

def _matmul(mode, a, b):
    """torch.matmul and @: NumPy's matmul rules, as ladder.matmul's."""
    return mode.gemm(a, b)


def _rmatmul(mode, b, a):
    """Tensor.__rmatmul__: b is the right operand."""
    return mode.gemm(a, b)


def _mm(mode, a, b, **kw):
    """torch.mm: 2-D only."""
    if a.dim() != 2 or b.dim() != 2:
        raise LadderError(f"mm: a is {tuple(a.shape)} and b is {tuple(b.shape)}, not 2-D")
    return mode.gemm(a, b, out_dtype=kw.get("out_dtype"))


def _bmm(mode, a, b, **kw):
    """torch.bmm: 3-D, one batch size."""
    if a.dim() != 3 or b.dim() != 3 or a.shape[0] != b.shape[0]:
        raise LadderError(f"bmm: a is {tuple(a.shape)} and b is {tuple(b.shape)}, not "
                          f"B x M x K and B x K x N")
    return mode.gemm(a, b, out_dtype=kw.get("out_dtype"))


def _addmm(mode, c, a, b, *, beta=1, alpha=1, **kw):
    """torch.addmm: c + a @ b with c the GEMM's C; beta, alpha 1 only."""
    if beta != 1 or alpha != 1:
        raise LadderError(f"addmm: beta {beta} and alpha {alpha}: only 1 and 1, the bias "
                          f"as the GEMM's C, are emulated")
    if a.dim() != 2 or b.dim() != 2:
        raise LadderError(f"addmm: a is {tuple(a.shape)} and b is {tuple(b.shape)}, not 2-D")
    return mode.gemm(a, b, c, out_dtype=kw.get("out_dtype"))


def _linear(mode, x, weight, bias=None):
    """F.linear (nn.Linear): x @ weight.T + bias, bias as C."""
    return mode.gemm(x, weight.mT, bias)


def _scaled_mm(mode, a, b, scale_a, scale_b, bias=None, scale_result=None,
               out_dtype=None, use_fast_accum=False):
    """torch._scaled_mm with per-tensor scales: the class docstring says how."""
    scales = []
    for what, s in (("scale_a", scale_a), ("scale_b", scale_b)):
        if not isinstance(s, torch.Tensor) or s.numel() != 1:
            raise LadderError(f"_scaled_mm: {what} must be one float32 (per-tensor "
                              f"scales), not {tuple(getattr(s, 'shape', ()))}")
        scales.append(float(s.detach().float().cpu().reshape(())))
    if scale_result is not None and float(scale_result) != 1.0:
        raise LadderError("_scaled_mm: scale_result other than 1 is not emulated")
    base = mode.program
    prog = dict(base) if isinstance(base, dict) else {} if base is None else {"preset": base}
    prog.update(scale_a=scales[0], scale_b=scales[1])
    res = out_dtype if out_dtype is not None else mode.out_dtype
    if res is None:
        res = a.dtype
    if bias is None:
        return mode.gemm(a, b, out_dtype=res, program=prog)
    d = mode.gemm(a, b, out_dtype=torch.float32, program=prog)
    return (d.float() + bias.float()).to(res)


_OPS = {}
for _f, _h in ((torch.matmul, _matmul), (torch.Tensor.matmul, _matmul),
               (torch.Tensor.__matmul__, _matmul), (torch.Tensor.__rmatmul__, _rmatmul),
               (torch.mm, _mm), (torch.Tensor.mm, _mm), (torch.bmm, _bmm),
               (torch.Tensor.bmm, _bmm), (torch.addmm, _addmm), (torch.Tensor.addmm, _addmm),
               (torch.nn.functional.linear, _linear), (torch._scaled_mm, _scaled_mm)):
    _OPS[_f] = _h
