#!/bin/sh
# Run by `snakemake --use-conda` inside the freshly created environment (crocbench.yaml holds its
# pinned dependencies): installs crocbench itself, which every rule's script imports. Editable, so the
# environment always runs this checkout's code; --no-deps, so the pins stay exactly as declared.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
python -m pip install --quiet --no-deps -e "$root"
