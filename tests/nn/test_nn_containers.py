"""Parity with real PyTorch for ModuleDict, ParameterList, ParameterDict, Unflatten/Flatten/Identity, the new
activation and loss layers (their reprs and buffers), and the Module helpers get_submodule, get_parameter,
get_buffer, to, half, requires_grad_ and zero_grad. Each example returns plain data; `parity` compares."""
import numpy as np
import pytest

from nn_examples import deterministic


def _t(lib, values, requires_grad=False):
    return lib.tensor(np.array(values, dtype=np.float32), requires_grad=requires_grad)


# ---- ModuleDict -----------------------------------------------------------------------------------------
def test_module_dict_behaves_as_a_dict_of_registered_modules(parity):
    def example(lib):
        nn = lib.nn
        d = nn.ModuleDict({"b": nn.Linear(2, 3), "a": nn.ReLU()})      # a plain dict keeps its order
        d["c"] = nn.Tanh()
        d.update([("d", nn.Sigmoid()), ("a", nn.Identity())])             # pairs; "a" keeps its place
        d.update(nn.ModuleDict({"e": nn.Linear(3, 1)}))
        popped = d.pop("c")
        del d["d"]
        return (list(d.keys()), [type(m).__name__ for m in d.values()], [k for k, _ in d.items()], list(d), len(d),
                "a" in d, "c" in d, type(popped).__name__, [n for n, _ in d.named_parameters()], repr(d),
                repr(nn.ModuleDict()))
    parity(example)


def test_module_dict_clear_and_errors(parity):
    def example(lib):
        nn = lib.nn
        d = nn.ModuleDict({"x": nn.ReLU()})
        d.clear()
        out = [len(d)]
        for bad in (lambda: d["missing"], lambda: d.update(3), lambda: d.update([("a", nn.ReLU(), 1)]),
                    lambda: d.update([3]), lambda: d.__setitem__("x", 3), lambda: d.__setitem__("a.b", nn.ReLU())):
            try:
                bad()
            except (KeyError, TypeError, ValueError) as e:
                out.append((type(e).__name__, str(e)))
        return out
    parity(example)


# ---- ParameterList ---------------------------------------------------------------------------------------
def test_parameter_list_registers_and_indexes(parity):
    def example(lib):
        nn = lib.nn
        pl = nn.ParameterList([nn.Parameter(lib.zeros(2, 3)), lib.ones(4)])  # a plain tensor becomes a Parameter
        pl.append(nn.Parameter(lib.ones(1, dtype=lib.float64)))
        pl.extend([lib.zeros(2)])
        pl += [nn.Parameter(lib.ones(3))]
        pl[0] = lib.full((2, 3), 2.0)
        sliced = pl[1:4:2]
        return (len(pl), [type(p).__name__ for p in pl], pl[-1], pl[0], [n for n, _ in pl.named_parameters()],
                type(sliced).__name__, len(sliced), sliced[1] is pl[3], repr(pl), repr(nn.ParameterList()),
                list(pl.state_dict()))
    parity(example)


def test_parameter_list_errors(parity):
    def example(lib):
        nn = lib.nn
        pl = nn.ParameterList([lib.ones(2)])
        out = []
        for bad in (lambda: pl[1], lambda: pl[-2], lambda: pl.extend(lib.ones(2)), lambda: pl.extend(3),
                    lambda: pl(lib.ones(2)), lambda: pl["a"]):
            try:
                bad()
            except (IndexError, TypeError, RuntimeError) as e:
                out.append((type(e).__name__, str(e)))
        return out
    parity(example)


def test_parameter_list_in_a_model_trains(parity):
    def example(lib):
        nn = lib.nn

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.ws = nn.ParameterList([nn.Parameter(lib.full((2,), float(i + 1))) for i in range(3)])

            def forward(self, x):
                for w in self.ws:
                    x = x * w
                return x.sum()

        m = Model()
        m(_t(lib, [1.0, 2.0])).backward()
        return [w.grad for w in m.ws], len(list(m.parameters())), repr(m)
    parity(example)


# ---- ParameterDict ---------------------------------------------------------------------------------------
def test_parameter_dict_behaves_as_a_dict_of_parameters(parity):
    def example(lib):
        nn = lib.nn
        pd = nn.ParameterDict({"b": nn.Parameter(lib.ones(2)), "a": lib.zeros(3)})   # a plain dict: sorted keys
        pd["c"] = nn.Parameter(lib.ones(2, 2))
        pd.update([("z", lib.ones(1)), ("d", lib.ones(1))])
        pd.setdefault("e", lib.zeros(1))
        popped = pd.pop("z")
        last = pd.popitem()
        copy = pd.copy()
        merged = pd | nn.ParameterDict({"q": lib.ones(1)})
        return (list(pd.keys()), list(pd), list(reversed(pd)), [k for k, _ in pd.items()], len(pd), "a" in pd,
                "z" in pd, popped, last[0], pd.get("a"), pd.get("nope", 7), list(copy), copy["a"] is pd["a"],
                list(merged), [n for n, _ in pd.named_parameters()], repr(pd), repr(nn.ParameterDict()),
                list(pd.fromkeys(["x", "y"], lib.ones(1))))
    parity(example)


