"""Parity with real PyTorch for nn.Module and the containers: the same code, the same printed text, names, order,
errors. Each example takes the library (`torch` or `minigrad`) and returns plain data; `parity` compares."""
import contextlib
import io
from pathlib import Path

import numpy as np
import pytest

import minigrad

SEED_DIR = Path(__file__).resolve().parents[3] / "shared" / "seeds"

# The first example of the article in ../shared/seeds/000_*.txt, verbatim apart from the line breaks that the
# article lost; only the import lines differ between the two runs.
SEED_EXAMPLE = """
# 創建一個 ModuleList 包含兩個線性層
module_list = nn.ModuleList([nn.Linear(10, 5), nn.Linear(5, 2)])
# 定義一個函數用于初始化權重為0
def init_weights(module):
    if isinstance(module, nn.Linear):
        module.weight.data.fill_(0)
# 應用函數到 ModuleList 的每個子模塊上
module_list.apply(init_weights)
# 打印每個線性層的權重
for module in module_list:
    print(module.weight)
"""


def run_script(header, body):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(header + body, {})
    return out.getvalue()


def test_seed_module_list_apply_prints_what_torch_prints(torch):
    torch_out = run_script("import torch\nimport torch.nn as nn\n", SEED_EXAMPLE)
    minigrad_out = run_script("import minigrad as torch\nfrom minigrad import nn\n", SEED_EXAMPLE)
    assert minigrad_out == torch_out, f"torch printed:\n{torch_out}\nminigrad printed:\n{minigrad_out}"
    assert torch_out.startswith("Parameter containing:\ntensor([[0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],")
    assert torch_out.count("Parameter containing:") == 2


def test_seed_example_text_is_in_the_article():
    if not SEED_DIR.exists():
        pytest.skip("the seed articles are not next to this checkout")
    article = next(SEED_DIR.glob("000_*.txt")).read_text(encoding="utf-8")
    for line in ("module_list = nn.ModuleList([nn.Linear(10, 5), nn.Linear(5, 2)])",
                 "module_list.apply(init_weights)", "module.weight.data.fill_(0)"):
        assert line in article


def test_seed_example_runs_with_import_minigrad_nn_as_nn():
    out = run_script("import minigrad as torch\nimport minigrad.nn as nn\n", SEED_EXAMPLE)
    assert out.count("requires_grad=True)") == 2


def deterministic(model, lib):
    """Give every parameter fixed values (sin of a counter), the same in both libraries."""
    start = 0
    with lib.no_grad():
        for p in model.parameters():
            n = p.numel()
            p.copy_(lib.tensor(np.sin(np.arange(start, start + n)).reshape(tuple(p.shape)).astype(np.float32)))
            start += n
    return model


def make_net(lib):
    nn = lib.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
            self.head = nn.Linear(4, 2)

        def forward(self, x):
            return self.head(self.enc(x))
    return Net()


def make_tree(lib):
    """Nested Sequential/ModuleList with a module shared by two parents and a buffer."""
    nn = lib.nn
    shared = nn.Linear(2, 2)

    class Tree(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Sequential(nn.Linear(2, 2), nn.Tanh()), nn.ModuleList([shared]),
                                         nn.Sigmoid()])
            self.again = shared
            self.register_buffer("scale", lib.ones(2))
            self.register_buffer("cache", lib.zeros(1), persistent=False)
            self.out = nn.Sequential(nn.Linear(2, 1))
    return Tree()


def test_apply_visits_children_first(parity):
    def example(lib):
        order = []
        net = make_net(lib)
        returned = net.apply(lambda m: order.append(type(m).__name__))
        return order, returned is net
    assert parity(example) == (["Linear", "ReLU", "Sequential", "Linear", "Net"], True)


