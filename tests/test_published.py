"""crocbench.paper._published: the paper's published numbers (published.yaml) and a run compared with them."""


def test_published_comparison_statuses():
    from crocbench.paper import published_comparison

    published = {
        "anchors": [
            {"id": "a", "model": "irv", "metric": "roc", "published": 0.845, "tolerance": 0.03, "why": "w"},
            {"id": "b", "model": "svm", "metric": "roc", "published": 0.852, "tolerance": 0.01, "why": "w"},
            {
                "id": "c",
                "model": "svm",
                "metric": "croc_exp_80",
                "published": 0.31,
                "tolerance": 0.03,
                "why": "w",
                "known_deviation": "explained",
                "band": [0.39, 0.41],
            },
            {"id": "d", "model": "knn", "metric": "top1000", "published": 603, "tolerance": 25, "why": "w"},
            {
                "id": "e",
                "model": "irv_exp_anneal",
                "metric": "epochs_mean",
                "published": None,
                "tolerance": None,
                "why": "w",
                "band": [72, 87],
            },
        ],
        "claims": [],
    }
    measured = {
        ("irv", "roc"): 0.83,
        ("svm", "roc"): 0.80,
        ("svm", "croc_exp_80"): 0.40,
        ("irv_exp_anneal", "epochs_mean"): 79.5,
    }
    table = published_comparison(measured, published)
    assert table["status"].tolist() == ["pass", "FAIL", "known deviation", "not run", "in band"]
    assert table["note"].tolist()[2] == "explained"
    # a known deviation is bounded: outside its band (either side) it fails like any miss
    for value in (0.3899, 0.4101, 0.5):
        measured[("svm", "croc_exp_80")] = value
        assert published_comparison(measured, published)["status"][2] == "FAIL", value
    measured[("irv_exp_anneal", "epochs_mean")] = 87.5
    assert published_comparison(measured, published)["status"][4] == "FAIL"


def test_published_file_is_complete():
    from crocbench.paper import load_published

    published = load_published()
    ids = [a["id"] for a in published["anchors"]]
    assert len(ids) == len(set(ids))
    for a in published["anchors"]:
        assert a["why"] and (a["published"] is None) == (a["tolerance"] is None), a["id"]
        assert a["published"] is None or a["tolerance"] > 0, a["id"]
        if a.get("known_deviation") or a["published"] is None:  # every deviation is bounded, with its reason
            low, high = a["band"]
            assert low < high and a["band_why"], a["id"]
            if a["published"] is not None:  # a band inside the published tolerance would document no deviation
                assert high > a["published"] + a["tolerance"] or low < a["published"] - a["tolerance"], a["id"]
    for section in ("claims", "appendix_claims"):
        assert len({c["id"] for c in published[section]}) == len(published[section])
    values = {a["id"]: a["published"] for a in published["anchors"]}
    # the paper's numbers (../shared/papers/README.md)
    assert (values["svm_roc"], values["irv_roc"], values["irv_croc80"], values["svm_croc80"]) == (
        0.852,
        0.845,
        0.4,
        0.31,
    )
    assert (values["irv_top1000"], values["svm_top1000"], values["knn_top1000"]) == (645, 616, 603)
    assert (values["irv_epochs_none"], values["irv_epochs_power"], values["irv_epochs_power_density"]) == (101, 42, 33)


def test_the_published_numbers_are_a_fresh_copy_each_call():
    """published.yaml is parsed once a process; a caller that edits its copy changes no later caller's."""
    from crocbench.paper import load_published

    first = load_published()
    kept = first["anchors"][0]["published"]
    first["anchors"][0]["published"] = -1.0
    first["claims"].clear()
    again = load_published()
    assert again["anchors"][0]["published"] == kept and again["claims"]
