"""Build the puzzle gallery: a few puzzles per difficulty, their pictures, an index page.

    .venv/bin/python -m puzzles.gallery --out docs/puzzles --seed 2024 --per-level 4

Deterministic for a seed (difficulty level k uses seed + k).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from solver.game import Action

from .analysis import DIFFICULTIES
from .format import Puzzle, write_puzzle
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


def entry(p: Puzzle, n: int, picture: str) -> str:
    q = p.question
    md = p.metadata
    src = md["source"]
    st = p.position()
    wf = md["winning_first_moves"]
    moves = ", ".join(f"**{describe_class(m)}** (`{m}`)" for m in wf["moves"])
    where = (f"random deck {src['deck_index']} of seed {src['seed']}" if src["kind"] == "random"
             else src.get("seed") or f"{src.get('file')} line {src.get('line')}")
    lines = [
        f"## {n}. `{p.id}` ({md['difficulty']})",
        "",
        f"![{p.id}]({picture})",
        "",
        f"**{q['text']}**",
        "",
        f"{p.data['rules']['variant']}, {p.data['rules']['players']} players; turn {st.turn + 1}, "
        f"score {st.score}, {st.clues} clue token{'s' if st.clues != 1 else ''}, {st.strikes} "
        f"strike{'s' if st.strikes != 1 else ''}, {st.deck_left} card{'s' if st.deck_left != 1 else ''} "
        f"in the deck. From {where} ({src['walk']}).",
        "",
        "<details><summary>Answer</summary>",
        "",
        f"Winning first move{'s' if wf['count'] > 1 else ''} ({wf['count']} of {wf['total']} kinds of move): "
        f"{moves}. Every other first move leaves at most "
        f"{max((v for k, v in wf['after'].items() if k not in wf['moves'] and v is not None), default='?')} points.",
        "",
        "A winning line (`" + p.lines[0]["line"] + "`):",
        "",
    ]
    lines += [f"{i}. {w}" for i, w in enumerate(line_in_words(p, p.lines[0]), 1)]
    lines += [
        "",
        f"Why not more: {p.data['solution']['proof']}.",
        "",
        f"The greedy strategy (`{md['greedy']['line']}`) scores {md['greedy']['score']}. "
        f"Rating {md['rating']}: {md['features']['greedy_errors']} decision(s) on the line where the greedy "
        f"move loses, {md['features']['traps']} tempting first move(s) that lose.",
        "",
        "</details>",
        "",
    ]
    return "\n".join(lines)


def write_gallery(out: Path, seed: int, per_level: int, fmt: str = "svg") -> list[Puzzle]:
    out.mkdir(parents=True, exist_ok=True)
    chosen: list[Puzzle] = []
    for k, level in enumerate(DIFFICULTIES):
        ps, _ = generate(Config(count=per_level, seed=seed + k, difficulty=level))
        chosen += ps
    parts = [
        "# Puzzle gallery",
        "",
        f"{len(chosen)} endgame puzzles made by `hanabi puzzle generate` from random decks "
        f"(`python -m puzzles.gallery --out docs/puzzles --seed {seed} --per-level {per_level}`), "
        f"{per_level} of each difficulty. Every card is visible, the draw pile too; find the line "
        "that still reaches the target. The answers are folded away under each picture.",
        "",
        "Check a puzzle, or your answer, with the rules engine and the solver:",
        "",
        "```sh",
        f"hanabi puzzle check docs/puzzles/{chosen[0].id}.json --answer \"c pr3 ...\"",
        "```",
        "",
        "The format, the notation of answers and how the puzzles are made: [docs/puzzles.md](../puzzles.md).",
        "",
        "| # | puzzle | difficulty | players | to move | target | cards in the deck |",
        "|---|---|---|---|---|---|---|",
    ]
    for n, p in enumerate(chosen, 1):
        pos = p.question["position"]
        anchor = f"{n}-{p.id}-{p.difficulty}".lower()
        parts.append(f"| {n} | [{p.id}](#{anchor}) ([json]({p.id}.json)) | {p.difficulty} | "
                     f"{p.data['rules']['players']} | {pos['to_move']} | {p.target} | "
                     f"{len(pos['draw_pile'].split())} |")
    parts.append("")
    for n, p in enumerate(chosen, 1):
        write_puzzle(p, out / f"{p.id}.json")
        pic = f"{p.id}.{fmt}"
        render_puzzle(p, out / pic)
        parts.append(entry(p, n, pic))
    (out / "README.md").write_text("\n".join(parts))
    return chosen


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="docs/puzzles")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--per-level", type=int, default=4)
    ap.add_argument("--format", choices=("svg", "png"), default="svg")
    args = ap.parse_args(argv)
    for p in write_gallery(Path(args.out), args.seed, args.per_level, args.format):
        print(p.id, p.difficulty)


if __name__ == "__main__":
    main()
