"""Write docs/coverage.md: for each public name of torch's main namespaces, whether minigrad has it, refuses it on
purpose, or misses it. Needs real torch (`make torch`); run `.venv/bin/python .ci/coverage_table.py`.

What counts as a public name is `RULE` below (it also heads the table); what minigrad refuses on purpose, and the
sentence it raises, is `REFUSED` in minigrad/compat/refused.py. tests/test_coverage.py fails when the table is stale.
"""
import importlib
import importlib.util
import pathlib
import sys
import textwrap
import types

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "coverage.md"
COMMAND = ".venv/bin/python .ci/coverage_table.py"
sys.path.insert(0, str(ROOT))

# torch's namespace -> minigrad's, in the order of the table.
NAMESPACES = {
    "torch": "minigrad",
    "torch.Tensor": "minigrad.Tensor",
    "torch.nn.functional": "minigrad.nn.functional",
    "torch.nn": "minigrad.nn",
    "torch.optim": "minigrad.optim",
    "torch.optim.lr_scheduler": "minigrad.optim.lr_scheduler",
    "torch.autograd": "minigrad.autograd",
    "torch.utils.data": "minigrad.utils.data",
}
# Modules whose functions other namespaces import for their own use: torch's dispatch and JIT helpers.
HELPER_MODULES = {"torch._C", "torch.overrides", "torch._jit_internal", "torch._utils", "torch._utils_internal",
                  "torch._linalg_utils"}
# Re-exports and helpers the rule would count although no program calls them from there.
NOT_API = {"torch.nn.functional": {"Tensor", "assert_int_or_pair"}}

RULE = """\
A name is public when it has no leading underscore and:
- in `torch.Tensor`: it is in `dir(torch.Tensor)`;
- in a module with `__all__` (`torch`, `torch.optim`, `torch.optim.lr_scheduler`, `torch.autograd`,
  `torch.utils.data`): it is in `__all__`, or it is a submodule of that module (`torch.linalg`,
  `torch.autograd.forward_ad`), counting torch's lazily loaded `torch.onnx`;
- in `torch` also: a dtype, layout or memory format (`torch.strided`, `torch.channels_last`), or a function or
  class defined in torch that `__all__` forgets (`torch.set_default_dtype`, `torch.unique`);
  but not TorchScript's C++ IR classes that `torch.__all__` lists (`torch.Graph`, `torch.Node`, `torch.Value`:
  83 names, the JIT's insides; `torch.jit` itself is counted);
- in a module without `__all__` (`torch.nn`, `torch.nn.functional`): it is a submodule, or a function or class
  defined in torch, but not one of the helpers torch imports for itself (from `torch.overrides`, `torch._C`,
  `torch._jit_internal`: `has_torch_function`, `boolean_dispatch`) nor `torch.nn.functional.Tensor`.

minigrad has a name when `getattr` finds it (on a tensor, for `torch.Tensor`) or, for a submodule, when it can
be imported. A name is refused on purpose when minigrad lacks it and a pattern of `REFUSED` in
`minigrad/compat/refused.py` matches it: then minigrad raises an `AttributeError` with that category's
sentence (so `hasattr(torch, "compile")` is False). Flags that programs probe (`is_*`) are never refused."""


def public_names(torch, qualname):
    """Return the sorted public names of torch's namespace `qualname`, by `RULE`."""
    if qualname == "torch.Tensor":
        return sorted(n for n in dir(torch.Tensor) if not n.startswith("_"))
    module = importlib.import_module(qualname)
    constants = (torch.dtype, torch.layout, torch.memory_format)
    names = {n for n in getattr(module, "__all__", ()) if not n.startswith("_")}
    if module is torch:
        names |= {n for n in torch._lazy_modules if not n.startswith("_")}
        names = {n for n in names if not is_jit_ir_class(torch, getattr(torch, n))}
    for name in dir(module):
        obj = getattr(module, name)
        if name.startswith("_") or name in NOT_API.get(qualname, ()):
            continue
        if isinstance(obj, types.ModuleType):
            if obj.__name__.startswith(qualname + "."):
                names.add(name)
        elif hasattr(module, "__all__") and module is not torch:
            continue
        elif module is torch and isinstance(obj, constants):
            names.add(name)
        elif callable(obj) and defined_in_torch(obj) and not is_jit_ir_class(torch, obj):
            names.add(name)
    return sorted(names)


