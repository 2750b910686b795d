"""`torch.utils.checkpoint` on both libraries: both modes give the same values, gradients and graph as torch,
recompute with the forward's random state, and refuse what torch refuses with its words."""
import importlib

import pytest


def checkpoint_module(lib):
    return importlib.import_module(lib.__name__ + ".utils.checkpoint")


def f(t):
    return (t.sin() * 2).exp()


@pytest.mark.parametrize("reentrant", [True, False])
def test_values_gradients_and_graph(parity, reentrant):
    def example(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = checkpoint_module(lib).checkpoint(f, x, use_reentrant=reentrant)
        graph = y.grad_fn.name(), [n.name() for n, _ in y.grad_fn.next_functions]
        y.sum().backward()
        return y, graph, x.grad
    parity(example)


@pytest.mark.parametrize("reentrant", [True, False])
@pytest.mark.parametrize("preserve", [True, False])
def test_dropout_is_recomputed_with_the_forward_random_state(parity, reentrant, preserve):
    def example(lib):
        lib.manual_seed(0)
        x = lib.ones(8, requires_grad=True)
        y = checkpoint_module(lib).checkpoint(
            lambda t: lib.nn.functional.dropout(t, 0.5, training=True) * t, x, use_reentrant=reentrant,
            preserve_rng_state=preserve)
        y.sum().backward()
        return y, x.grad, lib.rand(2)           # the generator after backward: fork_rng put it back
    parity(example, rtol=0, atol=0)


def test_reentrant_refuses_autograd_grad(parity):
    def example(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.grad(checkpoint_module(lib).checkpoint(f, x, use_reentrant=True).sum(), x)
    parity(example)


def test_reentrant_refuses_backward_with_inputs(parity):
    def example(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        checkpoint_module(lib).checkpoint(f, x, use_reentrant=True).sum().backward(inputs=[x])
    parity(example)


def test_non_reentrant_with_autograd_grad_retain_graph_and_keywords(parity):
    def example(lib):
        cp = checkpoint_module(lib)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        first = lib.autograd.grad(cp.checkpoint(f, x, use_reentrant=False).sum(), x)
        y = cp.checkpoint(f, x, use_reentrant=False)
        y.sum().backward(retain_graph=True)
        y.sum().backward()                      # each pass recomputes
        twice = x.grad.clone()
        x.grad = None
        cp.checkpoint(lambda a, scale=1.0: a.exp() * scale, x, use_reentrant=False, scale=3.0).sum().backward()
        return first, twice, x.grad
    parity(example)


def test_warnings_and_argument_errors(parity):
    def example(lib):
        cp = checkpoint_module(lib)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = cp.checkpoint(f, lib.tensor([1.0]), use_reentrant=True)     # no input requires grad: warns
        cp.checkpoint(f, x)                                             # use_reentrant not passed: warns
        cp.checkpoint_sequential([lib.nn.Tanh()], 1, x)
        errors = []
        for call in (lambda: cp.checkpoint(f, x, use_reentrant=True, foo=1),
                     lambda: cp.checkpoint(f, x, use_reentrant=True, debug=True)):
            try:
                call()
            except ValueError as e:
                errors.append(str(e))
        return y.requires_grad, errors
    parity(example)


def test_checkpoint_sequential(parity):
    def example(lib):
        lib.manual_seed(0)
        nn = lib.nn
        net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 1))
        x = lib.randn(5, 3, requires_grad=True)
        out = checkpoint_module(lib).checkpoint_sequential(net, 2, x, use_reentrant=False)
        out.sum().backward()
        return out, net[0].weight.grad, x.grad
    parity(example)


def test_a_recomputation_that_saves_less(parity):
    def example(lib):
        calls = []

        def fn(t):
            calls.append(1)
            return t.exp().exp() if len(calls) == 1 else t.exp()
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        checkpoint_module(lib).checkpoint(fn, x, use_reentrant=False).sum().backward()
    parity(example)


def test_a_recomputation_with_other_shapes(parity):
    def example(lib):
        calls = []

        def fn(t):
            calls.append(1)
            return t.exp().sum() if len(calls) == 1 else t[:1].exp().sum()
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        checkpoint_module(lib).checkpoint(fn, x, use_reentrant=False).backward()
    parity(example)


def test_a_recomputation_that_saves_more_stops_early(parity):
    def example(lib):
        calls = []

        def fn(t):
            calls.append(1)
            return t.exp() if len(calls) == 1 else t.exp().exp()
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        checkpoint_module(lib).checkpoint(fn, x, use_reentrant=False).sum().backward()
        return x.grad
    parity(example)


def _blocks(lib, log):
    """Three Linear+Tanh blocks that log their forward pre-hooks ("pre") and forward hooks ("post")."""
    lib.manual_seed(0)
    blocks = [lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.Tanh()) for _ in range(3)]
    for i, block in enumerate(blocks):
        block.register_forward_pre_hook(lambda m, args, i=i: log.append(("pre", i)))
        block.register_forward_hook(lambda m, args, out, i=i: log.append(("post", i)))
    return blocks


@pytest.mark.parametrize("early_stop", [True, False, "context", "context wins"])
def test_non_reentrant_recomputation_stops_once_every_saved_tensor_is_back(parity, early_stop):
    """With early stop (the default), the recomputation ends at the op that saves the last tensor: the block's
    forward hook does not run again; without it, the whole block does."""
    def example(lib):
        cp, log = checkpoint_module(lib), []
        blocks = _blocks(lib, log)
        x = lib.ones(2, 3, requires_grad=True)
        out = x
        for block in blocks:
            if early_stop == "context":
                with cp.set_checkpoint_early_stop(False):
                    out = cp.checkpoint(block, out, use_reentrant=False)
            elif early_stop == "context wins":         # over the argument
                with cp.set_checkpoint_early_stop(True):
                    out = cp.checkpoint(block, out, use_reentrant=False, early_stop=False)
            else:
                out = cp.checkpoint(block, out, use_reentrant=False, early_stop=early_stop)
        forward = list(log)
        log.clear()
        out.sum().backward()
        return forward, log, x.grad
    parity(example)


def test_a_recomputation_that_saves_more_is_an_error_without_early_stop(parity):
    def example(lib):
        cp, calls = checkpoint_module(lib), []

        def fn(t):
            calls.append(1)
            return t.exp() if len(calls) == 1 else t.exp().sin()     # the recomputation saves one tensor more
        x = lib.ones(2, requires_grad=True)
        cp.checkpoint(fn, x, use_reentrant=False, early_stop=False).sum().backward()
    parity(example)
