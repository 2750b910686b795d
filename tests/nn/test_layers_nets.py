"""Networks made of the issue-11 layers, against real PyTorch: the "Neural Networks" tutorial's LeNet, the CIFAR
"Training a classifier" net and a deeper CIFAR-style net with BatchNorm2d, Dropout and AdaptiveAvgPool2d (trained
for a few steps from the same seed), and second derivatives (a gradient penalty) through every layer."""
import numpy as np
import pytest

import minigrad

from test_layers import assert_close, copy_state


def lenet(lib):
    """The LeNet of PyTorch's "Neural Networks" tutorial, as written there."""
    nn, F = lib.nn, lib.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, input):
            c1 = F.relu(self.conv1(input))
            s2 = F.max_pool2d(c1, (2, 2))
            c3 = F.relu(self.conv2(s2))
            s4 = F.max_pool2d(c3, 2)
            s4 = lib.flatten(s4, 1)
            f5 = F.relu(self.fc1(s4))
            f6 = F.relu(self.fc2(f5))
            return self.fc3(f6)
    return Net()


def cifar_tutorial_net(lib):
    """The net of PyTorch's "Training a classifier" (CIFAR-10) tutorial."""
    nn, F = lib.nn, lib.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = lib.flatten(x, 1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)
    return Net()


def cifar_bn_net(lib):
    """A CIFAR-style net with the other layers: padding, BatchNorm2d, AvgPool2d, Dropout, global average pooling."""
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.AvgPool2d(2),
        nn.Conv2d(16, 16, 3, padding="same", groups=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Dropout(0.25), nn.Linear(16, 10))


def graph_names(node):
    """The node names of the graph below `node`, depth first: the structure a drawing of the graph shows."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n is None:
            out.append(None)
            continue
        out.append(type(n).__name__)
        stack.extend(m for m, _ in reversed(n.next_functions))
    return out


def test_lenet_forward_and_backward_match_torch_to_1e_5(torch):
    t_net, m_net = lenet(torch), lenet(minigrad)
    assert repr(m_net) == repr(t_net)
    copy_state(t_net, m_net)
    rng = np.random.default_rng(0)
    x, g = rng.standard_normal((1, 1, 32, 32)).astype(np.float32), rng.standard_normal((1, 10)).astype(np.float32)
    t_out, m_out = t_net(torch.tensor(x)), m_net(minigrad.tensor(x))
    assert_close(m_out, t_out, "LeNet output", rtol=1e-5, atol=1e-5)
    assert graph_names(m_out.grad_fn) == graph_names(t_out.grad_fn)
    t_out.backward(torch.tensor(g))
    m_out.backward(minigrad.tensor(g))
    for (name, p), (_, q) in zip(m_net.named_parameters(), t_net.named_parameters()):
        assert_close(p.grad, q.grad, f"LeNet gradient of {name}", rtol=1e-5, atol=1e-5)


def test_lenet_from_the_same_seed_has_the_same_weights_and_output(torch):
    nets = {}
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        nets[lib] = lenet(lib)
        nets[lib].input = lib.randn(1, 1, 32, 32)
    for (name, p), (_, q) in zip(nets[minigrad].named_parameters(), nets[torch].named_parameters()):
        assert p.detach().tolist() == q.detach().tolist(), f"{name}: not torch's initial values"
    assert nets[minigrad].input.tolist() == nets[torch].input.tolist()
    assert_close(nets[minigrad](nets[minigrad].input), nets[torch](nets[torch].input), "output", rtol=1e-5,
                 atol=1e-5)


@pytest.mark.parametrize("make", [cifar_tutorial_net, cifar_bn_net], ids=["tutorial", "batchnorm_dropout"])
def test_cifar_style_training_steps_match_torch(torch, make):
    """Three SGD steps with momentum on 3x32x32 inputs, from the same seed: same losses, weights and buffers."""
    runs = {}
    for lib in (torch, minigrad):
        lib.manual_seed(1)
        net = make(lib)
        optimizer = lib.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
        loss_fn = lib.nn.CrossEntropyLoss()
        images, labels = lib.randn(4, 3, 32, 32), lib.randint(0, 10, (4,))
        losses = []
        for _ in range(3):
            optimizer.zero_grad()
            loss = loss_fn(net(images), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        net.eval()
        runs[lib] = net, np.array(losses), net(images)
    (t_net, t_losses, t_eval), (m_net, m_losses, m_eval) = runs[torch], runs[minigrad]
    assert np.allclose(m_losses, t_losses, rtol=1e-5, atol=1e-6), f"losses: received {m_losses}, expected {t_losses}"
    for (key, value), (_, expected) in zip(m_net.state_dict().items(), t_net.state_dict().items()):
        assert_close(value, expected, key, rtol=1e-4, atol=1e-6)
    assert_close(m_eval, t_eval, "eval-mode output", rtol=1e-4, atol=1e-5)


def penalty_net(lib):
    """Layers with curvature (tanh, normalisation), so that second derivatives are not trivially zero."""
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(2, 4, 3, padding=1, groups=2), nn.Tanh(), nn.BatchNorm2d(4), nn.MaxPool2d(2, 1),
        nn.Conv2d(4, 3, 2, stride=2, dilation=1), nn.Tanh(), nn.AvgPool2d(2, 1, 1, count_include_pad=False),
        nn.LayerNorm([3, 3]), nn.Tanh(), nn.AdaptiveAvgPool2d((2, 1)), nn.Flatten(), nn.Linear(6, 1))


@pytest.mark.parametrize("make", [penalty_net, lenet], ids=["all_layers", "lenet"])
def test_gradient_penalty_second_derivatives_match_torch(torch, make):
    """d/dw of |dy/dx|^2 (the WGAN-GP penalty): double backward through conv, pooling and the norms."""
    t_net, m_net = make(torch), make(minigrad)
    copy_state(t_net, m_net)
    shape = (3, 2, 6, 6) if make is penalty_net else (2, 1, 32, 32)
    x = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    for lib, net in ((torch, t_net), (minigrad, m_net)):
        inp = lib.tensor(x, requires_grad=True)
        (gx,) = lib.autograd.grad(lib.tanh(net(inp)).sum(), inp, create_graph=True)
        (gx * gx).sum().backward()
    for (name, p), (_, q) in zip(m_net.named_parameters(), t_net.named_parameters()):
        assert_close(p.grad, q.grad, f"penalty gradient of {name}", rtol=1e-3, atol=1e-5)


def test_embedding_double_backward_matches_torch(torch):
    """padding_idx and scale_grad_by_freq shape the gradient; its own gradient (w.r.t. the upstream one) too."""
    idx = np.array([[2, 0, 2, 1], [3, 2, 1, 1]])
    w0 = np.random.default_rng(5).standard_normal((5, 3)).astype(np.float32)
    results = {}
    for lib in (torch, minigrad):
        w = lib.tensor(w0, requires_grad=True)
        out = lib.nn.functional.embedding(lib.tensor(idx), w, padding_idx=1, scale_grad_by_freq=True)
        up = lib.tensor(np.linspace(-1, 1, out.numel(), dtype=np.float32).reshape(tuple(out.shape)),
                        requires_grad=True)
        (gw,) = lib.autograd.grad(out, w, up, create_graph=True)
        (gw ** 2).sum().backward()
        results[lib] = gw, up.grad
    for k, what in enumerate(("weight gradient", "its gradient w.r.t. the upstream gradient")):
        assert_close(results[minigrad][k], results[torch][k], what)
