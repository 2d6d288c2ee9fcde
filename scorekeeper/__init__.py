"""scorekeeper: the Coiffeur Jass companion.

Nothing here imports Flask: the pure packages (game, scoring, engine, bots)
import alone. The web application lives in ``scorekeeper.app``.
"""

__version__ = "0.1.0"
