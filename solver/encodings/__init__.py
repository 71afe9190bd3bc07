"""Independent encodings of perfect-information Hanabi (SAT and CP-SAT).

They import only the rules engine (``solver.game``), never the search, so that each is an
independent witness for the maximum scores the search reports.
"""
