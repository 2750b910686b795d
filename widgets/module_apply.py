"""ModuleApplyView: watch the order in which `Module.apply(fn)` visits a module tree, and what `fn` did.

`Module.apply` is recursive and cannot be paused, so the view calls the real `module.apply` once, when it is
made, with a wrapper around `fn` that notes each visit: which module, and how `fn` changed its parameters.
The controls then walk through those notes. The model is changed exactly as `module.apply(fn)` changes it.
It reads the module only through the public API: `named_children`, `named_parameters`, `apply`.
"""
import contextlib
import io
from collections import namedtuple

import ipywidgets as w
import numpy as np

from ._controls import StepControls, Stepping
from ._format import InputTypeError, describe, esc, esc_html, values_text
from ._render import Graph, message_html, panel_box, printed_html
from .i18n import _, ngettext

Visit = namedtuple("Visit", "index module name changes printed")
Visit.__doc__ = "One call of fn during Module.apply: the module, its qualified name, what changed, what was printed."


def _nn():
    try:
        from minigrad import nn
    except ImportError as error:
        raise InputTypeError(_("ModuleApplyView needs minigrad.nn, which could not be imported ({error}).").format(
            error=error)) from None
    return nn


class ModuleApplyView(Stepping, w.VBox):
    """Show a module tree and step through the visits of `module.apply(fn)`: children first, the root last.

    Args:
        module: a minigrad `nn.Module`.
        fn: the function to apply, as for `module.apply(fn)` (called right away); None only shows the order.

    `.order` lists the qualified names in visiting order (the root is `""`, as in `named_modules()`),
    `.visits` the records (`Visit(index, module, name, changes, printed)`), `.position` how many are shown;
    `.step()`, `.back()`, `.reset()`, `.run_to_end()`, `.go_to(n)` move through them; `.dot` is the tree's DOT.

    Example:
        >>> ModuleApplyView(net, init_weights).order
        ['enc.0', 'enc.1', 'enc', 'head', '']
    """

    def __init__(self, module, fn=None):
        nn = _nn()
        if not isinstance(module, nn.Module):
            raise InputTypeError(_("ModuleApplyView expected a minigrad nn.Module, but got {got}.").format(
                got=describe(module)))
        if fn is not None and not callable(fn):
            raise InputTypeError(_("ModuleApplyView expected fn to be a function of one module (or None), but got "
                                   "{got}.").format(got=describe(fn)))
        self.module, self.fn = module, fn
        self._tree, self._edges, self._index = _tree(module)
        self.visits = []
        module.apply(self._visit)              # the real Module.apply decides the order
        self.order = [v.name for v in self.visits]
        self.total, self.position = len(self.visits), 0
        self.controls = StepControls(self, self.total, unit="visit")
        super().__init__(children=self._children())
        self._render()

    def _visit(self, m):
        before = _own_parameters(m)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            if self.fn is not None:
                self.fn(m)
        name = self._tree[self._index[id(m)]][1] if id(m) in self._index else type(m).__name__
        self.visits.append(Visit(len(self.visits), m, name, _changes(before, _own_parameters(m)),
                                 printed.getvalue()))

    # ---- moving -----------------------------------------------------------------------------------------
    @property
    def current(self):
        """The visit shown last, or None before the first."""
        return self.visits[self.position - 1] if self.position else None

    def step(self):
        """Show the next visit; return it."""
        self.go_to(self.position + 1)
        return self.current

    def back(self):
        """Show one visit fewer."""
        self.go_to(self.position - 1)

    def reset(self):
        """Back to before the first visit."""
        self.go_to(0)

    def run_to_end(self):
        """Show every visit."""
        self.go_to(self.total)

    def go_to(self, n):
        """Show the first `n` visits."""
        self.position = min(max(int(n), 0), self.total)
        self._render()

    # ---- drawing ----------------------------------------------------------------------------------------
    @property
    def dot(self):
        """The DOT source of the tree, with the visits shown so far numbered."""
        return self._digraph().source

    def _digraph(self):
        graph = Graph("module_tree", graph_attr={"nodesep": "0.25", "ranksep": "0.35"},
                      node_attr={"fontname": "Helvetica", "fontsize": "11", "shape": "box",
                                 "style": "filled,rounded", "fillcolor": "#eeeeee"})
        numbers = {}
        for visit in self.visits[:self.position]:
            numbers.setdefault(id(visit.module), []).append(str(visit.index + 1))
        current = self.current
        for i, (m, name) in enumerate(self._tree):
            lines = [f"<B>{esc(name or _('(root)'))}</B>", esc(type(m).__name__)]
            params = ", ".join(f"{n} {tuple(p.shape)}" for n, p in _own_parameters(m, values=False).items())
            if params:
                lines.append(f'<FONT POINT-SIZE="9">{esc(params)}</FONT>')
            attrs = {}
            if id(m) in numbers:
                lines.append(esc(_("visit {numbers}").format(numbers=", ".join(numbers[id(m)]))))
                attrs["fillcolor"] = "#d7ecd0"
            if current is not None and current.module is m:
                attrs.update(fillcolor="#ffb74d", penwidth="2.5")
                graph.focus = f"m{i}"
            graph.node(f"m{i}", "<" + "<BR/>".join(lines) + ">", **attrs)
        for parent, child in self._edges:
            graph.edge(f"m{parent}", f"m{child}")
        graph.summary = ngettext("module tree of {n} module, visited in the order {order}",
                                 "module tree of {n} modules, visited in the order {order}", len(self._tree)).format(
                                     n=len(self._tree), order=", ".join(n or _("(root)") for n in self.order))
        return graph

    def _render(self):
        self._show(self._digraph(), self._panel(), at_end=self.position >= self.total)

    def _panel(self):
        parts = [message_html(self.error)] if self.error else []
        visit = self.current
        if visit is None:
            parts.append(_("<b>Visit 0 of {total}</b>: Module.apply(fn) calls fn on every submodule, "
                           "children first and the module itself last. <i>Step</i> to follow it.").format(
                               total=self.total))
        else:
            title = esc_html(visit.name or _("(root)"))
            parts.append(_("<b>Visit {n} of {total}: {title} ({kind})</b>").format(
                n=visit.index + 1, total=self.total, title=title, kind=esc_html(type(visit.module).__name__)))
            changes = visit.changes or ([_("fn changed no parameter")] if self.fn else [_("no fn: order only")])
            parts.append("<br>".join(esc_html(c) for c in changes))
            if visit.printed:
                parts.append(_("fn printed:") + printed_html(visit.printed))
        done = [f"{v.index + 1}. {esc_html(v.name or _('(root)'))}" for v in self.visits[:self.position]]
        if done:
            parts.append(_("order so far: ") + ", ".join(done))
        if self.position == self.total:
            parts.append(_("Module.apply then returned the module itself."))
        if self.fn is not None:
            parts.append(_("<i>module.apply(fn) ran once, when this view was made, so the module already has every "
                           "change listed here; Back and Reset replay this record, they do not undo fn.</i>"))
        return panel_box(parts)

    def __repr__(self):
        return "<" + _("ModuleApplyView: visit {n} of {total}, order {order}").format(
            n=self.position, total=self.total, order=self.order) + ">"


