from crocbench._workflow import step
from crocbench.similarity import gather_chunks, save_neighbours

with step(snakemake) as log:
    nb = gather_chunks(list(snakemake.input))
    print(
        f"top-{nb.index.shape[1]} neighbours of {nb.index.shape[0]} compounds from {len(snakemake.input)} chunk(s)",
        file=log,
        flush=True,
    )
    save_neighbours(snakemake.output[0], nb)
