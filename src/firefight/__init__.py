"""firefight: tactical tabletop-RPG combat rules, resolved on any dice and computed exactly.

Layers (imports point one way): ``dice`` <- ``core`` <- ``rulesets`` <- ``engine`` <- ``sim`` /
``analysis`` <- ``cli``. The package import is kept light so ``firefight --help`` starts fast.
"""

__version__ = "0.1.0"
