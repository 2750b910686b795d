"""draw_graph: the DOT source is the tested boundary (structure, names, escaping, size limits, messages)."""
import re
import sys

import numpy as np
import pytest
import widget_helpers as h
from widget_helpers import needs_dot, parse_dot, titled_edges, titles

import minigrad
from minigrad.autograd import Function
from widgets import InputError, InputTypeError, InputValueError, draw_graph, to_dot
from widgets._render import to_svg

ACC = "torch::autograd::AccumulateGrad"


def test_diamond_has_one_accumulate_grad_feeding_both_branches():
    y, names = h.diamond()
    dot = draw_graph(y, names=names).source
    assert titled_edges(dot) == sorted([
        (ACC, "MulBackward0"), (ACC, "ExpBackward0"), ("MulBackward0", "MulBackward0"),
        ("ExpBackward0", "MulBackward0"), ("MulBackward0", "output"), ("x", ACC)])
    assert titles(dot).count(ACC) == 1 and titles(dot).count("x") == 1
    # exp saved its result, and the last Mul saved that same tensor: one box, two dashed edges
    nodes, edges = parse_dot(dot)
    saved_boxes = [n for n, (title, _, _) in nodes.items() if title == "saved"]
    exp_result = [n for n in saved_boxes if "7.3891" in nodes[n][1]]
    assert len(exp_result) == 1
    assert sorted(nodes[b][0] for a, b, attrs in edges if a == exp_result[0]) == ["ExpBackward0", "MulBackward0"]


def test_reused_tensor_gives_two_edges_and_saved_twice():
    y, names = h.reused()
    dot = draw_graph(y, names=names).source
    assert titled_edges(dot).count((ACC, "MulBackward0")) == 2
    assert titled_edges(dot, saved=True) == [("x", "MulBackward0")]
    assert 'label="saved [0], [1]"' in dot


def test_custom_function_with_setup_context():
    y, names = h.custom()
    dot = draw_graph(y, names=names).source
    assert ("MulConstantBackward", "MulBackward0") in titled_edges(dot)
    assert (ACC, "MulConstantBackward") in titled_edges(dot)
    # the constant 2.5 is not a tensor: no edge for it; x is what setup_context saved
    assert [b for a, b in titled_edges(dot) if b == "MulConstantBackward"] == ["MulConstantBackward"]
    assert ("x", "MulConstantBackward") in titled_edges(dot, saved=True)


def test_two_output_function_labels_which_output_flows():
    y, names = h.two_outputs()
    dot = draw_graph(y, names=names).source
    assert titled_edges(dot).count(("TwoOutputsBackward", "MulBackward0")) == 2
    assert dot.count("label=<output 1>") == 2 and "output 0" not in dot, \
        "both edges out of TwoOutputsBackward carry its second output; received:\n" + dot


def test_each_output_of_a_multi_output_function_is_labelled():
    x = h.leaf([1.0, -1.0])
    double, triple = h.TwoOutputs.apply(x)
    dot = draw_graph(double, triple, names={"x": x}).source
    nodes, edges = parse_dot(dot)
    into_outputs = sorted(attrs for a, b, attrs in edges if nodes[b][0] in ("output 0", "output 1"))
    assert into_outputs == ["label=<output 0>", "label=<output 1>"], f"received {into_outputs}"
    hidden = draw_graph((triple * 2.0).sum(), names={"x": x, "triple": triple}).source
    assert "label=<output 1>" in [attrs for _, b, attrs in parse_dot(hidden)[1]
                                  if parse_dot(hidden)[0][b][0] == "triple"][0]


def test_model_names_each_parameter_by_named_parameters():
    net, loss = h.two_layer_net()
    dot = draw_graph(loss, model=net).source
    assert sorted(t for t in titles(dot) if "." in t) == ["fc1.bias", "fc1.weight", "fc2.bias", "fc2.weight"]
    assert "leaf" not in titles(dot), "every leaf here is a parameter: none should be called just 'leaf'"
    named = draw_graph(loss, model=net, names={"W1": net.fc1.weight}).source
    assert "W1" in titles(named) and "fc1.weight" not in titles(named), "an explicit name wins over model="
    assert draw_graph(loss, model=net).source == dot, "the DOT source must be deterministic"


def test_model_must_be_a_module():
    y, names = h.diamond()
    with pytest.raises(InputTypeError, match="model= should be a minigrad nn.Module .* given a dict"):
        draw_graph(y, model={"x": names["x"]})