def test_apply_order_on_nested_containers(parity):
    def example(lib):
        order = []
        make_tree(lib).apply(lambda m: order.append(type(m).__name__))
        return order
    # the shared Linear is visited twice (once under blocks.1, once as `again`): apply recurses through
    # children(), which removes duplicates among one module's children only, not across the tree as modules() does
    assert parity(example) == ["Linear", "Tanh", "Sequential", "Linear", "ModuleList", "Sigmoid", "ModuleList",
                               "Linear", "Linear", "Sequential", "Tree"]


def test_named_listings(parity):
    def example(lib):
        tree = make_tree(lib)
        return ([n for n, _ in tree.named_modules()], [n for n, _ in tree.named_children()],
                [n for n, _ in tree.named_parameters()], [n for n, _ in tree.named_buffers()],
                len(list(tree.modules())), len(list(tree.parameters())), len(list(tree.buffers())),
                [n for n, _ in tree.named_parameters(recurse=False)], [n for n, _ in tree.named_parameters("top")],
                len(list(tree.named_modules(remove_duplicate=False))),
                [n for n, _ in tree.named_parameters(remove_duplicate=False)])
    result = parity(example)
    assert result[2] == ["blocks.0.0.weight", "blocks.0.0.bias", "blocks.1.0.weight", "blocks.1.0.bias",
                         "out.0.weight", "out.0.bias"]


def test_shared_parameter_is_listed_once(parity):
    def example(lib):
        nn = lib.nn
        a, b = nn.Linear(2, 2), nn.Linear(2, 2)
        b.weight = a.weight
        model = nn.Sequential(a, b)
        return [n for n, _ in model.named_parameters()], list(model.state_dict())
    parity(example)


def test_repr(parity):
    def example(lib):
        nn = lib.nn

        class Scale(nn.Module):
            def __init__(self):
                super().__init__()
                self.factor = 2.0

            def extra_repr(self):
                return f"factor={self.factor}"

        class TwoLine(nn.Module):
            def extra_repr(self):
                return "a=1\nb=2"
        model = nn.Sequential(nn.Linear(10, 5), nn.ReLU(inplace=True), Scale(), TwoLine(),
                              nn.ModuleList([nn.Tanh(), nn.Linear(5, 5), nn.Linear(5, 5), nn.Linear(5, 5)]),
                              nn.Sequential(nn.Linear(5, 2, bias=False), nn.Softmax(dim=1)), nn.Flatten(),
                              nn.LogSoftmax(dim=-1), nn.Sigmoid(), nn.Identity(), nn.MSELoss(), nn.CrossEntropyLoss())
        return repr(model), repr(make_net(lib)), repr(nn.ModuleList()), repr(nn.Sequential()), str(make_tree(lib))
    parity(example)


def test_train_eval_propagate(parity):
    def example(lib):
        tree = make_tree(lib)
        states = [[m.training for m in tree.modules()]]
        returned = tree.eval()
        states.append([m.training for m in tree.modules()])
        tree.train()
        tree.blocks.eval()
        states.append([m.training for m in tree.modules()])
        return states, returned is tree
    parity(example)


def test_zero_grad_and_requires_grad(parity):
    def example(lib):
        net = deterministic(make_net(lib), lib)
        net(lib.ones(2, 3)).sum().backward()
        before = [p.grad for p in net.parameters()]
        net.zero_grad(set_to_none=False)
        zeroed = [p.grad for p in net.parameters()]
        net.zero_grad()
        cleared = [p.grad is None for p in net.parameters()]
        frozen = net.requires_grad_(False) is net
        return before, zeroed, cleared, frozen, [p.requires_grad for p in net.parameters()], net(lib.ones(1, 3))
    parity(example)


def test_forward_values_and_graph_names(parity):
    def example(lib):
        net = deterministic(make_net(lib), lib)
        y = net(lib.tensor([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]]))
        y.pow(2).sum().backward()
        node = y.grad_fn
        return (y, y.grad_fn.name(), [None if f is None else f.name() for f, _ in node.next_functions],
                [(n, p.grad) for n, p in net.named_parameters()])
    parity(example)


