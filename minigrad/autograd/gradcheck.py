"""`gradcheck` and `gradgradcheck`: compare a backward (and its backward) against finite differences.

Mirrors `torch.autograd.gradcheck`.
"""
import warnings

import numpy as np

from .._tensor.tensor import Tensor
from ..core.engine import grad
from . import forward_ad


class GradcheckError(RuntimeError):
    """Raised by `gradcheck` when the analytical and numerical Jacobians differ."""


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, check_forward_ad=False,
              check_backward_ad=True, **_ignored):
    """Check `func`'s gradients against central finite differences, one input element at a time.

    Args:
        func: takes the `inputs` and returns a tensor or a tuple of tensors.
        inputs: a tensor or tuple; the tensors with `requires_grad=True` are checked. Use float64: in
            float32 the finite differences are too coarse (a UserWarning says so, as in PyTorch).
        eps, atol, rtol: the finite-difference step and the tolerances.
        raise_exception: raise `GradcheckError` on a mismatch (default) or return False.
        check_forward_ad, check_backward_ad: which Jacobians to check, forward mode's (one jvp per input
            element, autograd/forward_ad.py) and reverse mode's (one vjp per output element, the default).
    Returns:
        True if every Jacobian matches.

    Example:
        >>> gradcheck(LinearFunction.apply, (x, w, b), eps=1e-6, atol=1e-4)
        True
    """
    inputs = _as_tuple(inputs)
    checked = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    if not checked:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them "
                         "have requires_grad=True.")
    for i in checked:
        if inputs[i].dtype.name != "float64":
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or "
                          "complex. This check will likely fail if all the inputs are not of double precision "
                          "floating point or complex. ", UserWarning, stacklevel=2)

    def outputs():
        return _as_tuple(func(*inputs))

    # as in PyTorch, outputs and inputs are numbered among those that require grad
    differentiable = [k for k, out in enumerate(outputs()) if isinstance(out, Tensor) and out.requires_grad]
    if not differentiable:
        # then every output must be constant: a nonzero numerical gradient means a lost graph
        for i in checked:
            if np.any(_numerical_jacobian(outputs, inputs[i], eps) != 0):
                raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    modes = [(lambda k: _analytical_jacobians(outputs, k, [inputs[i] for i in checked]), "")] if check_backward_ad \
        else []
    if check_forward_ad:
        modes.append((lambda k: _forward_jacobians(func, inputs, k, checked), " computed with forward mode"))
    for jacobians, mode in modes:
        for out_index, k in enumerate(differentiable):
            analytical = jacobians(k)
            for in_index, (i, jacobian) in enumerate(zip(checked, analytical)):
                numerical = _numerical_jacobian(lambda: (outputs()[k],), inputs[i], eps)
                if not np.allclose(jacobian, numerical, rtol=rtol, atol=atol):
                    if not raise_exception:
                        return False
                    raise GradcheckError(
                        f"Jacobian{mode} mismatch for output {out_index} with respect to input {in_index},\n"
                        # printed as PyTorch prints them: one row per input element, one column per output element
                        f"numerical:{Tensor._make(numerical.T)!r}\nanalytical:{Tensor._make(jacobian.T)!r}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, **_ignored):
    """Check `func`'s second derivatives: `gradcheck` of the function (inputs, v) -> v^T J, the gradients.

    That function is what a backward computes, so this checks that the backward itself is recorded
    correctly (`create_graph=True`): with respect to the inputs (the second derivatives) and to v.

    Args:
        func, inputs, eps, atol, rtol, raise_exception: as in `gradcheck`.
        grad_outputs: v, one tensor per output of func that requires grad; by default random in [-1, 1),
            from a fixed seed (minigrad's own random generator is left alone).
        gen_non_contig_grad_outputs: make those random grad_outputs non-contiguous.
    Returns:
        True if every Jacobian matches.

    Example:
        >>> gradgradcheck(MyCube.apply, (x,))
        True
    """
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        outputs = [o for o in _as_tuple(func(*inputs)) if o.requires_grad]
        grad_outputs = tuple(_random_like(o, rng, gen_non_contig_grad_outputs) for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    differentiable = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]

    def gradients(*args):
        xs, vs = args[:len(inputs)], args[len(inputs):]
        outputs = tuple(o for o in _as_tuple(func(*xs)) if o.requires_grad)
        grads = grad(outputs, [xs[i] for i in differentiable], vs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(gradients, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


def _random_like(t, rng, non_contiguous):
    """Uniform in [-1, 1), shaped like t, requiring grad, as `torch.testing.make_tensor(low=-1, high=1)`."""
    dtype = t._data.dtype if t.dtype.is_floating_point else np.float64
    if non_contiguous and t._data.size > 1:
        # every other element of a twice-as-long last dimension, as make_tensor(noncontiguous=True) does
        wide = rng.uniform(-1, 1, t._data.shape[:-1] + (2 * t._data.shape[-1],)).astype(dtype)
        return Tensor._make(wide[..., ::2]).requires_grad_()
    return Tensor._make(rng.uniform(-1, 1, t._data.shape).astype(dtype)).requires_grad_()


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _numerical_jacobian(outputs_of, x, eps):
    """Column j = (f(x + eps e_j) - f(x - eps e_j)) / 2 eps: how every output element moves with element j.

    `outputs_of()` returns a tuple; their elements are the rows, one output after the other. Grad mode stays
    on, as in PyTorch: gradgradcheck's function calls `autograd.grad`, which needs a graph.
    """
    def flat_outputs():
        outs = [o._data.astype(np.float64).reshape(-1) for o in outputs_of() if hasattr(o, "_data")]
        return np.concatenate(outs) if outs else np.zeros(0)

    columns = []
    for j in range(x._data.size):
        index = np.unravel_index(j, x._data.shape)     # not a flat view: x may be non-contiguous
        original = x._data[index]
        x._data[index] = original + eps
        plus = flat_outputs()
        x._data[index] = original - eps
        minus = flat_outputs()
        x._data[index] = original
        columns.append((plus - minus) / (2 * eps))
    return np.stack(columns, axis=1) if columns else np.zeros((flat_outputs().size, 0))    # x is empty


def _forward_jacobians(func, inputs, out_index, positions):
    """Column j of each Jacobian = the tangent of the output when input element j moves: one forward pass with
    dual inputs per input element."""
    jacobians = []
    for i in positions:
        x, columns = inputs[i], []
        for j in range(x.numel()):
            direction = np.zeros(x._data.size, x._data.dtype)
            direction[j] = 1
            with forward_ad.dual_level():
                args = list(inputs)
                args[i] = forward_ad.make_dual(x, Tensor._make(direction.reshape(x._data.shape)))
                out = _as_tuple(func(*args))[out_index]
                tangent = forward_ad.unpack_dual(out).tangent
            columns.append(np.zeros(out.numel()) if tangent is None else tangent._data.astype(np.float64).ravel())
        jacobians.append(np.stack(columns, axis=1) if columns else np.zeros((0, 0)))
    return jacobians


def _analytical_jacobians(outputs, out_index, xs):
    """Row i of each Jacobian = the gradient of output element i, from one `autograd.grad` per output element.

    `autograd.grad` leaves every `.grad` alone, and works for inputs that are not leaves.
    """
    rows = [[] for _ in xs]
    n_out = outputs()[out_index].numel()
    for i in range(n_out):
        out = outputs()[out_index]
        seed = np.zeros(out._data.size, out._data.dtype)
        seed[i] = 1
        grads = grad(out, xs, Tensor._make(seed.reshape(out._data.shape)), allow_unused=True)
        for g, x, r in zip(grads, xs, rows):
            r.append(np.zeros(x._data.size) if g is None else g._data.astype(np.float64).ravel())
    return [np.stack(r) if r else np.zeros((0, x._data.size)) for r, x in zip(rows, xs)]