def test_a_scalar_grad_with_values_off_is_said_in_words():
    y, names = h.diamond()
    y.backward()
    dot = draw_graph(y, names=names, show_values=False).source
    assert "grad: a scalar" in dot and "grad: ()" not in dot
    x = h.leaf([1.0, 2.0])
    (x * 2.0).sum().backward()
    assert "grad: shape (2,)" in draw_graph(x * 1.0, names={"x": x}, show_values=False).source


def test_gradient_edges_point_the_way_the_gradient_travels():
    y, names = h.diamond()
    dot = draw_graph(y, names=names, edge_labels={("output", 0): "grad 1"}).source
    (labelled,) = [attrs for _, _, attrs in parse_dot(dot)[1] if "grad 1" in attrs]
    assert "dir=back" in labelled, f"a gradient edge should point back towards the input; received [{labelled}]"
    assert "orange arrows: the gradient" in dot
    plain = draw_graph(y, names=names).source
    assert "dir=back" not in plain and "orange arrows" not in plain, "without gradients: no legend"


def test_exact_source_of_a_small_graph():
    a = h.leaf(2.0)
    y = a * 3.0
    assert draw_graph(y, names={"a": a}, show_saved=False).source == (
        "digraph minigrad {\n"
        "\tgraph [nodesep=0.3 ranksep=0.35]\n"
        '\tnode [fontname=Helvetica fontsize=11 margin="0.08,0.04" shape=box style="filled,rounded"]\n'
        "\tedge [fontname=Helvetica fontsize=9]\n"
        '\tn0 [label=<<B>output</B><BR/>() float32<BR/>6.> fillcolor="#c8e6c9"]\n'
        "\tn1 -> n0\n"
        '\tn1 [label=<<B>MulBackward0</B>> fillcolor="#eeeeee"]\n'
        f'\tn2 [label=<<B>{ACC}</B>> fillcolor="#e3e3e3"]\n'
        '\tn3 [label=<<B>a</B><BR/>() float32<BR/>2.<BR/>grad: None> fillcolor="#cfe2ff"]\n'
        "\tn3 -> n2 [arrowhead=none style=dotted]\n"
        "\tn2 -> n1\n"
        "}\n")


@pytest.mark.parametrize("name", sorted(h.GRAPHS))
def test_source_is_deterministic_and_has_no_addresses(name):
    first, second = h.GRAPHS[name](), h.GRAPHS[name]()
    a, b = draw_graph(first[0], names=first[1]).source, draw_graph(second[0], names=second[1]).source
    assert a == b
    assert not re.search(r"0x[0-9a-f]{6,}", a)
    assert sorted(parse_dot(a)[0]) == sorted(f"n{i}" for i in range(len(parse_dot(a)[0])))


def test_names_by_mapping_keywords_and_reversed_mapping_agree():
    y, names = h.custom()
    by_mapping = draw_graph(y, names=names).source
    assert draw_graph(y, **names).source == by_mapping
    assert draw_graph(y, names={t: n for n, t in names.items()}).source == by_mapping
    assert "x" in titles(by_mapping) and "w" in titles(by_mapping)
    assert "leaf" in titles(draw_graph(y).source)


def test_named_intermediate_hangs_below_its_node():
    x = h.leaf([1.0, 2.0])
    hidden = x * 2.0
    y = hidden.sum()
    dot = draw_graph(y, names={"x": x, "hidden": hidden}).source
    assert ("MulBackward0", "hidden") in titled_edges(dot)


def test_options_hide_values_and_saved_tensors():
    y, names = h.diamond()
    plain = draw_graph(y, names=names, show_values=False, show_saved=False).source
    assert "saved" not in plain and "7.3891" not in plain and "44.33" not in plain
    full = draw_graph(y, names=names).source
    assert "saved" in full and "44.3343" in full


def test_after_backward_grads_show_and_saved_tensors_are_freed():
    y, names = h.custom()
    y.backward()
    dot = draw_graph(y, names=names).source
    assert "grad: [7.5, -2.5]" in dot and "grad: [2.5, 5.]" in dot
    assert dot.count("saved tensors freed") == 2       # MulBackward0 and MulConstantBackward
    assert "saved [" not in dot


def test_big_tensors_show_shape_not_values():
    x = h.leaf(np.arange(12.0).reshape(3, 4).tolist())
    dot = draw_graph((x * 2.0).sum(), names={"x": x}).source
    assert "(3, 4) float32" in dot and "11." not in dot


