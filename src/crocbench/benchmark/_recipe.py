"""What an export reads besides the raw files: the spec's config and its reference rankers' values, from a crocbench
checkout (:func:`checkout`) or, for a committed spec, from its recipe.

A recipe (:func:`make_recipe`) is that input frozen beside the committed spec, in package data
(``specs/recipes/<name>.json``): the config's ``cv``, ``download`` and ``ecfp`` sections and the declarations of
the spec's screens, and the reference's values as the export writes them (``reference.csv``), with the spec's
sha256. A freeze writes it; an export of a spec with a recipe reads no checkout, so it runs from a bare
``pip install`` (the mirror is then ``CROCBENCH_MIRROR``'s, else the files are downloaded).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ._read import table_bytes
from ._spec import REFERENCE_FILE, Spec, screen_file, sha256_bytes, specs_folder
from ._splits import check_split
from ._values import at_precision, rounded_means

#: The reference rankers' values: one row per screen and ranker.
REFERENCE_KEYS = ("dataset", "model")

#: The subfolder of the specs' folder holding their recipes (not a spec: :func:`committed_specs` reads ``*.json``).
RECIPES = "recipes"

#: The config's sections an export reads, besides the screens' declarations.
RECIPE_SECTIONS = ("cv", "download", "ecfp")


def reference_values(spec: Spec, root=".") -> pd.DataFrame:
    """The reference rankers' values on the spec's screens and metrics: ``dataset, model, compounds, actives`` and
    one column per metric, from the reference's ``datasets.tsv`` (a panel's) or ``areas.tsv`` (one screen's), at
    :data:`~crocbench.benchmark._values.VALUE_DIGITS` significant digits. A split that repeats takes each value's
    mean over the repeats (``datasets_repeats.tsv``) as an entry's is taken
    (:func:`~crocbench.benchmark._values.rounded_means`)."""
    folder = Path(root) / spec.reference
    across = folder / "datasets.tsv"
    if spec.repeats > 1:
        if not (folder / "datasets_repeats.tsv").is_file():
            raise ValueError(
                f"benchmark {spec.name}: its split repeats {spec.repeats} times and {folder} holds no "
                "datasets_repeats.tsv (each repeat's values)"
            )
        per_repeat = pd.read_csv(folder / "datasets_repeats.tsv", sep="\t")
        if per_repeat["repeat"].nunique() != spec.repeats:
            raise ValueError(
                f"benchmark {spec.name}: {folder}'s datasets_repeats.tsv holds {per_repeat['repeat'].nunique()} "
                f"repeats; the split repeats {spec.repeats} times"
            )
        values = [c for c in spec.metrics if c in per_repeat.columns]
        sizes = per_repeat.groupby(list(REFERENCE_KEYS), sort=False)[["compounds", "actives"]].first().reset_index()
        table = rounded_means(per_repeat, REFERENCE_KEYS, values).merge(sizes, on=list(REFERENCE_KEYS))
    elif across.is_file():
        table = pd.read_csv(across, sep="\t")
    elif (folder / "areas.tsv").is_file() and len(spec.screens) == 1:
        table = pd.read_csv(folder / "areas.tsv", sep="\t").assign(dataset=spec.screens[0])
        table["compounds"], table["actives"] = _sizes(spec)
    else:
        raise ValueError(f"benchmark {spec.name}: {folder} holds no datasets.tsv or areas.tsv")
    missing = [c for c in spec.metrics if c not in table.columns]
    if missing:
        raise ValueError(f"benchmark {spec.name}: its reference {folder} has no metric {missing[0]!r}")
    table = table[table["model"].isin(spec.rankers) & table["dataset"].isin(spec.screens)]
    wanted = pd.MultiIndex.from_product([spec.screens, spec.rankers])
    found = pd.MultiIndex.from_frame(table[list(REFERENCE_KEYS)])
    absent = wanted.difference(found)
    if len(absent):
        raise ValueError(f"benchmark {spec.name}: its reference {folder} has no row for {' / '.join(absent[0])}")
    table = table.set_index(list(REFERENCE_KEYS)).loc[wanted].reset_index()
    table = at_precision(table, [c for c in spec.metrics if table[c].dtype.kind == "f"])
    return table[[*REFERENCE_KEYS, "compounds", "actives", *spec.metrics]]


def _sizes(spec: Spec) -> tuple:
    size = spec.files.get(screen_file(spec.screens[0]), {})
    if "compounds" not in size:
        raise ValueError(f"benchmark {spec.name}: a one-screen reference takes its sizes from the frozen spec")
    return size["compounds"], size["actives"]


def checkout(root=None) -> Path:
    """The crocbench checkout an export reads: ``root`` when given; else the current folder when it is one (it holds
    ``config.yaml``); else the checkout crocbench is imported from (an editable install), when it is one; else the
    current folder, which an export then refuses in one line."""
    if root is not None:
        return Path(root)
    installed = Path(__file__).resolve().parents[3]  # <checkout>/src/crocbench/benchmark/_export.py
    if not Path("config.yaml").is_file() and (installed / "config.yaml").is_file():
        return installed
    return Path(".")


def recipe_path(spec_path) -> Path:
    """The recipe of the spec file ``spec_path``: ``<its folder>/recipes/<its name>.json``."""
    spec_path = Path(spec_path)
    return spec_path.parent / RECIPES / f"{spec_path.stem}.json"


def make_recipe(spec: Spec, root) -> bytes:
    """The recipe of a frozen spec, from the checkout ``root``: its canonical bytes (sorted keys, 2-space indent).

    Raises
    ------
    ValueError
        ``root`` is not a checkout, or its reference no longer gives the values the spec was frozen with.
    """
    config = read_config(spec, root)
    reference = table_bytes(reference_values(spec, root))
    if sha256_bytes(reference) != spec.files.get(REFERENCE_FILE, {}).get("sha256"):
        raise ValueError(
            f"benchmark {spec.title}: the reference {spec.reference} no longer gives the values it was frozen with"
        )
    recipe = {
        "spec": spec.sha256,
        "config": {
            **{key: config[key] for key in RECIPE_SECTIONS if key in config},
            "datasets": {screen: config["datasets"][screen] for screen in spec.screens},
        },
        "reference": reference.decode().splitlines(keepends=True),
    }
    return (json.dumps(recipe, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def read_recipe(spec: Spec, folder=None) -> dict | None:
    """The recipe of a committed spec: ``{"config", "reference"}`` (the reference as the bytes of
    :data:`REFERENCE_FILE`); None when the specs' ``folder`` (default :func:`specs_folder`) holds none for it, or
    holds one of another spec (an older one of the same name)."""
    path = Path(specs_folder() if folder is None else folder) / RECIPES / f"{spec.name}.json"
    if not path.is_file():
        return None
    recipe = json.loads(path.read_bytes())
    if recipe.get("spec") != spec.sha256:
        return None
    return {"config": recipe["config"], "reference": "".join(recipe["reference"]).encode()}


def read_config(spec: Spec, root) -> dict:
    """The spec's config, read from the checkout ``root``; one line with a hint where ``root`` is not one."""
    from ..config import load_config

    if not (Path(root) / "config.yaml").is_file():
        raise ValueError(
            f"benchmark {spec.name}: an export of a spec without a recipe reads the config files and reference of a "
            f"crocbench checkout, and {Path(root).resolve()} is not one (no config.yaml); run it in the checkout or "
            "give --root CHECKOUT"
        )
    return load_config(spec.config, root)


def mirror_setting(root):
    """The ``mirror`` of the checkout ``root``'s ``config.yaml``; None where ``root`` is no checkout."""
    path = Path(root) / "config.yaml"
    if not path.is_file():
        return None
    from .._extras import needs

    with needs("crocbench.config"):
        import yaml

    return (yaml.safe_load(path.read_text()) or {}).get("mirror")


def spec_config(spec: Spec, root, recipe: dict | None = None) -> dict:
    """The config that an export or a freeze of ``spec`` reads: the recipe's (:func:`read_recipe`), with the mirror
    setting of the checkout ``root`` if it is one, where ``recipe`` is given; else the checkout's
    (:func:`read_config`). One line where it disagrees with the spec's split
    (:func:`crocbench.benchmark._splits.check_split`)."""
    config = read_config(spec, root) if recipe is None else {**recipe["config"], "mirror": mirror_setting(root)}
    check_split(spec, config)
    return config


def export_inputs(spec: Spec, root) -> tuple[dict, bytes]:
    """What an export of ``spec`` reads: its config (:func:`spec_config`) and the bytes of its
    :data:`REFERENCE_FILE`; from its recipe when it has one, else from the checkout."""
    recipe = read_recipe(spec)
    config = spec_config(spec, root, recipe)
    return config, table_bytes(reference_values(spec, root)) if recipe is None else recipe["reference"]
