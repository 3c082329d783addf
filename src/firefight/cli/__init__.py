"""The ``firefight`` command: a thin layer over the library. Errors map to exit codes here only."""
