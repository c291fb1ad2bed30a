"""``python -m crocbench.cli``: the ``crocbench`` command."""

import sys

from . import main

sys.exit(main())
