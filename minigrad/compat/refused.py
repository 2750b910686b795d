"""What minigrad leaves out of PyTorch on purpose, and the one sentence it says when a program asks for it.

`REFUSED` is the list a reader edits: each category has the sentence minigrad raises and the name patterns it
covers (`fnmatch` patterns, case-sensitive). A bare pattern (`cuda*`) matches a name in every namespace; a dotted
one (`torch.cuda.*`, `torch.Tensor.values`) matches the full name. A name minigrad has is never refused: the
hooks below are `__getattr__`s, which Python calls only when the normal lookup fails. The coverage table
(`.ci/coverage_table.py` writes docs/coverage.md) reads this list too.

The refusal is an `AttributeError`, the error a missing name raises anyway, so `hasattr(torch, "compile")` is
False and `getattr(torch, "compile", None)` is None: programs that probe for a feature take their fallback.
Flags that programs read to decide (`is_*`: `torch.cuda.is_available()`, `Tensor.is_sparse`, `torch.is_complex`)
are never refused: PyTorch on a CPU answers them (False), and so should minigrad.
"""
from fnmatch import fnmatchcase

REFUSED = {
    "GPUs and other devices": (
        "minigrad runs on the CPU only: {name} is not available",
        ["torch.cuda.*", "cuda*", "*_cuda*", "cudnn*", "miopen*", "mps*", "xpu", "ipu", "mtia", "accelerator",
         "Stream", "Event", "AcceleratorError", "OutOfMemoryError", "pin_memory", "record_stream", "*_gpu_*",
         "*_ipu_*", "*_xla_*"]),
    "mixed precision": (
        "minigrad has no mixed precision: {name} is not available; compute in float32",
        ["amp", "autocast", "*autocast*", "GradScaler"]),
    "dtypes numpy lacks": (
        "minigrad computes with numpy, which has no such dtype: {name} is not available",
        ["bfloat16", "BFloat16*", "float8_*", "float4_*", "bit", "bits*", "int[1-7]", "uint[1-7]",
         "scaled_mm", "scaled_grouped_mm", "ScalingType", "SwizzleType"]),
    "complex numbers": (
        "minigrad has real tensors only: {name} (complex numbers) is not available",
        ["complex", "complex32", "chalf", "torch.Tensor.cfloat", "torch.Tensor.cdouble", "polar", "imag", "view_as_complex*",
         "view_as_real*", "fft", "stft", "istft"]),
    "sparse tensors": (
        "minigrad has dense (strided) tensors only: {name} (sparse tensors) is not available",
        ["*sparse*", "Sparse*", "smm", "spmm", "hspmm", "hsmm", "dsmm", "saddmm", "sspaddmm", "coalesce",
         "crow_indices*", "col_indices*", "ccol_indices*", "row_indices*", "indices_copy", "values_copy",
         "torch.Tensor.indices", "torch.Tensor.values", "dense_dim", "sparse_dim", "to_dense", "segment_reduce"]),
    "nested tensors": (
        "minigrad has no nested (jagged) tensors: {name} is not available",
        ["nested", "jagged", "to_padded_tensor"]),
    "quantization": (
        "minigrad has no quantization: {name} is not available",
        ["quantiz*", "*quantize*", "quantized_*", "q_*", "qint*", "quint*", "qscheme", "per_channel_*",
         "per_tensor_*", "int_repr", "dequantize", "*fake_quant*", "choose_qparams*", "fbgemm_*", "ao", "qat",
         "intrinsic"]),
    "distributed and multiprocess": (
        "minigrad runs in one process: {name} (distributed training, shared memory) is not available",
        ["distributed", "DistributedSampler", "parallel", "SyncBatchNorm", "multiprocessing", "share_memory_",
         "futures"]),
    "compilers and graph capture": (
        "minigrad runs eagerly, without a compiler: {name} is not available (nor TorchScript, torch.compile, "
        "fx or export)",
        ["compile", "compiler", "jit", "fx", "export", "cond", "while_loop", "fork", "wait", "ScriptFunction",
         "CompilationUnit", "JITException", "classes", "library", "cpp", "parse_ir", "parse_schema",
         "parse_type_comment", "merge_type_from_type_comment", "import_ir_module*", "unify_type_list", "AVG",
         "SUM", "Sym*", "sym_*", "*_copy", "!index_copy"]),
    "ONNX": (
        "minigrad cannot export models: {name} (ONNX) is not available",
        ["onnx"]),
    "storages": (
        "minigrad tensors are numpy arrays, without PyTorch's storages: {name} is not available",
        ["*Storage", "storage", "untyped_storage", "storage_type", "from_file", "set_"]),
    "ATen's kernel entry points": (
        "{name} is one of the kernels that PyTorch's layers call; minigrad does not expose them: use the layer "
        "in torch.nn or torch.nn.functional",
        ["native_*", "batch_norm_*", "*mkldnn*", "rnn_tanh*", "rnn_relu*", "torch.lstm*", "torch.gru*",
         "unsafe_*", "embedding_renorm_", "constant_pad_nd", "conv_tbc", "grid_sampler*", "affine_grid_generator",
         "norm_except_dim", "slice_inverse", "torch.Tensor.map2_", "torch.Tensor.map_"]),
    "DataPipes": (
        "minigrad has no DataPipes (PyTorch deprecated them): {name} is not available; use Dataset and DataLoader",
        ["*DataPipe", "DataChunk", "datapipes", "functional_datapipe", "guaranteed_datapipes_determinism",
         "non_deterministic", "runtime_validation*", "argument_validation", "torch.utils.data.graph*"]),
    "PyTorch's tooling": (
        "minigrad leaves out PyTorch's tooling: {name} (profiler, hub, packaging, monitoring) is not available",
        ["profiler*", "monitor", "package", "hub", "DisableTorchFunction*", "overrides"]),
    "removed from PyTorch": (
        "{name} was removed from PyTorch, and minigrad does not have it either",
        ["torch.Tensor.eig", "torch.Tensor.lstsq", "torch.Tensor.solve", "torch.Tensor.symeig",
         "torch.Tensor.volatile", "torch.Tensor.reinforce"]),
}
"""{category: (sentence with {name}, patterns)}; a pattern `!name` keeps that name out of the category."""


