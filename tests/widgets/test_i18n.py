"""The message catalogues: every message in both languages, the .mo up to date, `set_language` switching texts.

English is the source language (the msgids in the code), Chinese the .po: a message exists in one language only
when the code uses a msgid the .po lacks or leaves untranslated, or the .po holds a msgid the code no longer uses.
"""
import ast
import gettext
import importlib.util
import io
import string
from pathlib import Path

import pytest
from babel.messages import pofile as babel_pofile   # Babel compiles the catalogues (development only)

import minigrad
import widgets
from widgets import i18n
from widgets.exercises import Feedback

ROOT = Path(__file__).resolve().parents[2]
CALLS = {"_", "N_", "gettext", "ngettext"}


def compile_messages():
    spec = importlib.util.spec_from_file_location("compile_messages", ROOT / ".ci" / "compile_messages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def code_messages(domain):
    """{msgid: file} for the string literals the code of `domain` hands to _, N_, gettext, ngettext (read by ast)."""
    found = {}
    for path in compile_messages().sources(domain):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in CALLS:
                for arg in node.args[:2 if node.func.id == "ngettext" else 1]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        found[arg.value] = path.name
    return found


def po_entries(domain):
    with open(ROOT / "widgets" / "locale" / "zh" / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
        return [m for m in babel_pofile.read_po(f, locale="zh", domain=domain) if m.id]


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_message_of_the_code_has_a_chinese_translation(domain):
    # a message with plural forms is found by its singular and by its plural msgid
    entries = {msgid: m for m in po_entries(domain) for msgid in ([m.id] if isinstance(m.id, str) else m.id)}
    missing = sorted(f"{file}: {msgid!r}" for msgid, file in code_messages(domain).items()
                     if msgid not in entries or not entries[msgid].string or entries[msgid].fuzzy
                     or not all(entries[msgid].string))
    assert not missing, (f"{len(missing)} messages exist in English only (no Chinese msgstr in {domain}.po); "
                         f"run `python .ci/compile_messages.py`, then translate:\n" + "\n".join(missing))


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_chinese_entry_translates_a_message_the_code_uses(domain):
    used = code_messages(domain)
    unused = sorted(repr(m.id) for m in po_entries(domain) if (m.id if isinstance(m.id, str) else m.id[0]) not in used)
    assert not unused, f"{domain}.po translates messages the code no longer has (Chinese only):\n" + "\n".join(unused)


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_translations_keep_the_placeholders(domain):
    def fields(text):
        return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)
    wrong = [f"{m.id!r}: {fields(m.id)} != {fields(m.string)}" for m in po_entries(domain)
             if isinstance(m.id, str) and m.string and fields(m.id) != fields(m.string)]
    # a message with plural forms: both English forms and every Chinese one (nplurals=1: one) hold the same fields
    wrong += [f"{m.id!r}: {[fields(t) for t in (*m.id, *m.string)]}" for m in po_entries(domain)
              if not isinstance(m.id, str) and len({tuple(fields(t)) for t in (*m.id, *m.string) if t}) > 1]
    assert not wrong, "a translation must use exactly the {placeholders} of its English message:\n" + "\n".join(wrong)


def test_no_fstring_is_handed_to_gettext():
    # _(f"... {x}") looks a message up after filling it in: it is never found, so it always shows in English
    bad = []
    for path in sorted((ROOT / "widgets").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in CALLS:
                bad += [f"{path.name}:{node.lineno}" for a in node.args if isinstance(a, ast.JoinedStr)]
    assert not bad, f"an f-string given to _() (write _('... {{x}}').format(x=...)): {bad}"


def test_the_compiled_catalogues_are_up_to_date():
    stale = [str(path.relative_to(ROOT)) for path, content in compile_messages().expected_files().items()
             if not path.exists() or path.read_bytes() != content]
    assert not stale, f"out of date: {stale}; run `python .ci/compile_messages.py` and commit the result"


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_the_standard_library_reads_every_translation_from_the_mo(domain):
    with open(ROOT / "widgets" / "locale" / "zh" / "LC_MESSAGES" / f"{domain}.mo", "rb") as f:
        catalogue = gettext.GNUTranslations(io.BytesIO(f.read()))
    wrong = [m.id for m in po_entries(domain) if isinstance(m.id, str) and m.string and catalogue.gettext(m.id) != m.string]
    wrong += [m.id for m in po_entries(domain) if not isinstance(m.id, str) and m.string[0]
              and any(catalogue.ngettext(*m.id, n) != m.string[0] for n in (1, 2))]
    assert not wrong, f"the .mo does not give the .po's translation of: {wrong[:5]}"


@pytest.fixture
def chinese():
    with i18n.using_language("zh"):
        yield
    assert widgets.get_language() == "en"


def test_feedback_prefix_speaks_the_chosen_language(chinese):
    assert repr(Feedback(True, "fine")) == "✓ 正确——fine"
    assert repr(Feedback(False, "x")) == "✗ 还不对——x"
    widgets.set_language("en")
    assert repr(Feedback(True, "fine")) == "✓ correct — fine"
    assert repr(Feedback(False, "x")) == "✗ not yet — x"


def test_widgets_made_after_set_language_speak_it(chinese):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    stepper = widgets.BackwardStepper((x * x).sum(), x=x)
    assert [stepper.controls.step.description, stepper.controls.reset.description] == ["单步", "重置"]
    assert "<b>第 0 步，共 3 步</b>" in stepper.panel_html.value, stepper.panel_html.value
    stepper.on_run(None)
    assert "反向传播结束" in stepper.panel_html.value
    view = widgets.GraphView(x * 2)
    assert [view.values_box.description, view.refresh_button.description] == ["数值", "刷新"]


def test_input_errors_are_translated_but_pytorch_messages_stay_english(chinese):
    with pytest.raises(widgets.InputTypeError, match="需要一个 minigrad Tensor"):
        widgets.draw_graph([1.0])
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(widgets.InputValueError, match=r"^grad can be implicitly created only for scalar outputs（"):
        widgets.BackwardStepper(x * 2)


def test_english_is_the_default_and_the_pictures_do_not_change_with_the_language():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    english = widgets.BackwardStepper((x * x).sum(), x=x)
    assert widgets.get_language() == "en" and english.controls.step.description == "Step"
    with i18n.using_language("zh"):
        chinese = widgets.BackwardStepper((x * x).sum(), x=x)
    assert chinese.dot == english.dot


def test_an_unknown_language_is_refused_in_a_sentence():
    with pytest.raises(ValueError, match=r"set_language expected one of 'en', 'zh', but got 'fr'\."):
        widgets.set_language("fr")
    assert widgets.get_language() == "en"


def test_the_steppers_end_summary_speaks_the_chosen_language():
    with open(ROOT / "widgets" / "locale" / "zh" / "LC_MESSAGES" / "widgets.mo", "rb") as f:
        zh = gettext.GNUTranslations(io.BytesIO(f.read())).gettext
    for language, say in (("en", str), ("zh", zh)):
        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        w = minigrad.tensor([3.0, 4.0], requires_grad=True)
        with i18n.using_language(language):
            stepper = widgets.BackwardStepper((x * w).sum(), w=w)       # x unnamed: called by its shape
            stepper.on_run(None)
        named = say("{leaf}.grad = {grad}").format(leaf="w", grad="<code>[1., 2.]</code>")
        unnamed = say("the .grad of the leaf of shape {shape} = {grad}").format(shape="(2,)", grad="<code>[3., 4.]</code>")
        assert f"[0] {unnamed}" in stepper.panel_html.value and f"[1] {named}" in stepper.panel_html.value, \
            stepper.panel_html.value


def test_chinese_puts_no_space_between_an_unnamed_leaf_and_its_grad(chinese):
    # a space separates Chinese from a Latin name ("w 的 .grad"), never two Chinese words ("叶子张量的 .grad")
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    stepper = widgets.BackwardStepper((x * w).sum(), w=w)
    panels = []
    while not stepper.finished:
        stepper.on_step(None)
        panels.append(stepper.panel_html.value)
    text = "".join(panels)
    assert "形状为 (2,) 的叶子张量的 .grad = " in text and "w 的 .grad = " in text, panels[-1]
    assert "把它累加进形状为 (2,) 的叶子张量的 .grad：" in text, text
    assert "形状为 (2,) 的叶子张量的 torch::autograd::AccumulateGrad" in text, text
    assert "张量 的" not in text and "进 形状" not in text, text
