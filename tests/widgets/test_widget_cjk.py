"""Chinese text in a picture gets a CJK font in the DOT source; a picture without it keeps its source as it was;
under set_language("zh") the picture's own notes and legend are the catalogue's msgstrs."""
import gettext
import html
import re

import minigrad
import widgets
from widgets import i18n
from widgets._render import CJK, CJK_FONTNAME, to_svg
from widgets.graph import GRADIENT_LEGEND

from widget_helpers import needs_dot


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


ZH = gettext.translation("widgets", i18n.LOCALE_DIR, languages=["zh"])     # the compiled .mo, read directly


def zh(msgid):
    text = ZH.gettext(msgid)
    assert text != msgid and CJK.search(text), f"{msgid!r} has no Chinese msgstr in widgets.mo (got {text!r})"
    return text


def svg_texts(svg):
    """The lines of text in a Graphviz SVG (one <text> element each), unescaped."""
    return [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


@needs_dot
def test_under_zh_the_pictures_notes_and_legend_are_the_catalogues_msgstrs():
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with i18n.using_language("zh"):
        stepper = widgets.BackwardStepper((a * a).sum())      # unnamed: the leaf and the output get a title
        stepper.run_to_end()
        svg = to_svg(stepper.picture.digraph)
        tree = to_svg(widgets.ModuleApplyView(minigrad.nn.Sequential(minigrad.nn.Linear(2, 2))).picture.digraph)
    lines = svg_texts(svg)
    for want in [zh("output"), zh("leaf"), zh("saved tensors freed"), *(zh("step {n}").format(n=n) for n in (1, 2, 3)),
                 *zh(GRADIENT_LEGEND).split("\n")]:
        assert want in lines, f"{want!r} is not a line of the zh stepper's SVG: {lines}"
    assert not {"output", "leaf", "step 1", "saved tensors freed", *GRADIENT_LEGEND.split("\n")} & set(lines), lines
    assert "Noto Sans CJK SC" in svg, "the Chinese notes are drawn without naming a CJK font"
    assert zh("(root)") in svg_texts(tree), svg_texts(tree)


@needs_dot
def test_under_zh_a_saved_tensor_and_a_summary_note_are_translated_too():
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = a.exp()                  # ExpBackward0 saves its own result: "saved result", edge "saved [0]"
    with i18n.using_language("zh"):
        lines = svg_texts(to_svg(widgets.draw_graph(y.sum())))
        summary = svg_texts(to_svg(widgets.draw_graph(y.sum(), max_nodes=1)))
    assert zh("saved result") in lines and zh("saved {slots}").format(slots="[0]") in lines, lines
    first, second = zh("… {hidden} more nodes not drawn\n(showing the {limit} nearest the output; raise max_nodes)"
                       ).format(hidden="2", limit="1").split("\n")
    assert first in summary and second in summary, summary
