"""`LazyLinear`: a Linear layer whose `in_features` is read off the first input it sees. Mirrors `torch.nn.LazyLinear`.

Until that first call its weight and bias are `UninitializedParameter`s: registered (an optimizer can already
hold them), but without a shape. The first forward gives them their shapes in place (the optimizer keeps the
same objects), draws them as `Linear.reset_parameters` does, and turns the module into a plain `Linear`.
"""
import numpy as np

from .linear import Linear
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
