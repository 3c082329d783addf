"""firefight: tactical tabletop-RPG combat rules, resolved on any dice and computed exactly.

Layers (imports point one way): ``dice`` <- ``core`` <- ``rulesets`` <- ``encounter`` <-
``analysis`` <- ``web`` <- ``cli`` (``tests/core/test_layers.py`` holds the line and refuses any
top-level folder it does not name). The package import is kept light so ``firefight --help``
starts fast.
"""

__version__ = "0.1.0"
