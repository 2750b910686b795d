"""`torch.nn.grad`: the gradients of a convolution with respect to its input and to its weight, as functions
(`conv2d_input(input_size, weight, grad_output)`). Each is one backward pass through `F.conv1d` / `F.conv2d`
(autograd.grad), so the numbers are those that `loss.backward()` gives. The 3-D forms need conv3d, which
minigrad does not have."""
from .. import autograd
from .._tensor import creation as _creation
from . import functional as F

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight"]


def _input_gradient(conv, input_size, weight, grad_output, stride, padding, dilation, groups):
    x = _creation.zeros(*input_size, dtype=grad_output.dtype, requires_grad=True)
    out = conv(x, weight.detach(), None, stride, padding, dilation, groups)
    return autograd.grad(out, x, grad_output)[0]


def _weight_gradient(conv, input, weight_size, grad_output, stride, padding, dilation, groups):
    w = _creation.zeros(*weight_size, dtype=grad_output.dtype, requires_grad=True)
    out = conv(input.detach(), w, None, stride, padding, dilation, groups)
    return autograd.grad(out, w, grad_output)[0]


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to an input of shape `input_size`. Mirrors `torch.nn.grad.conv1d_input`."""
    return _input_gradient(F.conv1d, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to a weight of shape `weight_size`."""
    return _weight_gradient(F.conv1d, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to an input of shape `input_size`. Mirrors `torch.nn.grad.conv2d_input`."""
    return _input_gradient(F.conv2d, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to a weight of shape `weight_size`."""
    return _weight_gradient(F.conv2d, input, weight_size, grad_output, stride, padding, dilation, groups)
