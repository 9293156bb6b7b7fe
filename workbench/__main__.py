"""`python -m workbench ...` is the `workbench` command (as `python -m workbench.cli ...`)."""
from .cli import main

raise SystemExit(main())
