"""`python -m kg` runs the CLI."""

import sys

from kg.cli import main

sys.exit(main())
