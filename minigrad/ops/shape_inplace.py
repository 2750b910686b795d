"""The shape ops in place, `x.t_()`, `x.transpose_(0, 1)`, `x.squeeze_()`, `x.unsqueeze_(0)`: the tensor's own
shape and strides change, its memory does not. Each is its out-of-place view op (ops/shape.py) under the node
name PyTorch gives the in-place form, and gives a plain array rather than a view (the tensor takes the array
itself: `Tensor._reshape_in_place`)."""
from ._common import wrap
from .shape import Squeeze, SqueezeDim, T, Transpose, Unsqueeze


class TInPlace(T):
    node_name = "TBackward1"

    @staticmethod
    def forward(x):
        if x.dim() > 2:
            raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {x.dim()}D")
        return wrap(T.forward(x)._data)


class TransposeInPlace(Transpose):
    node_name = "TransposeBackward1"

    @staticmethod
    def forward(x, d0, d1):
        return wrap(Transpose.forward(x, d0, d1)._data)


class SqueezeInPlace(Squeeze):
    node_name = "SqueezeBackward3"

    @staticmethod
    def forward(x):
        return wrap(Squeeze.forward(x)._data)


class SqueezeDimInPlace(SqueezeDim):
    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(x, dim):
        return wrap(SqueezeDim.forward(x, dim)._data)


class UnsqueezeInPlace(Unsqueeze):
    node_name = "UnsqueezeBackward1"

    @staticmethod
    def forward(x, dim):
        return wrap(Unsqueeze.forward(x, dim)._data)
