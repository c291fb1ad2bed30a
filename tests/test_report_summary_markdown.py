"""crocbench.report._summary_markdown: the summary's ranks and pairs tables in Markdown."""

import pytest
from _synthetic import _ranked_by_hand


def test_the_summary_names_its_tests_and_gives_conover_beside_wilcoxon():
    from crocbench.report import SUMMARY_RANK_METRICS, SUMMARY_TESTS, conover_table, ranks_markdown, ranks_table

    table = _ranked_by_hand()
    ranks, pairs = ranks_table(table)
    text = ranks_markdown(ranks, pairs, conover=conover_table(table))
    assert SUMMARY_TESTS == (
        "Tests across screens: Friedman, then Conover's post-hoc (Holm) and Nemenyi's critical difference; "
        "pairwise Wilcoxon signed-rank with Holm"
    )
    assert text.startswith(SUMMARY_TESTS + ".\n\n")
    roc = text[text.index("## AUC[ROC]") : text.index("## AUC[CROC(exp)] a=7")]
    wilcoxon, conover = roc.index("| pair | wins-losses-ties |"), roc.index("| Conover p (Holm) | x | y | z |")
    assert wilcoxon < conover  # each metric's Conover matrix follows its Wilcoxon pairs, models by mean rank
    assert "| x |  | 0.43 | 0.096 |" in roc and "| z | 0.096 | 0.43 |  |" in roc
    assert text.count("| Conover p (Holm) |") == len(SUMMARY_RANK_METRICS)
    plain = ranks_markdown(ranks, pairs)  # without Conover's table, the summary does not name his test
    assert plain.startswith("Tests across screens: Friedman, then Nemenyi's critical difference; pairwise Wilcoxon")
    assert "Conover" not in plain


def test_pairs_markdown_turns_a_pair_round_and_keeps_its_p():
    """``only`` gives the pairs in the order and orientation asked: z vs x is the table's x vs z turned round (by
    hand: x beats z on all 4 datasets by 0.2, 0.1, 0.1 and 0.45, a mean of 0.2125; p = 2/2^4 = 0.125, Holm over
    3 pairs 0.375; x against y: 0.1, 0.3, -0.1, 0.05, a mean of 0.0875, 3 wins and 1 loss).

    The interval of x - z, by hand from the bootstrap's exact distribution (the mean of 4 draws from the 4
    differences, 256 equally likely): its lowest value, 0.1 (all four draws 0.1), has probability 16/256 = 6.25%,
    so it is the 2.5% bound; from the top, 0.45 has 1/256, 0.3875 (three 0.45 and the 0.2) 4/256 and 0.3625 (three
    0.45 and a 0.1) 8/256, so the 97.5% bound falls on 0.3625 (1.95% lies above it, 5.08% at or above). Turned
    round: [-0.3625, -0.1], shown to 3 decimals (EF 1%, ten times, to 2)."""
    from crocbench.report import pairs_markdown, ranks_table

    _, pairs = ranks_table(_ranked_by_hand())
    table = pairs_markdown(pairs, ["roc", "ef_1pct"], only=[("z", "x"), ("x", "y")])
    lines = table.splitlines()
    assert lines[0] == "| pair | AUC[ROC] | EF 1% |" and len(lines) == 4
    assert lines[2] == "| z vs x | -0.212 [-0.362, -0.100], 0-4, p 0.38 | -2.12 [-3.62, -1.00], 0-4, p 0.38 |"
    assert lines[3].startswith("| x vs y | +0.08") and ", 3-1, p " in lines[3]
    assert (
        pairs_markdown(pairs, ["roc"]).splitlines()[2:]
        == [  # without only: the table's own pairs and order
            line for line in pairs_markdown(pairs, ["roc"], only=[("x", "y"), ("x", "z"), ("y", "z")]).splitlines()[2:]
        ]
    )
    with pytest.raises(ValueError, match="no test of x against w"):
        pairs_markdown(pairs, ["roc"], only=[("x", "w")])


def test_screens_markdown_puts_rankers_in_rows_and_splits_the_screens_into_tables_that_fit():
    """Seven screens with long names, three rankers: a row per ranker, a column per screen, each screen once and
    in order; a ranker's cell in a screen's column is that screen's value of that ranker (built here with its
    interval by hand); no table is wider than ``SCREENS_TABLE_WIDTH`` characters (each column the widest of its
    cells, with separators), and a screen more would not have fit in the table it ends."""
    import pandas as pd

    from crocbench.report import screens_markdown
    from crocbench.report._summary_markdown import SCREENS_TABLE_WIDTH

    screens = [f"a_rather_long_screen_name_{i}_confirmed" for i in range(7)]
    models = ["RANDOM", "primary score", "IRV"]
    rows = [
        {"dataset": s, "model": m, "compounds": 1000 * (i + 1), "actives": 10 + i, "roc": 0.5 + i / 20 + j / 100,
         "roc_low": 0.4 + i / 20, "roc_high": 0.6 + i / 20 + j / 100}
        for i, s in enumerate(screens)
        for j, m in enumerate(models)
    ]  # fmt: skip
    text = screens_markdown(pd.DataFrame(rows), "roc", repeats=3)
    lead, *tables = text.split("\n\n")
    assert lead == "Each screen's mean over its 3 repeats [the lowest repeat, the highest]."
    seen = []
    for table in tables:
        lines = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()]
        head = lines[0]
        assert head[0] == "ranker" and [r[0] for r in lines[2:]] == ["*compounds*", "*actives*", *models]
        widths = [max(len(r[k]) for r in (head, *lines[2:])) + 3 for k in range(len(head))]
        assert sum(widths) <= SCREENS_TABLE_WIDTH
        for k, screen in enumerate(head[1:], start=1):
            i = screens.index(screen)
            by_row = {r[0]: r[k] for r in lines[2:]}
            assert by_row["*compounds*"] == f"{1000 * (i + 1):,}" and by_row["*actives*"] == str(10 + i)
            for j, m in enumerate(models):
                v, lo, hi = 0.5 + i / 20 + j / 100, 0.4 + i / 20, 0.6 + i / 20 + j / 100
                assert by_row[m] == f"{v:.3f} [{lo:.3f}, {hi:.3f}]"
        seen += head[1:]
        if len(seen) < len(screens):  # the next screen would have made this table too wide
            assert sum(widths) + len(screens[len(seen)]) + 3 > SCREENS_TABLE_WIDTH
    assert seen == screens and len(tables) > 1
