"""crocbench.data.pubchem: a campaign's counts under both definitions, on a small wheel written here and counted
by hand, and the declared definitions read back row by row."""

import hashlib
import zipfile

import pytest

from crocbench.data import pubchem as P

HEADER = ",SMILES,Primary,Score,Confirmatory"
# (SMILES, Primary, Confirmatory) and, by hand, the row's label under "primary" and under "confirmed"
# (1 active, 0 inactive, None unknown) and whether RDKit parses it
ROWS_TRAIN = [
    ("CCO", "1", "1.0", 1, 1, True),  # a confirmed hit
    ("c1ccccc1", "1", "0.0", 1, 0, True),  # a hit the confirmatory screen rejected: inactive when confirmed
    ("CCN", "1", "", 1, None, True),  # a hit never re-tested: unknown when confirmed
    ("CCC", "0", "", 0, 0, True),  # a primary inactive
    ("CCCl", "0", "0.0", 0, 0, True),  # a primary inactive, re-tested inactive
    ("C1CC", "0", "", 0, 0, False),  # unparseable (an open ring)
]
ROWS_VAL = [
    ("CC(=O)O", "0", "1.0", 0, 1, True),  # missed by the primary screen, active in the confirmatory one
    ("c1ccncc1", "1", "0.0", 1, 0, True),  # another rejected hit
    ("N1CC", "1", "", 1, None, False),  # an untested hit that does not parse: unknown first, never parsed
]


@pytest.fixture
def wheel(tmp_path):
    """A wheel of one campaign, "Toy", in DataValuationPlatform 1.3's layout."""
    path = tmp_path / "toy.whl"
    with zipfile.ZipFile(path, "w") as z:
        for member, rows in zip(P.members("Toy"), (ROWS_TRAIN, ROWS_VAL)):
            lines = [HEADER] + [f"{i},{s},{p},{i / 10},{c}" for i, (s, p, c, *_) in enumerate(rows)]
            z.writestr(member, "\n".join(lines) + "\n")
    return path


def test_count_campaign_counts_both_definitions_by_hand(wheel):
    out = P.count_campaign(wheel, "Toy", n_jobs=1)
    with zipfile.ZipFile(wheel) as z:
        assert out["sha256"] == {m: hashlib.sha256(z.read(m)).hexdigest() for m in P.members("Toy")}
    # primary: hits rows 0, 1, 2 and 7, 8 (8 unparseable); inactives 3, 4, 6 and 5 (unparseable)
    assert out["primary"] == {
        "rows_in": 9,
        "kept": 7,
        "positives": 4,
        "negatives": 3,
        "rejected": 2,
        "rejected_by_reason": {"unparseable": 2},
    }
    # confirmed: actives rows 0 and 6 (Confirmatory 1.0, whatever Primary); inactives 1 and 7 (hits the
    # confirmatory screen rejected), 3 and 4, and 5 (unparseable); unknown 2 and 8 (hits never re-tested)
    assert out["confirmed"] == {
        "rows_in": 9,
        "kept": 6,
        "positives": 2,
        "negatives": 4,
        "rejected": 3,
        "rejected_by_reason": {"unknown label": 2, "unparseable": 1},
    }


def test_count_campaign_agrees_with_the_labels_by_hand(wheel):
    rows = ROWS_TRAIN + ROWS_VAL
    out = P.count_campaign(wheel, "Toy", n_jobs=1)
    for column, definition in ((3, "primary"), (4, "confirmed")):
        labels = [(r[column], r[5]) for r in rows]
        assert out[definition]["positives"] == sum(lab == 1 and ok for lab, ok in labels)
        assert out[definition]["negatives"] == sum(lab == 0 and ok for lab, ok in labels)
        assert out[definition]["rejected_by_reason"].get("unknown label", 0) == sum(lab is None for lab, _ in labels)


def _declared_label(definition: dict, primary: str, confirmatory: str):
    """A row's label as a declaration of :data:`pubchem.DEFINITIONS` reads: 1, 0 or None (unknown)."""
    value = [int(primary), float(confirmatory) if confirmatory else None]
    if isinstance(definition["label"], str):  # one column: Primary
        value = value[0]
    found = [
        lab for lab, key in ((1, "positive"), (0, "negative"), (None, "unknown")) if value in definition.get(key, [])
    ]
    assert len(found) == 1, (value, found)  # every (Primary, Confirmatory) pair of the release has one class
    return found[0]


def test_the_declared_definitions_give_the_labels_by_hand():
    for smiles, primary, confirmatory, want_primary, want_confirmed, _ in ROWS_TRAIN + ROWS_VAL:
        assert _declared_label(P.DEFINITIONS["primary"], primary, confirmatory) == want_primary, smiles
        assert _declared_label(P.DEFINITIONS["confirmed"], primary, confirmatory) == want_confirmed, smiles
