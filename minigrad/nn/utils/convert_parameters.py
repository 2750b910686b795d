"""A model's parameters as one flat vector and back. Mirrors `torch.nn.utils.convert_parameters`."""
from ..._tensor.functions import cat
from ..._tensor.tensor import Tensor
from ..module_checks import typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """Return the parameters flattened and concatenated into one vector (in the graph: its grad flows back).

    Example:
        >>> vec = parameters_to_vector(model.parameters())      # vec.numel() == sum(p.numel() for p in ...)
    """
    return cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Set each parameter's data to the next `param.numel()` elements of `vec`, in order."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param
