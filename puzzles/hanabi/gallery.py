"""Build the puzzle gallery: 12 puzzles of mixed difficulty, answer kind and player count
(one in a variant), their pictures, an index page.

    .venv/bin/python -m puzzles.hanabi.gallery --out docs/puzzles --seed 2024
    .venv/bin/python -m puzzles.hanabi.gallery --out docs/puzzles --from-files   # redraw only

Deterministic for a seed (slot k of ``PLAN`` uses seed + k). ``--from-files`` redraws the
pictures and rewrites the index page from the puzzle files already there.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from solver.common.outputs import write_output
from solver.hanabi.rules import Action

from .format import Puzzle, load_puzzle, write_puzzle
from .generate import Config, generate
from .notation import describe_class
from .render import render_puzzle


def line_in_words(p: Puzzle, line: dict) -> list[str]:
    st = p.position()
    g = st.game
    out = []
    for a in (Action.from_json(x) for x in line["actions"]):
        a = st.check(a)
        out.append(f"{g.player_name(st.current)}: {a.describe(g)}")
        st.push(a)
    out.append(f"final score {st.score}")
    return out


def describe_choice(choice: list[str]) -> str:
    """``["dr1", "pr1"]`` -> ``**discard r1** (`dr1`; misplaying it, `pr1`, works too)``."""
    main, *rest = choice
    text = f"**{describe_class(main)}** (`{main}`"
    if rest:
        text += "; misplaying it, " + ", ".join(f"`{r}`" for r in rest) + ", works too"
    return text + ")"


def key_moments(p: Puzzle) -> list[str]:
    """The positions of the solution line where the greedy move loses, in words."""
    out = []
    for d in p.metadata.get("decisions", []):
        if not d["greedy_loses"]:
            continue
        right = " or ".join(describe_class(w) for w in d["winning"]) if d["winning"] else describe_class(d["line"])
        out.append(f"move {d['move']}, {d['player']}: {right}, not {describe_class(d['greedy'])} (the greedy move)")
    return out


def entry(p: Puzzle, n: int, picture: str) -> str:
    q = p.question
    md = p.metadata
    src = md["source"]
    st = p.position()
    wf = md["winning_first_moves"]
    choices = wf.get("choices") or [[m] for m in wf["moves"]]
    moves = ", ".join(describe_choice(c) for c in choices)
    kind = md.get("answer_kind", "?")
    where = (f"random deck {src['deck_index']} of seed {src['seed']}" if src["kind"] == "random"
             else src.get("seed") or f"{src.get('file')} line {src.get('line')}")
    crux = {d["move"] for d in md.get("decisions", []) if d["greedy_loses"]}
    lines = [
        f"## {n}. `{p.id}` ({md['difficulty']})",
        "",
        f"![{p.id}]({picture})",
        "",
        f"**{q['text']}**",
        "",
        f"{p.data['rules']['variant']}, {p.data['rules']['players']} players; turn {st.turn}, "
        f"score {st.score}, {st.game.tokens_text(st.clues)} clue token{'s' if st.clues != st.game.clue_cost else ''}, "
        f"{st.strikes} "
        f"strike{'s' if st.strikes != 1 else ''}, {st.deck_left} card{'s' if st.deck_left != 1 else ''} "
        f"in the deck. From {where} ({src['walk']}).",
        "",
        "<details><summary>Answer</summary>",
        "",
        f"Answer kind: **{kind}**. Winning first move{'s' if len(choices) > 1 else ''}: {moves}. The other "
        f"{wf['total'] - wf['count']} kinds of first move leave at most "
        f"{max((v for k, v in wf['after'].items() if k not in wf['moves'] and v is not None), default='?')} points.",
        "",
        "A winning line (`" + p.lines[0]["line"] + "`), the moves where the greedy strategy would go wrong in bold:",
        "",
    ]
    for i, w in enumerate(line_in_words(p, p.lines[0]), 1):
        lines.append(f"{i}. **{w}**" if i in crux else f"{i}. {w}")
    moments = key_moments(p)
    lines += [
        "",
        f"Why not more: {p.data['solution']['proof']}.",
        "",
        f"The greedy strategy (`{md['greedy']['line']}`) scores {md['greedy']['score']}. "
        + (f"Where it goes wrong: {'; '.join(moments)}. " if moments else "")
        + f"Rating {md['rating']} ({_rating_words(md['features'])}).",
        "",
        "</details>",
        "",
    ]
    return "\n".join(lines)


def _rating_words(f: dict) -> str:
    parts = [f"{f['greedy_errors']} move{'s' if f['greedy_errors'] != 1 else ''} where the greedy move loses"]
    if "decisions" in f:
        parts.append(f"{f['decisions']} decision{'s' if f['decisions'] != 1 else ''} with a single right choice")
    parts.append(f"{f['traps']} tempting first move{'s' if f['traps'] != 1 else ''} that lose")
    if f.get("crux", 1) and f.get("crux", 1) > 1:
        parts.append(f"the first trap at move {f['crux']}")
    return ", ".join(parts)


# The gallery: one slot per puzzle (difficulty, answer kind, players, variant, crux at most
# this move), each searched with its own seed: a mix of difficulties, answer kinds, player
# counts and traps at the first move or later. (No slot asks for a discard answer: they
# are rare, and nearly always the natural discard with the trap much later.)
PLAN = (
    ("easy", "play", 2, "No Variant", 1),
    ("easy", "clue", 3, "No Variant", None),
    ("easy", "play", 5, "No Variant", 1),
    ("easy", "either", None, "No Variant", None),
    ("medium", "play", 3, "No Variant", None),
    ("medium", "clue", 2, "No Variant", None),
    ("medium", "play", 5, "No Variant", None),
    ("medium", "play", 4, "No Variant", None),
    ("medium", "any", 3, "Rainbow (6 Suits)", None),
    ("hard", "play", 2, "No Variant", None),
    ("hard", "clue", 4, "No Variant", None),
    ("hard", "clue", 5, "No Variant", None),
)


def write_gallery(out: Path, seed: int, fmt: str = "svg", plan=PLAN, jobs: int = 1) -> list[Puzzle]:
    out.mkdir(parents=True, exist_ok=True)
    chosen: list[Puzzle] = []
    for k, (level, kind, players, variant, max_crux) in enumerate(plan):
        ps, _ = generate(Config(count=1, seed=seed + k, difficulty=level, answer_kind=kind, players=players,
                                variant=variant, max_crux=max_crux, jobs=jobs, max_decks=5000))
        if not ps:
            raise SystemExit(f"slot {k + 1} ({level}, {kind}, {players} players, {variant}): no puzzle found")
        chosen += ps
        print(ps[0].id, level, ps[0].metadata.get("answer_kind"), flush=True)
    write_index(out, chosen, seed, fmt)
    return chosen


def rewrite_gallery(out: Path, fmt: str = "svg") -> list[Puzzle]:
    """The pictures and the index page again, from the puzzle files already in ``out``
    (no generating: after a change to the pictures or the page, the same puzzles). Slot
    k's puzzle came from seed + k, so the seeds give the order and the gallery's seed."""
    ps = [load_puzzle(f) for f in sorted(out.glob("*.json"))]
    if not ps:
        raise SystemExit(f"{out}: no puzzle files")
    ps.sort(key=lambda p: p.metadata["source"]["seed"])
    write_index(out, ps, ps[0].metadata["source"]["seed"], fmt, write_files=False)
    return ps


def write_index(out: Path, chosen: list[Puzzle], seed: int, fmt: str = "svg", write_files: bool = True) -> None:
    """Each puzzle's picture (and file, with ``write_files``) and the index page."""
    parts = [
        "# Puzzle gallery",
        "",
        f"{len(chosen)} endgame puzzles made by `hanabi puzzle generate` from random decks "
        f"(`python -m puzzles.hanabi.gallery --out docs/puzzles --seed {seed}`): easy, medium and hard; their answers "
        "start with a play, a clue, or either of two moves, and some hide the trap a few moves into the "
        "line; 2 to 5 players, one in the Rainbow variant. Every card is visible, the draw pile too; find the line "
        "that still reaches the target. The answers are folded away under each picture.",
        "",
        "Check a puzzle with the rules engine and the solver, and your answer with `--answer \"c pr3 dy1 ...\"`"
        " (a clue, play r3, discard y1, ...: [the notation](../puzzles.md#answer-notation)):",
        "",
        "```sh",
        f"hanabi puzzle check docs/puzzles/{chosen[0].id}.json",
        "```",
        "",
        "The format, the notation of answers and how the puzzles are made: [docs/puzzles.md](../puzzles.md).",
        "",
        "| # | puzzle | difficulty | players | to move | clue tokens | target | cards in the deck |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n, p in enumerate(chosen, 1):
        pos = p.question["position"]
        anchor = f"{n}-{p.id}-{p.difficulty}".lower()
        variant = p.data["rules"]["variant"]
        who = f"{p.data['rules']['players']}" + (f", {variant}" if variant != "No Variant" else "")
        parts.append(f"| {n} | [{p.id}](#{anchor}) ([json]({p.id}.json)) | {p.difficulty} | {who} | "
                     f"{pos['to_move']} | {pos['clues']} | {p.target} | {len(pos['draw_pile'].split())} |")
    parts.append("")
    for n, p in enumerate(chosen, 1):
        if write_files:
            write_puzzle(p, out / f"{p.id}.json")
        pic = f"{p.id}.{fmt}"
        render_puzzle(p, out / pic)
        parts.append(entry(p, n, pic))
    write_output(str(out / "README.md"), "\n".join(parts), "")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="docs/puzzles")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--format", choices=("svg", "png"), default="svg")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--from-files", action="store_true",
                    help="redraw the pictures and rewrite the index from the puzzle files in --out (no generating)")
    args = ap.parse_args(argv)
    if args.from_files:
        rewrite_gallery(Path(args.out), args.format)
    else:
        write_gallery(Path(args.out), args.seed, args.format, jobs=args.jobs)


if __name__ == "__main__":
    main()
