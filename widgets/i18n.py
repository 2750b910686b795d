"""Speak the reader's language: the widgets' texts and the exercise feedback, from gettext catalogues.

    import widgets
    widgets.set_language("zh")      # the first lines of a Chinese chapter; "en" switches back

English is the source language: every message is written in English in the code (the msgid) and translated in
widgets/locale/zh/LC_MESSAGES/*.po, compiled to the .mo next to it by `python .ci/compile_messages.py`.
Two catalogues, one per idea, read through one `_`:
    widgets.po    the widgets' own texts (widgets/*.py) and the feedback prefix (widgets/exercises/__init__.py)
    exercises.po  the exercise hints (widgets/exercises/chNN.py)

How to write a message (the language is chosen after import, so translate when the text is shown):
    from widgets.i18n import _                        # in widgets/exercises/chNN.py: `from ..i18n import _`
    expect(y.grad is not None, _("y.grad is still None: call backward first."))
    # with values: translate the template, then fill it in; never an f-string inside _()
    expect(ok, _("{name}.grad should be {want}, got {got}.").format(name=name, want=want, got=got))
    # a module-level constant: mark it with N_() (it stays English), translate where it is shown with _(CONSTANT)
    LEGEND = N_("grey arrows: the forward pass")
    # a count: ngettext("{n} node", "{n} nodes", n).format(n=n)
Inline code, API names and PyTorch's own error messages stay English inside the Chinese msgstr, so a
learner can search for them. After adding or changing a message, run `python .ci/compile_messages.py`: it
adds the new msgids to the .po files (empty msgstr), drops unused ones, and compiles the .mo; fill in the
empty msgstr and run it again. tests/widgets/test_i18n.py fails while a message exists in one language only.
"""
import contextlib
import gettext as _gettext
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAINS = ("widgets", "exercises")
LANGUAGES = ("en", "zh")

_ENGLISH = _gettext.NullTranslations()
_state = {"language": "en", "translations": _ENGLISH}


def _load(language):
    """The catalogues of `language` chained into one (a msgid missing from the first is looked up in the next)."""
    if language == "en":
        return _ENGLISH
    first = None
    for domain in DOMAINS:
        catalogue = _gettext.translation(domain, LOCALE_DIR, languages=[language])
        if first is None:
            first = catalogue
        else:
            first.add_fallback(catalogue)
    return first


def set_language(language):
    """Choose the language of the widgets' texts and of the exercise feedback: "en" (the default) or "zh".

    Args:
        language: "en" for English, "zh" for Simplified Chinese.
    Example (the first lines of every chapter in book/zh/):
        >>> import widgets
        >>> widgets.set_language("zh")  # 控件和练习反馈使用中文
    """
    if language not in LANGUAGES:
        raise ValueError(f"set_language expected one of {', '.join(map(repr, LANGUAGES))}, but got {language!r}.")
    _state["translations"] = _load(language)
    _state["language"] = language


def get_language():
    """Return the language chosen by `set_language` ("en" until it is called)."""
    return _state["language"]


@contextlib.contextmanager
def using_language(language):
    """Switch to `language` inside a `with` block (tests), then back to the language before it."""
    before = get_language()
    set_language(language)
    try:
        yield
    finally:
        set_language(before)


def gettext(message):
    """Return `message` (English, as written in the code) in the current language."""
    return _state["translations"].gettext(message)


def ngettext(singular, plural, n):
    """Return the singular or plural form of a message for the count `n`, in the current language."""
    return _state["translations"].ngettext(singular, plural, n)


def N_(message):
    """Mark `message` for translation without translating it (for constants; translate with `_` when shown)."""
    return message


_ = gettext
