"""The one line of text each widget stores for a reader without a kernel (its text/plain), in the reader's language.

English keeps exactly the texts the English book stores. Under `set_language("zh")` the whole line comes from the
catalogue: the expected Chinese is built here from the compiled .mo with the standard library's gettext, and a
second check finds no Latin letters left but code (node and class names, module names, Jupyter).
"""
import gettext
import io
import re
from pathlib import Path

import pytest
import widget_helpers as h

import minigrad
import widgets
from minigrad import nn
from widgets import i18n

MO = Path(__file__).resolve().parents[2] / "widgets" / "locale" / "zh" / "LC_MESSAGES" / "widgets.mo"
NODES = "SumBackward0, MulBackward0, torch::autograd::AccumulateGrad"
WIDGET = "{summary} (a widget: run the cell in Jupyter to step through it)"
# what may stay in Latin letters inside a Chinese line: the names of nodes, widgets and modules, and Jupyter
CODE = re.compile(r"torch::autograd::AccumulateGrad|\w+Backward0|BackwardStepper|GraphView|ModuleApplyView|Jupyter"
                  r"|'[^']*'")


def _chinese():
    with open(MO, "rb") as f:
        return gettext.GNUTranslations(io.BytesIO(f.read()))


ZH = _chinese()
ENGLISH = gettext.NullTranslations()


def square_loss():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    return (x * x).sum()


def plain_text(widget):
    return widget._repr_mimebundle_()["text/plain"]


def stepper_at(position):
    """The text of a stepper on (x * x).sum() after `position` steps; "end" runs it to the end (finished)."""
    stepper = widgets.BackwardStepper(square_loss())
    if position == "end":
        stepper.run_to_end()
    else:
        stepper.go_to(position)
    return plain_text(stepper)


# (what is shown, how to make its text in the current language, that text from a catalogue `t`, English literal)
CASES = [
    ("draw_graph", lambda: repr(widgets.draw_graph(square_loss())),
     lambda t: "<" + t.ngettext("autograd graph of {n} node: {names}", "autograd graph of {n} nodes: {names}", 3)
     .format(n=3, names=NODES) + ">",
     f"<autograd graph of 3 nodes: {NODES}>"),
    ("draw_graph, current node", lambda: repr(widgets.draw_graph(square_loss(), highlight=square_loss().grad_fn)),
     lambda t: "<" + t.ngettext("autograd graph of {n} node: {names}", "autograd graph of {n} nodes: {names}", 3)
     .format(n=3, names=NODES) + t.gettext("; current node {name}").format(name="SumBackward0") + ">",
     f"<autograd graph of 3 nodes: {NODES}; current node SumBackward0>"),
    ("GraphView", lambda: plain_text(widgets.GraphView(square_loss())),
     lambda t: t.gettext("GraphView: the {summary}").format(summary=t.ngettext(
         "autograd graph of {n} node: {names}", "autograd graph of {n} nodes: {names}", 3).format(n=3, names=NODES)),
     f"GraphView: the autograd graph of 3 nodes: {NODES}"),
    ("GraphView repr, one tensor", lambda: repr(widgets.GraphView(square_loss())),
     lambda t: "<" + t.ngettext("GraphView of {n} tensor", "GraphView of {n} tensors", 1).format(n=1) + ">",
     "<GraphView of 1 tensor>"),
    ("GraphView repr, two tensors", lambda: repr(widgets.GraphView(square_loss(), square_loss())),
     lambda t: "<" + t.ngettext("GraphView of {n} tensor", "GraphView of {n} tensors", 2).format(n=2) + ">",
     "<GraphView of 2 tensors>"),
    ("BackwardStepper, step 0", lambda: stepper_at(0),
     lambda t: t.gettext(WIDGET).format(summary=t.gettext(
         "BackwardStepper: step {n} of {total}, nothing run yet").format(n=0, total=3)),
     "BackwardStepper: step 0 of 3, nothing run yet (a widget: run the cell in Jupyter to step through it)"),
    ("BackwardStepper, step 1", lambda: stepper_at(1),
     lambda t: t.gettext(WIDGET).format(summary=t.gettext(
         "BackwardStepper: step {n} of {total}, after {name}").format(n=1, total=3, name="SumBackward0")),
     "BackwardStepper: step 1 of 3, after SumBackward0 (a widget: run the cell in Jupyter to step through it)"),
    ("BackwardStepper, finished", lambda: stepper_at("end"),
     lambda t: t.gettext(WIDGET).format(summary=t.gettext(
         "BackwardStepper: step {n} of {total}, after {name}, finished").format(
             n=3, total=3, name="torch::autograd::AccumulateGrad")),
     "BackwardStepper: step 3 of 3, after torch::autograd::AccumulateGrad, finished "
     "(a widget: run the cell in Jupyter to step through it)"),
    ("ModuleApplyView", lambda: plain_text(widgets.ModuleApplyView(nn.Sequential(nn.Linear(2, 2), nn.Tanh()))),
     lambda t: t.gettext(WIDGET).format(summary=t.gettext(
         "ModuleApplyView: visit {n} of {total}, order {order}").format(n=0, total=3, order=['0', '1', ''])),
     "ModuleApplyView: visit 0 of 3, order ['0', '1', ''] (a widget: run the cell in Jupyter to step through it)"),
    ("module tree", lambda: repr(widgets.ModuleApplyView(nn.Sequential(nn.Linear(2, 2), nn.Tanh())).picture.digraph),
     lambda t: "<" + t.ngettext("module tree of {n} module, visited in the order {order}",
                                "module tree of {n} modules, visited in the order {order}", 3).format(
                                    n=3, order=", ".join(["0", "1", t.gettext("(root)")])) + ">",
     "<module tree of 3 modules, visited in the order 0, 1, (root)>"),
    ("module tree of one module", lambda: repr(widgets.ModuleApplyView(nn.Linear(2, 2)).picture.digraph),
     lambda t: "<" + t.ngettext("module tree of {n} module, visited in the order {order}",
                                "module tree of {n} modules, visited in the order {order}", 1).format(
                                    n=1, order=t.gettext("(root)")) + ">",
     "<module tree of 1 module, visited in the order (root)>"),
]
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize("what, make, from_catalogue, english", CASES, ids=IDS)
def test_english_text_is_the_one_the_english_book_stores(what, make, from_catalogue, english):
    assert widgets.get_language() == "en"
    assert make() == english
    assert from_catalogue(ENGLISH) == english, "the msgids must spell the English text exactly"


@pytest.mark.parametrize("what, make, from_catalogue, english", CASES, ids=IDS)
def test_chinese_text_comes_whole_from_the_catalogue(what, make, from_catalogue, english):
    with i18n.using_language("zh"):
        text = make()
    assert text == from_catalogue(ZH), f"{what}: got {text!r}, the catalogue gives {from_catalogue(ZH)!r}"
    left = CODE.sub("", text)
    assert re.search("[\u4e00-\u9fff]", text) and not re.search("[A-Za-z]", left), \
        f"{what}: English words are left in the Chinese line {text!r} (without its code: {left!r})"


@h.needs_dot
def test_a_drawn_graph_stores_the_same_text_as_its_repr():
    with i18n.using_language("zh"):
        graph = widgets.draw_graph(square_loss())
        assert graph._repr_mimebundle_()["text/plain"] == repr(graph)
