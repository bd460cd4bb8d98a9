"""The benchmarks: one harness, run as ``python -m bench`` (``make bench``).

Shared pieces, each the one place for its job:

  goals.py      the goals, one table
  stats.py      the one percentile (nearest rank) and the median
  server.py     the server as ``make serve`` runs it (gunicorn) on a throwaway database
  transport.py  the HTTP client of every driver, closed loop and open loop
  procs.py      what /proc says of processes and the machine (CPU, memory, connections)
  sequences.py  plain data the benchmark and the tests share (tests import it from here)
  results.py    where the figures are kept (var/bench/<date>-<sha>.json)

The drivers: run.py (the whole suite), http_load.py with loadgen.py (closed loop),
capacity.py with capacity_load.py (open loop, live screens), import_load.py, sqlite_writers.py,
long_log.py, movegen.py, analysis_cold.py; compare.py (two revisions, alternately) and
lighthouse.py (the pages in a browser). This package imports no Django at import time: the
load generators run without settings.
"""
