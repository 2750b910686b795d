"""Calling a graph node directly, `y.grad_fn(grad)`, as chapter 6's `my_backward` does: the wrong number of
gradients is torch's TypeError, and a leaf's AccumulateGrad broadcasts a gradient of another shape to the leaf's
or raises torch's error (before, minigrad set `v.grad` to whatever arrived: a silent wrong answer)."""
import pytest


def _unbind_node(lib):
    v = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    p, q, r = v.unbind()
    (p * q + r).sum()
    return v, p.grad_fn


def _accumulator(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    return a, (a * 2).grad_fn.next_functions[0][0]


CASES = {
    # UnbindBackward0 has three outputs, so it takes three gradients
    "unbind_node_given_one_gradient": lambda lib: _unbind_node(lib)[1](lib.tensor(1.0)),
    "unbind_node_given_three": lambda lib: [g.tolist() for g in _unbind_node(lib)[1](
        lib.tensor(1.0), None, lib.tensor(2.0)) if g is not None],
    "pow_node_given_two": lambda lib: ((lambda x: (x ** 2).grad_fn)(lib.tensor(2.0, requires_grad=True)))(
        lib.tensor(1.0), lib.tensor(1.0)),
    "accumulate_grad_given_none": lambda lib: _accumulator(lib)[1](),
}


@pytest.mark.parametrize("name", CASES)
def test_node_call(parity, name):
    parity(CASES[name])


@pytest.mark.parametrize("grad", [[5.0], [[1.0, 1.0]] * 3, [1.0, 1.0, 1.0]], ids=["broadcast", "larger", "mismatch"])
@pytest.mark.parametrize("had_grad", [False, True])
def test_accumulate_grad_given_another_shape(parity, grad, had_grad):
    def example(lib):
        a, acc = _accumulator(lib)
        if had_grad:
            a.grad = lib.zeros(2)
        acc(lib.tensor(grad))
        return a.grad.tolist()
    parity(example)
