"""Hand deal statistics at scale: the deal store (SQLite, resumable), the batch runner
(local processes or Dask, :mod:`solver.analysis.pool`) and the report (docs/hand.md,
"Deal statistics"). Each deal's record is :func:`solver.handsolve.stats.deal_stats`."""
from .report import format_markdown, format_text, plot, summarise
from .run import HandBatchResult, analyse_deal, run_deals
from .store import DealRow, HandStore, SeatRow

__all__ = ["DealRow", "HandBatchResult", "HandStore", "SeatRow", "analyse_deal", "format_markdown", "format_text",
           "plot", "run_deals", "summarise"]
