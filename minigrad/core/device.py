"""`device`: where a tensor lives. minigrad computes with numpy, so every tensor is on the CPU.

`torch.device("cuda")` can still be made (code that picks a device prints it), but a tensor sent there gets the
error a CPU-only PyTorch gives: `AssertionError: Torch not compiled with CUDA enabled`.
"""
import re

# the device types PyTorch's parser knows, in the order its error message lists them
_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia", "xla",
          "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::(0|[1-9][0-9]*))?")
NO_CUDA = "Torch not compiled with CUDA enabled"
NO_ACCELERATOR = "Cannot access accelerator device when none is available."
_MISSING = object()


class device:
    """A device type and an optional index, as `torch.device("cpu")`, `torch.device("cuda:1")`,
    `torch.device("cuda", 1)`. Mirrors `torch.device`.

    Example:
        >>> torch.device("cuda" if torch.cuda.is_available() else "cpu")
        device(type='cpu')
    """

    __slots__ = ("type", "index")

    def __init__(self, type=_MISSING, index=None):  # noqa: A002 - PyTorch's name
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            raise RuntimeError(NO_ACCELERATOR)     # torch.device(0) means accelerator 0
        if not isinstance(type, str):
            if index is not None:
                raise TypeError(f"device(): argument 'type' (position 1) must be str, not {builtins_type_name(type)}")
            if type is _MISSING:
                got, why = "", ""
            else:   # a single argument could have been a device: the parser says why it was not
                got = builtins_type_name(type)
                why = f"      didn't match because some of the arguments have invalid types: (!{got}!)\n"
            raise TypeError(f"device() received an invalid combination of arguments - got ({got}), but expected one "
                            f"of:\n * (torch.device device)\n{why} * (str type, int index = -1)\n")
        if index is not None and not isinstance(index, int):
            raise TypeError(f"device(): argument 'index' (position 2) must be int, not {builtins_type_name(index)}")
        match = _DEVICE_STRING.fullmatch(type)
        if match is None:
            raise RuntimeError(f"Invalid device string: '{type}'")
        name, parsed = match.group(1), match.group(2)
        if name not in _TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of device string: {type}")
        if parsed is not None and index is not None:
            raise RuntimeError(f"type (string) must not include an index because index was passed explicitly: {type}")
        index = int(parsed) if parsed is not None else index
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type, self.index = name, index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        # as in PyTorch, a device never equals a string: compare `x.device.type == "cpu"`
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return device, (self.type, self.index)


def builtins_type_name(value):
    return type(value).__name__


CPU = device("cpu")


def check(where):
    """Accept a device argument naming the CPU (None, "cpu", "cpu:0", a cpu `device`); for any other device raise
    the error a CPU-only PyTorch raises."""
    if where is None or where == "cpu" or where is CPU:
        return
    where = device(where)
    if where.type == "cpu":
        return
    if where.type == "cuda":
        raise AssertionError(NO_CUDA)
    if where.type == "xpu":
        raise AssertionError("Torch not compiled with XPU enabled")
    if where.type == "mps":
        raise RuntimeError("PyTorch is not linked with support for mps devices")
    raise RuntimeError(f"minigrad computes with numpy on the CPU only: it has no '{where.type}' device")


_default = [CPU]


def set_default_device(where):
    """Set the device that new tensors go to. Only the CPU works; another device fails where PyTorch's CPU-only build
    fails, when it is used (`get_default_device`). Mirrors `torch.set_default_device`."""
    _default[0] = CPU if where is None else device(where)


def get_default_device():
    check(_default[0])
    return _default[0]
