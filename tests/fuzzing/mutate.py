"""Mutations of the fuzzer's inputs: structural ones of a JSON value (:func:`mutate_obj` and its
helpers), text-level ones of file bytes (:func:`mutate_text`) and of a compact deck text
(:func:`mutate_compact`).
"""
from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from typing import Any

from .values import (
    CUSTOM_KEYS,
    ODD_CHARS,
    SURROGATES,
    VARIANT_NAMES,
    Dup,
    Raw,
    emit,
    nest,
    odd_string,
    random_action,
    random_custom,
    short,
    wrong_value,
)


def nodes(root: Any, limit: int = 20000) -> list[tuple[Any, Any, Any]]:
    """Every (container, key, value) below the root (not inside Raw/Dup), breadth first."""
    out: list[tuple[Any, Any, Any]] = []
    todo = [root]
    while todo and len(out) < limit:
        node = todo.pop(0)
        if isinstance(node, dict):
            items: Any = list(node.items())
        elif isinstance(node, list):
            items = list(enumerate(node))
        else:
            continue
        for k, v in items:
            out.append((node, k, v))
            if isinstance(v, dict | list):
                todo.append(v)
    return out


def _pick(rng: random.Random, root: Any, pred: Callable[[Any, Any, Any], bool]) -> tuple[Any, Any, Any] | None:
    cands = [n for n in nodes(root) if pred(*n)]
    return rng.choice(cands) if cands else None


OPTION_KEYS = ["variant", "emptyClues", "deckPlays", "oneExtraCard", "oneLessCard", "reserveToken",
               "strikeoutScore", "startingPlayer", "detrimentalCharacters", "allOrNothing", "speedrun", ""]


def option_value(rng: random.Random, key: str) -> Any:
    if key == "variant":
        r = rng.random()
        if r < 0.45:
            return rng.choice(VARIANT_NAMES)
        spec = random_custom(rng)
        if r < 0.8:
            k = rng.choice(CUSTOM_KEYS + ("extra",))
            spec[k] = wrong_value(rng, spec.get(k, 1))
        return spec
    if key == "strikeoutScore":
        return rng.choice(["zero", "stacks", "Stacks", "", None, 0, True])
    if key == "startingPlayer":
        return rng.choice([0, 1, 2, 4, 5, 6, -1, 10**30, True, "1", 1.0, None])
    return rng.choice([True, False, True, 1, 0, "true", None, [], {}])


