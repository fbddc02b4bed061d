"""How work runs: bounded worker processes (deadlines, a memory ceiling, nothing left behind) and a Dask cluster."""
