"""optim.SGD and optim.Adam without torch: each update rule against hand math, the errors, the groups, zero_grad."""
import math

import pytest

import minigrad as torch
from minigrad import nn


def quadratic_step(optimizer, p):
    """One three-line step on loss = sum(p**2), whose gradient is 2p."""
    optimizer.zero_grad()
    loss = (p ** 2).sum()
    loss.backward()
    optimizer.step()
    return loss.item()


def test_plain_sgd_is_p_minus_lr_grad():
    p = nn.Parameter(torch.tensor([1.0, -2.0]))
    opt = torch.optim.SGD([p], lr=0.1)
    quadratic_step(opt, p)
    assert p.tolist() == pytest.approx([1 - 0.1 * 2, -2 + 0.1 * 4])
    assert len(opt.state) == 0                     # no momentum, no state


@pytest.mark.parametrize("momentum, dampening, nesterov, weight_decay", [
    (0.9, 0, False, 0), (0.9, 0, True, 0), (0.5, 0.3, False, 0), (0.9, 0, False, 0.1), (0, 0, False, 0.1),
])
def test_sgd_options_follow_torchs_rule(momentum, dampening, nesterov, weight_decay):
    lr, x = 0.1, 1.5
    p = nn.Parameter(torch.tensor([x], dtype=torch.float64))   # float64, so the hand math can be compared tightly
    opt = torch.optim.SGD([p], lr=lr, momentum=momentum, dampening=dampening, nesterov=nesterov,
                          weight_decay=weight_decay)
    buf = None
    for _ in range(4):
        quadratic_step(opt, p)
        g = 2 * x + weight_decay * x
        if momentum:
            buf = g if buf is None else momentum * buf + (1 - dampening) * g
            g = g + momentum * buf if nesterov else buf
        x = x - lr * g
        assert p.item() == pytest.approx(x, rel=1e-12)
    if momentum:
        assert opt.state[p]["momentum_buffer"].item() == pytest.approx(buf, rel=1e-12)


def test_sgd_maximize_ascends():
    p = nn.Parameter(torch.tensor([1.0]))
    quadratic_step(torch.optim.SGD([p], lr=0.1, maximize=True), p)
    assert p.item() == pytest.approx(1.2)


@pytest.mark.parametrize("weight_decay, decoupled, amsgrad", [(0, False, False), (0.1, False, False),
                                                              (0.1, True, False), (0, False, True)])
def test_adam_follows_torchs_rule(weight_decay, decoupled, amsgrad):
    lr, (b1, b2), eps, x = 0.1, (0.8, 0.9), 1e-8, 2.0
    p = nn.Parameter(torch.tensor([x], dtype=torch.float64))
    opt = torch.optim.Adam([p], lr=lr, betas=(b1, b2), eps=eps, weight_decay=weight_decay,
                           decoupled_weight_decay=decoupled, amsgrad=amsgrad)
    m = v = vmax = 0.0
    for t in range(1, 6):
        quadratic_step(opt, p)
        g = 2 * x
        if weight_decay and decoupled:
            x = x * (1 - lr * weight_decay)
        elif weight_decay:
            g = g + weight_decay * x
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        vmax = max(vmax, v)
        denom = math.sqrt(vmax if amsgrad else v) / math.sqrt(1 - b2 ** t) + eps
        x = x - lr / (1 - b1 ** t) * m / denom
        assert p.item() == pytest.approx(x, rel=1e-12), f"step {t}"
    state = opt.state[p]
    assert state["step"].item() == 5.0 and state["exp_avg"].item() == pytest.approx(m)
    assert state["exp_avg_sq"].item() == pytest.approx(v)


def test_adam_first_step_moves_each_weight_by_lr():
    # with m and v bias-corrected, the first step is lr * g / |g| whatever the gradient's scale
    p = nn.Parameter(torch.tensor([100.0, -0.001]))
    quadratic_step(torch.optim.Adam([p], lr=0.01), p)
    assert p.tolist() == pytest.approx([99.99, -0.001 + 0.01], rel=1e-5)