def test_parameter_dict_errors_and_clear(parity):
    def example(lib):
        nn = lib.nn
        pd = nn.ParameterDict({"a": lib.ones(1)})
        out = []
        for bad in (lambda: pd[1], lambda: pd["missing"], lambda: pd.update(1), lambda: pd.update([("a",)]),
                    lambda: pd(lib.ones(1))):
            try:
                bad()
            except (KeyError, TypeError, ValueError, AttributeError, RuntimeError) as e:
                out.append((type(e).__name__, str(e)))
        pd.clear()
        pd |= {"k": lib.ones(1)}
        return out, list(pd), repr(pd)
    parity(example)


# ---- shape layers, activation and loss layers --------------------------------------------------------------
def test_flatten_unflatten_identity(parity):
    def example(lib):
        nn = lib.nn
        x = lib.arange(24.0).reshape(2, 3, 4)
        net = nn.Sequential(nn.Flatten(), nn.Unflatten(1, (4, 3)), nn.Identity(54, unused=True),
                            nn.Flatten(0, 1), nn.Unflatten(0, lib.Size([2, 4])))
        return net(x), repr(net), nn.Flatten(start_dim=0)(x).shape
    parity(example)


@pytest.mark.parametrize("make", [
    lambda nn, t: [nn.LeakyReLU(), nn.LeakyReLU(0.2, True), nn.ELU(), nn.ELU(alpha=0.5, inplace=True), nn.SELU(), nn.SELU(True), nn.GELU(),
                   nn.GELU(approximate="tanh"), nn.SiLU(), nn.SiLU(inplace=True), nn.Softplus(),
                   nn.Softplus(beta=2, threshold=5), nn.LogSoftmax(dim=1), nn.Softmax(-1)],
    lambda nn, t: [nn.BCELoss(), nn.BCELoss(weight=t.ones(2)), nn.BCEWithLogitsLoss(pos_weight=t.ones(3)),
                   nn.L1Loss(reduction="sum"), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0)],
], ids=["activations", "losses"])
def test_layer_reprs_and_buffers(parity, make):
    def example(lib):
        layers = make(lib.nn, lib)
        return ([repr(m) for m in layers], [[n for n, _ in m.named_buffers()] for m in layers],
                [list(m.state_dict()) for m in layers], [getattr(m, "reduction", None) for m in layers])
    parity(example)


def test_loss_layers_with_legacy_flags_warn(parity):
    def example(lib):
        nn = lib.nn
        return [nn.L1Loss(size_average=False).reduction, nn.BCELoss(reduce=False).reduction,
                nn.SmoothL1Loss(size_average=True, reduce=True).reduction]
    parity(example)


def test_activation_layers_in_place(parity):
    def example(lib):
        nn = lib.nn
        x = _t(lib, [[-1.0, 2.0, -3.0]], requires_grad=True)
        outs = []
        for layer in (nn.LeakyReLU(0.1, inplace=True), nn.ELU(inplace=True), nn.SiLU(inplace=True)):
            h = x * 1
            y = layer(h)
            y.sum().backward()
            outs.append((y is h, y, y.grad_fn.name()))
        return outs, x.grad
    parity(example)


# ---- Module helpers ----------------------------------------------------------------------------------------
def test_get_submodule_parameter_buffer(parity):
    def example(lib):
        nn = lib.nn
        net = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.BatchNorm1d(2)) if hasattr(
            nn, "BatchNorm1d") else nn.ReLU())
        net.register_buffer("step", lib.zeros(1))
        out = [type(net.get_submodule("")).__name__, type(net.get_submodule("0")).__name__,
               tuple(net.get_parameter("0.weight").shape), net.get_buffer("step")]
        for bad in (lambda: net.get_submodule("5"), lambda: net.get_submodule("0.weight"),
                    lambda: net.get_parameter("0.nope"), lambda: net.get_parameter("step"),
                    lambda: net.get_buffer("0.weight"), lambda: net.get_parameter("0.in_features")):
            try:
                bad()
            except AttributeError as e:
                out.append(str(e))
        return out
    parity(example)


def test_to_half_requires_grad_zero_grad(parity):
    def example(lib):
        nn = lib.nn
        net = deterministic(nn.Linear(2, 2), lib)
        net.register_buffer("count", lib.zeros(1, dtype=lib.int64))
        net.to(lib.zeros(1, dtype=lib.float64))
        dtypes = [str(net.weight.dtype), str(net.count.dtype)]
        net.to(dtype=lib.float32)
        net(_t(lib, [[1.0, 2.0]])).sum().backward()
        net.zero_grad(set_to_none=False)
        zeroed = net.weight.grad
        net.zero_grad()
        returned = net.requires_grad_(False) is net
        out = [dtypes, zeroed, net.weight.grad, returned, net.weight.requires_grad]
        if hasattr(lib, "float16"):
            out.append(str(net.half().weight.dtype))
        try:
            net.to(lib.int64)
        except TypeError as e:
            out.append(str(e))
        return out
    parity(example)
