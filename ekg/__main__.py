"""`python -m ekg` runs the CLI."""

import sys

from ekg.cli import main

sys.exit(main())
