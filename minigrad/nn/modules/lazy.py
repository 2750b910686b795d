"""`LazyLinear`: a Linear layer whose `in_features` is read off the first input it sees. Mirrors `torch.nn.LazyLinear`.
The lazy convolutions and normalizations (`LazyConv2d`, `LazyBatchNorm1d`, ...) at the end do the same for their
channels.

Until that first call its weight and bias are `UninitializedParameter`s: registered (an optimizer can already
hold them), but without a shape. The first forward gives them their shapes in place (the optimizer keeps the
same objects), draws them as `Linear.reset_parameters` does, and turns the module into a plain `Linear`.
"""
import numpy as np

from ..._tensor import creation as _creation
from ...core.dtype import int64 as _int64
from .conv import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from .linear import Linear
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, InstanceNorm1d, InstanceNorm2d,
                            InstanceNorm3d)
from ..module import Module
from ..._tensor.tensor import Tensor
from ..parameter import Parameter


class UninitializedParameter(Parameter):
    """A Parameter with no shape yet; `LazyLinear` materializes it. Mirrors `torch.nn.UninitializedParameter`."""

    @property
    def shape(self):
        raise RuntimeError("Can't access the shape of an uninitialized parameter or buffer. This error usually "
                           "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
                           "initialized one. Call `forward` to initialize the parameters before accessing their "
                           "attributes.")

    def materialize(self, shape, dtype=np.float32):
        """Give this parameter `shape` (uninitialized values) and make it a plain Parameter, in place."""
        self._data = np.empty(shape, dtype)
        self.__class__ = Parameter

    def __repr__(self):
        return "<UninitializedParameter>"


class UninitializedBuffer(Tensor):
    """A buffer with no shape yet, which a lazy layer materializes. Mirrors `torch.nn.UninitializedBuffer`."""

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        t = cls._make(np.empty(0, np.float32 if dtype is None else dtype.np_type))
        t.persistent = persistent
        return t

    def __init__(self, *args, **kwargs):
        pass

    shape = UninitializedParameter.shape

    def materialize(self, shape, dtype=np.float32):
        """Give this buffer `shape` (uninitialized values) and make it a plain tensor, in place."""
        self._data = np.empty(shape, dtype)
        self.__class__ = Tensor

    def __repr__(self):
        return "<UninitializedBuffer>"


class LazyLinear(Linear):
    """A `Linear` whose `in_features` comes from the first input's last dimension."""

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self.weight = UninitializedParameter()
        if bias:
            self.bias = UninitializedParameter()
        else:
            self.register_parameter("bias", None)

    def has_uninitialized_params(self):
        return any(isinstance(p, UninitializedParameter) for p in self.parameters())

    def forward(self, input):
        self.in_features = input._data.shape[-1]
        self.weight.materialize((self.out_features, self.in_features))
        if self.bias is not None:
            self.bias.materialize((self.out_features,))
        self.reset_parameters()
        self.__class__ = Linear          # from now on an ordinary Linear (torch's cls_to_become)
        return Linear.forward(self, input)


# ---- the other lazy layers: convolutions and normalizations that read their channels off the first input ---------
class _LazyMixin:
    """A lazy layer: its parameters (and running statistics) stay uninitialized until the first forward reads the
    number of channels off the input; then they get their shapes, are drawn as the plain layer draws them, and the
    module becomes that layer (`cls_to_become`), as torch's LazyModuleMixin does."""
    cls_to_become = None

    def has_uninitialized_params(self):
        tensors = list(self._parameters.values()) + list(self._buffers.values())
        return any(isinstance(t, (UninitializedParameter, UninitializedBuffer)) for t in tensors)

    def _features(self):
        return self.in_channels if hasattr(self, "in_channels") else self.num_features

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self._features() != 0:
            super().reset_parameters()

    def forward(self, input, *args, **kwargs):
        self.initialize_parameters(input)
        self.__class__ = self.cls_to_become
        return self.forward(input, *args, **kwargs)


