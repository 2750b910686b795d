"""nn.Module and Parameter without torch: registration, traversal, apply, modes, gradients, state_dict, repr.

Expected values are written out by hand (and agree with PyTorch 2.13, which the parity tests check separately).
"""
import copy
from collections import OrderedDict

import numpy as np
import pytest

import minigrad as torch
from minigrad import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
        self.head = nn.Linear(4, 2)
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("scratch", torch.zeros(1), persistent=False)

    def forward(self, x):
        return self.head(self.enc(x))


def test_assignment_registers_parameters_modules_and_buffers():
    net = Net()
    assert list(net._modules) == ["enc", "head"]
    assert list(net.head._parameters) == ["weight", "bias"]
    assert list(net._buffers) == ["steps", "scratch"]
    assert "enc" not in net.__dict__ and net.enc is net._modules["enc"]
    assert net.steps is net._buffers["steps"]


def test_named_listings_use_dotted_names():
    net = Net()
    assert [n for n, _ in net.named_modules()] == ["", "enc", "enc.0", "enc.1", "head"]
    assert [n for n, _ in net.named_children()] == ["enc", "head"]
    assert [n for n, _ in net.named_parameters()] == ["enc.0.weight", "enc.0.bias", "head.weight", "head.bias"]
    assert [n for n, _ in net.named_buffers()] == ["steps", "scratch"]
    assert [n for n, _ in net.enc.named_parameters(prefix="enc")] == ["enc.0.weight", "enc.0.bias"]
    assert list(net.named_parameters(recurse=False)) == []
    assert len(list(net.parameters())) == 4 and len(list(net.modules())) == 5 and len(list(net.children())) == 2


def test_shared_modules_and_parameters_come_once():
    shared = nn.Linear(2, 2)
    model = nn.Sequential(shared, nn.ReLU(), shared)
    assert [n for n, _ in model.named_modules()] == ["", "0", "1"]
    assert len(list(model.named_modules(remove_duplicate=False))) == 4
    assert [n for n, _ in model.named_parameters()] == ["0.weight", "0.bias"]
    assert len(list(model.children())) == 2


def test_apply_is_post_order_and_returns_self():
    net = Net()
    seen = []
    assert net.apply(lambda m: seen.append(type(m).__name__)) is net
    assert seen == ["Linear", "ReLU", "Sequential", "Linear", "Net"]


def test_apply_initialises_weights():
    def init_weights(m):
        if isinstance(m, nn.Linear):
            m.weight.data.fill_(0.5)
            nn.init.zeros_(m.bias)
    net = Net().apply(init_weights)
    y = net(torch.ones(1, 3))
    # hidden = relu(0.5 * 3) = 1.5 in each of 4 units; output = 0.5 * 4 * 1.5 = 3
    assert y.tolist() == [[3.0, 3.0]]
    assert all(p.requires_grad and p.is_leaf for p in net.parameters())


def test_call_runs_forward_and_missing_forward_is_an_error():
    class NoForward(nn.Module):
        pass
    with pytest.raises(NotImplementedError, match=r'^Module \[NoForward\] is missing the required "forward" function$'):
        NoForward()(torch.ones(1))


@pytest.mark.parametrize("assign, error, message", [
    (lambda self: setattr(self, "layer", nn.Linear(1, 1)), AttributeError,
     "cannot assign module before Module.__init__() call"),
    (lambda self: setattr(self, "w", nn.Parameter(torch.zeros(1))), AttributeError,
     "cannot assign parameters before Module.__init__() call"),
    (lambda self: self.register_parameter("w", None), AttributeError,
     "cannot assign parameter before Module.__init__() call"),
    (lambda self: self.register_buffer("b", None), AttributeError,
     "cannot assign buffer before Module.__init__() call"),
])
def test_assigning_before_super_init_is_an_error(assign, error, message):
    class Early(nn.Module):
        def __init__(self):
            assign(self)
            super().__init__()
    with pytest.raises(error) as info:
        Early()
    assert str(info.value) == message


def test_registration_errors_say_what_was_given():
    lin = nn.Linear(2, 2)
    with pytest.raises(TypeError) as info:
        lin.weight = torch.zeros(2, 2)
    assert str(info.value) == ("cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None "
                               "expected)")
    with pytest.raises(TypeError, match="^int is not a Module subclass$"):
        lin.add_module("child", 3)
    with pytest.raises(KeyError, match="attribute 'in_features' already exists"):
        lin.register_buffer("in_features", torch.zeros(1))
    with pytest.raises(TypeError, match=r"^cannot assign 'str' object to buffer 'b' \(torch Tensor or None required\)"):
        lin.register_buffer("b", "x")
    with pytest.raises(TypeError, match="^cannot assign 'torch.FloatTensor' object to parameter 'p' "):
        lin.register_parameter("p", nn.Parameter(torch.ones(1)) * 2)     # the product is a plain Tensor
    with pytest.raises(AttributeError, match="^'Linear' object has no attribute 'wieght'$"):
        lin.wieght


