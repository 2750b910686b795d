"""GraphView: the autograd graph of some tensors as a live picture, redrawn on demand.

Draw it before and after `loss.backward()` (press Refresh, or call `.refresh()`) to watch `.grad` appear on the
leaves and the saved tensors get freed.
"""
import ipywidgets as w

from ._format import InputTypeError, check_graph, check_tensor
from ._picture import Picture, Stored
from .graph import _names, draw_graph
from .i18n import _, ngettext


class GraphView(Stored, w.VBox):
    """Show the graph behind `tensors` as inline SVG, with options for values and saved tensors.

    Args:
        *tensors: the output tensor(s) to draw.
        names, **named: names for tensors, as in `draw_graph` (`names={"a": a}` or `a=a`).
        model: an `nn.Module`: its parameters are named by `named_parameters()` (`fc1.weight`, ...).
        show_values, show_saved, max_nodes: as in `draw_graph`; the first two are also checkboxes.

    `.refresh()` redraws (e.g. after `.backward()`), `.dot` is the DOT source, `.digraph` the Digraph.
    The picture fits the output area's width; the zoom buttons (`.picture.zoom`) show it at other scales.

    Example:
        >>> GraphView(loss, names={"w": w, "b": b})
        >>> GraphView(loss, model=net)          # labels fc1.weight, fc1.bias, ...
    """

    def __init__(self, *tensors, names=None, model=None, show_values=True, show_saved=True, max_nodes=300,
                 **named):
        if not tensors:
            raise InputTypeError(_("{who} expected at least one minigrad Tensor, but got none.").format(who="GraphView"))
        for i, t in enumerate(tensors):
            check_tensor(t, "GraphView", _(" as argument {i}").format(i=i))
            check_graph(t, "GraphView", _(" given as argument {i}").format(i=i) if len(tensors) > 1 else "")
        self.tensors = tensors
        self._tensor_names = {name: t for t, name in _names(names, named, model).values()}
        self.max_nodes = max_nodes
        self.values_box = w.Checkbox(value=show_values, description=_("values"), indent=False,
                                     layout=w.Layout(width="auto"))
        self.saved_box = w.Checkbox(value=show_saved, description=_("saved tensors"), indent=False,
                                    layout=w.Layout(width="auto"))
        self.refresh_button = w.Button(description=_("Refresh"), icon="refresh", layout=w.Layout(width="auto"),
                                       tooltip=_("redraw, e.g. after .backward()"))
        self.picture = Picture()
        self.html = self.picture.html
        self.values_box.observe(self.on_option, names="value")
        self.saved_box.observe(self.on_option, names="value")
        self.refresh_button.on_click(self.on_refresh)
        super().__init__(children=[w.HBox([self.values_box, self.saved_box, self.refresh_button]),
                                   self.picture.box])
        self.refresh()

    @property
    def digraph(self):
        """The graph as it is now, as a `graphviz.Digraph`."""
        return draw_graph(*self.tensors, names=self._tensor_names, show_values=self.values_box.value,
                          show_saved=self.saved_box.value, max_nodes=self.max_nodes)

    @property
    def dot(self):
        """The DOT source of the graph as it is now."""
        return self.digraph.source

    def refresh(self):
        """Redraw the picture from the tensors' current state."""
        self.picture.show(self.digraph)

    def on_refresh(self, _):
        self.refresh()

    def on_option(self, _):
        self.refresh()

    def description(self):
        return _("GraphView: the {summary}").format(summary=self.picture.digraph.summary)

    def __repr__(self):
        n = len(self.tensors)
        return "<" + ngettext("GraphView of {n} tensor", "GraphView of {n} tensors", n).format(n=n) + ">"
