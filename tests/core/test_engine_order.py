"""The engine's order: PyTorch's, node for node (ties between ready AccumulateGrad nodes included), and the
same in every process. Expected orders come from real torch, recorded with node pre-hooks."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import minigrad
from minigrad.core import engine


def _graphs():
    """Programs `build(lib, leaves) -> output`; each names its leaves by position."""
    def product3(lib, a, b, c, d):
        return (a * b * c).sum()

    def sum4(lib, a, b, c, d):
        return (a + b + c + d).sum()

    def cat4(lib, a, b, c, d):
        return lib.cat([a, b, c, d]).sum()

    def stack_then_mix(lib, a, b, c, d):
        s = lib.stack([a * b, c, d * a])
        return (s.exp() * s).sum() + (b * c).sum()

    def diamond(lib, a, b, c, d):
        h = a * b
        u, v = h.exp(), h.tanh()
        return ((u + v) * a + (v * b).sigmoid() + c * d).sum()

    def reused(lib, a, b, c, d):
        return ((a * a) * (b + c) * (d * a)).sum() + (a * d).mean()
    return [product3, sum4, cat4, stack_then_mix, diamond, reused]


GRAPHS = _graphs()


def _leaves(lib):
    rng = np.random.default_rng(0)
    return [lib.tensor(rng.standard_normal(3).tolist(), requires_grad=True) for _ in range(4)]


def _label(node, leaves):
    variable = getattr(node, "variable", None)
    if variable is None:
        return node.name()
    return "leaf " + "abcd"[next(i for i, t in enumerate(leaves) if t is variable)]


def torch_order(torch, build):
    leaves = _leaves(torch)
    out = build(torch, *leaves)
    order, seen, stack = [], set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        node.register_prehook(lambda grads, node=node: order.append(_label(node, leaves)))
        stack.extend(n for n, _ in node.next_functions)
    out.backward()
    return order


def minigrad_order(build):
    leaves = _leaves(minigrad)
    out = build(minigrad, *leaves)
    return [_label(step.node, leaves) for step in engine.backward_steps(out)]


@pytest.mark.parametrize("build", GRAPHS, ids=[g.__name__ for g in GRAPHS])
def test_order_is_torchs_including_ties(build, torch):
    expected = torch_order(torch, build)
    received = minigrad_order(build)
    assert received == expected, f"received order {received}\nexpected (torch) {expected}"


def test_hooks_see_the_same_order_as_backward_steps():
    build = GRAPHS[3]
    leaves = _leaves(minigrad)
    order = []
    for t, name in zip(leaves, "abcd"):
        t.register_hook(lambda g, name=name: order.append("leaf " + name))
    build(minigrad, *leaves).backward()
    assert order == [s for s in minigrad_order(build) if s.startswith("leaf")]


def test_the_same_order_in_20_fresh_interpreters():
    """Nothing in the order may depend on memory addresses (the old id() tie-break differed between runs)."""
    script = textwrap.dedent("""
        import minigrad
        from minigrad.core import engine
        leaves = [minigrad.ones(2, requires_grad=True) for _ in range(6)]
        a, b, c, d, e, f = leaves
        junk = [minigrad.ones(i + 1) for i in range(%d)]      # moves later objects to other addresses
        out = minigrad.cat([a * b, c, d]).sum() + (e * f * a).sum()
        print([step.name if step.variable is None else [t is step.variable for t in leaves].index(True)
               for step in engine.backward_steps(out)])
    """)
    outputs = {subprocess.run([sys.executable, "-c", script % (k * 37 % 11)], capture_output=True, text=True,
                              check=True).stdout for k in range(20)}
    assert len(outputs) == 1, f"received {len(outputs)} different orders:\n" + "\n".join(sorted(outputs))


def test_sequence_nr_is_the_creation_order_and_accumulate_grad_is_last_as_in_torch():
    from torch_reference import TORCH_MISSING, import_torch
    torch = import_torch()
    if torch is None:
        pytest.skip(TORCH_MISSING)
    for lib in (torch, minigrad):
        x = lib.tensor(1.0, requires_grad=True)
        y = x * 2
        z = y * 3
        acc = y.grad_fn.next_functions[0][0]
        assert z.grad_fn._sequence_nr() > y.grad_fn._sequence_nr(), lib.__name__
        assert acc._sequence_nr() == 2 ** 64 - 1, lib.__name__
