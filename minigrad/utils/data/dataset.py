"""Datasets: `Dataset`, `TensorDataset`, `Subset`, `ConcatDataset`, `random_split`. Mirrors `torch.utils.data`.

A map-style dataset is anything with `__getitem__(i)` and `__len__()`: sample i of n. An iterable-style
dataset (`IterableDataset`) is a stream with `__iter__()` instead.
"""
import bisect
import itertools
import math
import types
import warnings

from ..._tensor.creation import randperm

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "ChainDataset", "Subset",
           "random_split"]


class Dataset:
    """The base class of map-style datasets: subclasses write `__getitem__` (and usually `__len__`).

    Example:
        >>> class Squares(torch.utils.data.Dataset):
        ...     def __len__(self):
        ...         return 10
        ...     def __getitem__(self, i):
        ...         return torch.tensor([float(i)]), torch.tensor([float(i * i)])
    """

    __class_getitem__ = classmethod(types.GenericAlias)     # `Sampler[int]`, as PyTorch's generic classes

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """The base class of stream-like datasets: subclasses write `__iter__`. Mirrors `torch.utils.data`."""

    def __iter__(self):
        raise NotImplementedError

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Sample i is `(t[i] for t in tensors)`: the rows of tensors that share their first dimension.

    Example:
        >>> dataset = TensorDataset(X, y)       # X of shape (N, 3), y of shape (N,)
        >>> x0, y0 = dataset[0]
    """

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """The samples of several datasets one after the other (`dataset_a + dataset_b` makes one)."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if dataset_idx == 0 else idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]


class ChainDataset(IterableDataset):
    """The samples of several iterable datasets, one stream after the other."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self):
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(d)
        return total


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order: `Subset(d, [3, 0])[1]` is `d[0]`."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices
        if type(self).__getitem__ is not Subset.__getitem__ and type(self).__getitems__ is Subset.__getitems__:
            raise NotImplementedError(
                f"{type(self).__name__} overrides __getitem__ but not __getitems__. When subclassing Subset and "
                "overriding __getitem__, you must also override __getitems__ to ensure DataLoader works correctly "
                "with your custom logic. A simple implementation:\n\ndef __getitems__(self, indices):\n"
                "    return [self.__getitem__(idx) for idx in indices]")

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices):
        """Fetch a batch of samples at once (the DataLoader calls this when a dataset has it)."""
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[idx] for idx in indices])
        return [self.dataset[self.indices[idx]] for idx in indices]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Split `dataset` at random into non-overlapping `Subset`s of the given lengths (or fractions summing to 1).

    Fractions become floor(fraction * len(dataset)) samples, the remainder given out one by one from the first
    split on. The shuffle is `torch.randperm(len(dataset), generator=generator)` (the default generator when
    None). Mirrors `torch.utils.data.random_split`.

    Example:
        >>> train_set, test_set = random_split(dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(math.floor(len(dataset) * frac))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[offset - length:offset])
            for offset, length in zip(itertools.accumulate(lengths), lengths)]


class StackDataset(Dataset):
    """Zip datasets of equal length: item i is the tuple (or, given by keyword, the dict) of their items i.
    Mirrors `torch.utils.data.StackDataset`.

    Example:
        >>> StackDataset(images, labels)[0] == (images[0], labels[0])
        >>> StackDataset(image=images, label=labels)[0] == {"image": images[0], "label": labels[0]}
    """

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like "
                             "input/output, but both types are given.")
        if not (args or kwargs):
            raise ValueError("At least one dataset should be passed")
        parts = args or list(kwargs.values())
        self._length = len(parts[0])
        if any(self._length != len(dataset) for dataset in parts):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args or kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: dataset[index] for k, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __getitems__(self, indices):
        """A batch of items, each part fetched with its dataset's own `__getitems__` where it has one."""
        named = isinstance(self.datasets, dict)
        parts = self.datasets.items() if named else enumerate(self.datasets)
        batch = [{} for _ in indices]
        for key, dataset in parts:
            if callable(getattr(dataset, "__getitems__", None)):
                items = dataset.__getitems__(indices)
                if len(items) != len(indices):
                    raise ValueError(f"Nested dataset's output size mismatch. Expected {len(indices)}, "
                                     f"got {len(items)}")
            else:
                items = [dataset[idx] for idx in indices]
            for sample, item in zip(batch, items):
                sample[key] = item
        return batch if named else [tuple(sample.values()) for sample in batch]

    def __len__(self):
        return self._length
