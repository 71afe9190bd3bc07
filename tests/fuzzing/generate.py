"""The fuzzer's input :class:`Generator`: deterministic cases of one command, from the seeds,
mutated, with random options, after the fixed :meth:`Generator.landmarks` of every run.
"""
from __future__ import annotations

import copy
import json
import random
from typing import Any

from solver.hanabi.rules import game_from_json

from .cases import (
    BIG_TIMEOUTS,
    DIR,
    ENGINES,
    FILE,
    MISSING,
    OUT,
    SEED_STRINGS,
    SOLVE_TIMEOUT,
    TIMEOUTS,
    TURNS,
    Case,
    file_name,
    input_flags,
    load_seeds,
    synthetic_game,
)
from .mutate import lace, mutate_compact, mutate_obj, mutate_text
from .values import Raw, emit, encode, nest, odd_string, random_action, short, wrong_value


def _string_fields(doc: Any) -> list[tuple]:
    """The path of the first string of each kind of field of ``doc`` (list indices
    counted as one kind: ``players.*``)."""
    out: dict[tuple, tuple] = {}
    todo: list[tuple[Any, tuple]] = [(doc, ())]
    while todo:
        node, path = todo.pop(0)
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            p = path + (k,)
            if isinstance(v, str):
                out.setdefault(tuple("*" if isinstance(x, int) else x for x in p), p)
            elif isinstance(v, dict | list):
                todo.append((v, p))
    return list(out.values())


def _after_losing_move(puzzle: dict) -> dict:
    """A puzzle's game with one more action: a first move that loses the target (a
    position whose maximum takes a proof), or the game itself if there is none."""
    game = copy.deepcopy(puzzle["game"])
    st = game_from_json(game).state_after()
    winning = set(puzzle["metadata"]["winning_first_moves"]["moves"])
    for label, action in st.move_classes().items():
        if label not in winning:
            game["actions"].append(action.to_json())
            break
    return game


