"""Graphs and a small DOT reader shared by the widget tests.

Every builder makes a *fresh* graph each call, so a test can run the stepper on one copy and the engine (or
`.backward()`) on an identical other copy, and compare.
"""
import html
import re
import shutil

import numpy as np
import pytest

import minigrad
from minigrad.autograd import Function, backward_steps

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed (make dot)")

_NODE = re.compile(r"^\t(\w+) \[label=<(.*)>(?: ([^<>]*))?\]$")
_EDGE = re.compile(r"^\t(\w+) -> (\w+)(?: \[(.*)\])?$")


def parse_dot(source):
    """Read our DOT output: ({name: (title, label, attrs)}, [(tail, head, attrs)]).

    The title is the bold first line of a label, unescaped, e.g. 'MulBackward0' or 'x'.
    """
    nodes, edges = {}, []
    for line in source.splitlines():
        m = _NODE.match(line)
        if m:
            bold = re.search(r"<B>(.*?)</B>", m.group(2))
            nodes[m.group(1)] = (html.unescape(bold.group(1)) if bold else "", m.group(2), m.group(3) or "")
            continue
        m = _EDGE.match(line)
        if m:
            edges.append((m.group(1), m.group(2), m.group(3) or ""))
    return nodes, edges


def titled_edges(source, saved=False):
    """Edges as sorted (tail title, head title) pairs; data-flow edges only unless `saved`."""
    nodes, edges = parse_dot(source)
    pairs = [(nodes[a][0], nodes[b][0]) for a, b, attrs in edges
             if a in nodes and b in nodes and ("saved" in attrs) == saved]
    return sorted(pairs)


def titles(source):
    """The titles of all nodes, sorted."""
    return sorted(t for t, _, _ in parse_dot(source)[0].values())


def leaf(values, grad=True):
    return minigrad.tensor(values, requires_grad=grad)


# ---- graphs ------------------------------------------------------------------------------------------------
def diamond():
    """x feeds two branches that meet again: y = (3x) * exp(x)."""
    x = leaf(2.0)
    y = (x * 3.0) * x.exp()
    return y, {"x": x}


def reused():
    """One tensor used twice by the same op: y = sum(x * x)."""
    x = leaf([1.0, -2.0, 3.0])
    return (x * x).sum(), {"x": x}


class MulConstant(Function):
    """z = x * c (c a Python number); dz/dx = c. The separate setup_context style."""

    @staticmethod
    def forward(x, constant):
        return x * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, constant = inputs
        ctx.constant = constant
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


def custom():
    """A custom Function with setup_context, then a built-in op: y = sum(MulConstant(x, 2.5) * w)."""
    x, w = leaf([1.0, 2.0]), leaf([3.0, -1.0])
    return (MulConstant.apply(x, 2.5) * w).sum(), {"x": x, "w": w}


class TwoOutputs(Function):
    """(2x, 3x) from one x; backward must cope with None for an unused output (materialize_grads off)."""

    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2.0, x * 3.0

    @staticmethod
    def backward(ctx, grad_double, grad_triple):
        grad = None
        for g, k in ((grad_double, 2.0), (grad_triple, 3.0)):
            if g is not None:
                grad = g * k if grad is None else grad + g * k
        return grad


def two_outputs():
    """Only the second output of TwoOutputs is used: its first gradient arrives as None."""
    x = leaf([1.0, -1.0])
    _, triple = TwoOutputs.apply(x)
    return (triple * triple).sum(), {"x": x}


class Loud(Function):
    """Identity whose backward prints, to check that the stepper captures what backward printed."""

    @staticmethod
    def forward(x):
        return x * 1.0

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad_output):
        print("Loud.backward got", grad_output.tolist())
        return grad_output


def loud():
    x = leaf([1.0, 2.0])
    return Loud.apply(x * 2.0).sum(), {"x": x}


def mlp():
    """A small two-layer net on fixed numbers: leaves W1, b1, W2, a diamond through h, and a reused leaf."""
    w1 = leaf([[0.5, -1.0], [1.5, 0.25], [-0.5, 2.0]])
    b1 = leaf([0.1, -0.2, 0.3])
    w2 = leaf([1.0, -2.0, 0.5])
    x = minigrad.tensor([1.0, 2.0])
    h = (w1.matmul(x) + b1).relu()
    y = (w2 * h).sum() + (h * h).sum() * 0.1 + (w2 * w2).sum()
    return y, {"W1": w1, "b1": b1, "W2": w2}


def chain(n, start=1.0):
    """x multiplied n times: n MulBackward0 nodes and one AccumulateGrad."""
    x = leaf(start)
    y = x
    for _ in range(n):
        y = y * 1.0001
    return y, {"x": x}


def two_layer_net():
    """fc2(relu(fc1(x))) summed, on seeded weights: (net, loss). minigrad.nn is imported only here."""
    from minigrad import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1, self.fc2 = nn.Linear(2, 3), nn.Linear(3, 1)

        def forward(self, x):
            return self.fc2(self.fc1(x).relu())
    minigrad.manual_seed(0)
    net = Net()
    return net, net(minigrad.ones(4, 2)).sum()


GRAPHS = {"diamond": diamond, "reused": reused, "custom": custom, "two_outputs": two_outputs, "loud": loud,
          "mlp": mlp}


def arrays(tensors):
    """Tensors (or None) as numpy arrays (or None), for comparisons."""
    return [None if t is None else np.array(t.data.numpy()) for t in tensors]


def same_arrays(a, b):
    a, b = arrays(a), arrays(b)
    return len(a) == len(b) and all(
        (x is None and y is None) or (x is not None and y is not None and np.array_equal(x, y)) for x, y in zip(a, b))


def direct(make, n=None, **kwargs):
    """Run the engine itself on a fresh copy of the graph: all steps, or the first n."""
    y, leaves = make()
    records = []
    for record in backward_steps(y, **kwargs):
        records.append(record)
        if n is not None and len(records) == n:
            break
    return records, leaves


def grads(leaves):
    return {name: None if t.grad is None else t.grad.tolist() for name, t in leaves.items()}
