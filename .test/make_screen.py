"""Writes .test/data/screen.csv: a synthetic screen for the tests and a quick look at the workflow (not a measurement).

96 compounds: 24 AZT-like nucleosides (8 five-substituents x 3 three'-substituents) and 72 disubstituted benzenes
(12 x 6). "Active" (CA/CM): the nucleosides with a 3'-azido or 3'-fluoro group and four nitro-benzenes, 20 in all;
the 3'-deoxy nucleosides are inactive (CI) look-alikes, so no model ranks the list perfectly.
Run from the project root: python .test/make_screen.py
"""

import csv

from rdkit import Chem

rows = []
for five in ["C", "[H]", "CC", "Cl", "Br", "F", "I", "C=C"]:
    for three in ["N=[N+]=[N-]", "F", "[H]"]:
        rows.append((f"{five}c1cn(C2CC({three})C(CO)O2)c(=O)[nH]c1=O", "CI" if three == "[H]" else "CA"))
for x in ["C", "CC", "O", "N", "Cl", "Br", "F", "OC(=O)", "NC(=O)", "CO", "CN(C)", "N#C"]:
    for y in ["S", "I", "C(F)(F)F", "OCC", "C=O", "[N+](=O)[O-]"]:
        rows.append((f"{x}c1ccc({y})cc1", "CM" if y == "[N+](=O)[O-]" and x in ("Cl", "Br", "F", "N#C") else "CI"))
with open(".test/data/screen.csv", "w", newline="") as fh:
    writer = csv.writer(fh, lineterminator="\n")
    writer.writerow(["id", "smiles", "activity"])
    writer.writerows((f"c{i:02d}", Chem.MolToSmiles(Chem.MolFromSmiles(s)), label) for i, (s, label) in enumerate(rows))
