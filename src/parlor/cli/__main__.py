"""``python -m parlor.cli``: the same as the ``parlor`` command."""

import sys

from parlor.cli import main

sys.exit(main())
