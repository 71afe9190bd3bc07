"""The exact search of Hanabi: its compact position, the bounds, the depth-first search
and the relaxed game (the kernel, compiled with mypyc; import it through :mod:`.kernel`)."""
