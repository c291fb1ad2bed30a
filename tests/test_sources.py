"""crocbench.data.sources: the registry, and a new kind of source as one module."""

import hashlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from crocbench.data import SOURCES, Fetching, obtain, source_for


def test_every_kind_of_the_config_schema_is_registered():
    """The schema's file entries name their kind by one key; each key has a source, and no source lacks one."""
    import yaml

    schema = yaml.safe_load((Path(__file__).resolve().parents[1] / "workflow/schemas/config.schema.yaml").read_text())
    files = schema["$defs"]["dataset"]["properties"]["files"]["items"]
    kinds = {key for alternative in files["oneOf"] for key in alternative["required"] if key != "archive"}
    archive_kinds = {key for alternative in files["properties"]["archive"]["oneOf"] for key in alternative["required"]}
    assert kinds | archive_kinds == set(SOURCES)


def test_an_entry_names_exactly_one_kind():
    with pytest.raises(ValueError, match="declare exactly one of command, member, package, url"):
        source_for({"name": "a", "url": "x", "command": "y"})


def test_a_new_kind_is_one_module(tmp_path):
    """A module dropped into the package registers its kind with no other change (run in a fresh interpreter,
    on a copy of the package, so the real one is untouched)."""
    import shutil
    from pathlib import Path

    import crocbench

    root = tmp_path / "src"
    shutil.copytree(Path(crocbench.__file__).parent, root / "crocbench", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "crocbench/data/sources/echo.py").write_text(
        textwrap.dedent(
            '''
            from ._base import Source


            class Echo(Source):
                """A file whose content is the entry's ``echo`` text."""

                key = "echo"

                def write(self, entry, out, how):
                    out.write_text(entry["echo"])
                    return "echo", "check the text"
            '''
        )
    )
    code = (
        "from crocbench.data import obtain, Fetching, SOURCES; import sys; "
        "print(sorted(SOURCES)); "
        "print(obtain({'name': 'e', 'echo': 'hi', 'sha256': sys.argv[1]}, sys.argv[2], how=Fetching(progress=None)))"
    )
    sha = hashlib.sha256(b"hi").hexdigest()
    done = subprocess.run(
        [sys.executable, "-c", code, sha, str(tmp_path / "e")],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["['command', 'echo', 'member', 'package', 'url']", sha]
    assert (tmp_path / "e").read_text() == "hi"


def test_obtain_uses_the_entry_s_own_kind(tmp_path):
    entry = {"name": "x", "command": "printf abc > {out}", "sha256": hashlib.sha256(b"abc").hexdigest()}
    assert obtain(entry, tmp_path / "x", how=Fetching(progress=None)) == entry["sha256"]
