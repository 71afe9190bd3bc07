"""Independent encodings of perfect-information Hanabi (SAT and CP-SAT).

They import only the rules engine (``solver.hanabi.rules``, and the small modules built on it
alone: ``errors``, ``support``, ``strategy``), never the search, so that each is an
independent witness for the maximum scores the search reports (tests/test_api.py checks).
"""
