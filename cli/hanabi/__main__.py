"""``python -m cli.hanabi``: the ``hanabi`` command."""
from cli.hanabi import main

main()