def mutate_obj(rng: random.Random, root: Any, kinds: list[str] | None = None) -> tuple[Any, str]:
    """One structural mutation of a JSON value (the root may be replaced): (new root, what)."""
    ops = kinds or ["delete", "delete", "retype", "retype", "retype", "retype", "int", "int", "int", "string",
                    "strings", "dupkey", "swapkeys", "rename", "list", "list", "list", "bomb", "huge",
                    "actions", "actions", "actions", "options", "options", "top"]
    op = rng.choice(ops)
    if op == "top":
        if rng.random() < 0.2:
            return wrong_value(rng, root), "replace the whole document"
        return [root], "wrap the document in a list"
    if op == "delete":
        n = _pick(rng, root, lambda c, k, v: isinstance(c, dict))
        if n:
            del n[0][n[1]]
            return root, f"delete key {n[1]!r}"
    if op == "retype":
        n = _pick(rng, root, lambda c, k, v: True)
        if n:
            n[0][n[1]] = val = wrong_value(rng, n[2])
            return root, f"[{n[1]!r}] = {short(val)}"
    if op == "int":
        n = _pick(rng, root, lambda c, k, v: type(v) is int)
        if n:
            delta = rng.choice([-2, -1, 1, 2, 3, 10, 60, -60, 10**30, -(10**30), 2**31, 2**63])
            n[0][n[1]] = n[2] + delta
            return root, f"[{n[1]!r}] {n[2]} -> {n[2] + delta}"
    if op == "string":
        n = _pick(rng, root, lambda c, k, v: isinstance(v, str))
        if n:
            n[0][n[1]] = s = odd_string(rng, n[2])
            return root, f"[{n[1]!r}] = {short(s)}"
    if op == "strings":  # a lone surrogate in every string (keys included, sometimes)
        keys_too = rng.random() < 0.2
        sur = rng.choice(SURROGATES if rng.random() < 0.8 else ODD_CHARS)
        return lace(root, sur, rng, keys_too), f"{sur!r} in every string" + (" and key" if keys_too else "")
    if op == "dupkey":
        n = _pick(rng, root, lambda c, k, v: isinstance(v, dict) and bool(v))
        holder: Any = None
        if n:
            holder, key, d = n
        elif isinstance(root, dict) and root:
            d = root
        else:
            d = None
        if d is not None:
            k = rng.choice(list(d))
            pairs = list(d.items())
            extra = (k, wrong_value(rng, d[k]) if rng.random() < 0.7 else copy.deepcopy(d[k]))
            if rng.random() < 0.5:
                pairs.append(extra)
            else:
                pairs.insert(0, extra)
            dup = Dup(pairs)
            if holder is None:
                return dup, f"duplicate top-level key {k!r}"
            holder[key] = dup
            return root, f"duplicate key {k!r}"
    if op == "swapkeys":
        n = _pick(rng, root, lambda c, k, v: isinstance(v, dict) and len(v) >= 2)
        d = n[2] if n else root if isinstance(root, dict) and len(root) >= 2 else None
        if d is not None:
            a, b = rng.sample(list(d), 2)
            d[a], d[b] = d[b], d[a]
            return root, f"swap the values of {a!r} and {b!r}"
    if op == "rename":
        n = _pick(rng, root, lambda c, k, v: isinstance(c, dict))
        if n:
            c, k, v = n
            new = rng.choice([k.upper(), k + " ", k.capitalize(), k[:-1], k + rng.choice(SURROGATES), "_" + k,
                              rng.choice(list(c))])
            del c[k]
            c[new] = v
            return root, f"rename key {k!r} -> {new!r}"
    if op == "list":
        n = _pick(rng, root, lambda c, k, v: isinstance(v, list))
        if n:
            c, k, lst = n
            what = rng.choice(["dup", "dup", "del", "swap", "reverse", "shuffle", "truncate", "clear", "double",
                               "insert", "none"])
            if what == "dup" and lst:
                i = rng.randrange(len(lst))
                lst.insert(i, copy.deepcopy(lst[i]))
            elif what == "del" and lst:
                del lst[rng.randrange(len(lst))]
            elif what == "swap" and len(lst) > 1:
                i, j = rng.sample(range(len(lst)), 2)
                lst[i], lst[j] = lst[j], lst[i]
            elif what == "reverse":
                lst.reverse()
            elif what == "shuffle":
                rng.shuffle(lst)
            elif what == "truncate":
                del lst[rng.randint(0, len(lst)):]
            elif what == "clear":
                lst.clear()
            elif what == "double":
                lst.extend(copy.deepcopy(lst))
            elif what == "insert":
                lst.insert(rng.randint(0, len(lst)), wrong_value(rng, lst[0] if lst else 0))
            elif what == "none" and lst:
                lst[rng.randrange(len(lst))] = None
            return root, f"list [{k!r}]: {what}"
    if op == "bomb":
        n = _pick(rng, root, lambda c, k, v: True)
        if n:
            depth = rng.choice([rng.randint(880, 1000), 1200, 5000, 100_000])
            n[0][n[1]] = nest(depth, rng.choice(["list", "dict"]))
            return root, f"[{n[1]!r}] = nesting bomb, depth {depth}"
    if op == "huge":
        n = _pick(rng, root, lambda c, k, v: isinstance(v, list) and bool(v))
        if n:
            c, k, lst = n
            r = rng.random()
            size = 10**3 if r < 0.5 else 10**4 if r < 0.85 else 10**5 if r < 0.995 else 10**6
            item = emit(rng.choice(lst))
            c[k] = Raw("[" + ", ".join([item] * size) + "]")
            return root, f"list [{k!r}] repeated to {size} items"
    if op == "benign":  # keeps the input readable (mostly): the paths that succeed get odd data too
        game = _find_game(root)
        if game is not None:
            what = rng.choice(["names", "names", "names", "extra", "id", "seed", "truncate", "flag", "variant"])
            names = game.get("players")
            if what == "names" and isinstance(names, list) and names:
                if rng.random() < 0.5:
                    i = rng.randrange(len(names))
                    names[i] = odd_string(rng, names[i] if isinstance(names[i], str) else "x")
                else:
                    game["players"] = [odd_string(rng, x) if isinstance(x, str) else x for x in names]
                return root, f"player names {short(game['players'])}"
            if what in ("extra", "id", "seed"):
                key = what if what != "extra" else rng.choice(["notes", "foo", "", "\ud800", "options2", "id "])
                root[key] = val = wrong_value(rng, root.get(key, 1)) if rng.random() < 0.7 else \
                    odd_string(rng, "p3v0s1")
                return root, f"[{key!r}] = {short(val)}"
            acts = game.get("actions")
            if what == "truncate" and isinstance(acts, list):
                k = rng.randint(0, len(acts))
                del acts[k:]
                return root, f"keep the first {k} actions"
            opts = game.get("options")
            if not isinstance(opts, dict):
                opts = game["options"] = {}
            if what == "flag":
                key = rng.choice(["emptyClues", "deckPlays", "oneExtraCard", "oneLessCard", "reserveToken"])
                opts[key] = rng.random() < 0.7
                return root, f"options[{key!r}] = {opts[key]}"
            v = opts.get("variant", "No Variant")
            if isinstance(v, str):
                opts["variant"] = rng.choice([v.lower(), v.upper(), f"  {v} ", v.replace(" ", "  ")])
                return root, f"options.variant = {opts['variant']!r}"
    if op == "actions":
        game = _find_game(root)
        if game is not None:
            acts = game.get("actions")
            if not isinstance(acts, list):
                acts = game["actions"] = []
            n_cards = len(game["deck"]) if isinstance(game.get("deck"), list) else 50
            n_players = len(game["players"]) if isinstance(game.get("players"), list) else 5
            what = rng.choice(["insert", "replace", "replace", "dup", "dup_all", "append", "terminator", "field"])
            if what == "insert" or not acts:
                acts.insert(rng.randint(0, len(acts)), random_action(rng, n_cards, n_players))
            elif what == "replace":
                acts[rng.randrange(len(acts))] = random_action(rng, n_cards, n_players)
            elif what == "dup":
                i = rng.randrange(len(acts))
                acts.insert(i, copy.deepcopy(acts[i]))
            elif what == "dup_all":
                acts.extend(copy.deepcopy(acts))
            elif what == "append":
                acts.extend(random_action(rng, n_cards, n_players) for _ in range(rng.randint(1, 5)))
            elif what == "terminator":
                acts.insert(rng.randint(0, len(acts)), {"type": rng.choice([4, 5]), "target": 0, "value": 0})
            else:
                a = acts[rng.randrange(len(acts))]
                if isinstance(a, dict) and a:
                    key = rng.choice(list(a) + ["type", "target", "value"])
                    a[key] = wrong_value(rng, a.get(key, 0))
            return root, f"actions: {what}"
    if op == "options":
        game = _find_game(root)
        if game is not None:
            opts = game.get("options")
            if not isinstance(opts, dict):
                opts = game["options"] = {}
            key = rng.choice(OPTION_KEYS)
            opts[key] = val = option_value(rng, key)
            return root, f"options[{key!r}] = {short(val)}"
    # nothing applicable: change a random value
    n = _pick(rng, root, lambda c, k, v: True)
    if n:
        n[0][n[1]] = val = wrong_value(rng, n[2])
        return root, f"[{n[1]!r}] = {short(val)}"
    return wrong_value(rng, root), "replace the whole document"