def test_state_dict_listing(parity):
    def example(lib):
        tree = deterministic(make_tree(lib), lib)
        sd = tree.state_dict()
        return (type(sd).__name__, list(sd), [v.requires_grad for v in sd.values()],
                [type(v).__name__ for v in sd.values()], sd["out.0.weight"], list(tree.state_dict(keep_vars=True)))
    parity(example)


def test_state_dict_round_trip_through_numpy(torch):
    """Weights exported from torch as numpy arrays load into minigrad (and back) and give the same outputs."""
    t_net = make_net(torch)
    exported = {k: v.numpy().copy() for k, v in t_net.state_dict().items()}
    m_net = make_net(minigrad)
    result = m_net.load_state_dict({k: minigrad.from_numpy(v) for k, v in exported.items()})
    assert repr(result) == "<All keys matched successfully>"
    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
    with torch.no_grad():
        expected = t_net(torch.from_numpy(x)).numpy()
    with minigrad.no_grad():
        got = m_net(minigrad.from_numpy(x)).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)

    back = make_net(torch)
    back.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in m_net.state_dict().items()})
    for (name, p), (_, q) in zip(t_net.named_parameters(), back.named_parameters()):
        assert torch.equal(p, q), name


def test_load_state_dict_errors(parity):
    def example(lib):
        results = []
        net = make_net(lib)
        good = {k: v.clone() for k, v in make_net(lib).state_dict().items()}
        for bad in ({k: v for k, v in good.items() if k != "head.bias"},
                    {**good, "head.extra": lib.zeros(1), "enc.9.weight": lib.zeros(1), "other": lib.zeros(1)},
                    {**good, "enc.0.weight": lib.zeros(3, 3), "head.bias": lib.zeros(5)},
                    {k: v for k, v in good.items() if k != "enc.0.bias"} | {"head.weight": lib.zeros(1)}):
            try:
                net.load_state_dict(bad)
            except RuntimeError as e:
                results.append(str(e))
        partial = net.load_state_dict({"head.bias": lib.zeros(2), "nope": lib.zeros(1)}, strict=False)
        results.append((repr(partial), partial.missing_keys, partial.unexpected_keys, net.head.bias.tolist()))
        results.append(repr(net.load_state_dict(good)))
        return results
    parity(example)


def test_load_state_dict_rejects_numpy_and_lists(parity):
    def example(lib):
        net = lib.nn.Linear(2, 1)
        messages = []
        for bad in ({"weight": np.zeros((1, 2), np.float32), "bias": lib.zeros(1)}, [("weight", lib.zeros(1, 2))]):
            try:
                net.load_state_dict(bad)
            except (RuntimeError, TypeError) as e:
                messages.append((type(e).__name__, str(e)))
        return messages
    parity(example)