class _LazyConvMixin(_LazyMixin):
    def _lazy_init(self, out_channels, bias, dtype):
        self.weight = UninitializedParameter()
        self.out_channels, self._lazy_dtype = out_channels, (dtype.np_type if dtype is not None else np.float32)
        if bias:
            self.bias = UninitializedParameter()

    def initialize_parameters(self, input):
        spatial = len(self.kernel_size)
        if input.dim() not in (spatial + 1, spatial + 2):
            raise RuntimeError(f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to "
                               f"{self.cls_to_become.__name__}, but got input of size: {list(input.shape)}")
        self.in_channels = input.shape[1] if input.dim() == spatial + 2 else input.shape[0]
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if self.transposed:
            shape = (self.in_channels, self.out_channels // self.groups)
        else:
            shape = (self.out_channels, self.in_channels // self.groups)
        self.weight.materialize(shape + tuple(self.kernel_size), self._lazy_dtype)
        if self.bias is not None:
            self.bias.materialize((self.out_channels,), self._lazy_dtype)
        self.reset_parameters()


def _lazy_conv(name, base):
    """`LazyConv2d` and the like: `base` (a convolution) whose in_channels the first input gives."""
    transposed = base._transposed

    def __init__(self, out_channels, kernel_size, stride=1, padding=0, *args, bias=True, dtype=None, **kwargs):
        if transposed:          # (..., output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros')
            base.__init__(self, 0, 0, kernel_size, stride, padding, *args, bias=False, dtype=dtype, **kwargs)
        else:                   # (..., dilation=1, groups=1, bias=True, padding_mode='zeros')
            base.__init__(self, 0, 0, kernel_size, stride, padding, *args, bias=False, dtype=dtype, **kwargs)
        self._lazy_init(out_channels, bias, dtype)

    doc = (f"A `{base.__name__}` whose in_channels is read off the first input. Mirrors `torch.nn.{name}`.")
    return type(name, (_LazyConvMixin, base), {"__init__": __init__, "cls_to_become": base, "__doc__": doc,
                                               "__module__": __name__, "__qualname__": name})


class _LazyNormMixin(_LazyMixin):
    def _lazy_init(self, affine, track_running_stats, dtype):
        self.affine, self.track_running_stats = affine, track_running_stats
        self._lazy_dtype = dtype.np_type if dtype is not None else np.float32
        if affine:
            self.weight, self.bias = UninitializedParameter(), UninitializedParameter()
        if track_running_stats:
            self.running_mean, self.running_var = UninitializedBuffer(), UninitializedBuffer()
            self.num_batches_tracked = _creation.tensor(0, dtype=_int64)

    def initialize_parameters(self, input):
        self.num_features = input.shape[1]     # as torch's _LazyNormBase, even for an unbatched instance norm input
        if self.affine:
            self.weight.materialize((self.num_features,), self._lazy_dtype)
            self.bias.materialize((self.num_features,), self._lazy_dtype)
        if self.track_running_stats:
            self.running_mean.materialize((self.num_features,), self._lazy_dtype)
            self.running_var.materialize((self.num_features,), self._lazy_dtype)
        self.reset_parameters()


def _lazy_norm(name, base, affine_default, track_default):
    def __init__(self, eps=1e-5, momentum=0.1, affine=affine_default, track_running_stats=track_default, device=None,
                 dtype=None):
        base.__init__(self, 0, eps, momentum, False, False, dtype=dtype)
        self._lazy_init(affine, track_running_stats, dtype)

    doc = f"A `{base.__name__}` whose num_features is read off the first input. Mirrors `torch.nn.{name}`."
    return type(name, (_LazyNormMixin, base), {"__init__": __init__, "cls_to_become": base, "__doc__": doc,
                                               "__module__": __name__, "__qualname__": name})


LazyConv1d, LazyConv2d = _lazy_conv("LazyConv1d", Conv1d), _lazy_conv("LazyConv2d", Conv2d)
LazyConvTranspose1d = _lazy_conv("LazyConvTranspose1d", ConvTranspose1d)
LazyConvTranspose2d = _lazy_conv("LazyConvTranspose2d", ConvTranspose2d)
LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d = (_lazy_norm(f"LazyBatchNorm{k}d", cls, True, True) for k, cls in
                                                     ((1, BatchNorm1d), (2, BatchNorm2d), (3, BatchNorm3d)))
LazyInstanceNorm1d, LazyInstanceNorm2d, LazyInstanceNorm3d = (
    _lazy_norm(f"LazyInstanceNorm{k}d", cls, True, True) for k, cls in      # torch: affine and tracking, too
    ((1, InstanceNorm1d), (2, InstanceNorm2d), (3, InstanceNorm3d)))
