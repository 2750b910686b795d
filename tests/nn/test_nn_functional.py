"""nn.functional, the layers and the losses without torch: values against numpy or hand math, gradients against
finite differences (gradcheck in float64), node names, and Linear's default initialisation."""
import math

import numpy as np
import pytest

import minigrad as torch
from minigrad import nn
from minigrad.autograd import gradcheck
from minigrad.nn import functional as F

RNG = np.random.default_rng(0)
XN = RNG.normal(size=(4, 3))
WN = RNG.normal(size=(2, 3))
BN = RNG.normal(size=2)


def t64(a, grad=True):
    return torch.tensor(np.asarray(a, np.float64), requires_grad=grad)


def softmax_np(a, axis):
    e = np.exp(a - a.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# name -> (function of float64 leaves, the leaves, numpy reference of the output)
TARGET = torch.tensor([2, 0, 1, 2])
CASES = {
    "linear": (lambda x, w, b: F.linear(x, w, b), (XN, WN, BN), XN @ WN.T + BN),
    "linear_no_bias": (lambda x, w: F.linear(x, w), (XN, WN), XN @ WN.T),
    "linear_1d": (lambda x, w, b: F.linear(x, w, b), (XN[0], WN, BN), XN[0] @ WN.T + BN),
    "linear_3d": (lambda x, w, b: F.linear(x, w, b), (XN.reshape(2, 2, 3), WN, BN), XN.reshape(2, 2, 3) @ WN.T + BN),
    "relu": (F.relu, (XN,), np.maximum(XN, 0)),
    "sigmoid": (F.sigmoid, (XN,), 1 / (1 + np.exp(-XN))),
    "tanh": (F.tanh, (XN,), np.tanh(XN)),
    "softmax": (lambda x: F.softmax(x, dim=1), (XN,), softmax_np(XN, 1)),
    "softmax_dim0": (lambda x: F.softmax(x, dim=0), (XN,), softmax_np(XN, 0)),
    "log_softmax": (lambda x: F.log_softmax(x, dim=1), (XN,), np.log(softmax_np(XN, 1))),
    "mse_mean": (lambda x, y: F.mse_loss(x, y), (XN, XN[::-1]), ((XN - XN[::-1]) ** 2).mean()),
    "mse_sum": (lambda x, y: F.mse_loss(x, y, reduction="sum"), (XN, XN[::-1]), ((XN - XN[::-1]) ** 2).sum()),
    "mse_none": (lambda x, y: F.mse_loss(x, y, reduction="none"), (XN, XN[::-1]), (XN - XN[::-1]) ** 2),
    "cross_entropy": (lambda x: F.cross_entropy(x, TARGET), (XN,),
                      -np.log(softmax_np(XN, 1)[np.arange(4), [2, 0, 1, 2]]).mean()),
    "cross_entropy_sum": (lambda x: F.cross_entropy(x, TARGET, reduction="sum"), (XN,),
                          -np.log(softmax_np(XN, 1)[np.arange(4), [2, 0, 1, 2]]).sum()),
    "cross_entropy_weighted": (lambda x: F.cross_entropy(x, TARGET, weight=torch.tensor([1.0, 2.0, 3.0],
                                                                                         dtype=torch.float64)),
                               (XN,), (np.array([3, 1, 2, 3]) * -np.log(softmax_np(XN, 1)[np.arange(4), [2, 0, 1, 2]])
                                       ).sum() / 9),
    "cross_entropy_ignore_index": (lambda x: F.cross_entropy(x, torch.tensor([2, -100, 1, -100])), (XN,),
                                   -np.log(softmax_np(XN, 1)[[0, 2], [2, 1]]).mean()),
    "nll_loss_none": (lambda x: F.nll_loss(x, TARGET, reduction="none"), (XN,), -XN[np.arange(4), [2, 0, 1, 2]]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_forward_matches_numpy(name):
    fn, arrays, expected = CASES[name]
    out = fn(*(t64(a, grad=False) for a in arrays))
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", list(CASES))
def test_backward_matches_finite_differences(name):
    fn, arrays, _ = CASES[name]
    assert gradcheck(fn, tuple(t64(a) for a in arrays), eps=1e-6, atol=1e-6)


def test_gradcheck_catches_a_wrong_backward():
    from minigrad.autograd import GradcheckError
    from minigrad.nn.functional.basic import MseLoss

    class Wrong(MseLoss):
        @staticmethod
        def backward(ctx, grad):
            gx, gy, _ = MseLoss.backward(ctx, grad)
            return gx * 2, gy, None
    with pytest.raises(GradcheckError):
        gradcheck(lambda x, y: Wrong.apply(x, y, "mean"), (t64(XN), t64(XN[::-1])), eps=1e-6, atol=1e-6)


def test_cross_entropy_by_hand():
    # softmax([2, 0.5])[0] = 1 / (1 + e^-1.5); the loss is its -log; the gradient is softmax - one_hot
    x = torch.tensor([[2.0, 0.5]], requires_grad=True)
    loss = nn.CrossEntropyLoss()(x, torch.tensor([0]))
    assert math.isclose(loss.item(), math.log(1 + math.exp(-1.5)), rel_tol=1e-6)
    loss.backward()
    p0 = 1 / (1 + math.exp(-1.5))
    np.testing.assert_allclose(x.grad.numpy(), [[p0 - 1, 1 - p0]], rtol=1e-6)
    assert loss.grad_fn.name() == "NllLossBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"


def test_log_softmax_is_stable_for_huge_logits():
    x = torch.tensor([[1000.0, 0.0, -1000.0], [-1e30, 1e30, 0.0]], requires_grad=True)
    out = F.log_softmax(x, 1)
    assert np.isfinite(out.detach().numpy()[:, :2]).all()
    np.testing.assert_allclose(out.detach().numpy()[0], [0.0, -1000.0, -2000.0])
    loss = F.cross_entropy(x, torch.tensor([0, 1]))
    loss.backward()
    assert loss.item() == 0.0 and np.isfinite(x.grad.numpy()).all()


def test_mse_by_hand():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = nn.MSELoss()(x, torch.tensor([1.0, 4.0]))
    assert loss.item() == 2.0                      # ((0)^2 + (-2)^2) / 2
    loss.backward()
    assert x.grad.tolist() == [0.0, -2.0]          # 2 (x - y) / n
    assert loss.grad_fn.name() == "MseLossBackward0"


def test_linear_records_one_addmm_node_as_torch():
    layer = nn.Linear(3, 2)
    y = layer(torch.ones(4, 3))
    assert y.grad_fn.name() == "AddmmBackward0"
    names = [f and f.name() for f, _ in y.grad_fn.next_functions]
    assert names == ["torch::autograd::AccumulateGrad", None, "TBackward0"]
    assert y.grad_fn.next_functions[0][0].variable is layer.bias


def test_linear_default_init_is_uniform_within_one_over_sqrt_fan_in():
    torch.manual_seed(0)
    layer = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    for p, shape in ((layer.weight, (300, 400)), (layer.bias, (300,))):
        a = p.detach().numpy()
        assert a.shape == shape and a.dtype == np.float32
        assert -bound <= a.min() and a.max() <= bound
        assert a.min() < -0.95 * bound and a.max() > 0.95 * bound
    # a uniform on [-k, k] has standard deviation k / sqrt(3)
    assert abs(layer.weight.detach().numpy().std() - bound / math.sqrt(3)) < 0.01 * bound
    torch.manual_seed(0)
    assert np.array_equal(nn.Linear(400, 300).weight.detach().numpy(), layer.weight.detach().numpy())


def test_init_functions_work_on_parameters_and_return_them():
    w = nn.Parameter(torch.empty(50, 20))
    for fn, check in ((nn.init.constant_, None), (nn.init.ones_, 1.0), (nn.init.zeros_, 0.0)):
        out = fn(w, 0.5) if check is None else fn(w)
        assert out is w and w.requires_grad and w.grad_fn is None
        assert (w.detach().numpy() == (0.5 if check is None else check)).all()
    torch.manual_seed(1)
    nn.init.normal_(w, mean=3.0, std=0.5)
    assert abs(w.detach().numpy().mean() - 3.0) < 0.05 and abs(w.detach().numpy().std() - 0.5) < 0.05
    nn.init.xavier_normal_(w)
    assert abs(w.detach().numpy().std() - math.sqrt(2 / 70)) < 0.02
    nn.init.kaiming_normal_(w, nonlinearity="relu")
    assert abs(w.detach().numpy().std() - math.sqrt(2 / 20)) < 0.03
    gen = torch.Generator().manual_seed(5)
    a = nn.init.uniform_(torch.empty(3), generator=gen).tolist()
    assert a == nn.init.uniform_(torch.empty(3), generator=torch.Generator().manual_seed(5)).tolist()


def test_activation_layers_and_flatten():
    x = torch.tensor([[-1.0, 0.0, 2.0]])
    assert nn.ReLU()(x).tolist() == [[0.0, 0.0, 2.0]]
    np.testing.assert_allclose(nn.Sigmoid()(x).numpy(), 1 / (1 + np.exp([[1.0, 0.0, -2.0]])), rtol=1e-6)
    np.testing.assert_allclose(nn.Tanh()(x).numpy(), np.tanh([[-1.0, 0.0, 2.0]]), rtol=1e-6)
    np.testing.assert_allclose(nn.Softmax(dim=1)(x).numpy().sum(), 1.0, rtol=1e-6)
    assert nn.Flatten()(torch.ones(2, 3, 4)).shape == (2, 12)
    assert nn.Identity()(x) is x
    y = torch.tensor([-1.0, 3.0])
    assert nn.ReLU(inplace=True)(y) is y and y.tolist() == [0.0, 3.0]
