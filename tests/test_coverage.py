"""docs/coverage.md, the table of what minigrad has of PyTorch, is current; and what it refuses on purpose
(minigrad/compat/refused.py) really raises its sentence and never hides a name minigrad has."""
import difflib
import importlib
import importlib.util
from pathlib import Path

import pytest
from torch_reference import import_torch

import minigrad
from minigrad.compat.refused import REFUSED, refusal

ROOT = Path(__file__).resolve().parents[1]
COVERAGE_MD = ROOT / "docs" / "coverage.md"


def coverage_table():
    """The generator, .ci/coverage_table.py, loaded as a module (.ci is no package)."""
    spec = importlib.util.spec_from_file_location("coverage_table", ROOT / ".ci" / "coverage_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def namespace(torch_name):
    """minigrad's object for torch's namespace `torch_name`: a module, or a tensor for `torch.Tensor`."""
    if torch_name == "torch.Tensor":
        return minigrad.ones(2)
    return importlib.import_module("minigrad" + torch_name[len("torch"):])


# Names each category refuses, as (torch's namespace, name): one sample per namespace that has a hook.
SAMPLES = {
    "GPUs and other devices": [("torch", "accelerator"), ("torch.Tensor", "pin_memory"), ("torch.cuda", "Event"),
                               ("torch", "cudnn_convolution"), ("torch.Tensor", "xpu")],
    "mixed precision": [("torch", "autocast"), ("torch", "amp"), ("torch", "GradScaler")],
    "dtypes numpy lacks": [("torch", "bfloat16"), ("torch.Tensor", "bfloat16"), ("torch", "float8_e4m3fn"),
                           ("torch.nn.functional", "scaled_mm")],
    "complex numbers": [("torch", "complex"), ("torch", "fft"), ("torch.Tensor", "imag"), ("torch", "view_as_real")],
    "sparse tensors": [("torch", "sparse_coo_tensor"), ("torch.Tensor", "to_sparse"), ("torch.Tensor", "values"),
                       ("torch.optim", "SparseAdam")],
    "nested tensors": [("torch", "nested"), ("torch.Tensor", "to_padded_tensor")],
    "quantization": [("torch", "quantize_per_tensor"), ("torch.Tensor", "q_scale"), ("torch.nn", "quantized"),
                     ("torch", "ao")],
    "distributed and multiprocess": [("torch", "distributed"), ("torch.nn", "parallel"),
                                     ("torch.utils.data", "DistributedSampler"), ("torch.Tensor", "share_memory_")],
    "compilers and graph capture": [("torch", "compile"), ("torch", "jit"), ("torch", "fx"), ("torch", "export"),
                                    ("torch", "view_copy"), ("torch.Tensor", "narrow_copy")],
    "ONNX": [("torch", "onnx")],
    "storages": [("torch", "UntypedStorage"), ("torch.Tensor", "untyped_storage"), ("torch.Tensor", "set_")],
    "ATen's kernel entry points": [("torch", "native_layer_norm"), ("torch", "lstm"),
                                   ("torch.nn.functional", "conv_tbc"), ("torch.Tensor", "unsafe_split")],
    "DataPipes": [("torch.utils.data", "IterDataPipe"), ("torch.utils.data", "functional_datapipe")],
    "PyTorch's tooling": [("torch", "profiler"), ("torch", "hub"), ("torch.autograd", "profiler")],
    "removed from PyTorch": [("torch.Tensor", "eig"), ("torch.Tensor", "symeig")],
}
HOOKED = sorted({ns for samples in SAMPLES.values() for ns, _ in samples})


def raised(torch_name, name):
    """The AttributeError message minigrad raises for `torch_name.name`, or None if it has the name."""
    try:
        getattr(namespace(torch_name), name)
    except AttributeError as error:
        return str(error)
    return None


def test_every_category_has_samples():
    assert sorted(SAMPLES) == sorted(REFUSED), "received categories without samples (or samples of no category)"


@pytest.mark.parametrize("category, torch_name, name",
                         [(c, ns, n) for c, samples in SAMPLES.items() for ns, n in samples])
def test_a_refused_name_raises_its_category_sentence(category, torch_name, name):
    expected = REFUSED[category][0].format(name=f"{torch_name}.{name}")
    assert raised(torch_name, name) == expected
    assert not hasattr(namespace(torch_name), name), "a refusal must leave hasattr() False, as a missing name does"


@pytest.mark.parametrize("torch_name", [ns for ns in HOOKED if ns != "torch.cuda"])  # there, every name is refused
def test_an_unknown_name_raises_pythons_own_error(torch_name):
    where = namespace(torch_name)
    expected = ("'Tensor' object has no attribute 'no_such_name'" if torch_name == "torch.Tensor"
                else f"module {where.__name__!r} has no attribute 'no_such_name'")
    assert raised(torch_name, "no_such_name") == expected


@pytest.mark.parametrize("torch_name, name", [("torch", "compile"), ("torch.Tensor", "to_sparse"),
                                              ("torch.nn", "parallel")])
def test_hasattr_probes_take_their_fallback(torch_name, name):
    """`model = torch.compile(model) if hasattr(torch, "compile") else model` runs the model eagerly."""
    assert getattr(namespace(torch_name), name, "fallback") == "fallback"


@pytest.mark.parametrize("qualname", ["torch.Tensor.is_sparse", "torch.is_complex", "torch.cuda.is_available",
                                      "torch.Tensor._sparse_mask", "torch.index_copy"])
def test_flags_private_names_and_exceptions_are_never_refused(qualname):
    assert refusal(qualname) is None


def exact_patterns():
    """The patterns that name one name (no wildcard): (pattern, category)."""
    return [(p, c) for c, (_, patterns) in REFUSED.items() for p in patterns
            if not p.startswith("!") and not any(ch in p for ch in "*?[")]


@pytest.mark.parametrize("torch_name", HOOKED)
def test_no_refused_name_is_one_minigrad_has(torch_name):
    """A name listed in REFUSED that minigrad has (someone built it) is a stale refusal: the hooks never fire for
    it, but the list would claim it is left out."""
    where = namespace(torch_name)
    stale = []
    for pattern, category in exact_patterns():
        qualname = pattern if "." in pattern else f"{torch_name}.{pattern}"
        owner, _, name = qualname.rpartition(".")
        if owner == torch_name and name in dir(where):
            stale.append(f"{qualname} ({category})")
    assert not stale, ("received names that minigrad has but minigrad/compat/refused.py lists as refused; remove "
                       "them from REFUSED: " + ", ".join(stale))


def test_coverage_md_is_current():
    import_torch()
    expected = coverage_table().build()
    current = COVERAGE_MD.read_text() if COVERAGE_MD.exists() else ""
    if current != expected:
        diff = "".join(list(difflib.unified_diff(current.splitlines(True), expected.splitlines(True),
                                                 "docs/coverage.md", "regenerated", n=0))[:40])
        pytest.fail("docs/coverage.md is stale: refresh it with `.venv/bin/python .ci/coverage_table.py` "
                    f"(make coverage)\n{diff}", pytrace=False)


def test_every_refused_name_of_the_table_raises_on_minigrad():
    torch = import_torch()
    table = coverage_table()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = table.classify(torch)
    wrong = []
    for torch_name, row in rows.items():
        for name, category in row["refused"]:
            message = raised(torch_name, name)
            if message != REFUSED[category][0].format(name=f"{torch_name}.{name}"):
                wrong.append(f"{torch_name}.{name}: {message!r}")
    assert not wrong, "received refused names that minigrad does not refuse with their sentence:\n" + "\n".join(wrong)


def test_the_patterns_match_names_as_fnmatch_does():
    """The rule a reader of REFUSED relies on: a bare pattern matches the last name, case-sensitively."""
    assert refusal("torch.nn.functional.conv_tbc")[0] == "ATen's kernel entry points"
    assert refusal("torch.Conv_tbc") is None
