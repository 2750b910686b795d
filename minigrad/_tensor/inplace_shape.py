"""The in-place shape changes of `Tensor`: `t_`, `transpose_` (`swapaxes_`, `swapdims_`), `squeeze_`,
`unsqueeze_`. The tensor keeps its memory and takes new sizes and strides; when recorded, the op's node
(TBackward1, ...: ops/shape_inplace.py) becomes its `grad_fn`, and its version counter goes up, as for any
in-place change."""
from ..core.forward_ad import set_tangent, tangent_of
from ..core.grad_mode import _State
from ..core.graph import set_history
from ..ops import shape_inplace


class TensorInPlaceShape:
    """In-place shape changes for `Tensor`."""

    def t_(self):
        return self._reshape_in_place(shape_inplace.TInPlace)

    def transpose_(self, dim0, dim1):
        return self._reshape_in_place(shape_inplace.TransposeInPlace, dim0, dim1)

    swapaxes_ = swapdims_ = transpose_

    def squeeze_(self, dim=None):
        if dim is None:
            return self._reshape_in_place(shape_inplace.SqueezeInPlace)
        return self._reshape_in_place(shape_inplace.SqueezeDimInPlace, dim)

    def unsqueeze_(self, dim):
        return self._reshape_in_place(shape_inplace.UnsqueezeInPlace, dim)

    def _reshape_in_place(self, op, *args):
        self._check_inplace()
        if self._base is not None and _State.enabled and (self._requires_grad or self._base._requires_grad):
            raise NotImplementedError("minigrad cannot change the shape of a view that requires grad in place; "
                                      "use the out-of-place op (x = x.t()) instead")
        result = op.apply(self, *args)
        self._data = result._data       # the same memory, seen with the new shape
        for level in range(_State.forward_ad):              # forward mode: the tangent takes the new shape too
            tangent = tangent_of(result, level)
            if tangent is not None:
                set_tangent(self, tangent, level)
        self._bump_version()
        if result.grad_fn is not None:
            set_history(self, result.grad_fn, result._output_nr)
        return self
