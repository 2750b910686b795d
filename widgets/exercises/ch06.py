"""Checks for chapter 6: how backward runs — counting dependencies, a backward of your own, a topological order.

`check_my_backward` runs the learner's `my_backward` on minigrad and then, when real PyTorch is installed, once
more with every name that meant minigrad (`torch`, `autograd`) rebound to real PyTorch, as if the import at the
top of the chapter had been swapped (see `_rebound`).

Example (a book cell):
    >>> from widgets.exercises import ch06
    >>> ch06.check_count_dependencies(count_dependencies)
    ✗ not yet — count_dependencies returned None: it is still the stub.
"""
import os
import types

import minigrad

from ..i18n import N_, _
from . import Feedback, Hint, check, expect

ACCUMULATE = "torch::autograd::AccumulateGrad"


def _graphs(lib, shared_gradients=False):
    """Small graphs, each `(description, build)`; `build()` makes fresh leaves and returns (loss, leaves, counter).

    `counter` counts the calls of a custom Function's backward placed where two gradients must meet. With
    `shared_gradients`, two more where one gradient tensor reaches two buffers (what `my_backward` must not
    change in place).
    """
    class Twice(lib.autograd.Function):
        calls = []

        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad_output):
            Twice.calls.append(grad_output.detach().clone())
            return grad_output * 2

    def square():
        x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        return (x * x).sum(), [x], None

    def diamond():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([0.5, -1.0], requires_grad=True)
        Twice.calls = []
        h = Twice.apply(x * w)                  # used twice: its node must wait for both gradients
        return (h.exp() + h * 3).sum(), [x, w], Twice

    def constant_and_old_grad():
        x = lib.tensor([2.0, 3.0], requires_grad=True)
        x.grad = lib.tensor([10.0, 10.0])       # backward adds to what is there
        b = lib.tensor([1.0, 1.0])              # needs no gradient: a (None, 0) edge
        return ((x * b + x) * 3).sum(), [x], None

    def shared_gradient():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        v = lib.tensor([1.0, 2.0], requires_grad=True)
        s, t = x * w, x * v
        return ((s + t) + (s + t) * 2).sum(), [x, w, v], None

    def reused_leaf():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return (x + x * 3).sum(), [x], None

    def chain():
        a = lib.tensor(0.3, requires_grad=True)
        c = a * 2
        for _step in range(5):
            c = c * 2 if c.abs() < 5 else c + 1
        return c, [a], None

    return [("(x * x).sum()", square), ("h = Twice.apply(x * w); (h.exp() + h * 3).sum()", diamond),
            (_("((x * b + x) * 3).sum() with b not requiring grad and x.grad already [10, 10]"), constant_and_old_grad),
            (_("a chain of * 2 and + 1 written with a Python loop"), chain)] + ([
            # an Add node hands one gradient tensor to both its inputs: adding into it in place corrupts the other
            ("s = x * w; t = x * v; ((s + t) + (s + t) * 2).sum()", shared_gradient),
            ("(x + x * 3).sum()", reused_leaf)] if shared_gradients else [])