def is_jit_ir_class(torch, obj):
    return type(obj).__name__ == "pybind11_type" and getattr(obj, "__module__", None) == "torch"


def defined_in_torch(obj):
    home = getattr(obj, "__module__", None) or ""
    return (home == "torch" or home.startswith("torch.")) and home not in HELPER_MODULES


def minigrad_has(qualname, mg_name, name, torch_obj):
    """Whether minigrad's namespace `mg_name` has `name` (a submodule counts when it can be imported)."""
    import minigrad
    if qualname == "torch.Tensor":
        return name in dir(minigrad.tensor([1.0]))
    namespace = importlib.import_module(mg_name)
    if name in dir(namespace):
        return True
    if isinstance(torch_obj, types.ModuleType):
        try:
            return importlib.util.find_spec(f"{mg_name}.{name}") is not None
        except ImportError:
            return False
    return False


def classify(torch):
    """Return {torch namespace: {"present": [names], "refused": [(name, category)], "missing": [names]}}."""
    from minigrad.compat.refused import refusal
    table = {}
    for qualname, mg_name in NAMESPACES.items():
        rows = {"present": [], "refused": [], "missing": []}
        home = torch.Tensor if qualname == "torch.Tensor" else importlib.import_module(qualname)
        for name in public_names(torch, qualname):
            found = refusal(f"{qualname}.{name}")
            if minigrad_has(qualname, mg_name, name, getattr(home, name, None)):
                rows["present"].append(name)
            elif found:
                rows["refused"].append((name, found[0]))
            else:
                rows["missing"].append(name)
        table[qualname] = rows
    return table


def names_paragraph(names):
    return "\n".join(textwrap.wrap(", ".join(f"`{n}`" for n in names), 116, break_on_hyphens=False)) or "(none)"


def render(table, torch_version):
    """Return the text of docs/coverage.md for `table` (what `classify` returned)."""
    from minigrad.compat.refused import REFUSED
    lines = [
        "# What minigrad covers of PyTorch",
        "",
        f"Generated by `{COMMAND}` from torch {torch_version} and minigrad; do not edit by hand.",
        "",
        RULE,
        "",
        "| namespace | public names | present | refused on purpose | missing | present % |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for qualname, rows in table.items():
        total = sum(len(v) for v in rows.values())
        share = 100 * len(rows["present"]) / total if total else 0
        lines.append(f"| `{qualname}` | {total} | {len(rows['present'])} | {len(rows['refused'])} | "
                     f"{len(rows['missing'])} | {share:.0f} % |")
    lines += ["", "## Why minigrad refuses a name", "", "| category | what minigrad says |", "|---|---|"]
    lines += [f"| {category} | {sentence.format(name='*name*')} |" for category, (sentence, _) in REFUSED.items()]
    for qualname, rows in table.items():
        lines += ["", f"## `{qualname}`", "", f"### Missing ({len(rows['missing'])})", "",
                  names_paragraph(rows["missing"]), "", f"### Refused on purpose ({len(rows['refused'])})", ""]
        by_category = {}
        for name, category in rows["refused"]:
            by_category.setdefault(category, []).append(name)
        if by_category:
            lines += ["| category | names |", "|---|---|"]
            lines += [f"| {category} | {', '.join(f'`{n}`' for n in names)} |"
                      for category, names in by_category.items()]
        else:
            lines.append("(none)")
        lines += ["", f"### Present ({len(rows['present'])})", "", names_paragraph(rows["present"])]
    return "\n".join(lines) + "\n"


def build():
    """Return the text docs/coverage.md should hold now."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns about deprecated names as dir() walks them
        import torch
        return render(classify(torch), torch.__version__.split("+")[0])


def main():
    text = build()
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
