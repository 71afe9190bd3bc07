"""The Hand search kernel's one signal, :class:`BudgetExhausted`. It lives outside the
kernel (solver/hand/search/dfs.py, which is compiled), so that the pure and the
compiled kernel (:mod:`solver.hand.search.kernel`) raise the one class every
``except BudgetExhausted`` catches."""
from __future__ import annotations


class BudgetExhausted(Exception):
    """The search spent its node budget before deciding the question."""