def test_reassigning_keeps_order_and_none_unregisters():
    lin = nn.Linear(2, 2)
    lin.weight = nn.Parameter(torch.ones(2, 2))
    assert list(lin._parameters) == ["weight", "bias"]
    lin.bias = None
    assert [n for n, _ in lin.named_parameters()] == ["weight"]
    assert list(lin.state_dict()) == ["weight"]
    del lin.weight
    assert list(lin.parameters()) == []
    lin.plain = 3
    del lin.plain
    assert not hasattr(lin, "plain")


def test_train_eval_recurse():
    net = Net()
    assert all(m.training for m in net.modules())
    assert net.eval() is net
    assert not any(m.training for m in net.modules())
    net.train()
    net.enc.eval()
    assert [m.training for m in net.modules()] == [True, False, False, False, True]
    with pytest.raises(ValueError, match="^training mode is expected to be boolean$"):
        net.train(1)


def test_zero_grad_and_requires_grad_():
    net = Net()
    net(torch.ones(2, 3)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    grad = net.head.bias.grad
    assert grad.tolist() == [2.0, 2.0]           # d(sum over 2 rows)/d bias = 2
    net.zero_grad(set_to_none=False)
    assert net.head.bias.grad is grad and grad.tolist() == [0.0, 0.0]
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    assert net.requires_grad_(False) is net
    assert not any(p.requires_grad for p in net.parameters())
    assert net(torch.ones(1, 3)).grad_fn is None


def test_state_dict_is_an_ordered_dict_of_detached_tensors_sharing_memory():
    net = Net()
    sd = net.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == ["steps", "enc.0.weight", "enc.0.bias", "head.weight", "head.bias"]
    assert all(type(v) is torch.Tensor and not v.requires_grad for v in sd.values())
    with torch.no_grad():
        net.head.bias.fill_(7.0)
    assert sd["head.bias"].tolist() == [7.0, 7.0]      # same memory, as in PyTorch
    assert net.state_dict(keep_vars=True)["head.bias"] is net.head.bias


def test_load_state_dict_copies_in_place():
    source, target = Net(), Net()
    weight = target.head.weight
    assert repr(target.load_state_dict(source.state_dict())) == "<All keys matched successfully>"
    assert target.head.weight is weight and weight.requires_grad
    for (name, p), (_, q) in zip(source.state_dict().items(), target.state_dict().items()):
        assert np.array_equal(p.numpy(), q.numpy()), name


def test_load_state_dict_reports_every_problem_in_torchs_words():
    net = Net()
    sd = net.state_dict()
    del sd["head.bias"]
    sd["head.weight"] = torch.zeros(3, 3)
    sd["extra"] = torch.zeros(1)
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(sd)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "head.bias". \n\t'
        'Unexpected key(s) in state_dict: "extra". \n\t'
        "size mismatch for head.weight: copying a param with shape torch.Size([3, 3]) from checkpoint, the shape in "
        "current model is torch.Size([2, 4]).")
    result = Net().load_state_dict({"head.bias": torch.zeros(2), "extra": torch.ones(1)}, strict=False)
    assert result.missing_keys == ["steps", "enc.0.weight", "enc.0.bias", "head.weight"]
    assert result.unexpected_keys == ["extra"]
    with pytest.raises(TypeError, match="^Expected state_dict to be dict-like, got <class 'list'>.$"):
        net.load_state_dict([])


def test_repr_is_nested_and_indented():
    assert repr(Net()) == (
        "Net(\n"
        "  (enc): Sequential(\n"
        "    (0): Linear(in_features=3, out_features=4, bias=True)\n"
        "    (1): ReLU()\n"
        "  )\n"
        "  (head): Linear(in_features=4, out_features=2, bias=True)\n"
        ")")
    assert repr(nn.ModuleList([nn.Linear(1, 1), nn.Linear(1, 1), nn.ReLU()])) == (
        "ModuleList(\n  (0-1): 2 x Linear(in_features=1, out_features=1, bias=True)\n  (2): ReLU()\n)")


def test_dir_lists_registered_names():
    names = dir(Net())
    assert {"enc", "head", "steps", "forward", "apply"} <= set(names)


def test_parameter_is_a_leaf_tensor_that_requires_grad():
    data = torch.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    assert isinstance(p, torch.Tensor) and p.is_leaf and p.requires_grad
    assert repr(p) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    assert repr(nn.Parameter(torch.zeros(1), requires_grad=False)) == "Parameter containing:\ntensor([0.])"
    with torch.no_grad():
        p.mul_(3)
    assert data.tolist() == [3.0, 6.0]              # shares memory with data
    assert type(p * 2) is torch.Tensor and type(p.data) is torch.Tensor
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require gradients$"):
        nn.Parameter(torch.tensor([1, 2]))


def test_deepcopy_gives_an_independent_model():
    net = Net()
    clone = copy.deepcopy(net)
    with torch.no_grad():
        clone.head.bias.fill_(1.0)
    assert net.head.bias.tolist() != [1.0, 1.0]
    assert isinstance(clone.head.bias, nn.Parameter) and clone.head.bias.requires_grad
    assert [n for n, _ in clone.named_parameters()] == [n for n, _ in net.named_parameters()]
