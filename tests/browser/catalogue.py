"""What the interface must say in each language, read from the message catalogue: the English msgid, or the
Chinese msgstr of widgets/locale/zh/LC_MESSAGES/*.po (never a copy of what a widget printed, so a page that shows
another text than the catalogue's fails). Also: which fonts Chromium drew a text with, to tell Chinese characters
from empty boxes.
"""
import functools
import html
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages import pofile

PO = Path(__file__).resolve().parents[2] / "widgets" / "locale" / "zh" / "LC_MESSAGES"
CJK = re.compile("[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")     # Chinese characters and full-width punctuation


@functools.cache
def _chinese(domain):
    with open(PO / f"{domain}.po", "rb") as f:
        return {m.id: m.string for m in pofile.read_po(f, locale="zh", domain=domain) if m.id and not m.fuzzy}


def zh(msgid, domain="widgets"):
    """The Chinese msgstr of `msgid` in `domain`.po; fails saying so when the catalogue has none."""
    string = _chinese(domain).get(msgid)
    if not string:
        pytest.fail(f"widgets/locale/zh/LC_MESSAGES/{domain}.po has no Chinese for {msgid!r}: run "
                    "`python .ci/compile_messages.py` and translate it", pytrace=False)
    return string


def say(language, msgid, domain="widgets"):
    """`msgid` as the interface shows it in `language` ("en": the msgid itself)."""
    return msgid if language == "en" else zh(msgid, domain)


def plain(markup):
    """The text of a message holding HTML (`<b>Step {n} of {total}: {name}</b>`), as the page shows it."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


@dataclass(frozen=True)
class StepperTexts:
    """What a BackwardStepper shows in one language: its buttons, and the panel's fixed parts."""
    language: str

    def button(self, label):
        """A button's label: button("Step") is "单步" in Chinese."""
        return say(self.language, label)

    @property
    def start(self):
        """The panel before the first step, up to its number of steps: "Step 0 of " / "第 0 步，共 "."""
        message = ("<b>Step 0 of {total}</b>: nothing has run yet. <i>Step</i> calls {first} with the starting "
                   "gradient {seed}.")
        return plain(say(self.language, message)).split("{total}")[0]

    def start_total(self, text):
        """The number of steps, read from the panel before the first step."""
        found = re.search(re.escape(self.start) + r"(\d+)", text)
        assert found, f"the panel should begin with {self.start!r}; it shows:\n{text}"
        return int(found.group(1))

    def heading(self, k, total):
        """The panel's heading after step `k`, up to the node's name: "Step 1 of 3: " / "第 1 步，共 3 步："."""
        return plain(say(self.language, "<b>Step {n} of {total}: {name}</b>")).format(n=k, total=total, name="")

    @property
    def received(self):
        return say(self.language, "received (grad_output)")

    @property
    def finished(self):
        return plain(say(self.language, "<b>Backward finished.</b> Gradients:"))

    def leaf(self, english):
        """A leaf's line after the last step, from its English form in expected.py: "x.grad = [3., 3.]"."""
        leaf, grad = re.fullmatch(r"(.+?)\.grad = (.+)", english).groups()
        return say(self.language, "{leaf}.grad = {grad}").format(leaf=leaf, grad=grad)


EN, ZH = StepperTexts("en"), StepperTexts("zh")


def feedback(language, ok, message):
    """An exercise check's line: "✓ correct — " or "✗ not yet — " and the message, in `language`."""
    return say(language, "✓ correct — " if ok else "✗ not yet — ") + message


def cjk_families():
    """The font families fontconfig knows for Chinese (`fc-list :lang=zh`); skips saying why if there are none."""
    if shutil.which("fc-list") is None:
        pytest.skip("cannot tell whether a font with Chinese characters is installed (no fc-list): `make browser` "
                    "installs fonts-wqy-zenhei and fontconfig")
    listed = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, timeout=30).stdout
    families = {name.strip() for line in listed.splitlines() for name in line.split(",") if name.strip()}
    if not families:
        pytest.skip("no font with Chinese characters is installed (`fc-list :lang=zh` lists none), so Chromium "
                    "would draw empty boxes: run `make browser` (as root it installs fonts-wqy-zenhei)")
    return families


def assert_drawn_in_cjk_font(page, element, families):
    """Every Chinese character of `element`'s own text was drawn by a font that has Chinese (Chromium's DevTools
    protocol says which platform fonts drew the text nodes of an element, and how many glyphs each)."""
    text = element.evaluate("el => [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('')")
    chinese = len(CJK.findall(text))
    assert chinese > 0, f"no Chinese in the text {text!r}"
    cdp = page.context.new_cdp_session(page)
    element.evaluate("el => el.setAttribute('data-font-probe', '')")
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "[data-font-probe]"})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        element.evaluate("el => el.removeAttribute('data-font-probe')")
        cdp.detach()
    drawn = sum(f["glyphCount"] for f in fonts if f["familyName"] in families)
    assert drawn >= chinese, (f"{text!r} has {chinese} Chinese characters, but fonts with Chinese drew {drawn} "
                              f"glyphs: {fonts} (the fonts with Chinese here: {sorted(families)})")
