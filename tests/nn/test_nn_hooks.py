"""Parity with real PyTorch for module hooks: forward (pre-)hooks, full backward (pre-)hooks, the old-style
backward hook, global hooks and RemovableHandles. Each example logs what every hook saw (module names, argument
shapes, gradient values) and returns the log; `parity` (conftest.py) compares it, the printed text, the warnings
and any error with torch's."""
import numpy as np

from nn_examples import deterministic


def _t(lib, values, requires_grad=False):
    return lib.tensor(np.array(values, dtype=np.float32), requires_grad=requires_grad)


def _grads(grads):
    """A tuple of gradients (or None) as plain data."""
    return tuple(None if g is None else g.detach().tolist() for g in grads)


def _linear(lib, n_in=3, n_out=2):
    return deterministic(lib.nn.Linear(n_in, n_out), lib)


def test_forward_hooks_run_in_order_and_see_args_and_output(parity):
    def example(lib):
        log = []
        m = _linear(lib)
        m.register_forward_pre_hook(lambda mod, args: log.append(("pre", type(mod).__name__, len(args))))
        m.register_forward_pre_hook(lambda mod, args: log.append(("pre_first",)), prepend=True)
        m.register_forward_hook(lambda mod, args, out: log.append(("fwd", tuple(args[0].shape), tuple(out.shape))))
        m.register_forward_hook(lambda mod, args, out: log.append(("fwd_first",)), prepend=True)
        m.register_forward_hook(lambda mod, args, kwargs, out: log.append(("kw", sorted(kwargs))), with_kwargs=True)
        y = m(_t(lib, [[1.0, 2.0, 3.0]]))
        return log, y
    parity(example)


def test_forward_pre_hook_replaces_args_and_forward_hook_replaces_output(parity):
    def example(lib):
        m = _linear(lib)
        m.register_forward_pre_hook(lambda mod, args: args[0] * 2)              # not a tuple: wrapped in one
        m.register_forward_pre_hook(lambda mod, args: (args[0] + 1,))
        m.register_forward_hook(lambda mod, args, out: out * 10)
        m.register_forward_hook(lambda mod, args, out: None)                     # None keeps the output
        return m(_t(lib, [[1.0, 0.0, -1.0]]))
    parity(example)


def test_forward_pre_hook_with_kwargs_replaces_both(parity):
    def example(lib):
        nn = lib.nn

        class Scale(nn.Module):
            def forward(self, x, factor=1.0):
                return x * factor

        m = Scale()
        m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": kwargs["factor"] * 3}),
                                    with_kwargs=True)
        out = m(_t(lib, [1.0, 2.0]), factor=2.0)
        m.register_forward_pre_hook(lambda mod, args, kwargs: args, with_kwargs=True)
        try:
            m(_t(lib, [1.0]), factor=1.0)
        except RuntimeError as e:
            return out, str(e)[:60]
    parity(example)


def test_handles_remove_hooks_and_work_as_context_managers(parity):
    def example(lib):
        log = []
        m = _linear(lib)
        h1 = m.register_forward_hook(lambda *a: log.append("h1"))
        h2 = m.register_forward_pre_hook(lambda *a: log.append("h2"), with_kwargs=True)
        x = _t(lib, [[1.0, 2.0, 3.0]])
        m(x)
        h1.remove()
        h1.remove()                                          # removing twice is fine
        m(x)
        with h2:
            pass
        m(x)
        with m.register_forward_hook(lambda *a: log.append("ctx")):
            m(x)
        m(x)
        return log, h2.id > h1.id, len(m._forward_hooks), len(m._forward_pre_hooks_with_kwargs)
    assert parity(example)[0] == ["h2", "h1", "h2", "ctx"]


def test_always_call_forward_hook_runs_when_forward_raises(parity):
    def example(lib):
        nn = lib.nn
        log = []

        class Broken(nn.Module):
            def forward(self, x):
                raise ValueError("broken forward")

        m = Broken()
        m.register_forward_hook(lambda mod, args, out: log.append(("always", out)), always_call=True)
        m.register_forward_hook(lambda mod, args, out: log.append("not called"))
        m.register_forward_hook(lambda mod, args, out: 1 / 0, always_call=True)   # silenced, with a warning
        try:
            m(_t(lib, [1.0]))
        except ValueError as e:
            log.append(str(e))
        return log
    assert parity(example) == [("always", None), "broken forward"]


