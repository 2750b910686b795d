"""Nested arguments as torch.func sees them: tuples, lists and dicts of tensors, flattened to a list of leaves
and built back (PyTorch's `torch.utils._pytree`, reduced to the containers programs pass)."""


def tree_flatten(tree):
    """Return (leaves, spec): the non-container values in order, and what `tree_unflatten` needs to rebuild."""
    if isinstance(tree, (tuple, list)):
        leaves, specs = [], []
        for item in tree:
            item_leaves, spec = tree_flatten(item)
            leaves += item_leaves
            specs.append(spec)
        return leaves, (type(tree), None, specs)
    if isinstance(tree, dict):
        leaves, specs = [], []
        for value in tree.values():
            item_leaves, spec = tree_flatten(value)
            leaves += item_leaves
            specs.append(spec)
        return leaves, (dict, list(tree), specs)
    return [tree], None


def tree_unflatten(leaves, spec):
    """The inverse of `tree_flatten`."""
    it = iter(leaves)
    return _build(it, spec)


def _build(it, spec):
    if spec is None:
        return next(it)
    kind, keys, specs = spec
    items = [_build(it, s) for s in specs]
    if kind is dict:
        return dict(zip(keys, items))
    return kind(items) if kind in (tuple, list) else kind(*items)     # a named tuple takes its fields


def broadcast_prefix(prefix, tree):
    """One entry of `prefix` per leaf of `tree`, where `prefix` has the shape of `tree` down to some depth and a
    value there stands for every leaf below it (vmap's `in_dims=(0, {"w": None, "b": 0})`); None if it does not
    fit. A dict matches by key, whatever the order."""
    if isinstance(prefix, (tuple, list, dict)):
        if type(prefix) is not type(tree) or len(prefix) != len(tree):
            return None
        if isinstance(tree, dict):
            if set(prefix) != set(tree):
                return None
            pairs = [(prefix[k], tree[k]) for k in tree]
        else:
            pairs = zip(prefix, tree)
        out = []
        for p, t in pairs:
            leaves = broadcast_prefix(p, t)
            if leaves is None:
                return None
            out += leaves
        return out
    return [prefix] * len(tree_flatten(tree)[0])


def spec_repr(spec, indent=0):
    """A spec as PyTorch prints its TreeSpec in error messages: `TreeSpec(tuple, None, [*, TreeSpec(dict, ['a'], [*])])`,
    one child per line after the first."""
    if spec is None:
        return "*"
    kind, keys, specs = spec
    children = [spec_repr(s, indent + 2) for s in specs]
    return f"TreeSpec({kind.__name__}, {keys}, [" + (",\n" + " " * (indent + 2)).join(children) + "])"


def tree_map(fn, tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(leaf) for leaf in leaves], spec)
