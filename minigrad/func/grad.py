"""`torch.func.grad`, `grad_and_value` and `vjp`: gradients as functions, on top of `autograd.grad`.

`grad(f)(x)` runs `f` on a fresh leaf that stands for `x` and returns d f / d x. PyTorch keeps a "level" per
transform so that nested transforms never mix their variables; minigrad gets the same results for nesting
(`grad(grad(f))`, `jacrev(grad(f))`) by differentiating with `create_graph=True` whenever the input is itself
being differentiated by an outer transform, so the gradient stays differentiable.
"""
from .._tensor.tensor import Tensor
from ..core.forward_ad import copy_tangents
from ..core.engine import grad as _autograd_grad
from ..core.grad_mode import enable_grad
from .pytree import tree_flatten, tree_unflatten
from .transforms import running

__all__ = ["grad", "grad_and_value", "vjp"]


def grad(func, argnums=0, has_aux=False):
    """Return a function that computes the gradient of `func` (which must return a scalar tensor) with respect
    to its positional arguments `argnums` (an int, or a tuple of them), each a tensor or a tuple/list/dict of
    tensors. With `has_aux=True`, `func` returns `(output, aux)` and the function returns `(gradient, aux)`.

    Example:
        >>> torch.func.grad(lambda x: (x ** 3).sum())(torch.tensor([1., 2.]))
        tensor([ 3., 12.])
    """
    def wrapper(*args, **kwargs):
        gradient, (_, aux) = _grad_and_value(func, argnums, has_aux, args, kwargs)
        return (gradient, aux) if has_aux else gradient
    return wrapper


def grad_and_value(func, argnums=0, has_aux=False):
    """Like `grad`, but the function returns `(gradient, value)` (with `has_aux`: `(gradient, (value, aux))`)."""
    def wrapper(*args, **kwargs):
        gradient, (value, aux) = _grad_and_value(func, argnums, has_aux, args, kwargs)
        return gradient, ((value, aux) if has_aux else value)
    return wrapper


def _grad_and_value(func, argnums, has_aux, args, kwargs):
    positions = _positions(argnums, len(args))
    with enable_grad():
        args, inputs, nested = _differentiable(args, positions)
        with running("grad"):
            output = func(*args, **kwargs)
        output, aux = _split_aux(output, has_aux, "grad_and_value(f)(*args)")
        if not isinstance(output, Tensor):
            raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                               f"{type(output)}")
        if output.dim() != 0:
            raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor "
                               f"with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
        flat = [leaf for leaves, _ in inputs for leaf in leaves]
        grads = _gradients(output, flat, None, nested) if output.requires_grad else [None] * len(flat)
    gradient = _rebuild(grads, inputs)
    gradient = gradient[0] if isinstance(argnums, int) else gradient
    if not nested:      # outside any other transform, nothing returned keeps a graph
        output, aux = _detach(output), _detached(aux)
    return gradient, (output, aux)


def _detached(tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([_detach(t) if isinstance(t, Tensor) else t for t in leaves], spec)


def _detach(t):
    """Out of the graph, but with its tangents, if an outer jvp gave it some (forward over reverse needs no
    graph of the backward pass: its ops carry tangents as they run)."""
    return copy_tangents(t, t.detach())


def vjp(func, *primals, has_aux=False):
    """Return `(func(*primals), vjp_fn)`; `vjp_fn(cotangents)` gives the vector-Jacobian product, one entry per
    primal (as `autograd.grad(outputs, primals, cotangents)`)."""
    with enable_grad():
        args, inputs, nested = _differentiable(primals, range(len(primals)))
        with running("vjp"):
            output = func(*args)
    output, aux = _split_aux(output, has_aux, "vjp(f, *primals)")
    out_leaves, out_spec = tree_flatten(output)
    for leaf in out_leaves:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"vjp(f, *primals): expected f(*primals) to return only tensors, got unsupported "
                               f"type {type(leaf)}")
    flat = [leaf for leaves, _ in inputs for leaf in leaves]

    def vjp_fn(cotangents):
        cot_leaves, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               "outputs to the function.")
        with enable_grad():
            grads = _gradients(out_leaves, flat, cot_leaves, nested, retain_graph=True)     # vjp_fn runs again
        return tuple(_rebuild(grads, inputs))
    detached = output if nested else tree_unflatten([_detach(t) for t in out_leaves], out_spec)
    return (detached, vjp_fn, aux) if has_aux else (detached, vjp_fn)


# ---- helpers ------------------------------------------------------------------------------------------------------
def _positions(argnums, count):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    if not nums:
        raise RuntimeError("argnums must be non-empty")
    for n in nums:
        if not isinstance(n, int):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
        if not -count <= n < count:
            raise RuntimeError(f"Got argnum={n}, but only {count} positional inputs")
    return [n % count for n in nums]


def _differentiable(args, positions):
    """The arguments with each tensor at `positions` replaced by a new tensor that requires grad: a fresh leaf,
    or, for a tensor an outer transform differentiates, a view of it (so the outer graph goes through)."""
    args, inputs, nested = list(args), [], False
    for p in positions:
        leaves, spec = tree_flatten(args[p])
        fresh = []
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
            if leaf.requires_grad:
                nested = True
                fresh.append(leaf.view_as(leaf))
            elif leaf._tangents:            # inside jacfwd or jvp (forward over reverse): keep the directions
                fresh.append(copy_tangents(leaf, leaf.detach().requires_grad_()))
            else:
                fresh.append(leaf.detach().requires_grad_())
        args[p] = tree_unflatten(fresh, spec)
        inputs.append((fresh, spec))
    return args, inputs, nested


def _split_aux(output, has_aux, name):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{name}: output of function f should be a tuple: (output, aux) if "
                           "has_aux is True")
    return output


def _gradients(outputs, inputs, grad_outputs, nested, retain_graph=None):
    """d outputs / d inputs; zeros where an input does not matter (torch.func never returns None)."""
    grads = _autograd_grad(outputs, inputs, grad_outputs, retain_graph=retain_graph, create_graph=nested,
                           allow_unused=True, materialize_grads=True)
    return [g if nested else _detach(g) for g in grads]


def _rebuild(grads, inputs):
    out, i = [], 0
    for leaves, spec in inputs:
        out.append(tree_unflatten(grads[i:i + len(leaves)], spec))
        i += len(leaves)
    return tuple(out)
