"""Reports as PDF (fpdf2: pure Python, no system libraries); see backend.api.export."""

from __future__ import annotations

import re
from pathlib import Path

from fpdf import FPDF

# A Unicode TrueType font when the system has one (Debian's fonts-dejavu-core, macOS's Arial
# Unicode); otherwise the PDF core font, which covers Latin-1 only (other characters → '?').
_UNICODE_FONTS = [
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    Path("/Library/Fonts/Arial Unicode.ttf"),
    Path("C:/Windows/Fonts/arial.ttf"),
]
_BOLD = {"DejaVuSans.ttf": "DejaVuSans-Bold.ttf"}
_MONO = {"DejaVuSans.ttf": "DejaVuSansMono.ttf"}  # for code blocks (else the core Courier)
_FENCE = re.compile(r"^(`{3,}|~{3,})")


def _plain(text: str) -> str:
    """Markdown inline syntax off: **bold**, `code`, [text](url) → text (url), escapes."""
    text = re.sub(r"\[([^\]]*)\]\(([^)]*)\)", r"\1 (\2)", text)
    text = re.sub(r"(\*\*|__|`)", "", text)
    text = re.sub(r"(?<!\w)[*_](\S[^*_]*?)[*_](?!\w)", r"\1", text)
    return re.sub(r"\\([\\`*_{}\[\]()#+\-.!|>])", r"\1", text)


class _ReportPDF(FPDF):
    def __init__(self) -> None:
        super().__init__(format="A4")
        self.set_auto_page_break(auto=True, margin=15)
        self.body_font, self.unicode = "Helvetica", False
        self.mono: Path | None = None  # the monospaced font beside the body's, if there is one
        for path in _UNICODE_FONTS:
            if path.is_file():
                self.add_font("Body", "", str(path))
                bold = path.with_name(_BOLD.get(path.name, path.name))
                self.add_font("Body", "B", str(bold if bold.is_file() else path))
                self.body_font, self.unicode = "Body", True
                mono = path.with_name(_MONO.get(path.name, ""))
                self.mono = mono if path.name in _MONO and mono.is_file() else None
                break

    def code_font(self) -> None:
        """The monospaced font of code, added on first use (every added font is embedded);
        without a Unicode one, the core Courier."""
        if self.mono is None:
            self.set_font("Courier", "", 8.5)
            return
        if "mono" not in self.fonts:
            self.add_font("Mono", "", str(self.mono))
        self.set_font("Mono", "", 8.5)

    def safe(self, value: str) -> str:
        return value if self.unicode else value.encode("latin-1", "replace").decode("latin-1")

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(self.body_font, "", 8)
        self.cell(0, 8, f"MARSA report · page {self.page_no()}", align="C")


def markdown_pdf(markdown: str) -> bytes:
    """Markdown as a PDF: headings, paragraphs, lists and code blocks (monospaced, indented
    as written); citations stay as [n]."""
    pdf = _ReportPDF()
    pdf.add_page()
    write = pdf.safe
    fence = ""  # the fence of the code block the line is in
    for line in markdown.splitlines():
        stripped = line.strip()
        opening = _FENCE.match(stripped)
        if fence:
            if opening and stripped == fence[0] * len(stripped) and len(stripped) >= len(fence):
                fence = ""
                pdf.ln(1)
                continue
            pdf.code_font()
            pdf.set_x(pdf.l_margin + 4)
            shown = line.rstrip()
            indent = len(shown) - len(shown.lstrip())  # kept: a wrapped line drops spaces
            text = "\u00a0" * indent + shown.lstrip() if shown else " "
            pdf.multi_cell(0, 4.2, write(text), new_x="LMARGIN", new_y="NEXT")
            continue
        if opening:
            fence = opening.group(1)
            continue
        if not stripped:
            pdf.ln(2)
            continue
        pdf.set_x(pdf.l_margin)
        if stripped.startswith("#"):
            level = len(stripped) - len(stripped.lstrip("#"))
            pdf.set_font(pdf.body_font, "B", {1: 16, 2: 13}.get(level, 11))
            pdf.multi_cell(
                0, 7, write(_plain(stripped.lstrip("# "))), new_x="LMARGIN", new_y="NEXT"
            )
            pdf.ln(1)
        elif stripped.startswith(("- ", "* ")) or re.match(r"\d+\. ", stripped):
            pdf.set_font(pdf.body_font, "", 10)
            bullet, _, rest = stripped.partition(" ")
            mark = "•" if bullet in ("-", "*") and pdf.unicode else bullet.replace("*", "-")
            pdf.set_x(pdf.l_margin + 4)
            pdf.multi_cell(0, 5.5, write(f"{mark} {_plain(rest)}"), new_x="LMARGIN", new_y="NEXT")
        else:
            pdf.set_font(pdf.body_font, "", 10)
            pdf.multi_cell(0, 5.5, write(_plain(stripped)), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
