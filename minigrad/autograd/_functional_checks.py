"""The checks of `autograd.functional` that exist to raise PyTorch's errors, word for word."""
from .._tensor.tensor import Tensor


def as_tuple(value, what, name):
    """(was it a tuple?, the tensors as a tuple); anything but a tensor or a tuple of tensors is a TypeError."""
    if isinstance(value, tuple):
        for i, t in enumerate(value):
            if not isinstance(t, Tensor):
                raise TypeError(f"The {what} given to {name} must be either a Tensor or a tuple of Tensors but the "
                                f"value at index {i} has type {type(t)}.")
        return True, value
    if not isinstance(value, Tensor):
        raise TypeError(f"The {what} given to {name} must be either a Tensor or a tuple of Tensors but the given "
                        f"{what} has type {type(value)}.")
    return False, (value,)


def check_v(v, like, like_tuple, name):
    """Tuple `v` and check that it matches `like` (the outputs for vjp, else the inputs) in length and shapes."""
    _, v = as_tuple(v, "v", name)
    if len(v) != len(like):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}." if like_tuple
                           else "The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, like)):
        if a.size() != b.size():
            entry = f"Entry {i} in " if like_tuple else ""
            raise RuntimeError(f"{entry}v has invalid size: should be {b.size()} but got {a.size()}.")
    return v


_NO_GRAD = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The outputs must be computed "
               "in a differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the user-provided "
                   "function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with respect "
                "to input {i} is independent of the input. This is not allowed in strict mode. You should ensure "
                "that your function is twice differentiable and that the jacobian depends on the inputs (this "
                "would be violated by a linear function for example).",
}


def check_requires_grad(tensors, kind, strict):
    for i, t in enumerate(tensors if strict else ()):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError(_NO_GRAD[kind].format(i=i))


NONE = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in strict "
            "mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
                  "using the double backward trick to compute forward mode gradients. This is not allowed in "
                  "strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed "
                   "in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                         "backward trick to replace forward mode AD.",
}


def check_strategy(strategy, create_graph, strict, vectorize, inputs):
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "reverse-mode":
        return
    if create_graph:
        raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                  '`strategy="forward-mode"` are not supported together (yet). Please either set '
                                  '`create_graph=False` or `strategy="reverse-mode"`.')
    if strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not '
                           'supported together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.')
    as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:   # torch's text, missing space included
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
