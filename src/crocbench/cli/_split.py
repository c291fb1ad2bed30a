"""``crocbench split novelty`` and ``crocbench split verify``: a novelty split's folds and certificate, and its check."""

from __future__ import annotations

import json
from pathlib import Path

from ._tuning import _check_writable


def add_split_parser(sub, seed_type, positive_int) -> None:
    """The ``split`` command and its subcommands ``novelty`` and ``verify``."""
    from ..chem.graph import FINGERPRINTS, TAU
    from ..cv import MAX_DROPPED

    p = sub.add_parser("split", help="a novelty split of a table of compounds, and the check of its certificate")
    commands = p.add_subparsers(dest="split_command", required=True, parser_class=type(p))
    q = commands.add_parser(
        "novelty",
        help="k folds with no pair of compounds in two folds at similarity >= tau; compounds that cannot be placed "
        "are dropped (fold -1); writes the fold table and its certificate",
    )
    q.add_argument("compounds", help="CSV (or TSV) of the compounds: columns id, smiles, label (1 = active)")
    q.add_argument("--folds", required=True, help="the fold table to write (TSV: id, label, fold, group)")
    q.add_argument("--certificate", required=True, help="the certificate to write (JSON)")
    q.add_argument("--n-folds", type=positive_int, default=10, help="folds (default: 10)")
    q.add_argument("--seed", type=seed_type, default=0, help="seed of the dealing of the groups (default: 0)")
    q.add_argument("--tau", default=TAU, help=f"Tanimoto threshold in (0, 1] (default: {TAU})")
    q.add_argument(
        "--fingerprint", default=FINGERPRINTS[0], help=f"one of {', '.join(FINGERPRINTS)} (default: {FINGERPRINTS[0]})"
    )
    q.add_argument(
        "--max-dropped",
        default=MAX_DROPPED,
        help=f"the largest share of the compounds that may be dropped (default: {MAX_DROPPED})",
    )
    q = commands.add_parser(
        "verify", help="recompute a certificate from the compounds and the fold table; fail where a pair crosses"
    )
    q.add_argument("certificate", help="the certificate (JSON, from crocbench split novelty)")
    q.add_argument("--folds", required=True, help="the fold table (TSV: id, label, fold)")
    q.add_argument("--compounds", required=True, help="CSV (or TSV) of the compounds: columns id, smiles, label")


def _compounds(path: Path):
    """The compounds' table (``id``, ``smiles``, ``label`` 0/1); a CSV by its extension, else TSV."""
    from .._io import read_table

    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    table = read_table(path, sep="," if path.suffix.lower() == ".csv" else "\t", dtype={"id": str, "smiles": str})
    missing = [c for c in ("id", "smiles", "label") if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: no {', '.join(missing)} column (it has {', '.join(map(str, table.columns))})")
    if not table["label"].isin([0, 1]).all():
        raise ValueError(f"{path}: labels must be 0 or 1")
    if table["id"].duplicated().any():
        raise ValueError(f"{path}: compound {table['id'][table['id'].duplicated()].iloc[0]} is listed twice")
    return table


def _novelty(args) -> int:
    from .._io import write_bytes, write_table
    from .._parallel import available_cores
    from ..chem.clusters import check_threshold
    from ..chem.graph import check_fingerprint, named_fingerprints, tau_graph
    from ..cv import DROPPED, certificate, certificate_bytes, check_max_dropped, novelty_table
    from ..similarity import FeatureMatrix

    tau = check_threshold(args.tau, "tau")
    fingerprint = check_fingerprint(args.fingerprint)
    max_dropped = check_max_dropped(args.max_dropped)
    folds_path, cert_path = Path(args.folds), Path(args.certificate)
    for option, path in (("--folds", folds_path), ("--certificate", cert_path)):
        _check_writable(option, path)
    compounds = _compounds(Path(args.compounds))
    fp = FeatureMatrix(
        named_fingerprints(compounds["smiles"], fingerprint, ids=compounds["id"].tolist(), n_jobs=available_cores())
    )  # prepared once, for the graph and the certificate
    table = novelty_table(
        compounds["id"], compounds["label"], tau_graph(fp, tau), tau, args.n_folds, args.seed, max_dropped
    )
    cert = certificate(table, fp, tau, fingerprint)
    write_table(table, folds_path, sep="\t", index=False)
    write_bytes(cert_path, certificate_bytes(cert))
    kept = table["fold"] != DROPPED
    worst = max(f["max_similarity"] for f in cert["folds"])
    print(
        f"{int(kept.sum())} of {len(table)} compounds in {args.n_folds} folds; dropped "
        f"{cert['dropped']['actives']} actives and {cert['dropped']['inactives']} inactives; highest similarity "
        f"across folds {worst:.4f} < tau {tau:g}"
    )
    return 0


def _verify(args) -> int:
    from .._io import read_table, read_text
    from .._parallel import available_cores
    from ..chem.graph import check_fingerprint, named_fingerprints
    from ..cv import verify_certificate

    cert_path, folds_path = Path(args.certificate), Path(args.folds)
    for path in (cert_path, folds_path):
        if not path.is_file():
            raise ValueError(f"{path}: no such file")
    try:
        cert = json.loads(read_text(cert_path, "JSON"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{cert_path}: not a certificate (JSON): {exc}") from None
    if not isinstance(cert, dict):
        raise ValueError(f"{cert_path}: not a certificate (a JSON object)")
    fingerprint = check_fingerprint(cert.get("fingerprint"))
    table = read_table(folds_path, dtype={"id": str})
    missing = [c for c in ("id", "label", "fold") if c not in table.columns]
    if missing:
        raise ValueError(f"{folds_path}: no {', '.join(missing)} column: not a fold table")
    compounds = _compounds(Path(args.compounds)).set_index("id")
    absent = ~table["id"].isin(compounds.index)
    if absent.any():
        raise ValueError(f"{folds_path}: compound {table['id'][absent].iloc[0]} is not in {args.compounds}")
    if len(compounds) != len(table):
        extra = compounds.index[~compounds.index.isin(table["id"])][0]
        raise ValueError(f"{args.compounds}: compound {extra} is in no row of the fold table {folds_path}")
    if (compounds.loc[table["id"], "label"].to_numpy() != table["label"].to_numpy()).any():
        raise ValueError(f"{folds_path}: a compound's label is not its label in {args.compounds}")
    smiles = compounds.loc[table["id"], "smiles"]
    fp = named_fingerprints(smiles, fingerprint, ids=table["id"].tolist(), n_jobs=available_cores())
    maxima = verify_certificate(cert, table, fp)
    if not maxima:
        raise ValueError(f"{folds_path}: every compound is dropped: no fold to certify")
    worst = max(m["max_similarity"] for m in maxima)
    print(f"certified: {len(maxima)} folds, highest similarity across folds {worst:.4f} < tau {cert['tau']:g}")
    return 0


def _split(args) -> int:
    return {"novelty": _novelty, "verify": _verify}[args.split_command](args)
