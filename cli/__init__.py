"""The command line of both games: ``hanabi`` (:mod:`cli.hanabi`) and ``hand``
(:mod:`cli.hand`). Everything that reads options or prints for a user is here; the
library (:mod:`solver`, :mod:`puzzles`) never imports click."""
