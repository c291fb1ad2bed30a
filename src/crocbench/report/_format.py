"""Markdown formatting shared by the report's tables: a DataFrame as a table, numbers and p-values as cells."""

from __future__ import annotations

import numpy as np
import pandas as pd


def number_cell(v, digits: int = 4) -> str:
    """A table cell: floats to ``digits`` decimals, integral floats of 10 or more as integers, NaN empty.

    Examples
    --------
    >>> number_cell(0.12345), number_cell(95.0), number_cell(9.0), number_cell(float("nan")), number_cell("x")
    ('0.1235', '95', '9.0000', '', 'x')
    """
    if isinstance(v, (float, np.floating)):
        if np.isnan(v):
            return ""
        return f"{v:.0f}" if float(v).is_integer() and abs(v) >= 10 else f"{v:.{digits}f}"
    return str(v)


def markdown_table(df: pd.DataFrame, digits: int = 4) -> str:
    """A DataFrame as a GitHub Markdown table (floats to ``digits`` decimals, integral floats as integers)."""
    lines = ["| " + " | ".join(map(str, df.columns)) + " |", "|" + "---|" * df.shape[1]]
    lines += ["| " + " | ".join(number_cell(v, digits) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def p_cell(p: float) -> str:
    """A p-value as a cell: bold below 0.01, italics below 0.05 (as in the paper's Table 2).

    Examples
    --------
    >>> p_cell(0.2), p_cell(0.03), p_cell(0.0004)
    ('0.2', '*0.03*', '**4.0e-04**')
    """
    text = f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"
    return f"**{text}**" if p < 0.01 else f"*{text}*" if p < 0.05 else text


def interval_cell(value, low, high, count: bool) -> str:
    """A value and its interval, ``"value [low, high]"``: 4 and 3 decimals, or whole numbers for a count.

    Examples
    --------
    >>> interval_cell(0.81234, 0.8, 0.82, False), interval_cell(645.0, 610, 680, True), interval_cell(20.5, 18, 23, True)
    ('0.8123 [0.800, 0.820]', '645 [610, 680]', '20.5 [18, 23]')
    """
    if count:
        return (
            f"{value:.0f} [{low:.0f}, {high:.0f}]"
            if float(value).is_integer()
            else f"{value:.1f} [{low:.0f}, {high:.0f}]"
        )
    return f"{value:.4f} [{low:.3f}, {high:.3f}]"


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; font-size: 14px; margin: 1em; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1em; }}
th, td {{ border: 1px solid #ccc; padding: 2px 8px; text-align: left; white-space: nowrap; }}
th {{ background: #f2f2f2; }}
</style></head>
<body>
{body}
</body></html>
"""


def _inline(text: str) -> str:
    """A line's text as HTML: escaped, with Markdown's ``**bold**`` and ```code``` kept."""
    import html
    import re

    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def markdown_html(text: str, title: str = "crocbench table") -> str:
    """The Markdown of the report's tables as a standalone HTML page, so that the HTML report shows them on the page
    (Snakemake's report shows HTML, images and PDFs; a Markdown file is only a download).

    It renders the subset those files use: ``#`` headings, pipe tables (a header row, a ``|---|`` row, the rows),
    ``- `` list items, and paragraphs, with ``**bold**`` and ```code```; everything else is text, escaped.

    Parameters
    ----------
    text : str
        The Markdown.
    title : str, default="crocbench table"
        The page's title.

    Returns
    -------
    str
        The HTML page.

    Examples
    --------
    >>> page = markdown_html("# T\\n\\n| a | b |\\n|---|---|\\n| 1 | **2** |\\n")
    >>> "<h1>T</h1>" in page, "<th>a</th><th>b</th>" in page, "<td>1</td><td><b>2</b></td>" in page
    (True, True, True)
    """
    import html
    import re

    lines, body, i = text.splitlines(), [], 0
    while i < len(lines):
        line = lines[i]
        heading = re.match(r"^(#{1,6}) (.*)$", line)
        separator = i + 1 < len(lines) and re.match(r"^\|?\s*:?-{3,}", lines[i + 1].strip())
        if heading:
            level = len(heading.group(1))
            body.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
            i += 1
        elif line.lstrip().startswith("|") and separator:
            rows = ["<tr>" + "".join(f"<th>{_inline(c)}</th>" for c in _cells(line)) + "</tr>"]
            i += 2
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in _cells(lines[i])) + "</tr>")
                i += 1
            body.append("<table>\n" + "\n".join(rows) + "\n</table>")
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{_inline(lines[i][2:])}</li>")
                i += 1
            body.append("<ul>" + "".join(items) + "</ul>")
        elif line.strip():
            paragraph = []
            while i < len(lines) and lines[i].strip() and not re.match(r"^(#{1,6} |\||- )", lines[i]):
                paragraph.append(_inline(lines[i]))
                i += 1
            body.append("<p>" + " ".join(paragraph) + "</p>")
        else:
            i += 1
    return _PAGE.format(title=html.escape(title), body="\n".join(body))
