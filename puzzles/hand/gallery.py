"""The Hand puzzle gallery: 12 generated puzzles of both kinds and three difficulties,
their pictures and an index page with the answers folded (docs/hand-puzzles/README.md).

    hand puzzle gallery --out docs/hand-puzzles --seed 2026
    hand puzzle gallery --out docs/hand-puzzles --from-files   # redraw and rewrite only

Slot k of :data:`PLAN` takes the first puzzle of seed ``seed + k`` (attempts 0, 1, 2, ...)
of its kind and difficulty, with cards already on the current trick or not as the slot
asks: the same seed, the same gallery. ``--from-files`` redraws the pictures and rewrites
the page from the puzzle files already there (slot k's file is the one of seed + k).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from solver.common.outputs import write_output
from solver.hand import reachable, seat_bounds
from solver.hand.rules import NUM_SEATS, Position, card_str

from .format import SAFE, TABLE, HandPuzzle, load_puzzle, tricks_text
from .generate import generate_one
from .render import card_label, render_puzzle
from .solve import NODES, after, choices

# (kind, difficulty, cards on the current trick: True some, False none, None either)
PLAN: tuple[tuple[str, str, bool | None], ...] = (
    (TABLE, "easy", False),
    (SAFE, "easy", False),
    (TABLE, "easy", True),
    (SAFE, "easy", True),
    (TABLE, "medium", False),
    (SAFE, "medium", False),
    (TABLE, "medium", True),
    (SAFE, "medium", True),
    (TABLE, "hard", False),
    (SAFE, "hard", False),
    (TABLE, "hard", True),
    (SAFE, "hard", True),
)
DEFAULT_SEED = 2026
MAX_ATTEMPTS = 20_000
COMMAND = "hand puzzle gallery --out docs/hand-puzzles --seed {seed}"


def pick(seed: int, kind: str, difficulty: str, mid_trick: bool | None,
         max_attempts: int = MAX_ATTEMPTS) -> HandPuzzle | None:
    """The first puzzle of ``seed`` of this kind and difficulty (and with cards on the
    current trick or not, unless ``mid_trick`` is None), or None within ``max_attempts``."""
    for a in range(max_attempts):
        pz = generate_one(seed, a, kind, difficulty)
        if pz is not None and (mid_trick is None or (len(pz.plays) % NUM_SEATS > 0) == mid_trick):
            return pz
    return None


def choose(seed: int, plan: tuple[tuple[str, str, bool | None], ...] = PLAN,
           on_pick: Callable[[int, HandPuzzle], None] | None = None) -> list[HandPuzzle]:
    """One puzzle per slot of ``plan``, slot k from seed ``seed + k``; ValueError naming
    the slot if one finds none."""
    out = []
    for k, (kind, level, mid) in enumerate(plan):
        pz = pick(seed + k, kind, level, mid)
        if pz is None:
            raise ValueError(f"gallery slot {k + 1} ({kind}, {level}): no puzzle in {MAX_ATTEMPTS} attempts "
                             f"of seed {seed + k}")
        out.append(pz)
        if on_pick is not None:
            on_pick(k, pz)
    return out


def _labels(cards: tuple[int, ...] | list[int]) -> str:
    return "/".join(card_label(c) for c in cards)


def _notation(cards: tuple[int, ...] | list[int]) -> str:
    return "/".join(card_str(c) for c in cards)


def _trick_state(p: Position) -> str:
    done = sum(p.taken)
    left = p.tricks_left
    where = (f"seat {p.leader} led {card_label(p.table[0])}, " + ", ".join(
        f"seat {(p.leader + i) % NUM_SEATS} played {card_label(c)}" for i, c in enumerate(p.table) if i)
        ).rstrip(", ") if p.table else "no card on it yet"
    return f"trick {done + 1} of 8 ({left} left, this one included): {where}"


def why_not(pz: HandPuzzle, p: Position, card: int) -> str:
    """What a wrong class leaves: for ``safe`` the totals the seat can still make sure of,
    for ``table`` that the bids are out of reach together."""
    q = after(p, card)
    if pz.kind == SAFE:
        ex = seat_bounds(q, pz.seat, nodes=NODES).exact
        if ex is None:  # pragma: no cover  (the checker decided these within the budget)
            return "undecided"
        if not ex:
            return f"seat {pz.seat} can then make sure of no exact total"
        totals = tricks_text(ex[0]) if len(ex) == 1 else " or ".join(map(str, ex)) + " tricks"
        return f"seat {pz.seat} can then make sure of exactly {totals}, not {pz.bids[pz.seat]}"
    vs = reachable(q, nodes=NODES).vectors
    n = 0 if vs is None else len(vs)
    return (f"the four bids are then out of reach together (the tricks can still split {n} way{'s' if n != 1 else ''}, "
            "none of them the bids)")


def line_by_trick(pz: HandPuzzle) -> list[str]:
    """The stated line trick by trick, the puzzle seat's forced decisions (only one class
    keeps the question, of two or more) in bold."""
    p = Position.parse(pz.position, "position")
    out: list[str] = []
    cur = [f"seat {(p.leader + i) % NUM_SEATS} {card_label(c)} (already played)" for i, c in enumerate(p.table)]
    trick = sum(p.taken) + 1
    for c in pz.line:
        who = p.to_move
        text = f"seat {who} {card_label(c)}"
        if who == pz.seat:
            here = choices(p, pz.kind, pz.seat, pz.bids)
            if len(here) >= 2 and sum(bool(k) for _, k in here) == 1:
                text = f"**{text}**"
        cur.append(text)
        p = after(p, c)
        if not p.table:
            out.append(f"Trick {trick}: {', '.join(cur)}; seat {p.leader} wins it.")
            cur, trick = [], trick + 1
    taken = " ".join(map(str, p.taken))
    if pz.kind == SAFE:
        out.append(f"Tricks at the end: {taken}; seat {pz.seat} takes {p.taken[pz.seat]}, its bid (the others play "
                   f"their highest cards here; whatever they play, seat {pz.seat} can keep to its bid).")
    else:
        out.append(f"Tricks at the end: {taken}, the bids.")
    return out


def entry(pz: HandPuzzle, n: int, picture: str) -> str:
    p = Position.parse(pz.position, "position")
    wrong = [g for g, k in pz.choices if not k]
    kind = "safe (your own bid, whatever the others do)" if pz.kind == SAFE else "table (every bid, all together)"
    lines = [
        f"## {n}. `{pz.id}` ({pz.difficulty}, {pz.kind})",
        "",
        f"![{pz.id}]({picture})",
        "",
        f"**{pz.text}**",
        "",
        "```text",
        pz.position,
        "```",
        "",
        f"Kind: {kind}. {pz.cards_per_hand} cards a hand; {_trick_state(p)}. Tricks taken "
        f"{' '.join(map(str, p.taken))}, bids {' '.join(map(str, pz.bids))}. From seed {pz.seed}, attempt "
        f"{pz.attempt} (deal {pz.deal_seed}, dealer {pz.deal.dealer}). "
        f"Check an answer: `hand puzzle check docs/hand-puzzles/{pz.id}.json --answer CARD`.",
        "",
        "<details><summary>Answer</summary>",
        "",
        f"**{_labels(pz.answer)}** (`{_notation(pz.answer)}`"
        + (", the cards are equivalent" if len(pz.answer) > 1 else "") + ").",
        "",
        f"The other {len(wrong)} choices fail:",
        "",
    ]
    for g in wrong:
        lines.append(f"- {_labels(g)} (`{_notation(g)}`): {why_not(pz, p, g[0])}.")
    lines += ["", "A line that keeps the question (the puzzle seat's cards that alone keep it in bold):", ""]
    lines += [f"{i}. {t}" for i, t in enumerate(line_by_trick(pz), 1)]
    lines += [
        "",
        f"Rating {pz.rating}: {pz.depth} decision{'s' if pz.depth != 1 else ''} of seat {pz.seat} on the line where "
        f"one class alone keeps it, {pz.wrong} wrong class{'es' if pz.wrong != 1 else ''} at the start.",
        "",
        "</details>",
        "",
    ]
    return "\n".join(lines)


def index_text(chosen: list[HandPuzzle], seed: int, fmt: str = "svg") -> str:
    """The gallery's page (README.md) for ``chosen``, pictures ``{id}.{fmt}``."""
    parts = [
        "# Hand puzzle gallery",
        "",
        f"{len(chosen)} endgame puzzles of Hand (Hareega) made by the puzzle generator from seeded random deals "
        "(the rules, the two kinds of question and how the puzzles are made: [docs/hand.md](../hand.md), "
        "\"Endgame puzzles\"). Every card is visible. **Safe**: find the card that makes sure of your bid "
        "whatever the other three do; **table**: find the card that still lets all four seats make their bids "
        "by playing together. Exactly one card (or a run of equivalent cards) does; neither the lowest nor the "
        "highest legal card. The answers are folded away under each picture.",
        "",
        "Regenerate the gallery (the puzzles, the pictures, this page):",
        "",
        "<!-- example: not run (it rewrites this gallery) -->",
        "```sh",
        COMMAND.format(seed=seed),
        "hand puzzle gallery --out docs/hand-puzzles --from-files   # redraw the pictures and this page only",
        "```",
        "",
        "Check a puzzle, and your answer with `--answer CARD` (a card like QS or TH):",
        "",
        "```sh",
        f"hand puzzle check docs/hand-puzzles/{chosen[0].id}.json",
        "```",
        "",
        "| # | puzzle | kind | difficulty | seat to play | cards a hand | cards on the trick | bids |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n, pz in enumerate(chosen, 1):
        anchor = f"{n}-{pz.id}-{pz.difficulty}-{pz.kind}"
        parts.append(f"| {n} | [{pz.id}](#{anchor}) ([json]({pz.id}.json)) | {pz.kind} | {pz.difficulty} | "
                     f"{pz.seat} | {pz.cards_per_hand} | {len(pz.plays) % NUM_SEATS} | "
                     f"{' '.join(map(str, pz.bids))} |")
    parts.append("")
    for n, pz in enumerate(chosen, 1):
        parts.append(entry(pz, n, f"{pz.id}.{fmt}"))
    return "\n".join(parts)


def write_gallery(out: Path, chosen: list[HandPuzzle], seed: int, fmt: str = "svg",
                  write_files: bool = True) -> None:
    """Each puzzle's file (with ``write_files``) and picture, and the page, into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for pz in chosen:
        if write_files:
            write_output(str(out / f"{pz.id}.json"), pz.dumps(), "")
        render_puzzle(pz, out / f"{pz.id}.{fmt}")
    write_output(str(out / "README.md"), index_text(chosen, seed, fmt), "")


def from_files(out: Path) -> tuple[list[HandPuzzle], int]:
    """The gallery's puzzles from the files in ``out``, in slot order (by their seed), and
    the gallery's seed (the first slot's)."""
    ps = sorted((load_puzzle(f) for f in out.glob("*.json")), key=lambda pz: (pz.seed, pz.attempt))
    if not ps:
        raise ValueError(f"{out}: no puzzle files")
    seed = ps[0].seed
    if seed is None:  # a gallery is the generator's: its command line needs the seed
        raise ValueError(f"{out}: the first puzzle was made by hand (it has no seed)")
    return ps, seed


__all__ = ["COMMAND", "DEFAULT_SEED", "PLAN", "choose", "entry", "from_files", "index_text", "line_by_trick", "pick",
           "write_gallery"]
