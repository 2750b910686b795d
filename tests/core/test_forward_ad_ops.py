"""Forward mode on every row of the op table (op_table.py): the tangents that `Function.jvp` computes.

1. jvp against vjp, without torch: for random directions v (inputs) and u (outputs), ⟨u, J v⟩ from one forward
   pass with dual inputs equals ⟨Jᵀ u, v⟩ from one backward pass, whose gradients test_ops.py checks against
   finite differences and torch;
2. parity: each output's tangent is torch's (values, dtype, shape; None where torch gives None);
3. every built-in op has a forward-derivative formula of its own or one of the two shortcuts.
"""

import numpy as np
import pytest

import minigrad
import minigrad.autograd.forward_ad as fwAD
from minigrad.autograd import Function

from .op_table import CASES
from .test_ops import _functions_in_ops, as_tuple, draw, make

pytestmark = pytest.mark.filterwarnings("ignore:Using padding='same' with even kernel lengths:UserWarning")

GRAD_CASES = [c for c in CASES if c.grad and c.gradcheck]


def float64_inputs(case):
    arrays, rng = draw(case, "float64")
    arrays = [a.astype("float64") if a.dtype.kind == "f" else a for a in arrays]
    dual = [arg.requires_grad(a) for a, arg in zip(arrays, case.args)]
    directions = [rng.standard_normal(a.shape) if d else None for a, d in zip(arrays, dual)]
    return arrays, dual, directions, rng


def tangents_of(lib, case, arrays, directions):
    """The case's float outputs and their tangents, with the inputs dual along `directions`."""
    with lib.autograd.forward_ad.dual_level():
        inputs = [lib.autograd.forward_ad.make_dual(make(lib, a), make(lib, v)) if v is not None else make(lib, a)
                  for a, v in zip(arrays, directions)]
        outs = [o for o in as_tuple(case.fn(lib, *inputs)) if o.dtype.is_floating_point]
        return [(o.detach(), lib.autograd.forward_ad.unpack_dual(o).tangent) for o in outs]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_jvp_agrees_with_vjp(case):
    arrays, dual, directions, rng = float64_inputs(case)
    try:
        forward = tangents_of(minigrad, case, arrays, directions)
    except NotImplementedError as e:     # the op declares no forward formula, as torch's: the parity test checks it
        assert str(e).startswith("Trying to use forward AD with"), f"{case.id}: {e}"
        pytest.skip(f"minigrad, as torch: {str(e).splitlines()[0]}")
    inputs = [make(minigrad, a, requires_grad=d) for a, d in zip(arrays, dual)]
    outs = [o for o in as_tuple(case.fn(minigrad, *inputs)) if o.dtype.is_floating_point]
    assert len(outs) == len(forward), case.id
    upstream = [rng.standard_normal(tuple(o.shape)) for o in outs]
    u_jv = sum(float(np.sum(u * (t.numpy() if t is not None else 0.0))) for u, (_, t) in zip(upstream, forward))
    wrt = [(x, v) for x, v in zip(inputs, directions) if v is not None]
    recorded = [(o, u) for o, u in zip(outs, upstream) if o.requires_grad]
    grads = minigrad.autograd.grad([o for o, _ in recorded], [x for x, _ in wrt],
                                   [minigrad.tensor(u) for _, u in recorded], allow_unused=True,
                                   materialize_grads=True) if recorded else [None] * len(wrt)
    jt_u_v = sum(float(np.sum(g.numpy() * v)) for g, (_, v) in zip(grads, wrt) if g is not None)
    assert np.isclose(u_jv, jt_u_v, rtol=1e-8, atol=1e-10), f"{case.id}: <u, Jv> = {u_jv}, <J^T u, v> = {jt_u_v}"
    for (value, tangent), o in zip(forward, outs):
        assert np.allclose(value.numpy(), o.detach().numpy(), equal_nan=True), f"{case.id}: dual values differ"
        assert tangent is None or tangent.shape == o.shape, f"{case.id}: tangent of shape {tangent.shape}"


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_tangents_are_torchs(case, torch):
    arrays, dual, directions, _ = float64_inputs(case)
    try:
        expected = tangents_of(torch, case, arrays, directions)
    except NotImplementedError as e:        # torch has no forward formula for this op
        try:
            tangents_of(minigrad, case, arrays, directions)
        except NotImplementedError as mine:     # nor has minigrad: the same error
            assert str(mine) == str(e), f"{case.id}: received\n{mine}\nexpected (torch)\n{e}"
            return
        pytest.skip(f"torch: {str(e).splitlines()[0]} (minigrad has one: the first test checks it)")
    received = tangents_of(minigrad, case, arrays, directions)
    for k, ((_, m), (_, t)) in enumerate(zip(received, expected)):
        if t is None or m is None:
            assert m is None and t is None, f"{case.id} output {k}: received tangent {m}, expected (torch) {t}"
            continue
        assert (tuple(m.shape), str(m.dtype)) == (tuple(t.shape), str(t.dtype)), f"{case.id} output {k}"
        # torch's tangent of a result with a zero derivative (slogdet's sign) is a ZeroTensor: numpy(force=True)
        assert np.allclose(m.numpy(), t.numpy(force=True), rtol=1e-9, atol=1e-11, equal_nan=True), (
            f"{case.id} output {k}: received tangent\n{m}\nexpected (torch)\n{t}")


def _builtin_functions():
    """Every built-in op of minigrad (a Function that names its node), in ops/ and elsewhere (nn.functional)."""
    found, stack = set(_functions_in_ops()), [Function]
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        if cls.__dict__.get("node_name") and cls.__module__.startswith("minigrad."):
            found.add(cls)
    return found


def test_every_builtin_op_has_a_forward_formula():
    functions = _builtin_functions()
    assert len(functions) > 150
    missing = sorted(f.__name__ for f in functions if f.jvp is Function.jvp)
    assert not missing, f"no jvp: {missing}"


def test_a_tangent_through_sin():
    x = minigrad.tensor([0.5, 1.0])
    with fwAD.dual_level():
        y = fwAD.make_dual(x, minigrad.tensor([1.0, 2.0])).sin()
        assert np.allclose(fwAD.unpack_dual(y).tangent.numpy(), np.cos([0.5, 1.0]) * [1.0, 2.0])