def test_several_outputs():
    x = h.leaf([1.0, 2.0])
    a, b = (x * 2.0).sum(), (x * 3.0).sum()
    dot = draw_graph(a, b, names={"x": x}).source
    assert "output 0" in titles(dot) and "output 1" in titles(dot)
    assert titles(dot).count(ACC) == 1


HOSTILE = ['x" ] ; n9 [label="pwned', "<script>alert(1)</script>", "{braces} & \\ back\\slash", "two\nlines",
           "ctl\x00\x07", "]]></B>>"]


class Evil(Function):
    """A Function whose node name is hostile too."""
    node_name = 'Evil"<img src=x onerror=alert(1)>{Backward}'

    @staticmethod
    def forward(x):
        return x * 1.0

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g


def hostile_graph():
    leaves = [h.leaf(float(i)) for i in range(len(HOSTILE))]
    y = leaves[0]
    for t in leaves[1:]:
        y = y + t
    return Evil.apply(y), dict(zip(HOSTILE, leaves))


def test_hostile_names_are_escaped_in_the_source():
    y, names = hostile_graph()
    dot = draw_graph(y, names=names).source
    nodes, _ = parse_dot(dot)
    assert sorted(t for t, _, _ in nodes.values() if t not in ("output", ACC) and not t.startswith("Add")) == \
        sorted([n.replace("\n", "<BR/>").replace("\x00", "\\x00").replace("\x07", "\\x07") for n in HOSTILE]
               + [Evil.node_name])
    assert "<script>" not in dot and "<img" not in dot and "pwned\"" not in dot
    assert "&lt;script&gt;" in dot and "&quot;" in dot
    assert "n9 [label=\"pwned" not in dot


@needs_dot
def test_hostile_names_render_without_markup_in_the_svg():
    y, names = hostile_graph()
    svg = to_svg(draw_graph(y, names=names))
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<script" not in svg and "<img" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    assert svg.count('class="node"') == len(parse_dot(draw_graph(y, names=names).source)[0])


def test_a_5000_node_graph_is_summarised():
    y, names = h.chain(4999)          # 4,999 MulBackward0 + 1 AccumulateGrad
    dot = draw_graph(y, names=names).source
    nodes, edges = parse_dot(dot)
    assert "… 4,700 more nodes not drawn" in dot
    drawn = [t for t, _, _ in nodes.values() if t == "MulBackward0"]
    assert len(drawn) == 300 and ACC not in titles(dot)
    assert len(nodes) < 320 and len(edges) < 640
    assert sum(1 for a, _, _ in edges if a == "more") == 1


def test_max_nodes_none_draws_everything():
    y, names = h.chain(400)
    dot = draw_graph(y, names=names, max_nodes=None).source
    assert titles(dot).count("MulBackward0") == 400 and "more nodes" not in dot


def test_a_100000_node_chain_needs_no_recursion():
    y, names = h.chain(100_000)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)        # the walk must be a loop: deep recursion would fail at once
    try:
        dot = draw_graph(y, names=names, max_nodes=10).source
    finally:
        sys.setrecursionlimit(limit)
    assert "… 99,991 more nodes not drawn" in dot


@pytest.mark.parametrize("bad, kind, words", [
    (np.array([1.0]), InputTypeError, "expected a minigrad Tensor as argument 0, but got a numpy.ndarray"),
    ([1.0, 2.0], InputTypeError, "but got a list"),
    (minigrad.tensor([1.0, 2.0]), InputValueError, "does not require grad"),
])
def test_bad_input_gives_a_clear_message(bad, kind, words):
    with pytest.raises(kind) as info:
        draw_graph(bad)
    assert words in str(info.value)
    # Jupyter shows _render_traceback_ instead of a traceback
    assert info.value._render_traceback_() == [f"{kind.__name__}: {info.value}"]
    assert isinstance(info.value, InputError)


def test_no_tensor_and_bad_names_are_refused():
    with pytest.raises(InputTypeError, match="at least one"):
        draw_graph()
    y, names = h.diamond()
    with pytest.raises(InputTypeError, match="the name 'x' should label a minigrad Tensor, but it was given a str"):
        draw_graph(y, names={"x": "not a tensor"})
    with pytest.raises(InputTypeError, match="the name 'show_value' should label"):
        draw_graph(y, show_value=False)       # a misspelt option is not silently ignored


def test_to_dot_is_draw_graph():
    assert to_dot is draw_graph


def test_digraph_is_displayable():
    y, names = h.diamond()
    graph = draw_graph(y, names=names)
    import graphviz
    assert isinstance(graph, graphviz.Digraph)
