"""LazyLinear: parameters without a shape until the first forward, then an ordinary Linear, as in torch."""
import pytest

import minigrad


def lazy_story(lib):
    lib.manual_seed(0)
    layer = lib.nn.LazyLinear(3)
    before = (repr(layer), type(layer.weight).__name__, repr(layer.weight), layer.has_uninitialized_params())
    layer.weight.data.normal_(0, 0.01)          # d2l does this; the first forward draws the weights again
    layer.bias.data.fill_(0)
    optimizer = lib.optim.SGD(layer.parameters(), lr=0.1)
    out = layer(lib.ones(2, 4))
    out.sum().backward()
    optimizer.step()
    after = (repr(layer), type(layer).__name__, type(layer.weight).__name__, tuple(layer.weight.shape),
             layer.weight.detach().tolist(), layer.bias.detach().tolist(),
             optimizer.param_groups[0]["params"][0] is layer.weight, lib.rand(1).tolist())
    return before, after


def test_lazy_linear_materializes_in_place_and_draws_as_torch(parity):
    parity(lazy_story, rtol=0, atol=0)    # the same draws: equal numbers


def test_an_uninitialized_parameter_has_no_shape(torch):
    for lib in (torch, minigrad):
        with pytest.raises(RuntimeError, match="Can't access the shape of an uninitialized parameter"):
            lib.nn.LazyLinear(2).weight.shape
