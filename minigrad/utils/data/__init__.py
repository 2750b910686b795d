"""Datasets, samplers and the DataLoader of a training loop. Mirrors `torch.utils.data`."""
from ...compat import refused as _refused
__getattr__ = _refused.module_getattr(__name__)  # what minigrad leaves out on purpose, and why
from ._collate import default_collate, default_convert
from .dataloader import DataLoader, get_worker_info
from .dataset import ChainDataset, ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                      WeightedRandomSampler)
from .dataset import StackDataset

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler", "TensorDataset",
           "WeightedRandomSampler", "default_collate", "default_convert", "get_worker_info", "random_split"]
__all__ += ["StackDataset"]
