"""The compiled kernels of both games: which modules are compiled (:mod:`.stamp`) and the
one loader that picks the compiled build or the pure source (:mod:`.loader`)."""
