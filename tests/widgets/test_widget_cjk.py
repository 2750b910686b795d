"""Chinese text in a picture gets a CJK font in the DOT source; a picture without it keeps its source as it was."""
import minigrad
import widgets
from widgets._render import CJK_FONTNAME


def graph(name):
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    return widgets.draw_graph((w * 3).sum(), names={name: w})


def test_a_chinese_name_sets_the_cjk_font_on_nodes_and_edges():
    source = graph("权重").source
    assert "权重" in source and "fontname=Helvetica" not in source, source
    assert source.count(f"fontname={CJK_FONTNAME}") == 2, source      # node [...] and edge [...]


def test_an_english_picture_names_only_helvetica():
    source = graph("w").source
    assert "Noto" not in source and "WenQuanYi" not in source
    assert source.count("fontname=Helvetica") == 2, source


def test_the_stepper_legend_and_the_module_tree_get_the_font_too():
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    stepper = widgets.BackwardStepper((w * 3).sum(), names={"权重": w})
    stepper.run_to_end()
    assert "fontname=Helvetica" not in stepper.dot and CJK_FONTNAME in stepper.dot
    tree = widgets.ModuleApplyView(minigrad.nn.Sequential(minigrad.nn.Linear(2, 2)))
    assert "fontname=Helvetica" in tree.dot and "Noto" not in tree.dot
