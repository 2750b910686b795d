"""`DataLoader`: iterate over a dataset in (shuffled) batches. Mirrors `torch.utils.data.DataLoader`.

Each pass asks a batch sampler for lists of indices, fetches those samples and collates them into a batch:
    for indices in batch_sampler:             # BatchSampler(RandomSampler or SequentialSampler, batch_size)
        yield collate_fn([dataset[i] for i in indices])

Worker processes: minigrad loads every batch in the main process. `num_workers > 0` is accepted for a
map-style dataset and gives the same batches in the same order as PyTorch's workers (which only move the
fetching elsewhere), but `worker_init_fn` is not called and `get_worker_info()` stays None; an
IterableDataset, which PyTorch would copy into each worker, raises NotImplementedError instead.
"""
import math
import types
import warnings

from ..._tensor.creation import empty
from ...core.dtype import int64
from ._collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info"]


def get_worker_info():
    """Return None: in minigrad, data is always loaded in the main process (PyTorch's answer there too)."""
    return None


class DataLoader:
    """Batches of a dataset, reshuffled at every pass when `shuffle=True`.

    Args:
        dataset: a map-style dataset (`__getitem__`, `__len__`) or an IterableDataset.
        batch_size: samples per batch (default 1); None yields single samples, converted but not collated.
        shuffle: visit the samples in a new random order at each pass (a RandomSampler over `generator`).
        sampler, batch_sampler: give the order (of indices, or of lists of indices) yourself.
        collate_fn: turn a list of samples into a batch (default `default_collate`).
        drop_last: drop the last batch if it is smaller than batch_size.
        generator: the Generator used for shuffling (and the base seed PyTorch draws per pass).
        num_workers, pin_memory, timeout, worker_init_fn, prefetch_factor, persistent_workers, ...: accepted
            (see the module docstring); the data is loaded in the main process.

    Example:
        >>> loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
        >>> for xb, yb in loader:
        ...     loss = loss_fn(model(xb), yb)
    """

    __class_getitem__ = classmethod(types.GenericAlias)     # `Sampler[int]`, as PyTorch's generic classes

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers)
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError("multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
                             f"but got num_workers={num_workers}")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self._is_iterable = isinstance(dataset, IterableDataset)
        if self._is_iterable:
            _check_iterable_options(shuffle, sampler, batch_sampler, num_workers)
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None:
            if self._is_iterable:
                sampler = _InfiniteConstantSampler()
            else:
                sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._initialized = True

    def __setattr__(self, attr, val):
        if getattr(self, "_initialized", False) and attr in (
                "batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {type(self).__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        """What yields the indices of each fetch: the batch sampler when batching, else the sampler."""
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        """Start a new pass over the data (a new shuffle, when shuffling)."""
        return _SingleProcessDataLoaderIter(self)

    def __len__(self):
        """The number of batches in a pass."""
        if self._is_iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)


class _SingleProcessDataLoaderIter:
    """One pass of a DataLoader: fetch the samples of each index list and collate them."""

    def __init__(self, loader):
        if loader.timeout != 0 and loader.num_workers == 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        if loader.pin_memory:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.", stacklevel=2)
        self._dataset = loader.dataset
        self._is_iterable = loader._is_iterable
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        # PyTorch draws a base seed for its workers at every pass, even without workers: it moves the generator
        self._base_seed = empty((), dtype=int64).random_(generator=loader.generator).item()
        self._dataset_iter = iter(self._dataset) if self._is_iterable else None
        self._ended = False
        self._num_yielded = 0

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._index_sampler)

    def __next__(self):
        index = next(self._sampler_iter)       # may raise StopIteration
        data = self._fetch_iterable(index) if self._is_iterable else self._fetch(index)
        self._num_yielded += 1
        return data

    def _fetch(self, index):
        dataset = self._dataset
        if self._auto_collation:
            if hasattr(dataset, "__getitems__") and dataset.__getitems__:
                data = dataset.__getitems__(index)
            else:
                data = [dataset[idx] for idx in index]
        else:
            data = dataset[index]
        return self._collate_fn(data)

    def _fetch_iterable(self, index):
        if self._ended:
            raise StopIteration
        if not self._auto_collation:
            return self._collate_fn(next(self._dataset_iter))
        data = []
        for _ in index:
            try:
                data.append(next(self._dataset_iter))
            except StopIteration:
                self._ended = True
                break
        if len(data) == 0 or (self._drop_last and len(data) < len(index)):
            raise StopIteration
        return self._collate_fn(data)


class _InfiniteConstantSampler:
    """The sampler of an IterableDataset: None forever (the dataset itself decides when to stop)."""

    def __iter__(self):
        while True:
            yield None


def _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers):
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to "
                         "enable multiprocessing, otherwise set prefetch_factor to None.")
    if prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")


def _check_iterable_options(shuffle, sampler, batch_sampler, num_workers):
    if shuffle not in {False, None}:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                         f"shuffle={shuffle}")
    if sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                         f"sampler={sampler}")
    if batch_sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but got "
                         f"batch_sampler={batch_sampler}")
    if num_workers > 0:
        raise NotImplementedError("minigrad's DataLoader loads data in the main process: an IterableDataset with "
                                  f"num_workers={num_workers} would be copied into each worker by PyTorch; use "
                                  "num_workers=0")
