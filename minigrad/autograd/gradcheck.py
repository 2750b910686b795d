"""`gradcheck`: compare a backward against finite differences. Mirrors `torch.autograd.gradcheck`."""
import warnings

import numpy as np

from .grad_mode import no_grad


class GradcheckError(RuntimeError):
    """Raised by `gradcheck` when the analytical and numerical Jacobians differ."""


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **_ignored):
    """Check `func`'s gradients against central finite differences, one input element at a time.

    Args:
        func: takes the `inputs` and returns a tensor or a tuple of tensors.
        inputs: a tensor or tuple; the tensors with `requires_grad=True` are checked. Use float64: in
            float32 the finite differences are too coarse (a UserWarning says so, as in PyTorch).
        eps, atol, rtol: the finite-difference step and the tolerances.
        raise_exception: raise `GradcheckError` on a mismatch (default) or return False.
    Returns:
        True if every Jacobian matches.

    Example:
        >>> gradcheck(LinearFunction.apply, (x, w, b), eps=1e-6, atol=1e-4)
        True
    """
    from .._tensor import Tensor
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    checked = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    if not checked:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for i in checked:
        if inputs[i].dtype.name != "float64":
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or "
                          "complex. This check will likely fail if all the inputs are not of double precision "
                          "floating point or complex. ", UserWarning, stacklevel=2)

    def outputs():
        out = func(*inputs)
        return out if isinstance(out, tuple) else (out,)

    for out_index, out in enumerate(outputs()):
        if not (isinstance(out, Tensor) and out.requires_grad):
            continue
        analytical = _analytical_jacobians(outputs, out_index, [inputs[i] for i in checked])
        for in_index, jacobian in zip(checked, analytical):
            numerical = _numerical_jacobian(lambda: outputs()[out_index], inputs[in_index], eps)
            if not np.allclose(jacobian, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {out_index} with respect to input {in_index},\n"
                    # printed as PyTorch prints them: one row per input element, one column per output element
                    f"numerical:{Tensor._make(numerical.T)!r}\nanalytical:{Tensor._make(jacobian.T)!r}\n")
    return True


def _numerical_jacobian(output_of, x, eps):
    """Column j = (f(x + eps e_j) - f(x - eps e_j)) / 2 eps: how every output moves with element j."""
    flat = x._data.reshape(-1)
    columns = []
    with no_grad():
        for j in range(flat.size):
            original = flat[j]
            flat[j] = original + eps
            plus = output_of()._data.astype(np.float64).reshape(-1)
            flat[j] = original - eps
            minus = output_of()._data.astype(np.float64).reshape(-1)
            flat[j] = original
            columns.append((plus - minus) / (2 * eps))
    return np.stack(columns, axis=1) if columns else np.zeros((output_of().numel(), 0))    # x is empty


def _analytical_jacobians(outputs, out_index, xs):
    """Row i of each Jacobian = the gradient of output element i, from one backward per output element.

    The inputs' own `.grad` is put back afterwards, so checking leaves no trace.
    """
    from .._tensor import Tensor
    saved = [x._grad for x in xs]
    rows = [[] for _ in xs]
    n_out = outputs()[out_index].numel()
    try:
        for i in range(n_out):
            for x in xs:
                x._grad = None
            out = outputs()[out_index]
            seed = np.zeros(out._data.size, out._data.dtype)
            seed[i] = 1
            out.backward(Tensor._make(seed.reshape(out._data.shape)))
            for x, r in zip(xs, rows):
                r.append(np.zeros(x._data.size) if x._grad is None else x._grad._data.astype(np.float64).ravel())
    finally:
        for x, g in zip(xs, saved):
            x._grad = g
    return [np.stack(r) if r else np.zeros((0, x._data.size)) for r, x in zip(rows, xs)]
