"""Parity with real PyTorch for state_dict and load_state_dict: keys, detached values, round trips through numpy,
and the errors for missing, unexpected and mis-shaped entries."""
import numpy as np

import minigrad
from nn_examples import deterministic, make_net, make_tree


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
