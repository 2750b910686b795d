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


def tree_map(fn, tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(leaf) for leaf in leaves], spec)
