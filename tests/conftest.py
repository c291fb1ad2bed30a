import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The local data mirror (CROCBENCH_MIRROR, else ../shared/mirror beside the project)."""
    path = Path(os.environ.get("CROCBENCH_MIRROR", ROOT.parent / "shared" / "mirror"))
    if not path.is_dir():
        pytest.skip(f"no data mirror at {path}")
    return path
