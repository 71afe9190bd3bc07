"""The rules engine: the single source of truth for every solver, puzzle and checker.

It imports nothing from the search or encoding code and nothing from ``puzzles``.
"""
from .cards import COLOR_CLUE, DISCARD, PLAY, RANK_CLUE, Action, Card, format_compact, parse_compact
from .errors import IllegalActionError, MalformedError
from .hanablive import (
    GameRecord,
    as_state,
    game_from_json,
    game_to_json,
    load_file,
    load_text,
    parse_json,
    read_jsonl,
    read_text,
)
from .options import Rules, parse_variant, variant_by_name
from .seeds import GoRand, crc64_ecma, deck_from_seed, game_from_seed, parse_seed, seed_int64, server_shuffle
from .state import (
    END_FINAL_ROUND,
    END_MAX_SCORE,
    END_NO_PLAYS,
    END_PERFECT,
    END_STRIKEOUT,
    END_WORDS,
    Game,
    State,
    replay,
)
from .variant import BUILTIN, BY_HANABLIVE_ID, Suit, Variant, custom_variant

__all__ = [
    "Action", "Card", "PLAY", "DISCARD", "COLOR_CLUE", "RANK_CLUE", "format_compact", "parse_compact",
    "IllegalActionError", "MalformedError", "GameRecord", "as_state", "game_from_json", "game_to_json",
    "load_file", "load_text", "parse_json", "read_jsonl", "read_text", "Game", "State", "replay", "END_PERFECT",
    "END_STRIKEOUT", "END_FINAL_ROUND", "END_MAX_SCORE", "END_NO_PLAYS", "END_WORDS", "BUILTIN", "BY_HANABLIVE_ID",
    "Rules", "Suit", "Variant", "custom_variant",
    "parse_variant", "variant_by_name", "GoRand", "crc64_ecma", "deck_from_seed", "game_from_seed",
    "parse_seed", "seed_int64", "server_shuffle",
]
