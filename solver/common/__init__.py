"""What both games' batch commands share: the worker pool (:mod:`.pool`), the progress
line (:mod:`.progress`), the SQLite store file (:mod:`.sqlite`) and checked output files
(:mod:`.outputs`). It imports nothing of either game."""
