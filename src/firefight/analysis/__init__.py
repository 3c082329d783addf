"""Analysis of whole fights: many fights simulated (the engine loop, or the fast path sampling
cached exact kernels), exact fight odds (an absorbing Markov chain over reachable states), and
the best decision at every point (``solve``; the ``optimal`` policy, registered here by name in
the encounter layer's policies so scenarios may use it).

Layer: ``encounter`` <- ``analysis`` <- ``cli``; analysis knows rulesets only through the engine.
"""

from firefight.analysis.optimal import register as _register_optimal

_register_optimal()  # the ``optimal`` policy, by name, wherever fights are played