def test_full_backward_hook_sees_grad_input_and_grad_output(parity):
    def example(lib):
        log = []
        m = _linear(lib)
        m.register_full_backward_pre_hook(lambda mod, g_out: log.append(("pre", _grads(g_out))))
        m.register_full_backward_hook(lambda mod, g_in, g_out: log.append(("hook", _grads(g_in), _grads(g_out))))
        x = _t(lib, [[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)
        y = m(x)
        (y * _t(lib, [[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        return log, x.grad, m.weight.grad, y.grad_fn.name()
    parity(example)


def test_full_backward_hooks_can_replace_gradients(parity):
    def example(lib):
        log = []
        m = _linear(lib)
        m.register_full_backward_pre_hook(lambda mod, g_out: (g_out[0] * 2,))
        m.register_full_backward_hook(lambda mod, g_in, g_out: (g_in[0] + 1,))
        m.register_full_backward_hook(lambda mod, g_in, g_out: log.append(("first", _grads(g_in))), prepend=True)
        x = _t(lib, [[1.0, 2.0, 3.0]], requires_grad=True)
        m(x).sum().backward()
        return log, x.grad, m.weight.grad, m.bias.grad
    parity(example)


def test_full_backward_hook_with_several_inputs_and_outputs(parity):
    def example(lib):
        nn = lib.nn
        log = []

        class Two(nn.Module):
            def forward(self, a, scale, b):
                return a * b * scale, a - b

        m = Two()
        m.register_full_backward_hook(lambda mod, g_in, g_out: log.append((_grads(g_in), _grads(g_out))))
        a = _t(lib, [1.0, 2.0], requires_grad=True)
        b = _t(lib, [3.0, -1.0])                           # needs no gradient: None in grad_input
        p, q = m(a, 2.0, b)                                 # 2.0 is not a tensor: None in grad_input too
        (p.sum() + (q * q).sum()).backward()
        return log, a.grad
    parity(example)


def test_full_backward_hook_when_no_input_requires_grad_warns(parity):
    def example(lib):
        log = []
        m = _linear(lib)
        m.register_full_backward_hook(lambda mod, g_in, g_out: log.append((_grads(g_in), _grads(g_out))))
        m(_t(lib, [[1.0, 2.0, 3.0]])).sum().backward()
        return log, m.bias.grad
    parity(example)


def test_backward_hooks_in_a_sequential_run_last_module_first(parity):
    def example(lib):
        nn = lib.nn
        log = []
        net = deterministic(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)), lib)
        for name, mod in net.named_modules():
            label = name or "net"
            mod.register_forward_pre_hook(lambda m, a, label=label: log.append(("pre", label)))
            mod.register_forward_hook(lambda m, a, o, label=label: log.append(("fwd", label)))
            mod.register_full_backward_pre_hook(lambda m, g, label=label: log.append(("bwd_pre", label)))
            mod.register_full_backward_hook(lambda m, gi, go, label=label: log.append(("bwd", label, _grads(gi))))
        x = _t(lib, [[1.0, -1.0, 0.5]], requires_grad=True)
        net(x).sum().backward()
        return log, x.grad
    parity(example)


def test_full_and_old_backward_hooks_do_not_mix(parity):
    def example(lib):
        m = _linear(lib)
        m.register_full_backward_hook(lambda *a: None)
        m.register_backward_hook(lambda *a: None)
    parity(example)


def test_old_style_backward_hook_sees_the_last_node(parity):
    """(A module whose forward is one node fed by its input's node: torch's FutureWarning for a forward of several
    nodes, which minigrad leaves out, does not fire.)"""
    def example(lib):
        log = []
        m = lib.nn.Tanh()
        m.register_backward_hook(lambda mod, g_in, g_out: log.append((type(mod).__name__, _grads(g_in),
                                                                     _grads(g_out))))
        x = _t(lib, [[1.0, 2.0, 3.0]], requires_grad=True)
        h = x * 2
        m(h).sum().backward()
        m(h.sum())
        return log, x.grad
    parity(example)


def test_old_style_backward_hook_warns_for_a_tuple_output(parity):
    def example(lib):
        nn = lib.nn

        class Pair(nn.Module):
            def forward(self, x):
                return x * 2, [x * 3]

        m = Pair()
        log = []
        m.register_backward_hook(lambda mod, g_in, g_out: log.append(_grads(g_out)))
        out, _ = m(_t(lib, [1.0], requires_grad=True))
        out.sum().backward()
        return log
    parity(example)


def test_backward_pre_hook_with_wrong_length_is_an_error(parity):
    def example(lib):
        m = _linear(lib)
        m.register_full_backward_pre_hook(lambda mod, g_out: (g_out[0], g_out[0]))
        m(_t(lib, [[1.0, 2.0, 3.0]], requires_grad=True)).sum().backward()
    parity(example)


def test_global_hooks_run_before_the_modules_own(parity):
    def example(lib):
        hooks = lib.nn.modules.module
        log = []
        m = _linear(lib)
        m.register_forward_hook(lambda mod, a, o: log.append("own fwd"))
        handles = [
            hooks.register_module_forward_pre_hook(lambda mod, a: log.append("global pre")),
            hooks.register_module_forward_hook(lambda mod, a, o: log.append("global fwd")),
            hooks.register_module_full_backward_pre_hook(lambda mod, g: log.append("global bwd_pre")),
            hooks.register_module_full_backward_hook(lambda mod, gi, go: log.append(("global bwd", _grads(gi)))),
        ]
        try:
            m(_t(lib, [[1.0, 2.0, 3.0]], requires_grad=True)).sum().backward()
        finally:
            for h in handles:
                h.remove()
        m(_t(lib, [[1.0, 2.0, 3.0]]))
        return log
    assert parity(example)[:3] == ["global pre", "global fwd", "own fwd"]


def test_hook_that_records_activations(parity):
    """The common tutorial use: collect every layer's output with forward hooks, then remove them."""
    def example(lib):
        nn = lib.nn
        net = deterministic(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)), lib)
        activations = {}
        handles = [layer.register_forward_hook(
            lambda m, inp, out, name=name: activations.__setitem__(name, out.detach()))
            for name, layer in net.named_children()]
        net(_t(lib, [[0.5, -1.0]]))
        for h in handles:
            h.remove()
        return activations, len(net[0]._forward_hooks)
    parity(example)


def test_full_backward_hook_with_create_graph_and_double_backward(parity):
    def example(lib):
        log = []
        m = lib.nn.Tanh()
        m.register_full_backward_hook(lambda mod, g_in, g_out: log.append((_grads(g_in), _grads(g_out))))
        x = _t(lib, [0.5, -1.0], requires_grad=True)
        (g,) = lib.autograd.grad(m(x).sum(), x, create_graph=True)
        g.sum().backward()                  # reaches the hooked inputs without passing the outputs: no call
        return log, g, x.grad
    parity(example)


def test_module_without_init_call_fails_like_torch(parity):
    def example(lib):
        class NoInit(lib.nn.Module):
            def __init__(self):
                pass

            def forward(self, x):
                return x

        NoInit()(1)
    parity(example)
