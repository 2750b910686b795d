"""Hidden cases for chapter 2: deeper and wider models, float64 layers, layers with weights that are not Linear."""
import minigrad as torch
from minigrad import nn

from widgets.exercises import check, expect


class _Block(nn.Module):
    """A Module of its own with a Linear, a LayerNorm (a weight and a bias, but no Linear) and a nested list."""

    def __init__(self, shared):
        super().__init__()
        self.proj = nn.Linear(4, 2, dtype=torch.float64)
        self.norm = nn.LayerNorm(2)
        self.stages = nn.ModuleList([nn.Sequential(nn.ReLU(), nn.Sequential(nn.Linear(2, 5), shared))])


def _model():
    shared = nn.Linear(5, 5)                          # one layer in two places: apply visits it twice
    return nn.Sequential(_Block(shared), nn.Sequential(nn.Sequential(nn.Tanh(), nn.Linear(5, 3))), shared)


def _is_constant(t, value):
    return torch.equal(t.detach(), torch.full_like(t.detach(), value))


@check("init_constant also sets every Linear of a deeper model, a float64 one included, and nothing else.")
def check_init_constant(init_constant):
    model = _model()
    params = list(model.named_parameters())
    model.apply(init_constant)
    for (name, before), (_, after) in zip(params, model.named_parameters()):
        expect(after is before and after.requires_grad and after.is_leaf,
               f"in a deeper model, {name} is no longer the same Parameter, a leaf that requires grad.")
    linears = [m for m in model.modules() if isinstance(m, nn.Linear)]
    for layer in linears:
        expect(_is_constant(layer.weight, 0.5) and _is_constant(layer.bias, 0.0),
               f"in a model three levels deep, a Linear({layer.in_features}, {layer.out_features}) does not "
               "have weight 0.5 and bias 0.")
    expect(linears[0].weight.dtype == torch.float64, "a float64 Linear's weight is no longer float64.")
    norm = model[0].norm
    expect(_is_constant(norm.weight, 1.0) and _is_constant(norm.bias, 0.0),
           "a LayerNorm, which has a weight and a bias but is not an nn.Linear, was changed: set only Linear "
           "layers.")
    alone = nn.Linear(3, 1)
    init_constant(alone)
    expect(_is_constant(alone.weight, 0.5) and _is_constant(alone.bias, 0.0),
           "called on a single Linear(3, 1) (not through apply), init_constant did not set it.")


@check("my_apply also follows a deeper model, custom Modules, ModuleLists and a shared layer, as apply does.")
def check_my_apply(my_apply):
    model = _model()
    expected = []
    model.apply(expected.append)
    visited = []
    result = my_apply(model, visited.append)
    names = [type(m).__name__ for m in visited]
    expect(len(visited) == len(expected), f"on a model five levels deep, my_apply called fn {len(visited)} "
                                          f"times, Module.apply calls it {len(expected)} times.")
    expect(all(a is b for a, b in zip(visited, expected)), f"on a model five levels deep, my_apply visited "
                                                           f"{names}, not in Module.apply's order.")
    expect(result is model, "on a deeper model, my_apply did not return the module it was called on.")
    alone, visited = nn.Linear(2, 2), []
    result = my_apply(alone, visited.append)
    expect(len(visited) == 1 and visited[0] is alone and result is alone,
           "on a single Linear (no children), my_apply should call fn once, on it, and return it.")
