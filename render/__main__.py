"""Entry point for ``python -m render``."""

import sys

from .cli import main

sys.exit(main())
