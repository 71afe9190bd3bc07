"""Unknown keys in a game file's options (issue 34, item 2): a key that differs from a
rule only in case or separators is an error (it would silently change every answer),
another unknown key a one-line warning naming the closest known key, and
``--strict-options`` makes every unknown key an error. hanab.live's own options that
change nothing the engine plays pass without a word."""
from __future__ import annotations

import json
import warnings

import pytest

from solver.errors import UnknownKeyWarning
from solver.hanabi.rules import MalformedError, Rules

from conftest import HANABLIVE, assert_clean_error, run_cli

GAME = HANABLIVE / "p3v0s1_example_game.json"


def game_with(tmp_path, **options) -> str:
    d = json.loads(GAME.read_text())
    d.setdefault("options", {}).update(options)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(d))
    return str(path)


@pytest.mark.parametrize("key,rule", [("emptyclues", "emptyClues"), ("EmptyClues", "emptyClues"),
                                      ("empty_clues", "emptyClues"), ("deck-plays", "deckPlays"),
                                      ("PLAY_TO_THE_END", "playToTheEnd"), ("strikeout score", "strikeoutScore")])
def test_a_rule_misspelled_in_case_or_separators_is_an_error(tmp_path, key, rule):
    path = game_with(tmp_path, **{key: True})
    label = f"options.{key}" if key.isidentifier() else f"options[{key!r}]"
    assert_clean_error(run_cli("solve", path), label, repr(rule))
    with pytest.raises(MalformedError, match=rule):
        Rules.from_json_options({key: True})


@pytest.mark.parametrize("key,hint", [("bogusOption", "known: variant"), ("deckPlay", "did you mean 'deckPlays'"),
                                      ("emptyClue", "did you mean 'emptyClues'")])
def test_another_unknown_key_is_a_warning_and_changes_nothing(tmp_path, key, hint):
    path = game_with(tmp_path, **{key: True})
    res = run_cli("show", path, "--json")
    assert res.exit_code == 0, res.output
    assert res.stderr == f"warning: {path}: options.{key}: unknown option" + (
        f" (known: {res.stderr.split('(known: ')[1]}" if "known:" in hint else f"; {hint}? (ignored)\n")
    assert hint in res.stderr and res.stderr.count("\n") == 1
    assert json.loads(res.stdout) == json.loads(run_cli("show", str(GAME), "--json").stdout)
    with pytest.warns(UnknownKeyWarning, match=key):
        Rules.from_json_options({key: True})


def test_a_key_that_is_no_name_is_quoted(tmp_path):
    res = run_cli("show", game_with(tmp_path, **{"": True}))
    assert res.exit_code == 0 and "options['']: unknown option" in res.stderr


def test_strict_options_makes_an_unknown_key_an_error(tmp_path):
    path = game_with(tmp_path, bogusOption=1)
    assert_clean_error(run_cli("show", path, "--strict-options"), "options.bogusOption", "--strict-options")
    assert_clean_error(run_cli("analyse", path, "--db", str(tmp_path / "s.sqlite"), "--strict-options"),
                       "options.bogusOption")
    assert not (tmp_path / "s.sqlite").exists()


def test_the_sites_options_that_change_no_rule_pass_quietly(tmp_path):
    path = game_with(tmp_path, timed=True, timeBase=120, timePerTurn=20, speedrun=False, cardCycle=False)
    res = run_cli("show", path, "--strict-options")
    assert res.exit_code == 0 and res.stderr == ""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Rules.from_json_options({"timed": True, "emptyClues": True, "variant": "No Variant"})


def test_a_seed_that_does_not_deal_the_deck_is_a_warning(tmp_path):
    """Issue 35: a file whose seed does not match its deck gets a warning (the deck is read)."""
    path = tmp_path / "game.json"
    d = json.loads(GAME.read_text())
    d["seed"] = "p3v0s2"
    path.write_text(json.dumps(d))
    res = run_cli("show", str(path), "--json")
    assert res.exit_code == 0
    assert res.stderr == (f"warning: {path}: seed 'p3v0s2' does not deal this deck on hanab.live (for 3 players, "
                          f"No Variant): the deck is read, the seed left aside\n")
    assert json.loads(res.stdout) == json.loads(run_cli("show", str(GAME), "--json").stdout)
    d["seed"] = "p3v0s1"  # the seed that deals this deck: nothing to say
    path.write_text(json.dumps(d))
    assert run_cli("show", str(path)).stderr == ""
