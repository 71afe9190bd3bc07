"""``python -m fuzzing [--n N] [--seed S] [--command C ...] [--json FILE]``, run from tests/:
the fuzzer outside pytest (see :func:`fuzzing.run.main`).
"""
import sys

from .run import main

sys.exit(main())
