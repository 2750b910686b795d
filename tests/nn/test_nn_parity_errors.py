"""Parity with real PyTorch for Module's errors and attribute protocol, Parameter, and the containers' list-like
methods: the same code raises the same exception with the same words, and prints the same reprs."""
import pytest

from nn_examples import deterministic


@pytest.mark.parametrize("case", [
    "module_before_init", "parameter_before_init", "buffer_before_init", "missing_forward", "missing_attribute",
    "tensor_as_parameter", "int_as_child", "int_as_buffer", "register_tensor_parameter", "dotted_name",
    "empty_name", "existing_attribute", "non_module_child", "non_bool_train", "sequential_index",
    "module_list_index", "module_list_extend_int", "non_leaf_parameter", "int_parameter", "init_kwargs",
    "linear_of_a_tuple",
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
            "linear_of_a_tuple": lambda: nn.Sequential(nn.LSTM(2, 2), nn.Linear(2, 1))(lib.ones(3, 1, 2)),
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


def test_to_double_float(parity):
    def example(lib):
        net = lib.nn.Sequential(lib.nn.Linear(2, 2))
        net.register_buffer("count", lib.tensor([3]))
        weight = net[0].weight
        net(lib.ones(1, 2)).sum().backward()
        same = [net.to("cpu") is net, net.cpu() is net, net.double() is net, net[0].weight is weight]
        dtypes = [net[0].weight.dtype, net[0].weight.grad.dtype, net.count.dtype,
                  net(lib.ones(1, 2, dtype=lib.float64)).dtype]
        net.to(dtype=lib.float32)
        dtypes += [net[0].bias.dtype, net.float()[0].weight.dtype, net[0].weight.requires_grad]
        try:
            net.to(lib.int64)
        except TypeError as e:
            dtypes.append(str(e))
        return same, dtypes
    parity(example)
