"""The PDF renderer: WeasyPrint's own ``HTML`` with its own user-agent stylesheet, the app's
print stylesheet given through the public ``stylesheets`` argument (issue 41)."""

from __future__ import annotations

import io

from pypdf import PdfReader

from scorekeeper import ROOT
from scorekeeper.web import pdf

HTML = """<!doctype html><html><body><h1>Sheet</h1>
<ol start="0"><li>Anna</li><li>Bruno</li></ol><ul><li>Option</li></ul>
<table><tr><td>1</td><td>Carla</td><td>12</td></tr></table></body></html>"""


def text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_lists_keep_their_markers_and_the_page_its_text():
    from weasyprint import HTML as Stock

    stylesheet = str(ROOT / "static" / "css" / "print.css")
    ours = pdf._render(HTML, str(ROOT / "static"), stylesheet)
    stock = Stock(string=HTML, base_url=str(ROOT / "static")).write_pdf(
        stylesheets=[pdf._stylesheet(stylesheet)])
    assert text(ours) == text(stock)
    assert "Anna" in text(ours) and "Carla" in text(ours)
    assert "2. " in text(ours) and "• " in text(ours)  # the list markers
