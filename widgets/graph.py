"""Draw minigrad's autograd graph with Graphviz, by reading the very structure that backward walks.

The drawing starts at each output's `grad_fn` and follows `next_functions` breadth-first, so the nodes
nearest the output come first. Nodes are named n0, n1, ... in the order they are met (never by id()), so the
same code always gives the same DOT source. Edges point the way data flowed in forward (inputs above,
output below); the gradient travels each edge in the opposite direction, so an edge labelled with a gradient
(the stepper's orange edges) is drawn with its arrowhead at the input end, and a legend says so.
"""
import minigrad
from minigrad.autograd import AccumulateGrad
from minigrad.autograd.graph import output_metadata, saved_values, walk  # noqa: F401 - walk: the stepper's too

from ._render import Graph
from ._format import InputTypeError, check_graph, check_tensor, describe, esc, shape_text, shape_words, values_text
from .i18n import N_, _, ngettext

# fill colours: tensors blue/green, backward nodes grey, saved tensors orange, the stepper's current node amber
COLORS = {"leaf": "#cfe2ff", "output": "#c8e6c9", "named": "#fff3c4", "fn": "#eeeeee", "acc": "#e3e3e3",
          "saved": "#ffe5c2", "done": "#d7ecd0", "current": "#ffb74d", "note": "#ffffff"}

GRADIENT_LEGEND = N_("grey arrows: the forward pass (inputs above, output below)\n"
                   "orange arrows: the gradient each step sent back, pointing where it went")


def node_name(node):
    """Return the node's `name()`, e.g. 'MulBackward0' (asked of its class: a ctx attribute may be called name)."""
    return type(node).name(node)


def leaves_of(nodes):
    """Return the leaf tensors behind the `AccumulateGrad` nodes among `nodes`, in the same order."""
    return [n.variable for n in nodes if type(n) is AccumulateGrad]


def draw_graph(*tensors, names=None, model=None, show_values=True, show_saved=True, max_nodes=300,
               highlight=None, done=None, edge_labels=None, **named):
    """Draw the autograd graph that produced `tensors` and return it as a `graphviz.Digraph`.

    Args:
        *tensors: the output tensor(s) whose history to draw.
        names: optional {"name": tensor} to label leaves (or any tensor); keywords work too: `a=a, w=w`.
        model: an `nn.Module` whose parameters label themselves by `model.named_parameters()` (`fc1.weight`,
            ...); a name given in `names` wins.
        show_values: print the values of tensors with at most 6 elements.
        show_saved: draw what each node saved for backward (dashed), or note that it was freed.
        max_nodes: draw only the this many nodes nearest the output and say how many were left out.
        highlight, done, edge_labels: used by BackwardStepper: the current node, {node: step number} of the
            nodes already run, and {(node, input position): text} to label the edge that carried a gradient
            (`("output", i)` labels the edge into the i-th output).
    Returns:
        a `graphviz.Digraph`; its `.source` is the DOT text (deterministic), and Jupyter shows it as a picture.

    Example:
        >>> a = minigrad.tensor(2.0, requires_grad=True); w = minigrad.tensor(3.0, requires_grad=True)
        >>> draw_graph(a * w + a, names={"a": a, "w": w})
    """
    for i, t in enumerate(tensors):
        check_tensor(t, "draw_graph", _(" as argument {i}").format(i=i))
        check_graph(t, "draw_graph", _(" given as argument {i}").format(i=i) if len(tensors) > 1 else "")
    if not tensors:
        raise InputTypeError(_("{who} expected at least one minigrad Tensor, but got none.").format(who="draw_graph"))
    return _Drawing(tensors, _names(names, named, model), show_values, show_saved, max_nodes,
                    highlight, done or {}, edge_labels or {}).digraph


to_dot = draw_graph


def _names(names, named, model=None):
    """Merge `names` and keyword names into {id(tensor): (tensor, "a, b")} (a tensor may have two names).

    The parameters of `model` are named by `named_parameters()`, unless `names` already names them.
    """
    by_id = {}
    items = list((names or {}).items()) + list(named.items())
    for key, value in items:
        if isinstance(key, minigrad.Tensor) and isinstance(value, str):
            key, value = value, key    # {tensor: "name"} is accepted too
        if not isinstance(value, minigrad.Tensor):
            raise InputTypeError(_("draw_graph: the name {key} should label a minigrad Tensor, but it was given "
                                   "{got}. Names are given as names={{'a': a}} or as keywords a=a.").format(
                                       key=repr(key), got=describe(value)))
        old = by_id.get(id(value))
        by_id[id(value)] = (value, f"{old[1]}, {key}" if old else str(key))
    for key, value in _parameter_names(model):
        by_id.setdefault(id(value), (value, key))
    return by_id


