"""PyTorch's legacy tensor types (`torch.FloatTensor`, `torch.LongTensor`, ...), kept for older code.

Each names a dtype: `torch.IntTensor([1, 2])` makes an int32 tensor, `torch.FloatTensor(2, 3)` a 2x3 float32 one,
`isinstance(t, torch.FloatTensor)` tests the dtype and `t.type(torch.IntTensor)` casts. Tensors themselves are
always of class `Tensor`, as in PyTorch.
"""
from ..core import dtype as _dtype
from .creation import tensor, zeros
from ..core.tensor import TensorBase


class LegacyTensorType(type):
    """The class of `torch.FloatTensor` and the like: calling one makes a tensor of its dtype."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, TensorBase) and obj.dtype is cls.dtype

    def __call__(cls, *args):
        if len(args) == 1 and isinstance(args[0], TensorBase):
            data = args[0]
            if data.dtype is not cls.dtype:
                raise TypeError(f"expected TensorOptions(dtype={_dtype.cpp_name(cls.dtype)}, device=cpu, "
                                "layout=Strided, "
                                "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt)"
                                f") (got TensorOptions(dtype={_dtype.cpp_name(data.dtype)}, device=cpu, "
                                "layout=Strided, "
                                "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt)"
                                "))")
            return data.detach()
        if not args:
            return tensor([], dtype=cls.dtype)
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args) or (
                len(args) == 1 and isinstance(args[0], _dtype.Size)):
            return zeros(*args, dtype=cls.dtype)     # PyTorch leaves the memory uninitialised
        if len(args) == 1 and (isinstance(args[0], (list, tuple)) or hasattr(args[0], "__array__")):
            return tensor(args[0], dtype=cls.dtype)
        raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def _legacy(d):
    name = d._tensor_type[len("torch."):]
    return LegacyTensorType(name, (), {"dtype": d, "is_cuda": False, "__module__": "torch",
                                       "__doc__": f"PyTorch's legacy name for tensors of dtype {d!r}."})


BoolTensor, ByteTensor, CharTensor, ShortTensor, IntTensor, LongTensor, HalfTensor, FloatTensor, DoubleTensor = (
    _legacy(d) for d in (_dtype.bool, _dtype.uint8, _dtype.int8, _dtype.int16, _dtype.int32, _dtype.int64,
                         _dtype.float16, _dtype.float32, _dtype.float64))
