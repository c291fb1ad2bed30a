"""``crocbench tuning choose``: each tuned ranker's configuration, chosen on a development panel's values."""

from __future__ import annotations

from pathlib import Path


def add_tuning_parser(sub) -> None:
    """The ``tuning`` command and its subcommand ``choose``."""
    p = sub.add_parser("tuning", help="choose each tuned ranker's configuration on a development panel")
    commands = p.add_subparsers(dest="tuning_command", required=True, parser_class=type(p))
    q = commands.add_parser(
        "choose",
        help="from a development panel's values (tuning: design: development), each ranker's best candidate by "
        "its mean metric of record over the panel's screens (with tuning: cost_margin, the cheapest within it)",
    )
    q.add_argument("values", help="the development panel's candidate values (results/tuning/values.tsv)")
    q.add_argument(
        "--config",
        required=True,
        help="the development run's config files, comma-separated, as --configfile took them (over config.yaml): the "
        "same files, unchanged, so that each candidate's label names the configuration it ran",
    )
    q.add_argument(
        "--out",
        required=True,
        help="the chosen models (YAML: a `models:` to merge into a test config, and the `tuning:` that chose them, "
        "its screens under chosen_on)",
    )
    q.add_argument("--table", help="every candidate's mean and SD over the screens (TSV; default: beside --out)")
    q.add_argument("--root", default=".", help="the project's root, holding config.yaml (default: the current folder)")


def _values(path: Path, metric: str):
    """The development panel's values (``dataset``, ``model``, ``metric``...: a row per screen and candidate); a
    file that is not such a table raises one line naming it."""
    from .._io import read_table

    values = read_table(path)
    missing = [c for c in ("dataset", "model", metric) if c not in values.columns]
    if missing:
        raise ValueError(
            f"{path}: no {', '.join(missing)} column (it has {', '.join(map(str, values.columns))}); "
            "it is not a development panel's values table (results/tuning/values.tsv)"
        )
    if values.empty:
        raise ValueError(f"{path}: no rows (a header alone): the development run wrote no values")
    twice = values.duplicated(["dataset", "model"])
    if twice.any():
        row = values[twice].iloc[0]
        raise ValueError(
            f"{path}: screen {row['dataset']} and candidate {row['model']} are given twice (first repeated at row "
            f"{int(twice.to_numpy().argmax()) + 1}); keep one row each"
        )
    return values


def _check_writable(option: str, path: Path) -> None:
    """Refuse, before anything is written, an output that is a folder or whose folder does not exist."""
    if path.is_dir():
        raise ValueError(f"{option} {path}: is a folder; name the file to write")
    if not path.resolve().parent.is_dir():
        raise ValueError(f"{option} {path}: its folder {path.resolve().parent} does not exist; create it first")


def _tuning(args) -> int:
    from .._extras import needs

    with needs("crocbench tuning choose"):
        import yaml

    from .._io import write_table, write_text
    from ..config import load_config, tuning_settings
    from ..models import expand_runs
    from ..models._development import choose_candidates, chosen_models, chosen_tuning

    files = [Path(f) for f in args.config.split(",") if f.strip()]
    for f in files:
        if not f.is_file():
            raise ValueError(f"--config: no file {f}")
    values_path = Path(args.values)
    if not values_path.is_file():
        raise ValueError(f"{values_path}: no such file (the development panel's results/tuning/values.tsv)")
    config = load_config([f.resolve() for f in files], Path(args.root).resolve())
    tuning = tuning_settings(config)
    if tuning["design"] != "development":
        raise ValueError("the config's tuning: design is not development: its rankers were tuned in each fold")
    search = [p / "plugins" for p in (*(f.resolve().parent for f in files), Path(args.root).resolve())]
    entries = expand_runs(config["models"], config.get("irv_training"), tuning, [p for p in search if p.is_dir()])
    values = _values(values_path, tuning["metric"])
    table_path = Path(args.table) if args.table else Path(args.out).with_suffix(".tsv")
    for option, path in (("--out", Path(args.out)), ("--table", table_path)):
        _check_writable(option, path)
    table = choose_candidates(values, entries, tuning["metric"], tuning["cost_margin"])
    chosen = chosen_models(table, entries)
    screens = int(table["screens"].iloc[0])
    rule = (
        f"best of {tuning['budget']} configurations\n# by its mean {tuning['metric']} over the screens"
        if tuning["cost_margin"] is None
        else f"cheapest of {tuning['budget']} configurations\n# within {tuning['cost_margin']:g} of the best mean "
        f"{tuning['metric']} over the screens"
    )
    header = (
        f"# Chosen on a development panel of {screens} screens ({', '.join(str(f) for f in files)}): each ranker's "
        f"{rule}; every candidate's mean, SD and seconds (wall, CPU): "
        f"{table_path.name}\n"
    )
    record = chosen_tuning(tuning, dict.fromkeys(values["dataset"]))  # the tuning that chose them, its screens
    text = header + yaml.safe_dump({"tuning": record, "models": chosen}, sort_keys=False)
    write_table(table, table_path, sep="\t", index=False, float_format="%.10g")
    write_text(args.out, text)
    for row in table[table["chosen"]].itertuples():
        best = table[(table["ranker"] == row.ranker) & table["best"]].iloc[0]
        cost = "" if best.candidate == row.candidate else f"; the best, {best.candidate}, {best['mean']:.4f}"
        print(f"{row.ranker}: {row.params} ({tuning['metric']} {row.mean:.4f} over {row.screens} screens{cost})")
    return 0
