"""Writes predictions.csv beside this file: the scoring guide's example list, 5,000 made-up compounds.

Each compound has an id, a score (``pred``, rounded to two decimals, so tied scores occur) and an NCI-style
outcome (``activity``: CA confirmed active, CM moderately active, CI inactive), drawn with a fixed seed:
``python docs/examples/make_predictions.py`` writes the same file every time.
"""

from pathlib import Path

import numpy as np
import pandas as pd

rng = np.random.default_rng(2010)
n = 5000
activity = rng.choice(["CA", "CM", "CI"], size=n, p=[0.012, 0.025, 0.963])
active = activity != "CI"
pred = np.round(rng.normal(0.0, 1.0, n) + 1.6 * active, 2)
table = pd.DataFrame({"id": [f"C{i:05d}" for i in range(n)], "pred": pred, "activity": activity})
table.to_csv(Path(__file__).with_name("predictions.csv"), index=False)
