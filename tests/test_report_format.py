"""crocbench.report._format: cells, Markdown tables, and the tables as HTML pages for the Snakemake report."""

from crocbench.report import markdown_html


def test_a_report_table_becomes_an_html_table_with_its_headings_and_text():
    text = (
        "# Table 1: areas <of> the pooled ranking\n\n"
        "Some **bold** and `code`.\n"
        "A second line of the paragraph.\n\n"
        "| model | AUC[ROC] |\n|---|---|\n| IRV | 0.8443 |\n| SVM | **0.8532** |\n\n"
        "- one\n- two\n\n## More\n"
    )
    page = markdown_html(text, title="areas")
    assert page.startswith("<!DOCTYPE html>") and "<title>areas</title>" in page
    assert "<h1>Table 1: areas &lt;of&gt; the pooled ranking</h1>" in page  # escaped
    assert "<p>Some <b>bold</b> and <code>code</code>. A second line of the paragraph.</p>" in page
    assert "<tr><th>model</th><th>AUC[ROC]</th></tr>" in page
    assert "<tr><td>IRV</td><td>0.8443</td></tr>\n<tr><td>SVM</td><td><b>0.8532</b></td></tr>" in page
    assert "<ul><li>one</li><li>two</li></ul>" in page and "<h2>More</h2>" in page
    assert page.count("<table>") == 1 and "|" not in page.split("<body>")[1]  # no pipe left unrendered
