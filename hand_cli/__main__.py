"""``python -m hand_cli``: the ``hand`` command."""
from hand_cli import main

main()
