"""``.. config-reference::``: every key of the workflow's config, from its JSON schema, as a table.

The configuration page cannot drift from the schema Snakemake validates ``config.yaml`` against
(``workflow/schemas/config.schema.yaml``): the table is built from it at every docs build, and a key
without a ``description`` is a warning, so ``sphinx-build -W`` fails on it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

SCHEMA = Path(__file__).resolve().parents[2] / "workflow" / "schemas" / "config.schema.yaml"
logger = logging.getLogger(__name__)


def _resolve(node: dict, root: dict) -> dict:
    ref = node.get("$ref")
    if ref:
        target = root
        for part in ref.lstrip("#/").split("/"):
            target = target[part]
        return {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _type(node: dict) -> str:
    if "enum" in node:
        return "one of " + ", ".join(f"``{json.dumps(v)}``" for v in node["enum"])
    if "oneOf" in node:
        return " or ".join(_type(n) for n in node["oneOf"])
    kind = node.get("type", "")
    kinds = kind if isinstance(kind, list) else [kind]
    text = " or ".join(k for k in kinds if k) or "any"
    if "items" in node and isinstance(node["items"], dict):
        text += f" of {_type(node['items'])}"
    bounds = [
        f"{op} {node[key]}"
        for key, op in (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="), ("exclusiveMaximum", "<"))
        if key in node
    ]
    return text + (f" ({', '.join(bounds)})" if bounds else "")


def rows(node: dict, root: dict, path: str = "") -> list[tuple[str, str, str, str]]:
    """``(key, type, default, description)`` of every key below ``node``, depth first, in schema order.

    A map whose keys the user chooses (``datasets``, ``models``) is shown as ``NAME``.
    """
    out = []
    node = _resolve(node, root)
    children = dict(node.get("properties", {}))
    extra = node.get("additionalProperties")
    if isinstance(extra, dict) and not children:
        children = {"NAME": extra}
    elif isinstance(extra, dict) and "oneOf" not in extra:
        children["NAME"] = extra
    for key, child in children.items():
        child = _resolve(child, root)
        name = f"{path}.{key}" if path else key
        description = " ".join(str(child.get("description", "")).split())
        if not description:
            logger.warning(f"config key {name!r} has no description in {SCHEMA.name}")
        default = "" if "default" not in child else f"``{json.dumps(child['default'])}``"
        out.append((name, _type(child), default, description))
        if child.get("properties") or isinstance(child.get("additionalProperties"), dict) or "$ref" in child:
            out.extend(rows(child, root, name))
    return out


_CODE = re.compile(r"``(.+?)``|`([^`]+)`")


def _inline(text: str) -> list[nodes.Node]:
    """``text`` as docutils nodes: spans in double or single backticks (the schema's descriptions use single
    ones) as literals, the rest as plain text.  Built here rather than parsed: a nested parse would use the
    page's parser, and MyST does not read reST (a ``list-table`` came out as plain text)."""
    out, at = [], 0
    for match in _CODE.finditer(text):
        if match.start() > at:
            out.append(nodes.Text(text[at : match.start()]))
        code = match.group(1) if match.group(1) is not None else match.group(2)
        out.append(nodes.literal(code, code))
        at = match.end()
    if at < len(text):
        out.append(nodes.Text(text[at:]))
    return out


class ConfigReference(SphinxDirective):
    has_content = False

    def run(self):
        root = yaml.safe_load(SCHEMA.read_text())
        self.env.note_dependency(str(SCHEMA))
        header = ("key", "type", "default", "what it does")
        table = nodes.table(classes=["config-reference"])
        group = nodes.tgroup(cols=len(header))
        table += group
        for width in (25, 20, 12, 43):
            group += nodes.colspec(colwidth=width)

        def row(cells) -> nodes.row:
            out = nodes.row()
            for cell in cells:
                out += nodes.entry("", nodes.paragraph("", "", *_inline(cell)) if cell else nodes.paragraph())
            return out

        group += nodes.thead("", row(header))
        body = nodes.tbody()
        for key, kind, default, description in rows(root, root):
            body += row((f"``{key}``", kind, default, description))
        group += body
        return [table]


def setup(app):
    app.add_directive("config-reference", ConfigReference)
    return {"parallel_read_safe": True, "version": "1"}
