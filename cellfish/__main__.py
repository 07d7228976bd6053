"""`python -m cellfish` is the `cellfish` command."""
import sys

from cellfish.cli import main

sys.exit(main())