@pytest.mark.parametrize("case", [
    "module_before_init", "parameter_before_init", "buffer_before_init", "missing_forward", "missing_attribute",
    "tensor_as_parameter", "int_as_child", "int_as_buffer", "register_tensor_parameter", "dotted_name",
    "empty_name", "existing_attribute", "non_module_child", "non_bool_train", "sequential_index",
    "module_list_index", "module_list_extend_int", "non_leaf_parameter", "int_parameter", "init_kwargs",
])
def test_module_errors(parity, case):
    def example(lib):
        nn = lib.nn

        class Early(nn.Module):
            def __init__(self, what):
                if what == "module":
                    self.layer = nn.Linear(2, 2)
                elif what == "parameter":
                    self.w = nn.Parameter(lib.zeros(2))
                else:
                    self.register_buffer("b", lib.zeros(2))
                super().__init__()

        class NoForward(nn.Module):
            pass
        lin = nn.Linear(2, 2)
        actions = {
            "module_before_init": lambda: Early("module"),
            "parameter_before_init": lambda: Early("parameter"),
            "buffer_before_init": lambda: Early("buffer"),
            "missing_forward": lambda: NoForward()(lib.ones(1)),
            "missing_attribute": lambda: lin.wieght,
            "tensor_as_parameter": lambda: setattr(lin, "weight", lib.zeros(2, 2)),
            "int_as_child": lambda: setattr(nn.Sequential(nn.ReLU()), "0", 3),
            "int_as_buffer": lambda: (lin.register_buffer("b", lib.zeros(1)), setattr(lin, "b", 3)),
            "register_tensor_parameter": lambda: lin.register_parameter("extra", lib.zeros(1)),
            "dotted_name": lambda: lin.register_parameter("a.b", None),
            "empty_name": lambda: lin.register_buffer("", None),
            "existing_attribute": lambda: (setattr(lin, "x", 5), lin.register_parameter("x", None)),
            "non_module_child": lambda: lin.add_module("child", 3),
            "non_bool_train": lambda: lin.train("yes"),
            "sequential_index": lambda: nn.Sequential(nn.ReLU())[1],
            "module_list_index": lambda: nn.ModuleList([nn.ReLU()])[-2],
            "module_list_extend_int": lambda: nn.ModuleList(3),
            "non_leaf_parameter": lambda: lin.register_parameter("p", nn.Parameter(lib.zeros(1)) * 2),
            "int_parameter": lambda: nn.Parameter(lib.tensor([1, 2])),
            "init_kwargs": lambda: nn.Module(foo=1),
        }
        actions[case]()
    parity(example)


def test_module_attribute_protocol(parity):
    def example(lib):
        nn = lib.nn
        lin = nn.Linear(3, 2)
        has = [hasattr(lin, "weight"), "weight" in lin.__dict__, "weight" in dir(lin), "forward" in dir(lin)]
        lin.weight = None
        after_none = [n for n, _ in lin.named_parameters()]
        del lin.bias
        after_del = [n for n, _ in lin.named_parameters()]
        lin.note = "plain attribute"
        lin.register_buffer("running", lib.zeros(2))
        lin.running = lib.ones(2)
        lin.sub = nn.ReLU()
        lin.sub = None
        return has, after_none, after_del, lin.note, list(lin.state_dict()), lin.running, repr(lin)
    parity(example)


def test_parameter_behaviour(parity):
    def example(lib):
        nn = lib.nn
        p = nn.Parameter(lib.tensor([1.0, -2.0]))
        frozen = nn.Parameter(lib.zeros(2), requires_grad=False)
        y = p * 2
        return (repr(p), str(frozen), repr(nn.Parameter()), isinstance(p, lib.Tensor), p.is_leaf, p.requires_grad,
                type(p.data).__name__, type(y).__name__, y.grad_fn.name(), type(p.detach()).__name__)
    parity(example)


def test_containers(parity):
    def example(lib):
        nn = lib.nn
        seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
        head = seq[1:]
        seq.append(nn.Sigmoid())
        seq.insert(0, nn.Identity())
        seq.extend([nn.Tanh()])
        del seq[1]
        ml = nn.ModuleList([nn.ReLU()])
        ml.append(nn.Tanh())
        ml.extend([nn.Sigmoid(), nn.ReLU()])
        ml.insert(1, nn.Identity())
        ml += [nn.Tanh()]
        del ml[0]
        ml[0] = nn.Flatten()
        return (repr(head), [n for n, _ in head.named_modules()], len(seq), repr(seq), [type(m).__name__ for m in seq],
                type(seq[-1]).__name__, len(ml), repr(ml), repr(ml[1:3]), type(ml[-1]).__name__,
                [n for n, _ in seq.named_children()])
    parity(example)


def test_sequential_with_ordered_dict_and_forward(parity):
    def example(lib):
        from collections import OrderedDict
        nn = lib.nn
        model = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.Tanh())]))
        deterministic(model, lib)
        return repr(model), model(lib.tensor([[1.0, 2.0]])), repr(model[0:1]), model.fc is model[0]
    parity(example)
