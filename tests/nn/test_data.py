"""utils.data against real torch: datasets, samplers, DataLoader batches (collated as torch's default_collate
does), random_split, the shuffle order from a generator, and torch's errors; `import torch.utils.data` works."""
import collections
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import minigrad


Point = collections.namedtuple("Point", "x y")


def tensors(lib, n=10):
    X = lib.arange(3.0 * n).reshape(n, 3)
    y = lib.arange(n) % 3
    return X, y


def batches(loader):
    return [batch for batch in loader]


def plain(value):
    """Tensors as nested lists (with their dtype), so that two passes can be compared with ==."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return (value.tolist(), str(value.dtype)) if hasattr(value, "tolist") else value


def test_tensor_dataset(parity):
    def example(lib):
        X, y = tensors(lib)
        dataset = lib.utils.data.TensorDataset(X, y)
        return len(dataset), dataset[2], dataset[-1], dataset[1:3], len(dataset.tensors)
    parity(example)


def test_tensor_dataset_size_mismatch(parity):
    parity(lambda lib: lib.utils.data.TensorDataset(lib.zeros(4, 2), lib.zeros(3)))


@pytest.mark.parametrize("options", [{}, {"batch_size": 4}, {"batch_size": 4, "drop_last": True},
                                     {"batch_size": 10}, {"batch_size": 32}, {"batch_size": None},
                                     {"batch_size": 3, "num_workers": 2}])
def test_loader_batches_and_len(parity, options):
    def example(lib):
        loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(*tensors(lib)), **options)
        first, second = batches(loader), batches(loader)      # a loader can be iterated again and again
        return len(loader), first, plain(first) == plain(second), len(iter(loader))
    parity(example)


SAMPLES = {
    "numbers": [1, 2, 3],
    "floats": [0.5, 1.5, -2.0],
    "bools": [True, False, True],
    "strings": ["a", "bb", "c"],
    "tuples": [(1, 0.5, "x"), (2, 1.5, "y"), (3, 2.5, "z")],
    "lists": [[1, 2.0], [3, 4.0], [5, 6.0]],
    "dicts": [{"a": 1, "b": [0.5, 1]}, {"a": 2, "b": [1.5, 2]}, {"a": 3, "b": [2.5, 3]}],
    "namedtuples": [Point(1, 2.0), Point(3, 4.0), Point(5, 6.0)],
    "numpy_arrays": [np.array([1.0, 2.0]), np.array([3.0, 4.0]), np.array([5.0, 6.0])],
    "numpy_float32": [np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32)],
    "numpy_scalars": [np.float64(1.5), np.float64(2.5)],
    "numpy_ints": [np.int64(1), np.int64(2)],
    "tensor_scalars": "tensor",
    "nested": [({"x": np.array([1, 2])}, [1, (2.0, "s")]), ({"x": np.array([3, 4])}, [5, (6.0, "t")])],
}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_default_collate_matches_torch(parity, name):
    def example(lib):
        samples = SAMPLES[name] if SAMPLES[name] != "tensor" else [lib.tensor(1.0), lib.tensor(2.0)]
        batch = lib.utils.data.default_collate(samples)
        converted = lib.utils.data.default_convert(samples[0])
        return batch, type(batch).__name__, converted, type(converted).__name__
    parity(example)


@pytest.mark.parametrize("samples", [[object(), object()], [[1, 2], [3]], [np.array(["a"]), np.array(["b"])],
                                     [None, None], [{"a": 1}, {"b": 2}]],
                         ids=["object", "ragged", "numpy_strings", "none", "missing_key"])
def test_default_collate_errors(parity, samples):
    def example(lib):
        try:
            lib.utils.data.default_collate(samples)
        except TypeError as exc:               # the type's name differs (<class 'object'> has no address) but not
            return "TypeError", str(exc)       # the message
    parity(example)


class Squares:
    """A map-style dataset of dicts, written as a tutorial would (no base class needed)."""

    def __init__(self, lib, n):
        self.lib, self.n = lib, n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": self.lib.tensor([float(i)]), "y": i * i, "name": f"s{i}"}


def test_loader_of_a_custom_dataset_with_custom_collate(parity):
    def example(lib):
        data = lib.utils.data
        by_default = batches(data.DataLoader(Squares(lib, 5), batch_size=2))
        custom = batches(data.DataLoader(Squares(lib, 5), batch_size=2, collate_fn=lambda b: [s["y"] for s in b]))
        return by_default, custom
    parity(example)


def test_samplers_and_batch_samplers(parity):
    def example(lib):
        data = lib.utils.data
        X, y = tensors(lib)
        dataset = data.TensorDataset(X, y)
        sequential = data.SequentialSampler(dataset)
        batch_sampler = data.BatchSampler(sequential, batch_size=3, drop_last=False)
        loader = data.DataLoader(dataset, batch_sampler=data.BatchSampler(range(9, -1, -2), 2, drop_last=True))
        with_sampler = data.DataLoader(dataset, sampler=[4, 1, 1], batch_size=2)
        return (list(sequential), len(sequential), list(batch_sampler), len(batch_sampler),
                list(data.BatchSampler(range(10), 4, True)), batches(loader), len(loader), batches(with_sampler))
    parity(example)


def test_subset_concat_and_iterable_datasets(parity):
    def example(lib):
        data = lib.utils.data
        dataset = data.TensorDataset(*tensors(lib))
        subset = data.Subset(dataset, [7, 2, 5])
        both = dataset + subset

        class Stream(data.IterableDataset):
            def __iter__(self):
                return iter(range(7))

            def __len__(self):
                return 7
        streamed = [batches(data.DataLoader(Stream(), batch_size=3, drop_last=d)) for d in (False, True)]
        return (len(subset), subset[1], subset[[0, 2]], batches(data.DataLoader(subset, batch_size=2)), len(both),
                both[11], both[-1], streamed, len(data.DataLoader(Stream(), batch_size=3)),
                batches(data.DataLoader(Stream(), batch_size=None))[:3])
    parity(example)


@pytest.mark.parametrize("lengths", [[7, 3], [0.5, 0.3, 0.2], [0.33, 0.33, 0.34], [1.0, 0.0], [0.6, 0.5], [4, 4],
                                     [1.5, -0.5]])
def test_random_split_lengths_and_errors(parity, lengths):
    def example(lib):
        parts = lib.utils.data.random_split(lib.utils.data.TensorDataset(*tensors(lib)), lengths)
        indices = sorted(i for part in parts for i in part.indices)
        return [len(part) for part in parts], indices == list(range(10))
    parity(example)


@pytest.mark.parametrize("options", [
    {"num_workers": -1}, {"timeout": -1}, {"prefetch_factor": 2}, {"num_workers": 1, "prefetch_factor": -1},
    {"persistent_workers": True}, {"batch_sampler": [[0, 1]], "batch_size": 2}, {"batch_sampler": [[0]],
                                                                                "shuffle": True},
    {"batch_size": None, "drop_last": True}, {"sampler": [0, 1], "shuffle": True},
    {"multiprocessing_context": "spawn"}, {"timeout": 5},
], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_loader_option_errors(parity, options):
    parity(lambda lib: batches(lib.utils.data.DataLoader(lib.utils.data.TensorDataset(*tensors(lib)), **options)))


def test_loader_attributes_are_fixed_and_pin_memory_warns(parity):
    def example(lib):
        loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(*tensors(lib, 4)), batch_size=2,
                                           pin_memory=True)
        out = batches(loader)
        loader.num_workers = 0                       # allowed
        try:
            loader.batch_size = 3
        except ValueError as exc:
            return out, str(exc), type(loader.sampler).__name__, type(loader.batch_sampler).__name__
    parity(example)


def test_sampler_errors(parity):
    def example(lib):
        data = lib.utils.data
        errors = []
        for make in (lambda: data.BatchSampler(range(3), 0, False), lambda: data.BatchSampler(range(3), 2, 1),
                     lambda: data.RandomSampler(range(3), replacement=1), lambda: data.RandomSampler([], ),
                     lambda: data.RandomSampler(range(3), num_samples=0),
                     lambda: data.WeightedRandomSampler([0.5, 0.5], 0)):
            try:
                make()
            except (TypeError, ValueError) as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
        return errors
    parity(example)


# ---- the random order: torch's RandomSampler, driven by the generator ---------------------------------------
@pytest.mark.parametrize("options", [{"batch_size": 4, "shuffle": True},
                                     {"batch_size": 3, "shuffle": True, "drop_last": True}])
def test_shuffle_order_with_a_generator_matches_torch(parity, options):
    def example(lib):
        generator = lib.Generator().manual_seed(2024)
        loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(*tensors(lib, 13)), generator=generator,
                                           **options)
        return [batches(loader) for _ in range(3)]                # a new order at each epoch
    parity(example)


def test_shuffle_order_from_the_global_seed_matches_torch(parity):
    def example(lib):
        lib.manual_seed(0)
        loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(*tensors(lib, 9)), batch_size=4, shuffle=True)
        return [batches(loader) for _ in range(2)], lib.rand(2)   # and the generator moved as torch's did
    parity(example)


def test_random_samplers_and_random_split_match_torch(parity):
    def example(lib):
        data = lib.utils.data
        generator = lib.Generator().manual_seed(7)
        replacement = list(data.RandomSampler(range(5), replacement=True, num_samples=40, generator=generator))
        more = list(data.RandomSampler(range(5), num_samples=12, generator=generator))
        subset = list(data.SubsetRandomSampler([10, 20, 30, 40], generator=generator))
        weighted = [list(data.WeightedRandomSampler([0.1, 0.9, 0.4, 3.0], n, replacement=n > 4, generator=generator))
                    for n in (6, 3, 9)]
        parts = data.random_split(range(10), [0.7, 0.3], generator=lib.Generator().manual_seed(42))
        lib.manual_seed(3)
        default = data.random_split(range(6), [3, 3])
        return replacement, more, subset, weighted, [p.indices for p in parts], [p.indices for p in default]
    parity(example)


def test_import_torch_utils_data_statement(tmp_path):
    """A tutorial's `import torch.utils.data` and `from torch.utils.data import ...` run on minigrad."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tutorials"))
    try:
        from _harness import run_program
    finally:
        sys.path.pop(0)
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent("""
        import torch
        import torch.utils.data
        from torch.utils.data import DataLoader, TensorDataset
        loader = DataLoader(TensorDataset(torch.arange(6.0).reshape(3, 2), torch.arange(3)), batch_size=2)
        print(torch.utils.data.DataLoader is DataLoader, [len(x) for x, y in loader], len(loader))
        print(torch.optim.lr_scheduler.StepLR.__name__)
    """))
    run = run_program(program, "minigrad")
    assert run.exit_status == 0 and run.raised is None, run.stderr
    assert run.stdout.splitlines() == ["True [2, 1] 2", "StepLR"]