def refusal(qualname):
    """Return (category, sentence) when minigrad refuses `qualname` (`torch.nn.functional.x`), else None."""
    name = qualname.rpartition(".")[2]
    if name.startswith(("_", "is_")):
        return None
    for category, (sentence, patterns) in REFUSED.items():
        if any(fnmatchcase(name, p[1:]) for p in patterns if p.startswith("!")):
            continue
        if any(fnmatchcase(qualname if "." in p else name, p) for p in patterns if not p.startswith("!")):
            return category, sentence.format(name=qualname)
    return None


def torch_name(module_name):
    """`minigrad.nn.functional` -> `torch.nn.functional`: the refusals speak of the name the program wrote."""
    return "torch" + module_name[len("minigrad"):] if module_name.startswith("minigrad") else module_name


def module_getattr(module_name):
    """Return a module's `__getattr__`: the refusal's sentence for a refused name, Python's own error otherwise.

    Example: in minigrad/__init__.py, `__getattr__ = module_getattr(__name__)`; then `minigrad.compile` raises
    `AttributeError: minigrad runs eagerly, without a compiler: torch.compile is not available (...)`.
    """
    prefix = torch_name(module_name)

    def __getattr__(name):
        found = refusal(f"{prefix}.{name}")
        message = found[1] if found else f"module {module_name!r} has no attribute {name!r}"
        raise AttributeError(message, name=name)

    return __getattr__


def attribute_getattr(class_name):
    """Return a class's `__getattr__`, as `module_getattr` does for a module (`torch.Tensor` for Tensor)."""

    def __getattr__(self, name):
        found = refusal(f"{class_name}.{name}")
        message = found[1] if found else f"{type(self).__name__!r} object has no attribute {name!r}"
        raise AttributeError(message, name=name, obj=self)

    return __getattr__
