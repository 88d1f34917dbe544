"""Post-game analysis: every decision of both players reviewed, the luck of each roll,
and each player's error rate and performance rating.

Give it a finished (or unfinished) :class:`~gammon.game.Game`, a
:class:`~gammon.match.Match` or a money :class:`~gammon.match.Session`, or a
game's rules and history (:func:`analyse_game`):

>>> from gammon.dice import ScriptedDice
>>> from gammon.game import Game
>>> game = Game(dice=ScriptedDice([(3, 1), (6, 5)]))
>>> _ = game.roll(0), game.play(0, "24/21 24/23"), game.roll(1), game.play(1, "24/13")
>>> analysis = analyse(game, ply=0)
>>> review = analysis.checker[0]
>>> review.played, review.best.play, review.loss > BAD, review.mark in (Mark.BAD, Mark.VERY_BAD)
('24/23 24/21', '8/5 6/5', True, True)
>>> side0 = analysis.players[0]
>>> side0.checker_decisions, side0.rating == 500 * review.loss
(1, True)

What is reviewed:

- **Checker plays** with more than one legal play (a forced play is no
  decision): the best candidates with their cubeful equities, the played
  play's loss and its mark, doubtful / bad / very bad at GNU Backgammon's
  thresholds :data:`DOUBTFUL`, :data:`BAD`, :data:`VERY_BAD` (0.04, 0.08, 0.16).
- **Cube decisions** at every roll of a side free to double: no double,
  double/take and double/pass, the right action, missed and wrong doubles;
  for each double offered, wrong takes and passes. Match play is judged by
  match winning chance (the engine's MET) and shown as equity normalised to
  money.
- **Luck** of each roll: the roller's equity after the best play of the roll
  against the average over all 36 throws (the opening roll against the 30
  unequal throws), and each player's total.
- **Per player** (:class:`PlayerSummary`): error rates, decisions counted,
  forced plays, the performance rating ``500 * mean error per decision``
  (eXtreme Gammon's PR; GNU Backgammon shows the same mean times 1000 as its
  error rate in mEMG) and the luck-adjusted result.

Equities are cubeful: the engine's cubeless chances turned into money equity or
MWC with the cube and score of the moment (:mod:`gammon.engine.cube`). Depth:
``ply`` 0 to 3, :data:`DEFAULT_PLY` by default; luck at :data:`DEFAULT_LUCK_PLY`.
What is made of it: :mod:`~gammon.engine.analysis.explain` (the teacher: why
each mistake is one, in words computed from the boards and the cube figures),
:mod:`~gammon.engine.analysis.patterns` (beginner habits counted per player),
:mod:`~gammon.engine.analysis.report` (JSON and a self-contained HTML page) and
:mod:`~gammon.engine.analysis.graph` (its graphs; boards are :mod:`gammon.svg`).

Not judged yet: resignations and their answers, a beavered cube's acceptance, the
acey-deucey double chosen after a 1-2 (and acey-deucey luck, whose 1-2 bonus the
average of the rolls would miss).
"""

from gammon.engine.analysis.judge import CUBEFUL_CANDIDATES, Engine
from gammon.engine.analysis.record_review import analyse
from gammon.engine.analysis.results import (
    BAD,
    CLOSE_CUBE,
    DOUBTFUL,
    LUCKY,
    PR_SCALE,
    VERY_BAD,
    VERY_LUCKY,
    Analysis,
    Candidate,
    CheckerReview,
    CubeReview,
    EngineLabel,
    GameAnalysis,
    LuckMark,
    Mark,
    PlayerSummary,
    RollLuck,
    luck_mark_for,
    mark_for,
    rating_words,
)
from gammon.engine.analysis.review import (
    DEFAULT_LUCK_PLY,
    DEFAULT_PLY,
    SHOWN_CANDIDATES,
    Progress,
    analyse_game,
    steps,
)

__all__ = [
    "BAD",
    "CLOSE_CUBE",
    "CUBEFUL_CANDIDATES",
    "DEFAULT_LUCK_PLY",
    "DEFAULT_PLY",
    "DOUBTFUL",
    "Engine",
    "LUCKY",
    "PR_SCALE",
    "SHOWN_CANDIDATES",
    "VERY_BAD",
    "VERY_LUCKY",
    "Analysis",
    "Candidate",
    "CheckerReview",
    "CubeReview",
    "EngineLabel",
    "GameAnalysis",
    "LuckMark",
    "Mark",
    "PlayerSummary",
    "Progress",
    "RollLuck",
    "analyse",
    "analyse_game",
    "luck_mark_for",
    "mark_for",
    "rating_words",
    "steps",
]
