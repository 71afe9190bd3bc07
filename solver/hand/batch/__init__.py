"""Hand deal statistics at scale: the deal store (SQLite, resumable), the batch runner
(local processes or Dask, :mod:`solver.common.pool`) and the report (docs/hand.md,
"Deal statistics"). Each deal's record is :func:`solver.hand.batch.stats.deal_stats`."""
from .exchange import ExportFile, ImportResult, export_rows, file_budget, import_file, read_export
from .report import format_markdown, format_text, plot, summarise
from .run import HandBatchResult, analyse_deal, run_deals
from .store import DealRow, HandStore, SeatRow

__all__ = ["DealRow", "ExportFile", "HandBatchResult", "HandStore", "ImportResult", "SeatRow", "analyse_deal",
           "export_rows", "file_budget", "format_markdown", "format_text", "import_file", "plot", "read_export",
           "run_deals", "summarise"]
