"""`TorchVersion`: a version string that compares as a version, with strings and tuples. Mirrors
`torch.torch_version`, so that `torch.__version__ >= "2.0"` and `torch.__version__ >= (2, 0)` both work.

PyTorch compares with `packaging.version`; minigrad imports numpy only, so the two parts that releases of PyTorch
and minigrad have are read here: the release numbers ("2.13.0+cpu" -> (2, 13, 0); "2.13" equals "2.13.0") and the
local label after "+" (a version with one sorts after the same version without, and differs from it). Pre- and
post-release tags ("2.0rc1") are not compared.
"""
import re

__all__ = ["TorchVersion"]


def _key(version, width):
    """(release numbers padded with zeros to `width`, has a local label, the label) of a string or a tuple."""
    if isinstance(version, tuple):
        version = ".".join(str(part) for part in version)
    match = re.fullmatch(r"\s*v?(\d+(?:\.\d+)*)[^+]*(?:\+(\S+))?\s*", str(version))
    if match is None:
        raise ValueError(f"Invalid version: '{version}'")
    release = tuple(int(part) for part in match.group(1).split("."))
    local = match.group(2)
    return release + (0,) * (width - len(release)), local is not None, local or ""


def _width(*versions):
    return max(len(re.findall(r"\d+", str(v).split("+")[0])) if not isinstance(v, tuple) else len(v) for v in versions)


class TorchVersion(str):
    """A `str` whose comparisons (`<`, `>=`, `==`, ...) compare versions: "0.10" > "0.9"."""

    def _compare(self, other, op):
        width = _width(self, other)
        return op(_key(self, width), _key(other, width))

    def __lt__(self, other):
        return self._compare(other, tuple.__lt__)

    def __le__(self, other):
        return self._compare(other, tuple.__le__)

    def __gt__(self, other):
        return self._compare(other, tuple.__gt__)

    def __ge__(self, other):
        return self._compare(other, tuple.__ge__)

    def __eq__(self, other):
        try:
            return self._compare(other, tuple.__eq__)
        except ValueError:
            return str.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = str.__hash__