def _nodes(loss):
    """Every node behind `loss`, each once (a walk over next_functions)."""
    seen, stack = [], [loss.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or any(node is s for s in seen):
            continue
        seen.append(node)
        stack.extend(n for n, _ in node.next_functions)
    return seen


def _edges_into(node, nodes):
    return sum(1 for n in nodes for m, _ in n.next_functions if m is node)


def _values(t):
    return [round(v, 4) for v in t.reshape(-1).tolist()] if hasattr(t, "reshape") else repr(t)


@check(N_("count_dependencies counts edges, not nodes: x * x points at x's AccumulateGrad twice, the root gets 0."))
def check_count_dependencies(fn):
    """`fn(loss)` returns {node: how many next_functions entries point at it}, the root `loss.grad_fn` at 0."""
    for text, build in _graphs(minigrad):
        loss = build()[0]
        try:
            counts = fn(loss)
        except AttributeError as error:
            expect("NoneType" not in str(error),
                   _("for {text}, your code raised AttributeError: {error}. Skip the (None, 0) entries of "
                     "next_functions: they are not nodes.")
                   .format(text=text, error=error))
            raise
        expect(counts is not None and counts is not ...,
               _("count_dependencies returned None: it is still the stub."))
        expect(isinstance(counts, dict), _("count_dependencies returned {type}, expected a dict {{node: number of "
                                           "edges pointing at it}}.")
                                         .format(type=type(counts).__name__))
        expect(None not in counts, _("for {text}, the dict has a key None: skip the (None, 0) entries of "
                                     "next_functions (inputs that need no gradient), they are not nodes.")
                                   .format(text=text))
        nodes = _nodes(loss)
        expect(counts.get(loss.grad_fn) == 0,
               _("for {text}, counts[loss.grad_fn] is {count!r}: the root should be in the dict with 0 (no edge "
                 "points at it; it is ready from the start).")
               .format(text=text, count=counts.get(loss.grad_fn)))
        missing = [n.name() for n in nodes if n not in counts]
        expect(not missing, _("for {text}, these nodes are missing from the dict: {missing}. Follow next_functions "
                              "all the way down to the AccumulateGrad nodes of the leaves.")
                            .format(text=text, missing=missing))
        for node in nodes:
            want, got = _edges_into(node, nodes), counts[node]
            if got != want and want > 1 and got == 1:
                raise Hint(_("for {text}, counts[{node}] is 1, but {want} edges point at it: count every "
                             "next_functions entry that leads to a node, also when you have seen the node before "
                             "(then add 1, but do not walk below it again).")
                           .format(text=text, node=node.name(), want=want))
            expect(got == want, _("for {text}, counts[{node}] is {got!r}, expected {want} (the number of "
                                  "next_functions entries, over all nodes, that lead to it).")
                                .format(text=text, node=node.name(), got=got, want=want))
        expect(len(counts) == len(nodes), _("for {text}, the dict has {n_counts} entries but the graph has "
                                            "{n_nodes} nodes: only nodes reachable from loss.grad_fn belong.")
                                          .format(text=text, n_counts=len(counts), n_nodes=len(nodes)))


def _run_case(fn, lib, text, build):
    """Compare `fn(loss)` with `loss.backward()` on one graph; return nothing, raise Hint on a difference."""
    where = _("on minigrad") if lib is minigrad else _("on real PyTorch {version}").format(version=lib.__version__)
    reference_loss, reference_leaves, _counter = build()
    reference_loss.backward()
    want = [leaf.grad for leaf in reference_leaves]
    loss, leaves, counter = build()
    nodes = _nodes(loss)
    try:
        order = fn(loss)
    except Hint:
        raise
    except Exception as error:
        said = dict(where=where, text=text, type=type(error).__name__, error=error)
        expect(not (isinstance(error, (AttributeError, KeyError)) and "None" in str(error)),
               _("{where}, for {text}, your code raised {type}: {error}. An entry of next_functions is (None, 0) "
                 "where an input needs no gradient: skip it.").format(**said))
        # a KeyError whose key is a node (it prints as a memory address) most often comes from buffers.pop(node)
        # for a node run a second time: it went onto `ready` once per gradient sent to it, not once
        missing = error.args[0] if isinstance(error, KeyError) and error.args else None
        if any(missing is node for node in nodes):
            raise Hint(_("{where}, for {text}, your code raised KeyError for the node {node}: one of your dicts has "
                         "no entry for it. Usually that node ran twice, or before all its gradients had arrived: "
                         "lower its dependency count for every gradient sent to it, and append it to ready only when "
                         "the count reaches 0.").format(where=where, text=text, node=missing.name())) from None
        raise Hint(_("{where}, for {text}, your code raised {type}: {error}.").format(**said)) from None
    for leaf, w in zip(leaves, want):
        expect(leaf.grad is not None, _("{where}, for {text}, a leaf's .grad is still None: call the "
                                        "AccumulateGrad nodes too (call_node does it), with the gradient meant for "
                                        "them.")
                                      .format(where=where, text=text))
        if counter is not None and len(counter.calls) > 1:
            raise Hint(_("{where}, for {text}, TwiceBackward ran {times} times, each time with part of its "
                         "gradient. A node must wait until every consumer has sent its gradient: run it when its "
                         "dependency count reaches 0, with the sum of what arrived.")
                       .format(where=where, text=text, times=len(counter.calls)))
        expect(lib.allclose(leaf.grad, w), _("{where}, for {text}, a leaf's .grad is {leaf_grad}, but .backward() "
                                             "gives {w}. Add the gradients meant for the same node in its buffer "
                                             "as a new tensor, buffer + g (not buffer += g: a node such as Add "
                                             "hands the same gradient tensor to two buffers), and start from "
                                             "ones_like(loss).")
                                           .format(where=where, text=text, leaf_grad=_values(leaf.grad),
                                                   w=_values(w)))
        expect(not leaf.grad.requires_grad, _("{where}, for {text}, .grad requires grad: call the nodes under "
                                              "torch.no_grad() (as call_node does), so that nothing is recorded.")
                                            .format(where=where, text=text))
    expect(isinstance(order, list), _("my_backward returned {type}: return `order`, the list of nodes in the order "
                                      "you called them.")
                                    .format(type=type(order).__name__))
    expect(len(order) == len(nodes) and all(any(n is m for m in order) for n in nodes),
           _("{where}, for {text}, the order lists {n_order} calls for a graph of {n_nodes} nodes: call each node "
             "exactly once.")
           .format(where=where, text=text, n_order=len(order), n_nodes=len(nodes)))
    for i, node in enumerate(order):
        later = [m for m, _ in node.next_functions if m is not None and not any(m is o for o in order[i + 1:])]
        expect(not later, _("{where}, for {text}, {later} ran before {node}, which sends it a gradient: a node "
                            "runs only after all its consumers.")
                          .format(where=where, text=text, later=later[0].name() if later else '', node=node.name()))


def _rebound(fn, real):
    """`fn` with the names that mean minigrad in its module (torch, autograd, nn) meaning real PyTorch instead.

    The other functions defined next to it (the learner's `count_dependencies`, the chapter's `call_node`)
    are rebound the same way, so that the whole solution runs on PyTorch, as after swapping the import.
    """
    old = fn.__globals__
    new = dict(old)
    swap = {id(minigrad): real, id(minigrad.autograd): real.autograd, id(minigrad.nn): real.nn}
    for name, value in old.items():
        if id(value) in swap and isinstance(value, types.ModuleType):
            new[name] = swap[id(value)]
    for name, value in old.items():
        if isinstance(value, types.FunctionType) and value.__globals__ is old:
            new[name] = types.FunctionType(value.__code__, new, value.__name__, value.__defaults__,
                                           value.__closure__)
    return types.FunctionType(fn.__code__, new, fn.__name__, fn.__defaults__, fn.__closure__)


def _real_torch():
    if os.environ.get("MINIGRAD_BOOK_GRADING"):    # minigrad-book grade: its processes may not load C extensions
        return None
    try:
        import torch
    except ImportError:
        return None
    return torch


@check("my_backward")
def _check_my_backward(fn, real=None):
    helper = fn.__globals__.get("count_dependencies")
    if isinstance(helper, types.FunctionType):
        probe = minigrad.tensor(1.0, requires_grad=True) * 2
        expect(helper(probe) not in (None, ...),
               _("count_dependencies (exercise 1) still returns None: my_backward needs it, so do exercise 1 first."))
    for text, build in _graphs(minigrad, shared_gradients=True):
        _run_case(fn, minigrad, text, build)
    if real is not None:
        on_torch = _rebound(fn, real)
        for text, build in _graphs(real, shared_gradients=True):
            _run_case(on_torch, real, text, build)


def check_my_backward(fn):
    """`fn(loss)` runs backward by hand: .grad as `loss.backward()` gives it, each node once, consumers first.

    Checked on minigrad, then on real PyTorch when it is installed (the same code, its torch names rebound).
    """
    real = None if fn is None or fn is ... else _real_torch()
    feedback = _check_my_backward(fn, real=real)
    if not feedback:
        return feedback
    if real is None:
        return Feedback(True, _("my_backward gives the .grad that .backward() gives, calls each node once, after all "
                                "its consumers, on minigrad (real PyTorch is not installed here, so its half of the "
                                "check was skipped)."))
    return Feedback(True, _("my_backward gives the .grad that .backward() gives, calls each node once, after all its "
                            "consumers, on minigrad and, with the names torch and autograd rebound to real PyTorch "
                            "{version}, on PyTorch too.").format(version=real.__version__))


@check(N_("topological_order lists every node once, each before the nodes it sends gradients to: micrograd's order."))
def check_topological_order(fn):
    """`fn(loss)` returns every node behind `loss` once, each before all nodes its next_functions lead to."""
    for text, build in _graphs(minigrad):
        loss = build()[0]
        order = fn(loss)
        expect(order is not None and order is not ...,
               _("topological_order returned None: it is still the stub."))
        order = list(order)
        expect(all(n is not None for n in order),
               _("for {text}, the list contains None: skip the (None, 0) entries of next_functions.")
               .format(text=text))
        nodes = _nodes(loss)
        expect(len(order) == len(set(order)),
               _("for {text}, a node appears twice: remember the nodes you have visited (a set) and visit each "
                 "once.")
               .format(text=text))
        missing = [n.name() for n in nodes if n not in order]
        expect(not missing, _("for {text}, these nodes are missing: {missing}.")
                            .format(text=text, missing=missing))
        expect(len(order) == len(nodes), _("for {text}, the list has {n_order} entries for {n_nodes} nodes.")
                                         .format(text=text, n_order=len(order), n_nodes=len(nodes)))
        if order[-1] is loss.grad_fn:
            raise Hint(_("for {text}, loss.grad_fn comes last: that is the post-order (each node after the nodes "
                         "below it). Backward needs the reverse, as micrograd's reversed(topo): return order[::-1].")
                       .format(text=text))
        position = {node: i for i, node in enumerate(order)}
        for node in order:
            for next_node, _input_nr in node.next_functions:
                expect(next_node is None or position[next_node] > position[node],
                       _("for {text}, {next_node} comes before {node}, which sends it a gradient: every node must "
                         "come before the nodes its next_functions lead to.")
                       .format(text=text, next_node=next_node.name() if next_node else '', node=node.name()))