class Generator:
    """Deterministic inputs for one command.

    Every input is generated from a ``random.Random(f"{seed}:{command}")``: valid seeds (the
    real hanab.live games of tests/data/hanablive, a deck-only JSON, a compact deck text, a
    one-line ``.jsonl`` deck object, the gallery puzzles of docs/puzzles, and synthetic games
    of every built-in and random custom variant played by a simple bot), mutated structurally
    (keys deleted, duplicated, swapped, renamed; types changed; huge, negative and non-finite
    numbers; lone surrogates in strings; nesting bombs; huge arrays; duplicated and
    out-of-range actions) and as text (truncation, random and invalid UTF-8 bytes, BOMs, NaN
    tokens), with random command-line flags.
    """

    def __init__(self, command: str, seed: str):
        self.command = command
        self.rng = random.Random(f"{seed}:{command}")
        self.seeds = load_seeds(random.Random(f"{seed}:seeds"))
        self.n_actions = 0  # of the last game source (for --turn)

    # -- sources -----------------------------------------------------------------
    def _game_source(self, near_end: bool) -> tuple[Any, str, int | None]:
        """(a JSON value, what it is, the --players it needs)."""
        rng, s = self.rng, self.seeds
        r = rng.random()
        if near_end:
            if r < 0.15:
                g = synthetic_game(rng, small=True) if rng.random() < 0.7 else None
                g = g or copy.deepcopy(rng.choice(s.tiny))
                acts = g.get("actions", [])
                k = rng.randint(0, len(acts))
                g["actions"] = acts[:k]
                return g, f"small synthetic game after {k} actions", None
            if r < 0.25:  # a puzzle's position (an endgame), or a few moves before it
                g = copy.deepcopy(rng.choice(s.puzzles)["game"])
                k = rng.choice([0, 0, 1, 2])
                g["actions"] = g["actions"][:max(0, len(g["actions"]) - k)]
                return g, f"a puzzle's game minus {k} actions", None
            fresh = synthetic_game(rng) if r >= 0.55 and rng.random() < 0.3 else None
            g = fresh or copy.deepcopy(rng.choice(s.real if r < 0.55 else s.games))
            acts = g.get("actions", [])
            k = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10])
            g["actions"] = acts[:max(0, len(acts) - k)]
            return g, f"game with its last {k} actions removed", None
        if r < 0.35:
            return copy.deepcopy(rng.choice(s.real)), "real game", None
        if r < 0.7:
            fresh = synthetic_game(rng, small=rng.random() < 0.3) if rng.random() < 0.3 else None
            return fresh or copy.deepcopy(rng.choice(s.games + s.tiny)), "synthetic game", None
        if r < 0.9:
            d = copy.deepcopy(rng.choice(s.decks))
            need = d.pop("_players", None)
            return d, "deck-only JSON", need
        if r < 0.97:
            return json.loads(rng.choice(s.jsonl)), "jsonl deck object", None
        return copy.deepcopy(rng.choice(s.puzzles)), "puzzle file (not a game)", None

    def _json_content(self, obj: Any, desc: str, n_mut: int, kinds: list[str] | None = None,
                      text_p: float = 0.25) -> tuple[bytes, str]:
        rng = self.rng
        notes = [desc]
        if kinds is None and rng.random() < 0.3:
            kinds = ["benign"]
        for _ in range(n_mut):
            obj, what = mutate_obj(rng, obj, kinds)
            notes.append(what)
        data = encode(obj, rng)
        if rng.random() < text_p:
            data, what = mutate_text(rng, data)
            notes.append(what)
        return data, "; ".join(notes)

    def _input(self, near_end: bool = False) -> tuple[list[list[str]], bytes | None, str, str, int | None]:
        """(argument groups, file content, suffix, description, players of the input)."""
        rng = self.rng
        r = rng.random()
        if near_end:
            r = r * 0.9  # no --seed / --example from the start (too slow to solve) most of the time
            if rng.random() < 0.03:
                r = 0.95
        if r < 0.74:
            obj, what, need = self._game_source(near_end)
            acts = obj.get("actions") if isinstance(obj, dict) else None
            self.n_actions = len(acts) if isinstance(acts, list) else 0
            n_mut = rng.choice([0, 1, 1, 1, 1, 2, 2, 3])
            data, desc = self._json_content(obj, what, n_mut, text_p=0.2)
            groups = [[FILE]] + ([["--players", str(need)]] if need and rng.random() < 0.85 else [])
            suffix = ".jsonl" if "jsonl" in what else ".json"
            return groups, data, suffix, desc, need
        if r < 0.82:
            text, players = rng.choice(self.seeds.compact)
            desc = "compact deck"
            if rng.random() < 0.7:
                text, what = mutate_compact(rng, text)
                desc += f"; {what}"
            if rng.random() < 0.5:
                return [["--deck", text]], None, "", "--deck " + desc, players
            data = text.encode("utf-8", "surrogatepass")
            if rng.random() < 0.2:
                data, what = mutate_text(rng, data)
                desc += f"; {what}"
            return [[FILE]], data, rng.choice([".txt", ".deck", ""]), "compact deck file; " + desc, players
        if r < 0.9:
            if rng.random() < 0.85:
                return [[FILE]], self._special(), ".json", "special file", None
            return [[FILE]], rng.choice(self.seeds.jsonl).encode() * 2 if rng.random() < 0.5 else \
                ("\n".join(self.seeds.jsonl)).encode(), ".jsonl", "several jsonl lines", None
        if r < 0.97:
            seed = rng.choice(SEED_STRINGS)
            return [["--seed", seed]], None, "", f"--seed {seed[:40]!r}", None
        return [["--example"]], None, "", "--example", 3

    def _special(self) -> bytes:
        rng = self.rng
        return rng.choice([
            lambda: b"[" * 100_000 + b"]" * 100_000,
            lambda: b"[" * 100_000,
            lambda: b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
            lambda: self._deep_deck(rng.randint(880, 1000)),
            lambda: b"null", lambda: b"[]", lambda: b"{}", lambda: b'""', lambda: b"0", lambda: b"NaN",
            lambda: b"-Infinity", lambda: b"1" + b"0" * 5000, lambda: b"true", lambda: b"[null]",
            lambda: b'{"players": [], "deck": [], "actions": []}',
            lambda: b'{"players": ["a", "b"], "deck": [], "actions": [{"type": 0, "target": 0}]}',
            lambda: b'{"deck": {"suitIndex": 0, "rank": 1}}',
            lambda: b"\xef\xbb\xbf{}", lambda: b"\x00" * 100, lambda: b"\xff\xfe{\x00}\x00",
            lambda: b"r1 r1 r1",
            lambda: bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))),
        ])()

    @staticmethod
    def _deep_deck(depth: int) -> bytes:
        return ('{"players": ["a", "b"], "deck": ' + "[" * depth + "]" * depth + "}").encode()

    # -- fixed cases, first in every run ------------------------------------------------
    def landmarks(self) -> list[Case]:
        """Inputs every run has (the big ones are too slow to draw often)."""
        real = self.seeds.real[0]
        head = {"replay": [["replay"]], "show": [["show"]], "solve": [["solve"], ["--timeout", SOLVE_TIMEOUT]],
                "puzzle check": [["puzzle", "check"], ["--timeout", SOLVE_TIMEOUT]]}[self.command]
        fixed = len(head)

        def mk(data: bytes, desc: str, *more: list[str]) -> Case:
            return Case(self.command, head + [[FILE], *more], data, ".json", "landmark: " + desc, fixed=fixed)

        act = emit({"type": 0, "target": 0, "value": 0})
        # a million actions (replay) or deck cards (show); 100,000 elsewhere (a second each)
        many_actions = 10**6 if self.command == "replay" else 10**5
        many_cards = 10**6 if self.command == "show" else 10**5
        game_many = emit(dict(real, actions=Raw("[" + ", ".join([act] * many_actions) + "]"))).encode()
        card = emit({"suitIndex": 0, "rank": 1})
        deck_many = emit(dict(real, deck=Raw("[" + ", ".join([card] * many_cards) + "]"))).encode()
        cases = [
            mk(b"[" * 100_000 + b"]" * 100_000, "100,000 nested arrays"),
            mk(b'{"a": ' * 100_000 + b"1" + b"}" * 100_000, "100,000 nested objects"),
            mk(game_many, f"{many_actions} actions" + (", --turn 3" if self.command == "show" else ""),
               *([["--turn", "3"]] if self.command == "show" else [])),
            mk(deck_many, f"{many_cards} deck cards"),
            mk(b"\xef\xbb\xbf" + encode(real), "BOM and a real game"),
            mk(b"", "empty file"),
            mk(b"\xff\xfe\xfd", "not UTF-8"),
        ]
        for depth in (900, 950, 980, 990, 995, 999):
            bomb = dict(real, actions=[{"type": nest(depth), "target": 0}])
            cases.append(mk(encode(bomb), f"an action type nested {depth} deep"))
        # odd text in every string of a valid input (the paths that succeed print them)
        base = self.seeds.puzzles if self.command == "puzzle check" else self.seeds.real
        for i, extra in enumerate(["\ud800", "\udcff", "\x0b", "\x1b[2J", "\u2028", "\x00"]):
            doc = lace(copy.deepcopy(base[i % len(base)]), extra)
            if self.command == "puzzle check":
                doc["format"] = base[0]["format"]  # else it is not a puzzle at all
            cases.append(mk(encode(doc), f"{extra!r} at the end of every string"))
            if self.command in ("replay", "show", "puzzle check"):
                cases.append(mk(encode(doc), f"{extra!r} at the end of every string, --json", ["--json"]))
        # a lone surrogate, then a control character, in one string field at a time (every kind of field)
        for extra in ("\ud800", "\x0b"):
            for where in _string_fields(base[0]):
                doc = copy.deepcopy(base[0])
                holder = doc
                for k in where[:-1]:
                    holder = holder[k]
                holder[where[-1]] += extra
                cases.append(mk(encode(doc), f"{extra!r} added to {'.'.join(map(str, where))}"))
        if self.command == "solve":
            g = copy.deepcopy(real)
            g["actions"] = g["actions"][:-4]
            for engine in ("portfolio", "search", "sat", "cpsat"):
                for js in ([], [["--json"]]):
                    cases.append(mk(encode(g), f"4 actions before the end, --engine {engine}", ["--engine", engine],
                                    *js))
        if self.command in ("solve", "puzzle check"):
            # extreme --timeout values on endgames where a first move loses (the proofs run)
            for i, t in enumerate(["inf", "1e300", "1e-300", "nan"]):
                puz = self.seeds.puzzles[(5 + 2 * i) % len(self.seeds.puzzles)]
                doc = _after_losing_move(puz) if self.command == "solve" else puz
                case = mk(encode(doc), f"--timeout {t}")
                case.groups[1] = ["--timeout", t]
                cases.append(case)
        if self.command == "puzzle check":
            for p in self.seeds.puzzles:
                cases.append(mk(encode(p), f"gallery puzzle {p.get('id')} unchanged"))
            for depth in (950, 990):
                puz = copy.deepcopy(self.seeds.puzzles[0])
                puz["rules"]["variant"] = nest(depth)
                cases.append(mk(encode(puz), f"puzzle rules.variant nested {depth} deep"))
        return cases

    # -- one case per command -------------------------------------------------------
    def case(self) -> Case:
        case = {"replay": self._replay, "show": self._show, "solve": self._solve,
                "puzzle check": self._puzzle}[self.command]()
        # a real argv cannot hold a NUL byte
        case.groups = [[a.replace("\x00", "") for a in g] for g in case.groups]
        return case

    def _replay(self) -> Case:
        rng = self.rng
        groups, data, suffix, desc, need = self._input()
        js = rng.random() < 0.5
        extra = input_flags(rng, 0.08, need if any(FILE in g for g in groups) and suffix != ".json" else None)
        if any(g[0] == "--deck" for g in groups) and need and not any(g[0] == "--players" for g in extra):
            if rng.random() < 0.9:
                extra.append(["--players", str(need)])
        opts = ([["--json"]] if js else []) + groups + extra
        rng.shuffle(opts)
        return Case("replay", [["replay"]] + opts, data, suffix, desc, json_out=js, name=file_name(rng))

    def _show(self) -> Case:
        rng = self.rng
        case = self._replay()
        case.command = "show"
        case.groups[0] = ["show"]
        r = rng.random()
        n = self.n_actions
        if r < 0.5:
            turn = str(rng.choice([rng.randint(0, n), rng.randint(0, n), n, n + 1, -1, rng.randint(-3, 90)]))
        elif r < 0.65:
            turn = rng.choice(TURNS)
        else:
            turn = None
        if turn is not None:
            case.groups.append(["--turn", turn])
            if rng.random() < 0.05:
                case.groups.append(["--turn", "0"])
        return case

    def _solve(self) -> Case:
        rng = self.rng
        big = rng.random() < 0.04
        data: bytes | None
        if big:  # a huge --timeout on an unchanged position near the end (cheap to solve exactly)
            g = synthetic_game(rng) if rng.random() < 0.6 else None
            g = g or copy.deepcopy(rng.choice(self.seeds.real))
            k = rng.randint(1, 10)
            g["actions"] = g["actions"][:max(0, len(g["actions"]) - k)]
            groups, data, suffix, desc, need = [[FILE]], encode(g), ".json", f"game minus its last {k} actions", None
            timeout = rng.choice(BIG_TIMEOUTS)
        else:
            groups, data, suffix, desc, need = self._input(near_end=True)
            timeout = rng.choice(TIMEOUTS)
        js = rng.random() < 0.5
        extra = input_flags(rng, 0.12, need if any(FILE in g for g in groups) and suffix != ".json" else None)
        if any(g[0] == "--deck" for g in groups) and need and rng.random() < 0.9:
            extra.append(["--players", str(need)])
        opts = [["--timeout", timeout]] + ([["--json"]] if js else []) + groups + extra
        if rng.random() < 0.5:
            opts.append(["--engine", rng.choice(ENGINES)])
        if rng.random() < 0.12:
            opts.append(["--replay-out", rng.choice([OUT, OUT, OUT, DIR, "/nonexistent/dir/out.json", "",
                                                     OUT])])
        if rng.random() < 0.02:
            opts.append(["--timeout", "0.2"])
        rng.shuffle(opts)
        return Case("solve", [["solve"]] + opts, data, suffix, desc, json_out=js, name=file_name(rng))

    def _answer(self, puzzle: Any) -> str:
        rng = self.rng
        line = ""
        try:
            line = puzzle["solution"]["lines"][0]["line"]
        except (KeyError, IndexError, TypeError):
            pass
        r = rng.random()
        if r < 0.3 and isinstance(line, str) and line:
            toks = line.split()
            what = rng.choice(["same", "drop", "swap", "cut", "bad", "append"])
            if what == "drop" and toks:
                del toks[rng.randrange(len(toks))]
            elif what == "swap" and len(toks) > 1:
                i, j = rng.sample(range(len(toks)), 2)
                toks[i], toks[j] = toks[j], toks[i]
            elif what == "cut":
                toks = toks[:rng.randint(0, len(toks))]
            elif what == "bad" and toks:
                toks[rng.randrange(len(toks))] = self._token()
            elif what == "append":
                toks += [self._token() for _ in range(rng.randint(1, 3))]
            return rng.choice([" ", ", ", ",", "\n"]).join(toks)
        if r < 0.6:
            return " ".join(self._token() for _ in range(rng.randint(1, 12)))
        if r < 0.8:
            acts: Any = []
            try:
                acts = copy.deepcopy(puzzle["solution"]["lines"][0]["actions"])
            except (KeyError, IndexError, TypeError):
                pass
            obj: Any = acts if isinstance(acts, list) else []
            for _ in range(rng.randint(0, 2)):
                obj, _what = mutate_obj(rng, obj, ["retype", "int", "list", "list", "bomb", "top", "dupkey"])
            text = emit(obj)
            if rng.random() < 0.2:
                data, _what = mutate_text(rng, text.encode())
                text = data.decode("utf-8", "surrogateescape")
            return text
        return rng.choice(["", " ", "[", "[]", "]", "{}", "[1]", "null", "NaN", "[NaN]", "c" * 5000,
                           "p#" + "9" * 5000, "c1" + "9" * 5000, "p" + "1" * 5000, "[" * 100_000, "\udcff",
                           "pr3\udcff", "c 1 r", "c1", "c9r", "c0:", "#", "p#", "d#-1", "pr0", "px1", "c1x",
                           "c" + "١" + "r", "p#١٢", "[{\"type\": 0}]", "[{\"type\": 0, \"target\": 1e999}]"])

    def _token(self) -> str:
        rng = self.rng
        r = rng.random()
        letters = "rygbpktm"
        if r < 0.2:
            return "c"
        if r < 0.45:
            return rng.choice("pd") + rng.choice(letters) + str(rng.randint(0, 6))
        if r < 0.6:
            return rng.choice("pd") + rng.choice(["#", ""]) + str(rng.choice([0, 5, 12, 40, 59, 60, 99, 10**9]))
        if r < 0.8:
            return "c" + str(rng.randint(0, 6)) + rng.choice(["", ":"]) + rng.choice(list(letters) + list("0123456"))
        return rng.choice(["x", "pr", "p#x", "dd1", "c11r", "C1R", "PR3", "c1:", "c:r", "p-1", "pr3x", "c01", "\x00",
                           "p#" + "9" * 30, "١", "ｐｒ3", "pr\udcff", "c1\u0301r"])

    def _puzzle(self) -> Case:
        rng = self.rng
        r = rng.random()
        if r < 0.93:
            puz = copy.deepcopy(rng.choice(self.seeds.puzzles))
            notes = ["gallery puzzle"]
            obj: Any = puz
            for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 3])):
                obj, what = self._mutate_puzzle(obj)
                notes.append(what)
            data = encode(obj, rng)
            if rng.random() < 0.15:
                data, what = mutate_text(rng, data)
                notes.append(what)
            desc = "; ".join(notes)
        elif r < 0.97:
            obj, what, _need = self._game_source(near_end=True)
            data, desc = encode(obj), what + " (not a puzzle)"
            puz = None
        else:
            data, desc, puz = self._special(), "special file", None
        js = rng.random() < 0.4
        timeout = "0.2" if rng.random() < 0.9 else rng.choice(["0.1", "0.05", "0", "nan", "abc", "1e-9", "", "inf"])
        opts: list[list[str]] = [[FILE], ["--timeout", timeout]]
        if js:
            opts.append(["--json"])
        if rng.random() < 0.5:
            opts.append(["--answer", self._answer(puz)])
        if rng.random() < 0.5:
            opts.append(["--engine", rng.choice(["portfolio"] * 6 + ["search"] * 6 + ["sat", "bogus"])])
        if rng.random() < 0.03:
            opts.append(rng.choice([["--bogus"], ["extra"], ["--answer"], [MISSING]]))
        rng.shuffle(opts)
        return Case("puzzle check", [["puzzle", "check"]] + opts, data, ".json", desc, json_out=js,
                    name=file_name(rng))

    def _mutate_puzzle(self, obj: Any) -> tuple[Any, str]:
        """A mutation aimed at one part of a puzzle (or anywhere). The game's actions are
        only changed a little: an early position would make the check slow."""
        rng = self.rng
        if not isinstance(obj, dict):
            return mutate_obj(rng, obj)
        part = rng.choice(["any", "any", "game", "question", "position", "solution", "solution", "metadata",
                           "metadata", "rules", "header"])
        if part == "any":
            return mutate_obj(rng, obj, ["delete", "retype", "int", "string", "strings", "dupkey", "swapkeys",
                                         "rename", "bomb", "top", "options"])
        if part == "game" and isinstance(obj.get("game"), dict):
            g = obj["game"]
            acts = g.get("actions")
            what = rng.choice(["actions", "actions", "last", "options", "players", "deck", "retype"])
            if what == "last" and isinstance(acts, list) and acts:
                k = rng.randint(1, 3)
                del acts[-k:]
                return obj, f"game: drop the last {k} actions"
            if what == "players" and isinstance(g.get("players"), list):
                g["players"] = [odd_string(rng, p) if isinstance(p, str) else p for p in g["players"]]
                return obj, "game: odd player names"
            if what == "deck" and isinstance(g.get("deck"), list) and len(g["deck"]) > 1:
                i, j = rng.sample(range(len(g["deck"])), 2)
                g["deck"][i], g["deck"][j] = g["deck"][j], g["deck"][i]
                return obj, f"game: swap deck cards {i} {j}"
            if what == "retype":
                return mutate_obj(rng, obj, ["int", "retype"])
            return mutate_obj(rng, obj, [what])
        if part in ("question", "position") and isinstance(obj.get("question"), dict):
            q = obj["question"]
            if part == "position" and isinstance(q.get("position"), dict):
                pos = q["position"]
                key = rng.choice(list(pos) + ["hands", "hands", "turns_left"])
                if key == "hands" and isinstance(pos.get("hands"), list) and pos["hands"] and rng.random() < 0.5:
                    h = pos["hands"]
                    i = rng.randrange(len(h))
                    h[i] = rng.choice([None, "r1 r2", [], {"player": "x"}, {"cards": 5}, {}, h[0]])
                    return obj, f"question.position.hands[{i}] changed"
                pos[key] = wrong_value(rng, pos.get(key, 0))
                return obj, f"question.position.{key} = {short(pos[key])}"
            key = rng.choice(["target", "target", "text", "position"])
            old = q.get(key, 0)
            if key == "target" and isinstance(old, int) and rng.random() < 0.5:
                q[key] = old + rng.choice([-3, -1, 1, 2, -old, 10**30])
            else:
                q[key] = wrong_value(rng, old)
            return obj, f"question.{key} = {short(q[key])}"
        if part == "solution" and isinstance(obj.get("solution"), dict):
            sol = obj["solution"]
            what = rng.choice(["max", "lines", "line_text", "line_actions", "line_actions", "proof"])
            lines = sol.get("lines")
            if what == "max":
                old = sol.get("max_score", 0)
                sol["max_score"] = old + rng.choice([-1, 1, -2, 5]) if isinstance(old, int) and rng.random() < 0.6 \
                    else wrong_value(rng, old)
                return obj, f"solution.max_score = {short(sol['max_score'])}"
            if what == "lines" and isinstance(lines, list):
                op = rng.choice(["clear", "dup", "drop", "retype_item"])
                if op == "clear":
                    lines.clear()
                elif op == "dup" and lines:
                    lines.append(copy.deepcopy(lines[0]))
                elif op == "drop" and lines:
                    del lines[0]
                elif lines:
                    lines[0] = wrong_value(rng, lines[0])
                return obj, f"solution.lines: {op}"
            if what == "line_text" and isinstance(lines, list) and lines and isinstance(lines[0], dict):
                ln = lines[0]
                ln["line"] = self._answer(obj) if rng.random() < 0.7 else wrong_value(rng, ln.get("line", ""))
                return obj, f"solution.lines[0].line = {short(ln['line'])}"
            if what == "line_actions" and isinstance(lines, list) and lines and isinstance(lines[0], dict) \
                    and isinstance(lines[0].get("actions"), list):
                acts = lines[0]["actions"]
                op = rng.choice(["drop_last", "swap", "replace", "dup", "append", "field"])
                if op == "drop_last" and acts:
                    acts.pop()
                elif op == "swap" and len(acts) > 1:
                    i, j = rng.sample(range(len(acts)), 2)
                    acts[i], acts[j] = acts[j], acts[i]
                elif op == "replace" and acts:
                    acts[rng.randrange(len(acts))] = random_action(rng)
                elif op == "dup" and acts:
                    acts.append(copy.deepcopy(acts[-1]))
                elif op == "append":
                    acts.append(random_action(rng))
                elif acts:
                    a = acts[rng.randrange(len(acts))]
                    if isinstance(a, dict):
                        key = rng.choice(["type", "target", "value"])
                        a[key] = wrong_value(rng, a.get(key, 0))
                return obj, f"solution.lines[0].actions: {op}"
            sol["proof"] = wrong_value(rng, sol.get("proof", ""))
            return obj, "solution.proof changed"
        if part == "metadata" and isinstance(obj.get("metadata"), dict):
            meta = obj["metadata"]
            wf = meta.get("winning_first_moves")
            key = rng.choice(["count", "moves", "choices", "total", "answer_kind", "difficulty", "wf"])
            if key == "answer_kind":
                meta[key] = rng.choice(["play", "discard", "clue", "either", "mixed", "any", "", "bogus", 1, None])
                return obj, f"metadata.answer_kind = {meta[key]!r}"
            if key == "difficulty":
                meta[key] = wrong_value(rng, meta.get(key, "easy"))
                return obj, "metadata.difficulty changed"
            if key == "wf" or not isinstance(wf, dict):
                meta["winning_first_moves"] = wrong_value(rng, wf)
                return obj, "metadata.winning_first_moves changed"
            old = wf.get(key)
            if key == "moves" and isinstance(old, list) and rng.random() < 0.6:
                wf[key] = rng.choice([old[:-1], old + ["c"], old + ["pr1"], ["c"], [], old[::-1], old + old])
            elif key == "choices" and rng.random() < 0.6:
                wf[key] = rng.choice([[["c"]], [], [[]], [["c", "pr1"]], [old], ["c"], [[1]]])
            elif key in ("count", "total") and isinstance(old, int) and rng.random() < 0.6:
                wf[key] = old + rng.choice([-1, 1, 100, -old])
            else:
                wf[key] = wrong_value(rng, old if old is not None else 0)
            return obj, f"metadata.winning_first_moves.{key} = {short(wf[key])}"
        if part == "rules" and isinstance(obj.get("rules"), dict):
            rules = obj["rules"]
            key = rng.choice(list(rules) + ["options"])
            rules[key] = wrong_value(rng, rules.get(key, 0))
            return obj, f"rules.{key} = {short(rules[key])}"
        key = rng.choice(["format", "version", "id", "id", "id"])
        old = obj.get(key)
        obj[key] = odd_string(rng, old) if key == "id" and isinstance(old, str) and rng.random() < 0.7 \
            else wrong_value(rng, old if old is not None else 0)
        return obj, f"{key} = {short(obj[key])}"
