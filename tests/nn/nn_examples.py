"""Models shared by the parity tests, written once against the public API of `lib` (torch or minigrad)."""
import numpy as np


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
