"""``python -m cli.hand``: the ``hand`` command."""
from cli.hand import main

main()
