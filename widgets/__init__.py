"""Widgets that show minigrad's autograd at work: the graph, a step-by-step backward, and Module.apply.

    from widgets import draw_graph, GraphView, BackwardStepper, ModuleApplyView

They read minigrad's public graph (`grad_fn`, `next_functions`, `AccumulateGrad.variable`) and drive its one
backward engine (`minigrad.autograd.backward_steps`); minigrad itself never imports this package.
Their texts (and the exercise feedback) speak English or Chinese: `widgets.set_language("zh")` (see
widgets/i18n.py); `widgets.gettext("saved tensors freed")` is a text of theirs in the current language.
Bad input (not a minigrad tensor, a tensor with no graph, ...) raises an `InputError` whose message Jupyter
shows without a traceback.
"""
from ._format import InputError, InputTypeError, InputValueError
from ._render import NO_DOT_MESSAGE, find_dot
from .graph import draw_graph, to_dot
from .graph_view import GraphView
from .i18n import get_language, gettext, set_language
from .module_apply import ModuleApplyView
from .stepper import BackwardStepper

__all__ = ["draw_graph", "to_dot", "GraphView", "BackwardStepper", "ModuleApplyView", "InputError",
           "InputTypeError", "InputValueError", "NO_DOT_MESSAGE", "find_dot", "set_language", "get_language",
           "gettext"]
