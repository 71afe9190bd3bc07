"""Hanabi endgame puzzles: the format, the generator, the checker, the pictures and the
chance puzzles (docs/puzzles.md)."""
