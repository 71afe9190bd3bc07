"""Deck analysis at scale: jobs (seed ranges, deck files, game folders), the SQLite result
store, local or Dask execution, reports, and game review."""