def test_parameters_without_grad_are_skipped():
    used, unused = nn.Parameter(torch.tensor([1.0])), nn.Parameter(torch.tensor([5.0]))
    for opt in (torch.optim.SGD([used, unused], lr=0.1, momentum=0.9), torch.optim.Adam([used, unused])):
        quadratic_step(opt, used)
        assert unused.item() == 5.0 and unused not in opt.state


def test_zero_grad_sets_to_none_or_zero():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    opt = torch.optim.SGD([p], lr=0.1)
    (p * 3).sum().backward()
    grad = p.grad
    opt.zero_grad(set_to_none=False)
    assert p.grad is grad and grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert p.grad is None


def test_gradients_accumulate_without_zero_grad():
    p = nn.Parameter(torch.tensor([1.0]))
    opt = torch.optim.SGD([p], lr=0.0)
    for _ in range(3):
        (p * 2).sum().backward()
        opt.step()
    assert p.grad.item() == 6.0


def test_param_groups_take_defaults_and_their_own_options():
    a, b = nn.Parameter(torch.tensor([1.0])), nn.Parameter(torch.tensor([1.0]))
    opt = torch.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert opt.param_groups[1]["params"] == [b] and opt.param_groups[1]["momentum"] == 0.9
    quadratic_step(opt, a)
    quadratic_step(opt, b)
    assert a.item() == pytest.approx(0.8) and b.item() == pytest.approx(0.0)
    text = repr(opt)
    assert text.startswith("SGD (\nParameter Group 0\n    dampening: 0\n") and "Parameter Group 1\n" in text
    assert "    lr: 0.5\n" in text and text.endswith(")")


def test_closure_is_called_with_grad_enabled():
    p = nn.Parameter(torch.tensor([3.0]))
    opt = torch.optim.SGD([p], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (p ** 2).sum()
        loss.backward()
        return loss
    assert opt.step(closure).item() == 9.0 and p.item() == pytest.approx(2.4)


@pytest.mark.parametrize("make, error, message", [
    (lambda: torch.optim.SGD([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
    (lambda: torch.optim.Adam(nn.ReLU().parameters()), ValueError, "optimizer got an empty parameter list"),
    (lambda: torch.optim.SGD([1], lr=0.1), TypeError,
     "optimizer can only optimize Tensors, but one of the params is int"),
    (lambda: torch.optim.SGD([nn.Parameter(torch.ones(1)), "w"]), TypeError,
     "optimizer can only optimize Tensors, but one of the params is str"),
    (lambda: torch.optim.SGD(nn.Parameter(torch.ones(1))), TypeError,
     "params argument given to the optimizer should be an iterable of Tensors or dicts, but got torch.FloatTensor"),
    (lambda: torch.optim.SGD([torch.ones(1, requires_grad=True) * 2]), ValueError, "can't optimize a non-leaf Tensor"),
    (lambda: torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
    (lambda: torch.optim.Adam([nn.Parameter(torch.ones(1))], lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
    (lambda: torch.optim.SGD([nn.Parameter(torch.ones(1))], momentum=-1), ValueError, "Invalid momentum value: -1"),
    (lambda: torch.optim.SGD([nn.Parameter(torch.ones(1))], nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda: torch.optim.Adam([nn.Parameter(torch.ones(1))], betas=(1.0, 0.9)), ValueError,
     "Invalid beta parameter at index 0: 1.0"),
    (lambda: torch.optim.Adam([nn.Parameter(torch.ones(1))], eps=-1.0), ValueError, "Invalid epsilon value: -1.0"),
    (lambda: torch.optim.SGD([{"params": {nn.Parameter(torch.ones(1))}}]), TypeError,
     "optimizer parameters need to be organized in ordered collections, but the ordering of tensors in sets will "
     "change between runs. Please use a list instead."),
])
def test_errors_in_torchs_words(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value) == message


def test_a_parameter_in_two_groups_is_an_error_and_a_duplicate_warns():
    p = nn.Parameter(torch.ones(1))
    with pytest.raises(ValueError, match="^some parameters appear in more than one parameter group$"):
        torch.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)
    with pytest.warns(UserWarning, match="^optimizer contains a parameter group with duplicate parameters"):
        torch.optim.SGD([p, p], lr=0.1)