def _parameter_names(model):
    """Return `model.named_parameters()` as a list, refusing anything that is not a Module."""
    if model is None:
        return []
    named_parameters = getattr(model, "named_parameters", None)
    if isinstance(model, minigrad.Tensor) or not callable(named_parameters):
        raise InputTypeError(_("draw_graph: model= should be a minigrad nn.Module (its parameters get their "
                               "names from named_parameters()), but it was given {got}.").format(got=describe(model)))
    return list(named_parameters())


def _which_output(node, nr):
    """Label an edge leaving a node of several outputs with the output it carries ("output 1"); else None."""
    return _("output {i}").format(i=nr) if len(output_metadata(node)) > 1 else None


class _Drawing:
    """Builds one Digraph. Internal: `draw_graph` is the interface."""

    def __init__(self, tensors, names, show_values, show_saved, max_nodes, highlight, done, edge_labels):
        self.named = names
        self.names = {k: name for k, (_, name) in names.items()}
        self.show_values, self.show_saved = show_values, show_saved
        self.edge_labels = edge_labels
        self.dot_names = {}          # id(object) -> "n<k>", given in the order objects are met
        self.keep = []               # keeps every named object alive while its id() is in use
        self.digraph = Graph("minigrad", graph_attr={"nodesep": "0.3", "ranksep": "0.35"},
                           node_attr={"fontname": "Helvetica", "fontsize": "11", "shape": "box",
                                      "style": "filled,rounded", "margin": "0.08,0.04"},
                           edge_attr={"fontname": "Helvetica", "fontsize": "9"})
        nodes = walk(tensors)
        limit = len(nodes) if max_nodes is None else max(int(max_nodes), 0)
        drawn = nodes[:limit]
        self.drawn = {id(n) for n in drawn}
        self.highlight, self.done = highlight, {id(n): k for n, k in done.items()}
        self._outputs(tensors)
        for node in drawn:
            self._node(node)
        for node in drawn:
            self._edges(node)
        self._named_intermediates()
        if edge_labels:
            self.digraph.attr(label=_(GRADIENT_LEGEND), labelloc="b", fontname="Helvetica", fontsize="9",
                              fontcolor="#e65100")
        if len(nodes) > limit:
            self._summary(drawn, len(nodes) - limit, limit)
        if highlight is not None and id(highlight) in self.dot_names:
            self.digraph.focus = self.dot_names[id(highlight)]
        self.digraph.summary = _describe(nodes, highlight)

    def name(self, obj):
        """Return the DOT name of `obj`, giving it the next free n<k> the first time."""
        key = id(obj)
        if key not in self.dot_names:
            self.dot_names[key] = f"n{len(self.dot_names)}"
            self.keep.append(obj)
        return self.dot_names[key]

    def tensor_label(self, t, title):
        lines = [f"<B>{esc(title)}</B>", esc(f"{shape_text(t)} {str(t.dtype).replace('torch.', '')}")]
        values = values_text(t) if self.show_values else None
        if values is not None:
            lines.append(esc(values))
        if t.grad_fn is None and t.requires_grad:     # only leaves that require grad get a .grad
            grad = t.grad
            grad_text = "None" if grad is None else (values_text(grad) if self.show_values else None)
            lines.append(esc(f"grad: {grad_text or shape_words(grad)}"))
        return "<" + "<BR/>".join(lines) + ">"

    def _outputs(self, tensors):
        for i, t in enumerate(tensors):
            title = self.names.get(id(t)) or (_("output") if len(tensors) == 1 else _("output {i}").format(i=i))
            self.digraph.node(self.name(t), self.tensor_label(t, title), fillcolor=COLORS["output"])
            if t.grad_fn is not None and id(t.grad_fn) in self.drawn:
                self.digraph.edge(self.name(t.grad_fn), self.name(t),
                                  **self._label(("output", i), _which_output(t.grad_fn, t.output_nr)))

    def _node(self, node):
        is_acc = type(node) is AccumulateGrad
        lines = [f"<B>{esc(node_name(node))}</B>"]
        notes = [_("saved tensors freed")] if self.show_saved and saved_values(node) is None else []
        attrs = {"fillcolor": COLORS["acc" if is_acc else "fn"]}
        if id(node) in self.done:
            notes.append(_("step {n}").format(n=self.done[id(node)]))
            attrs["fillcolor"] = COLORS["done"]
        if node is self.highlight:
            attrs.update(fillcolor=COLORS["current"], penwidth="2.5")
        lines += [f'<FONT POINT-SIZE="9">{esc(note)}</FONT>' for note in notes]
        self.digraph.node(self.name(node), "<" + "<BR/>".join(lines) + ">", **attrs)
        if is_acc:
            leaf = node.variable
            title = self.names.get(id(leaf), _("leaf"))
            self.digraph.node(self.name(leaf), self.tensor_label(leaf, title), fillcolor=COLORS["leaf"])
            self.digraph.edge(self.name(leaf), self.name(node), arrowhead="none", style="dotted")

    def _edges(self, node):
        for slot, (next_node, nr) in enumerate(node.next_functions):
            if next_node is None or id(next_node) not in self.drawn:
                continue
            self.digraph.edge(self.name(next_node), self.name(node),
                              **self._label((node, slot), _which_output(next_node, nr)))
        saved = saved_values(node) if self.show_saved else None
        if saved:
            self._saved(node, saved)

    def _saved(self, node, saved):
        positions = {}
        for j, tensor in enumerate(saved):
            if tensor is not None:
                positions.setdefault(id(tensor), (tensor, []))[1].append(j)
        for tensor, slots in positions.values():
            label = _("saved {slots}").format(slots=", ".join(f"[{j}]" for j in slots))
            drawn_already = id(tensor) in self.dot_names    # a leaf or output box: point from it
            if not drawn_already:                             # else the saved tensor gets its own dashed box
                title = self.names.get(id(tensor), _("saved result") if tensor.grad_fn is node else _("saved"))
                self.digraph.node(self.name(tensor), self.tensor_label(tensor, title), fillcolor=COLORS["saved"],
                                  style="filled,dashed", fontsize="9")
            self.digraph.edge(self.name(tensor), self.name(node), label=label, style="dashed",
                              color="#b26a00", fontcolor="#b26a00",
                              **({"constraint": "false"} if drawn_already else {}))

    def _named_intermediates(self):
        """Hang each named non-leaf tensor below the node that produced it (its consumers read that node)."""
        for t, title in self.named.values():
            if t.grad_fn is not None and id(t.grad_fn) in self.drawn and id(t) not in self.dot_names:
                self.digraph.node(self.name(t), self.tensor_label(t, title), fillcolor=COLORS["named"])
                self.digraph.edge(self.name(t.grad_fn), self.name(t), style="dashed", arrowhead="none",
                                  **self._label(None, _which_output(t.grad_fn, t.output_nr)))

    def _label(self, key, prefix=None):
        text = self.edge_labels.get(key)
        parts = [p for p in (prefix, text) if p]
        if not parts:
            return {}
        attrs = {"label": "<" + esc(" ".join(parts)) + ">"}
        if text:    # a gradient: drawn backwards, so its arrowhead points where the gradient went
            attrs.update(color="#e65100", fontcolor="#e65100", penwidth="1.6", dir="back")
        return attrs

    def _summary(self, drawn, hidden, limit):
        note = _("… {hidden} more nodes not drawn\n(showing the {limit} nearest the output; raise max_nodes)").format(
            hidden=f"{hidden:,}", limit=f"{limit:,}")
        self.digraph.node("more", "<" + esc(note) + ">", shape="note", fillcolor=COLORS["note"], style="filled")
        for node in drawn:
            if any(n is not None and id(n) not in self.drawn for n, _ in node.next_functions):
                self.digraph.edge("more", self.name(node), style="dashed", color="#9e9e9e")


def _describe(nodes, highlight):
    """One line standing for the picture where it cannot be shown (a notebook opened without a kernel)."""
    names = list(dict.fromkeys(node_name(n) for n in nodes))
    shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
    line = ngettext("autograd graph of {n} node: {names}", "autograd graph of {n} nodes: {names}",
                    len(nodes)).format(n=len(nodes), names=shown)
    if highlight is not None:
        line += _("; current node {name}").format(name=node_name(highlight))
    return line