def lace(v: Any, extra: str, rng: random.Random | None = None, keys_too: bool = False) -> Any:
    """``v`` with ``extra`` (a lone surrogate, a control character) added to every string,
    at the end or (with ``rng``, at random) the start."""
    if isinstance(v, str):
        return extra + v if rng is not None and rng.random() < 0.5 else v + extra
    if isinstance(v, list):
        return [lace(x, extra, rng, keys_too) for x in v]
    if isinstance(v, dict):
        return {(lace(k, extra, rng) if keys_too else k): lace(x, extra, rng, keys_too) for k, x in v.items()}
    return v


def _find_game(root: Any) -> dict | None:
    """The game object: the root, or a puzzle's ``game``."""
    if isinstance(root, dict):
        if isinstance(root.get("game"), dict):
            return root["game"]
        if "deck" in root or "actions" in root:
            return root
    return None


NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
NUMBER_TOKENS = [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-0", b"1.0", b"1e2", b"0x10", b"01", b"+1", b".5",
                 b"1_000", b"9" * 5000, b"nan", b"true", b"null", b'"1"']
BAD_BYTES = [b"\xff", b"\xfe", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xe2\x82", b"\x00", b"\xf4\x90\x80\x80",
             b"\x80", b"\xef\xbb\xbf"]


