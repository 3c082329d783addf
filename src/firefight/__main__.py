"""``python -m firefight``: the same as the ``firefight`` command."""

from firefight.cli.app import main

main()
