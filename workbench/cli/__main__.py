"""`python -m workbench.cli ...` is the `workbench` command."""
from . import main

raise SystemExit(main())
