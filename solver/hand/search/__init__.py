"""The exact search of Hand: the kernel (:mod:`.tables`, :mod:`.dfs`, compiled with mypyc;
import it through :mod:`.kernel`) and the analyses built on it (:mod:`.analyses`)."""
