"""Hanabi: the rules engine, the exact search, the other methods, the endgame chances, the
analysis of one game and the batch runs (the layout: docs/architecture.md).

The public API of this game is :mod:`solver` itself (``import solver``)."""
