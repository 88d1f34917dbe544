"""The miner: legal positions of the stated classes, from decisions where 0-ply and the
search disagree, the same whichever games were mined first."""

from __future__ import annotations

from itertools import islice

from gammon.engine.evaluator import default_evaluator
from gammon.engine.mining import CLASSES, judge, mine, mine_game, mining_class
from gammon.position import Position


def test_mined_positions_are_legal_plays_of_their_decision_and_of_its_class() -> None:
    evaluator = default_evaluator()
    decisions = list(islice(mine(3, evaluator, ply=1), 6))
    assert decisions
    for decision in decisions:
        assert decision.kind in CLASSES
        assert mining_class(decision.position) == decision.kind
        after = {play.position.swapped() for play in decision.position.plays(decision.dice)}
        assert len(decision.candidates) >= 2
        for candidate in decision.candidates:
            position = candidate.position
            # Legal: rebuilt through the checking constructor, 15 checkers a side.
            again = Position(position.mine, position.theirs)
            assert again == position and position.checkers == 15
            assert sum(position.mine) + position.off[0] == 15
            assert position in after
        # The search's order, best first (the 0-ply choice may follow, searched too).
        deep = [c.deep for c in decision.candidates]
        assert deep[0] == max(deep)


def test_a_game_is_mined_the_same_on_its_own() -> None:
    evaluator = default_evaluator()
    through = [d for d in islice(mine(3, evaluator, ply=1), 8) if d.game == 1]
    alone = list(islice(mine_game(1, 3, evaluator, ply=1), len(through)))
    assert [(d.turn, d.position, d.candidates) for d in alone] == [
        (d.turn, d.position, d.candidates) for d in through
    ]


def test_classes_and_agreement() -> None:
    # A prime, a holding game, a back game and a bear-in against contact.
    prime = Position.from_points({24: 1, 13: 14}, {8: 2, 7: 2, 6: 2, 5: 2, 13: 7})
    holding = Position.from_points({21: 2, 6: 5, 8: 4, 13: 4}, {6: 6, 5: 3, 8: 3, 13: 3})
    back = Position.from_points({22: 2, 20: 2, 13: 3, 8: 3, 6: 5}, {6: 5, 4: 4, 2: 2, 8: 2, 7: 2})
    bearin = Position.from_points({6: 5, 5: 4, 4: 2, 9: 2, 8: 2}, {22: 2, 13: 5, 8: 4, 6: 4})
    assert [mining_class(p) for p in (prime, holding, back, bearin)] == [
        "prime",
        "holding",
        "backgame",
        "bearin",
    ]
    # A forced play is no decision.
    forced = Position.from_points({1: 1}, {6: 1})
    assert judge(forced, (2, 1), default_evaluator()) is None