def mutate_text(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """One text-level mutation of file bytes."""
    op = rng.choice(["truncate", "truncate", "truncate", "char", "bytes", "bytes", "bom", "number", "number",
                     "random", "span", "dupspan", "crlf", "trailing", "utf16", "empty"])
    n = len(data)
    if op == "truncate" and n:
        cut = rng.randrange(n)
        return data[:cut], f"truncated at byte {cut}"
    if op == "char" and n:
        i = rng.randrange(n)
        ch = rng.choice(list(b'{}[]",:0123456789-eE. \\ntf/')).to_bytes(1, "big")
        if rng.random() < 0.5:
            return data[:i] + ch + data[i + 1:], f"byte {i} -> {ch!r}"
        return data[:i] + ch + data[i:], f"insert {ch!r} at {i}"
    if op == "bytes":
        i = rng.randint(0, n)
        b = rng.choice(BAD_BYTES)
        return data[:i] + b + data[i:], f"insert {b!r} at {i}"
    if op == "bom":
        bom = rng.choice([b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b" \xef\xbb\xbf"])
        return bom + data, f"prefix {bom!r}"
    if op == "number":
        ms = list(NUMBER.finditer(data))
        if ms:
            m = rng.choice(ms)
            tok = rng.choice(NUMBER_TOKENS)
            return data[:m.start()] + tok + data[m.end():], f"number at {m.start()} -> {tok[:20]!r}"
    if op == "random":
        k = rng.choice([0, 1, 5, 50, 500])
        return bytes(rng.randrange(256) for _ in range(k)), f"{k} random bytes"
    if op == "span" and n:
        i = rng.randrange(n)
        j = min(n, i + rng.randint(1, 200))
        return data[:i] + data[j:], f"delete bytes {i}..{j}"
    if op == "dupspan" and n:
        i = rng.randrange(n)
        j = min(n, i + rng.randint(1, 200))
        return data[:j] + data[i:j] + data[j:], f"repeat bytes {i}..{j}"
    if op == "crlf":
        return data.replace(b"\n", b"\r\n").replace(b", ", b",\r\n\t"), "CRLF line ends"
    if op == "trailing":
        t = rng.choice([b" x", b"{}", b"\x00", b"]", b"\n\n{\"a\": 1}", b" // comment", b"\x1a"])
        return data + t, f"append {t!r}"
    if op == "utf16":
        try:
            text = data.decode("utf-8")
            enc = rng.choice(["utf-16", "utf-16-le", "utf-32"])
            return text.encode(enc, "surrogatepass"), f"encoded as {enc}"
        except UnicodeDecodeError:
            pass
    if op == "empty":
        return rng.choice([b"", b" ", b"\n", b"\t\r\n", b"\xef\xbb\xbf"]), "empty file"
    return data, "unchanged"


def mutate_compact(rng: random.Random, text: str) -> tuple[str, str]:
    toks = text.split()
    op = rng.choice(["swap", "del", "dup", "case", "bad", "bad", "sep", "comment", "odd", "many", "lines"])
    if op == "swap" and len(toks) > 1:
        i, j = rng.sample(range(len(toks)), 2)
        toks[i], toks[j] = toks[j], toks[i]
        return " ".join(toks), f"swap cards {i} {j}"
    if op == "del" and toks:
        i = rng.randrange(len(toks))
        del toks[i]
        return " ".join(toks), f"delete card {i}"
    if op == "dup" and toks:
        i = rng.randrange(len(toks))
        toks.insert(i, toks[i])
        return " ".join(toks), f"duplicate card {i}"
    if op == "case":
        return text.upper(), "upper case"
    if op == "bad" and toks:
        i = rng.randrange(len(toks))
        toks[i] = rng.choice(["r0", "r6", "q1", "r", "1", "rr1", "r١", "ｒ1", "r1\ud800", "\udcff", "r-1", "r10",
                              "#", "r1#", ",", "k1", "m5", "t3", "p5p5", "r 1", "R1", "\x00", "r1\u2028"])
        return " ".join(toks), f"card {i} -> {toks[i]!r}"
    if op == "sep":
        return rng.choice([",", ", ", ",,", "\t", "\n", "  "]).join(toks), "other separators"
    if op == "comment":
        return "# a comment\n" + "\n".join(" ".join(toks[i:i + 10]) + " # row" for i in range(0, len(toks), 10)), \
            "comments"
    if op == "odd":
        s = odd_string(rng, "")
        i = rng.randint(0, len(text))
        return text[:i] + s + text[i:], f"insert {short(s)} at {i}"
    if op == "many":
        return " ".join(toks * rng.choice([2, 100, 2000])), "repeated deck"
    if op == "lines":
        return "\n".join(toks), "one card a line"
    return text, "unchanged"

