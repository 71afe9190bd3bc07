"""``python -m hanabi_cli``: the ``hanabi`` command."""
from hanabi_cli import main

main()
