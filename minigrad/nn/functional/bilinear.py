"""`F.bilinear`: y = x1ᵀ A x2 + b for each of the out features, y[n, o] = sum over i, j of x1[n, i] A[o, i, j]
x2[n, j] (+ b[o]). As in ATen, the inputs' leading dims are flattened, the product is one `_trilinear` op (node
TrilinearBackward0) and the result is reshaped back, so the graph is PyTorch's. Each gradient is the same product
with the gradient in the place of one factor, an einsum, so all orders exist."""
import numpy as np

from ...core.forward_ad import from_backward
from ...core.function import Function
from ...ops._common import wrap
from ...ops.einsum import einsum

__all__ = ["bilinear"]


class Trilinear(Function):
    """z[n, o] = sum over i, j of x1[n, i] w[o, i, j] x2[n, j];  each input's gradient is the product of the
    gradient with the other two"""
    node_name = "TrilinearBackward0"
    saved_names = ("i1", "i2", "i3")
    saved_attrs = {"expand1": "expand1", "expand2": "expand2", "expand3": "expand3", "sumdim": "sumdim"}
    expand1, expand2, expand3, sumdim = (1, 3), (0,), (1, 2), (2, 3)       # ATen's arguments for bilinear

    @staticmethod
    def forward(x1, w, x2):
        return wrap(np.einsum("ni,oij,nj->no", x1._data, w._data, x2._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        x1, w, x2 = ctx.saved_tensors
        needs = ctx.needs_input_grad
        return (einsum("no,oij,nj->ni", grad, w, x2) if needs[0] else None,
                einsum("no,ni,nj->oij", grad, x1, x2) if needs[1] else None,
                einsum("no,oij,ni->nj", grad, w, x1) if needs[2] else None)

    jvp = from_backward


def bilinear(input1, input2, weight, bias=None):
    """y = x1ᵀ A x2 + b per out feature: input1 (..., in1), input2 (..., in2), weight (out, in1, in2), bias (out,).
    Mirrors `torch.nn.functional.bilinear`.

    Example:
        >>> F.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(5, 3, 4)).shape
        torch.Size([2, 5])
    """
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    for i in range(input1.dim() - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got "
                               f"{input1.shape[i]} and {input2.shape[i]}")
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} but "
                           f"expected {weight.shape[1]}")
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} but "
                           f"expected {weight.shape[2]}")
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but expected "
                           f"{weight.shape[0]}")
    out_shape = tuple(input1.shape[:-1]) + (weight.shape[0],)
    flat1, flat2 = input1.reshape(-1, input1.shape[-1]), input2.reshape(-1, input2.shape[-1])
    output = Trilinear.apply(flat1, weight, flat2).reshape(out_shape)
    return output if bias is None else output + bias
