"""Jacobians, Hessians and their products with a vector, on top of `autograd.grad`. Mirrors `torch.autograd.functional`.

Each function runs `func` once, on fresh copies of the inputs, then asks `autograd.grad` for one product:
`vjp` is v^T J (one backward pass), `jacobian` is J (one backward per output element), `vhp` and `hvp`
differentiate the gradient once more, and `jvp` gets J v from two backward passes (the double-vjp trick).

It is built on the ops as well as on autograd (a Jacobian is stacked from rows), so `minigrad/__init__.py` loads it
with the torch.* functions, after the ops.
"""
from .._tensor.creation import zeros_like
from .._tensor.functions import stack
from .._tensor.tensor import Tensor
from . import forward_ad
from ._functional_checks import NONE, as_tuple, check_requires_grad, check_strategy, check_v
from ..core.engine import grad
from ..core.forward_ad import copy_tangents
from ..core.grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """Compute `func(*inputs)` and the vector-Jacobian product v^T J, with one backward pass.

    Args:
        func: takes the input tensors and returns a tensor or a tuple of tensors.
        inputs: a tensor or a tuple of tensors.
        v: shaped like func's output(s); may be None if func returns one tensor of one element.
        create_graph: record the computation, so that the results have a `grad_fn` and can be differentiated.
        strict: raise an error for an input that no output depends on, instead of returning zeros for it.
    Returns:
        `(func_output, vjp)`, vjp nested like `inputs`.

    Example:
        >>> vjp(lambda x: x ** 2, torch.tensor([1., 2.]), torch.tensor([1., 1.]))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    with enable_grad():
        inputs_tuple, inputs = as_tuple(inputs, "inputs", "vjp")
        inputs = _fresh(inputs, create_graph)
        outputs_tuple, outputs = _call(func, inputs, "vjp", strict)
        if v is not None:
            v = _fresh(check_v(v, outputs, outputs_tuple, "vjp"), create_graph, need_graph=False)
        elif len(outputs) != 1 or outputs[0].nelement() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function returns a single "
                               "Tensor with a single element.")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        vj = _fill_in_zeros(_grad(outputs, inputs, v, create_graph), inputs, strict, create_graph, "back")
    return _unpack(_result(outputs, create_graph), outputs_tuple), _unpack(_result(vj, create_graph), inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """Compute `func(*inputs)` and the Jacobian-vector product J v, with the double-vjp trick, as PyTorch does.

    minigrad, like this PyTorch function, only has reverse mode, which gives u -> u^T J. That map is linear in
    u, so differentiating it with respect to u, in the direction v, gives J v: a second backward pass, through
    the (recorded) first one. Args and Returns as in `vjp`, with `v` shaped like the inputs and the jvp
    nested like the outputs.

    Example:
        >>> jvp(lambda x: x ** 2, torch.tensor([1., 2.]), torch.tensor([1., 1.]))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    with enable_grad():
        inputs_tuple, inputs, v = _inputs_and_v(inputs, v, create_graph, "jvp")
        outputs_tuple, outputs = _call(func, inputs, "jvp", strict)
        # the first backward is linear in u, so u's value never shows: zeros only keep inf and nan out
        u = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        u_jacobian = _grad(outputs, inputs, u, create_graph=True)
        check_requires_grad(u_jacobian, "grad_inputs", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        jv = _fill_in_zeros(_grad(u_jacobian, u, v, create_graph), outputs, strict, create_graph, "back_trick")
    return _unpack(_result(outputs, create_graph), outputs_tuple), _unpack(_result(jv, create_graph), outputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """Compute the Jacobian of `func` at `inputs`, one backward pass per output element (one row).

    Args:
        func, inputs, create_graph, strict: as in `vjp`.
        vectorize, strategy: in PyTorch, ways to go faster (vmap, forward mode); minigrad's vmap is a loop,
            so `vectorize=True` computes the same rows one by one; `strategy="forward-mode"` (which needs
            `vectorize=True`) computes columns instead, one forward pass with dual inputs per input element.
    Returns:
        The Jacobian of output i with respect to input j has shape `out_i.shape + in_j.shape`: a tensor for a
        tensor input and output, otherwise a tuple (one entry per output) of tuples (one per input).

    Example:
        >>> jacobian(lambda x: x ** 2, torch.tensor([1., 2.]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    check_strategy(strategy, create_graph, strict, vectorize, inputs)
    if strategy == "forward-mode":
        return _forward_jacobian(func, inputs)
    with enable_grad():
        inputs_tuple, inputs = as_tuple(inputs, "inputs", "jacobian")
        inputs = _fresh(inputs, create_graph)
        outputs_tuple, outputs = _call(func, inputs, "jacobian", strict)
        if vectorize:
            if strict:
                raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                                   "not supported together. Please either set `strict=False` or `vectorize=False`.")
            # PyTorch vmaps the rows; minigrad's vmap is a loop, so vectorize=True is the same loop as below
        jacobians = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]         # rows[j][k]: d out.flatten()[k] / d inputs[j]
            for k in range(out.nelement()):
                grads = _grad((out.reshape(-1)[k],), inputs, retain_graph=True, create_graph=create_graph)
                for j, (g, x) in enumerate(zip(grads, inputs)):
                    if g is None and strict:
                        raise RuntimeError(f"Output {i} of the user-provided function is independent of input {j}. "
                                           "This is not allowed in strict mode.")
                    if g is not None and strict and create_graph and not g.requires_grad:
                        raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. "
                                           "This is not allowed in strict mode when create_graph=True.")
                    rows[j].append(zeros_like(x) if g is None else g)
            jacobians.append(tuple(stack(r, dim=0).view(out.size() + x.size()) for r, x in zip(rows, inputs)))
        return _unpack(_result(tuple(jacobians), create_graph), (outputs_tuple, inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """Compute the Hessian of a scalar function: the Jacobian of its gradient.

    Args:
        func: returns a tensor with a single element. inputs, create_graph, strict: as in `vjp`.
        vectorize, outer_jacobian_strategy: passed to the outer `jacobian` (see there).
    Returns:
        The block for inputs i and j has shape `in_i.shape + in_j.shape`: a tensor for a tensor input,
        otherwise a tuple of tuples.

    Example:
        >>> hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    inputs_tuple, inputs = as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def gradient(*xs):
        jac = jacobian(lambda *x: _scalar_output(func, x, "hessian", strict).squeeze(), xs, create_graph=True)
        check_requires_grad(jac, "jacobian", strict)
        return jac

    h = jacobian(gradient, inputs, create_graph, strict, vectorize, outer_jacobian_strategy)
    return _unpack(h, (inputs_tuple, inputs_tuple))


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """Compute `func(*inputs)` and the vector-Hessian product v^T H of a scalar function: two backward passes.

    Args and Returns as in `vjp`, with `v` shaped like the inputs and the vhp nested like them.

    Example:
        >>> vhp(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]), torch.tensor([1., 1.]))
        (tensor(9.), tensor([ 6., 12.]))
    """
    with enable_grad():
        inputs_tuple, inputs, v = _inputs_and_v(inputs, v, create_graph, "vhp")
        output = _scalar_output(func, inputs, "vhp", strict)
        gradient = _grad((output,), inputs, create_graph=True)
        check_requires_grad(gradient, "jacobian", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        vh = _fill_in_zeros(_grad(gradient, inputs, v, create_graph), inputs, strict, create_graph, "double_back")
    return _result((output,), create_graph)[0], _unpack(_result(vh, create_graph), inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """Compute `func(*inputs)` and the Hessian-vector product H v of a scalar function, as PyTorch does.

    H is symmetric, so H v = (v^T H)^T: here, as in PyTorch, with the double-vjp trick of `jvp` applied to
    the gradient (three backward passes; `vhp` needs two). Args and Returns as in `vhp`.

    Example:
        >>> hvp(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]), torch.tensor([1., 1.]))
        (tensor(9.), tensor([ 6., 12.]))
    """
    with enable_grad():
        inputs_tuple, inputs, v = _inputs_and_v(inputs, v, create_graph, "hvp")
        output = _scalar_output(func, inputs, "hvp", strict)
        gradient = _grad((output,), inputs, create_graph=True)
        check_requires_grad(gradient, "jacobian", strict)
        u = tuple(zeros_like(x, requires_grad=True) for x in inputs)
        u_hessian = _grad(gradient, inputs, u, create_graph=True)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        hv = _grad(u_hessian, u, v, create_graph)
        hv = _fill_in_zeros(hv, inputs, strict, create_graph, "double_back_trick")
    return _result((output,), create_graph)[0], _unpack(_result(hv, create_graph), inputs_tuple)


# ---- shared steps -----------------------------------------------------------------------------------------
def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """`autograd.grad` over the outputs that require grad; None for every input if none does."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(out, g) for out, g in zip(outputs, grad_outputs) if out is not None and out.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outputs, grad_outputs = zip(*pairs)
    return grad(outputs, inputs, grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
                allow_unused=True)


def _fresh(tensors, create_graph, need_graph=True):
    """New tensor objects: func's graph must start at them, not at a tensor that func also captured (torch #32576).

    With `create_graph` the copy stays connected (a view), so the results can be differentiated back to the
    caller's tensors; otherwise it is detached.
    """
    return tuple(t.view_as(t) if create_graph and t.requires_grad else
                 copy_tangents(t, t.detach().requires_grad_(need_graph)) for t in tensors)   # (keeping a dual's)


def _inputs_and_v(inputs, v, create_graph, name):
    """Tuple and copy the inputs, and check that `v` is shaped like them (jvp, vhp, hvp)."""
    inputs_tuple, inputs = as_tuple(inputs, "inputs", name)
    inputs = _fresh(inputs, create_graph)
    if v is not None:
        v = _fresh(check_v(v, inputs, inputs_tuple, name), create_graph, need_graph=False)
    elif len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided function is a single "
                           "Tensor with a single element.")
    return inputs_tuple, inputs, v


def _forward_jacobian(func, inputs):
    """The Jacobian column by column: input j's element k moves along e_k, and the outputs' tangents are column
    k of every output's Jacobian with respect to input j."""
    inputs_tuple, inputs = as_tuple(inputs, "inputs", "jacobian")
    columns = None
    for j, x in enumerate(inputs):
        for k in range(x.nelement()):
            direction = zeros_like(x).reshape(-1)
            direction[k] = 1
            with forward_ad.dual_level():
                args = list(inputs)
                args[j] = forward_ad.make_dual(x, direction.reshape(x.shape))
                outputs_tuple, outputs = as_tuple(func(*args), "outputs of the user-provided function", "jacobian")
                tangents = [forward_ad.unpack_dual(o).tangent for o in outputs]
            if columns is None:
                columns = [[[] for _ in inputs] for _ in outputs]
            for i, (o, t) in enumerate(zip(outputs, tangents)):
                columns[i][j].append(zeros_like(o).detach() if t is None else t)
    jacobians = [[stack(c).movedim(0, -1).reshape(o.size() + x.size()) for c, x in zip(per_input, inputs)]
                 for per_input, o in zip(columns, outputs)]
    # PyTorch's nesting for this strategy: lists [output][input] when the inputs are a tuple
    if not inputs_tuple:
        return tuple(per_input[0] for per_input in jacobians) if outputs_tuple else jacobians[0][0]
    return jacobians if outputs_tuple else jacobians[0]


def _call(func, inputs, name, strict):
    """Run func and tuple its outputs; in strict mode each must require grad."""
    outputs_tuple, outputs = as_tuple(func(*inputs), "outputs of the user-provided function", name)
    check_requires_grad(outputs, "outputs", strict)
    return outputs_tuple, outputs


def _scalar_output(func, inputs, name, strict):
    outputs_tuple, outputs = _call(func, inputs, name, strict)
    if outputs_tuple:
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should contain a single element")
    return outputs[0]


def _result(tensors, create_graph):
    """Detach the (possibly nested) results unless the caller asked for their graph."""
    if create_graph:
        return tensors
    return tuple(t.detach() if isinstance(t, Tensor) else _result(t, create_graph) for t in tensors)


def _unpack(result, was_tuple):
    """Undo `as_tuple`: `was_tuple` is one flag, or (outer, inner) for a tuple of tuples."""
    outer, inner = was_tuple if isinstance(was_tuple, tuple) else (was_tuple, None)
    if inner is False:
        result = tuple(r[0] for r in result)
    return result if outer else result[0]


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    """Zeros (shaped like refs[i]) for the gradients that came back None; strict mode raises instead."""
    filled = []
    for i, g in enumerate(grads):
        if g is None and strict:
            raise RuntimeError(NONE[stage].format(i=i))
        if g is not None and strict and create_graph and not g.requires_grad:
            what = "hessian" if stage.startswith("double") else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode when create_graph=True.")
        filled.append(zeros_like(refs[i]) if g is None else g)
    return tuple(filled)
