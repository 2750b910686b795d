"""Hidden cases for chapter 6: a leaf used four times, a node with four consumers, a skip connection whose short
edge comes first in next_functions, a root that is not a scalar, 2-D float64 tensors and a .grad already filled.
"""
import minigrad as torch

from widgets.exercises import check, expect
from widgets.exercises.ch06 import _edges_into, _nodes   # the visible checks' graph walk


def _graphs():
    """(description, build); `build()` makes fresh leaves and returns (loss, leaves)."""
    def leaf(data):
        return torch.tensor(data, dtype=torch.float64, requires_grad=True)

    def four_uses():
        x = leaf([[1.0, -2.0], [0.5, 3.0]])
        x.grad = torch.ones(2, 2, dtype=torch.float64)    # backward adds to what is there
        return (x * x * x + x).sum(), [x]

    def fan_out():
        x, w = leaf([0.5, -1.0, 2.0]), leaf([1.5, 0.25, -0.5])
        h = x * w                                         # four edges lead to h's node
        return (h.exp() + h.sin() + h * h).sum(), [x, w]

    def skip_first():
        x = leaf([2.0, -3.0])
        return (x + ((x * 2).tanh() * 3) * 4).sum(), [x]  # the add's first edge goes straight to x

    def vector_root():
        x, w = leaf([1.0, 2.0, -1.0]), leaf([3.0, -0.5, 4.0])
        return x * w + w, [x, w]                          # not a scalar: backward starts from ones_like

    return [("x * x * x + x on a 2-D x with x.grad already set", four_uses),
            ("h = x * w; h.exp() + h.sin() + h * h", fan_out),
            ("x + ((x * 2).tanh() * 3) * 4, the skip edge first", skip_first),
            ("x * w + w, a root that is not a scalar", vector_root)]


@check("count_dependencies also counts four edges into one node, a skip connection and a non-scalar root.")
def check_count_dependencies(fn):
    for text, build in _graphs():
        loss = build()[0]
        counts = fn(loss)
        expect(isinstance(counts, dict), f"for {text}, count_dependencies returned {type(counts).__name__}.")
        nodes = _nodes(loss)
        expect(len(counts) == len(nodes) and all(n in counts for n in nodes),
               f"for {text}, the dict does not hold exactly the {len(nodes)} nodes behind loss.")
        wrong = [n.name() for n in nodes if counts[n] != _edges_into(n, nodes)]
        expect(not wrong, f"for {text}, the count of {wrong[0] if wrong else ''} is not the number of "
                          "next_functions entries that lead to it.")


@check("my_backward also gives .backward()'s gradients with four edges into a node, a skip edge, a non-scalar root.")
def check_my_backward(fn):
    for text, build in _graphs():
        reference, reference_leaves = build()
        reference.backward(torch.ones_like(reference))
        loss, leaves = build()
        nodes = _nodes(loss)
        order = fn(loss)
        for leaf, want in zip(leaves, reference_leaves):
            expect(leaf.grad is not None and torch.allclose(leaf.grad, want.grad),
                   f"for {text}, a leaf's .grad is not what .backward() gives.")
        expect(isinstance(order, list) and len(order) == len(nodes)
               and all(any(n is m for m in order) for n in nodes),
               f"for {text}, my_backward did not call each of the {len(nodes)} nodes exactly once.")
        for i, node in enumerate(order):
            early = [m for m, _ in node.next_functions if m is not None and not any(m is o for o in order[i + 1:])]
            expect(not early, f"for {text}, {early[0].name() if early else ''} ran before {node.name()}, which "
                              "sends it a gradient.")


@check("topological_order also puts every node before the nodes it feeds when a short edge comes first.")
def check_topological_order(fn):
    for text, build in _graphs():
        loss = build()[0]
        order = list(fn(loss))
        nodes = _nodes(loss)
        expect(len(order) == len(nodes) and all(any(n is m for m in order) for n in nodes),
               f"for {text}, the list does not hold each of the {len(nodes)} nodes exactly once.")
        position = {node: i for i, node in enumerate(order)}
        for node in order:
            expect(all(m is None or position[m] > position[node] for m, _ in node.next_functions),
                   f"for {text}, a node comes before {node.name()}, which sends it a gradient: a node is listed "
                   "only once everything that feeds it gradients is listed (a breadth-first walk is not enough).")