def _tree(module):
    """Walk `named_children` (iteratively): [(module, qualified name)] in pre-order, parent->child edges."""
    tree, edges, index = [], [], {}
    stack = [(module, "", None)]
    while stack:
        m, name, parent = stack.pop()
        if id(m) in index:                   # a module shared by two parents is drawn once
            edges.append((parent, index[id(m)]))
            continue
        index[id(m)] = len(tree)
        if parent is not None:
            edges.append((parent, len(tree)))
        tree.append((m, name))
        children = list(m.named_children())
        for child_name, child in reversed(children):
            stack.append((child, f"{name}.{child_name}" if name else child_name, index[id(m)]))
    return tree, edges, index


def _own_parameters(m, values=True):
    """{name: (parameter, copy of its values)} for the module's own parameters (not its children's)."""
    try:
        named = list(m.named_parameters(recurse=False))
    except TypeError:
        named = [(n, p) for n, p in m.named_parameters() if "." not in n]
    if not values:
        return dict(named)
    return {n: (p, np.array(p.data.numpy(), copy=True)) for n, p in named}


def _changes(before, after):
    """Describe, one line per parameter, how fn changed the module's own parameters."""
    lines = []
    for name in list(before) + [n for n in after if n not in before]:
        if name not in after:
            lines.append(_("{name}: removed").format(name=name))
        elif name not in before:
            lines.append(_("{name}: added, {summary}").format(name=name, summary=_summary(after[name][1])))
        elif before[name][0] is not after[name][0]:
            lines.append(_("{name}: replaced by a new tensor, {summary}").format(name=name, summary=_summary(after[name][1])))
        elif not np.array_equal(before[name][1], after[name][1]):
            lines.append(f"{name}: {_summary(before[name][1])} → {_summary(after[name][1])}")
    return lines


def _summary(array):
    if array.size > 1 and np.all(array == array.flat[0]):
        return _("{shape}, all {value}").format(shape=tuple(array.shape), value=f"{array.flat[0]:g}")
    values = values_text(array)
    return values if values is not None else _("{shape}, mean {value}").format(shape=tuple(array.shape), value=f"{array.mean():.4g}")
