"""Provably fair dice (R13): the scheme of DICE.md, its verification and ``gammon verify``."""

from __future__ import annotations

import argparse
import hashlib
import hmac
import io
import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.cli.verify import register
from gammon.dice import DiceSource
from gammon.errors import GammonError
from gammon.events import OpeningRolled, Rolled
from gammon.game import Game, Phase
from gammon.server.fairdice import (
    FORMAT,
    FairDice,
    FairDiceError,
    FairDiceSource,
    RollRecord,
    commitment_of,
    derive_dice,
    roll_block,
    roll_message,
    verify_record,
    verify_rolls,
)

DICE_MD = Path(__file__).resolve().parents[2] / "DICE.md"
SEED = bytes(range(32))
A = bytes.fromhex("00112233445566778899aabbccddeeff")
B = bytes.fromhex("a1b2c3d4e5f60718293a4b5c6d7e8f90")


def played(seed: bytes, entropies: list[list[bytes]]) -> FairDice:
    dice = FairDice(seed)
    for entropy in entropies:
        dice.roll(entropy)
    return dice


# -- the scheme ----------------------------------------------------------------------


def test_commitment_is_sha256_of_the_seed() -> None:
    dice = FairDice(SEED)
    assert dice.commitment == hashlib.sha256(SEED).hexdigest() == commitment_of(SEED)
    assert dice.seed_hex == SEED.hex()


def test_new_dice_have_fresh_secret_seeds() -> None:
    first, second = FairDice.new(), FairDice.new()
    assert len(bytes.fromhex(first.seed_hex)) == 32
    assert first.commitment != second.commitment
    # The seed is secret until the game ends: repr shows only the commitment.
    assert first.seed_hex not in repr(first) and first.commitment in repr(first)


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(33)])
def test_seed_must_be_32_bytes(seed: bytes) -> None:
    with pytest.raises(FairDiceError, match=f"32 bytes long, got {len(seed)}"):
        FairDice(seed)


def test_fair_dice_error_is_ours_and_a_value_error() -> None:
    assert issubclass(FairDiceError, GammonError) and issubclass(FairDiceError, ValueError)


def test_rolls_follow_the_formula_of_dice_md() -> None:
    # R13 / DICE.md: block_j = HMAC-SHA256(seed, label || u32 k || u32 n || sorted hashes || u32 j).
    hashes = sorted(hashlib.sha256(e).digest() for e in (B, A))
    message = b"gammon-fair-dice/1\x00" + (7).to_bytes(4, "big") + (2).to_bytes(4, "big")
    message += b"".join(hashes)
    assert roll_message(7, [B, A]) == message
    block = hmac.new(SEED, message + bytes(4), hashlib.sha256).digest()
    assert roll_block(SEED, 7, [B, A]) == block
    kept = [b % 6 + 1 for b in block if b < 252]
    assert derive_dice(SEED, 7, [B, A]) == (kept[0], kept[1])


def test_rolls_are_deterministic() -> None:
    entropies = [[A], [B], [A, B], [], [b"x" * 64]]
    first, second = played(SEED, entropies), played(SEED, entropies)
    assert first.rolls == second.rolls
    assert [r.index for r in first.rolls] == [1, 2, 3, 4, 5]
    assert first.rolls[2] == RollRecord(3, (A.hex(), B.hex()), derive_dice(SEED, 3, [A, B]))


def test_the_same_entropy_gives_new_dice_each_roll() -> None:
    # The roll number is in the message: repeating entropy does not repeat the stream.
    dice = played(SEED, [[A]] * 40)
    blocks = {roll_block(SEED, r.index, [A]) for r in dice.rolls}
    assert len(blocks) == 40
    assert len({r.dice for r in dice.rolls}) > 10


def test_entropy_changes_the_roll() -> None:
    base = roll_block(SEED, 1, [A])
    assert roll_block(SEED, 1, [A, B]) != base
    assert roll_block(SEED, 1, [A[:-1] + b"\x00"]) != base
    outcomes = {derive_dice(SEED, 1, [i.to_bytes(2, "big")]) for i in range(200)}
    assert len(outcomes) > 25  # 200 draws over 36 outcomes: nearly all show up


def test_a_different_seed_changes_the_roll() -> None:
    assert roll_block(bytes(32), 1, [A]) != roll_block(SEED, 1, [A])


@given(st.lists(st.binary(min_size=1, max_size=64), max_size=5), st.randoms(use_true_random=False))
def test_entropy_order_does_not_matter(entropy: list[bytes], rng: Any) -> None:
    shuffled = list(entropy)
    rng.shuffle(shuffled)  # Hypothesis's seeded Random (use_true_random=False)
    assert derive_dice(SEED, 3, entropy) == derive_dice(SEED, 3, shuffled)


def test_dice_are_uniform() -> None:
    # 30,000 rolls = 60,000 dice from a fixed seed: deterministic, so never flaky.
    # Chi-square with 5 degrees of freedom is above 30 with probability about 1e-5,
    # with 35 degrees of freedom (the 36 ordered rolls) above 90 with about 1e-6.
    dice = FairDice(bytes.fromhex("5a" * 32))
    rolls = [dice.roll([n.to_bytes(4, "big")]) for n in range(30_000)]
    faces = Counter(d for roll in rolls for d in roll)
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    expected = 60_000 / 6
    assert sum((faces[f] - expected) ** 2 / expected for f in range(1, 7)) < 30
    pairs = Counter(rolls)
    assert len(pairs) == 36
    expected = 30_000 / 36
    assert sum((n - expected) ** 2 / expected for n in pairs.values()) < 90
    # The two dice of a roll are independent: doubles come 1 time in 6.
    doubles = sum(1 for d1, d2 in rolls if d1 == d2)
    assert abs(doubles - 5_000) < 300


def test_bytes_from_252_are_skipped() -> None:
    # Roll 69 of DICE.md's example starts with 0xfc, which must not become a die.
    block = roll_block(SEED, 69, [A, B])
    assert block[0] == 0xFC
    assert derive_dice(SEED, 69, [A, B]) == (block[1] % 6 + 1, block[2] % 6 + 1)


@pytest.mark.parametrize(
    ("entropy", "message"),
    [
        ([b""], "contribution 1 must be 1 to 64 bytes long, got 0"),
        ([A, bytes(65)], "contribution 2 must be 1 to 64 bytes long, got 65"),
        (["ab"], "contribution 1 must be bytes, got str"),
        (b"abc", "not a single bytes or str object"),
    ],
)
def test_bad_entropy_is_refused(entropy: Any, message: str) -> None:
    dice = FairDice(SEED)
    with pytest.raises(FairDiceError, match=re.escape(message)):
        dice.roll(entropy)
    assert dice.rolls == ()  # a refused roll is not counted


# -- the dice source a Game uses -------------------------------------------------------


def test_source_is_a_dice_source_and_uses_each_contribution() -> None:
    source = FairDiceSource(FairDice(SEED))
    assert isinstance(source, DiceSource)
    source.add_entropy(A)
    source.add_entropy(B)
    assert source.pending == (A, B)
    assert source.roll() == derive_dice(SEED, 1, [A, B])
    assert not source.pending
    # No new entropy: the previous roll's contributions again, with the next roll number.
    assert source.roll() == derive_dice(SEED, 2, [A, B])
    source.add_entropy(A)
    assert source.roll() == derive_dice(SEED, 3, [A])
    assert [r.entropy for r in source.dice.rolls] == [(A, B), (A, B), (A,)]
    with pytest.raises(FairDiceError, match="1 to 64 bytes"):
        source.add_entropy(b"")


def test_source_switches_dice_per_game() -> None:
    source = FairDiceSource(FairDice(SEED))
    source.add_entropy(A)
    source.roll()
    first = source.dice
    second = source.new_game(FairDice(bytes(32)))
    assert source.dice is second and not second.rolls
    # Entropy the server held before the new commitment could have steered its seed: dropped.
    source.add_entropy(B)
    source.new_game(second)
    assert not source.pending
    source.add_entropy(A)
    source.roll()
    assert [r.index for r in first.rolls] == [1]
    assert list(second.rolls) == [RollRecord(1, (A.hex(),), derive_dice(bytes(32), 1, [A]))]
    assert source.new_game().commitment != second.commitment


def tied_first_roll_seed() -> bytes:
    """A seed whose first roll with entropy A is a tie, to make the opening roll again."""
    return next(
        seed for seed in (bytes([n]) * 32 for n in range(256))
        if len(set(derive_dice(seed, 1, [A]))) == 1
    )


def test_the_opening_roll_uses_the_stream_and_ties_roll_again() -> None:
    # R3: the game reads one roll as (side 0's die, side 1's die) and rolls again on a tie.
    source = FairDiceSource(FairDice(tied_first_roll_seed()))
    source.add_entropy(A)
    events = Game(dice=source).roll(0)
    throws = [e.dice for e in events if isinstance(e, OpeningRolled)]
    assert len(throws) >= 2 and throws[0][0] == throws[0][1]
    assert [r.dice for r in source.dice.rolls] == throws
    # The re-rolls came with no new entropy, so they mixed in A again.
    assert all(r.entropy == (A,) for r in source.dice.rolls)
    assert verify_record(source.dice.record()).ok


def test_a_whole_game_verifies() -> None:
    source = FairDiceSource(FairDice(SEED))
    game = Game(dice=source)
    source.add_entropy(A)
    game.roll(0)
    turn = 0
    while not game.is_over and turn < 400:
        side = game.turn
        assert side is not None
        if game.phase is Phase.ROLL:
            source.add_entropy(turn.to_bytes(2, "big"))  # sent with the roll action
            game.roll(side)
        elif game.phase is Phase.MOVE:
            game.play(side, game.legal_plays()[0])
        turn += 1
    assert game.is_over
    rolled = [e.dice for e in game.history if isinstance(e, OpeningRolled | Rolled)]
    assert [r.dice for r in source.dice.rolls] == rolled
    record = json.loads(json.dumps(source.dice.record(game={"variant": "standard"})))
    report = verify_record(record)
    assert report.ok and len(report.rolls) == len(rolled) > 10


# -- verification ----------------------------------------------------------------------


def record_of(dice: FairDice) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(
        json.dumps(dice.record(game={"players": ["ann", "bob"]}, table="t1"))
    )
    return record


def test_record_round_trips_through_json() -> None:
    dice = played(SEED, [[A], [A, B], [], [B]])
    record = record_of(dice)
    assert record["format"] == FORMAT == "gammon-fair-dice/1"
    assert record["commitment"] == dice.commitment and record["seed"] == SEED.hex()
    assert record["rolls"][1] == {"index": 2, "entropy": [A.hex(), B.hex()],
                                  "dice": list(dice.rolls[1].dice)}
    assert record["game"] == {"players": ["ann", "bob"]} and record["table"] == "t1"
    assert tuple(RollRecord.from_dict(r) for r in record["rolls"]) == dice.rolls
    report = verify_record(record)
    assert report.ok and report.problem is None
    assert [v.record for v in report.rolls] == list(dice.rolls)
    assert all(v.ok and v.expected == v.record.dice for v in report.rolls)
    assert report.check() is report


def test_verify_rolls_takes_records_or_dicts() -> None:
    dice = played(SEED, [[A], [B]])
    as_dicts = [r.to_dict() for r in dice.rolls]
    assert verify_rolls(dice.seed_hex, dice.commitment, dice.rolls).ok
    assert verify_rolls(dice.seed_hex.upper(), dice.commitment.upper(), as_dicts).ok


def test_a_seed_that_does_not_match_the_commitment_is_caught() -> None:
    dice = played(SEED, [[A]])
    record = record_of(dice)
    record["seed"] = bytes(32).hex()
    report = verify_record(record)
    assert not report.ok and report.rolls == ()
    assert report.problem == (
        "the seed does not match the commitment: its SHA-256 is "
        f"{commitment_of(bytes(32))}, the commitment is {dice.commitment}"
    )
    with pytest.raises(FairDiceError, match="does not match the commitment"):
        report.check()


def test_a_tampered_roll_is_caught() -> None:
    dice = played(SEED, [[A], [B], [A, B]])
    record = record_of(dice)
    true = dice.rolls[1].dice
    forged = (true[0] % 6 + 1, true[1])
    record["rolls"][1]["dice"] = list(forged)
    report = verify_record(record)
    assert [v.ok for v in report.rolls] == [True, False, True]
    assert report.problem == (
        f"roll 2 does not match: the record says {forged[0]}-{forged[1]}, "
        f"the seed and entropy give {true[0]}-{true[1]}"
    )


def test_tampered_entropy_is_caught() -> None:
    dice = played(SEED, [[A, B]])
    record = record_of(dice)
    record["rolls"][0]["entropy"] = [A.hex()]  # a contribution dropped from the record
    expected = derive_dice(SEED, 1, [A])
    if expected == dice.rolls[0].dice:  # pragma: no cover - depends on the fixed vectors
        pytest.skip("the forged entropy happens to give the same dice")
    assert verify_record(record).problem is not None
    assert "roll 1 does not match" in str(verify_record(record).problem)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda rolls: rolls.pop(1), "roll 2 is numbered 3"),
        (lambda rolls: rolls.insert(1, dict(rolls[0])), "roll 2 is numbered 1"),
        (lambda rolls: rolls[0].update(entropy=[""]), "roll 1 cannot be recomputed"),
    ],
)
def test_missing_repeated_or_unusable_rolls_are_caught(change: Any, problem: str) -> None:
    record = record_of(played(SEED, [[A], [B], [A, B]]))
    change(record["rolls"])
    assert str(verify_record(record).problem).startswith(problem)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "a game record must be a JSON object, got an array"),
        ({"format": "other"}, "'format' must be 'gammon-fair-dice/1', got 'other'"),
        ({"format": FORMAT, "seed": "00" * 32, "rolls": []}, "the record has no 'commitment'"),
        ({"format": FORMAT, "commitment": "00" * 32, "rolls": []}, "has no 'seed'"),
        ({"format": FORMAT, "commitment": "00" * 32, "seed": "00" * 32},
         "'rolls' must be an array"),
        ({"format": FORMAT, "commitment": "00" * 32, "seed": "00", "rolls": []},
         "the seed must be 64 hex digits, got '00'"),
        ({"format": FORMAT, "commitment": "zz" * 32, "seed": "00" * 32, "rolls": []},
         "the commitment must be 64 hex digits"),
        ({"format": FORMAT, "commitment": "00" * 32, "seed": "00" * 32, "rolls": [{"index": 1}]},
         "a roll lacks 'entropy', 'dice'"),
        ({"format": FORMAT, "commitment": "00" * 32, "seed": "00" * 32,
          "rolls": [{"index": 1, "entropy": [], "dice": [1]}]},
         "roll 1: 'dice' must be two whole numbers, got [1]"),
        ({"format": FORMAT, "commitment": "00" * 32, "seed": "00" * 32,
          "rolls": [{"index": True, "entropy": [], "dice": [1, 2]}]},
         "a roll index must be a whole number from 1, got True"),
    ],
)
def test_malformed_records_raise(record: Any, message: str) -> None:
    with pytest.raises(FairDiceError, match=re.escape(message)):
        verify_record(record)


# -- the worked example of DICE.md -----------------------------------------------------


def doc() -> str:
    return DICE_MD.read_text(encoding="utf-8")


def doc_value(name: str) -> str:
    found = re.search(rf"^\s*{re.escape(name)}\s*=\s*(?:[^=\n]*=\s*)?([0-9a-f]{{32,}})\s*$",
                      doc(), re.MULTILINE)
    assert found is not None, f"DICE.md lost its '{name} =' line"
    return found.group(1)


def test_dice_md_worked_example() -> None:
    # DICE.md's worked example is what the code computes, line by line.
    assert doc_value("seed") == SEED.hex()
    assert doc_value("commitment") == commitment_of(SEED)
    assert doc_value("e_1") == A.hex() and doc_value("e_2") == B.hex()
    assert doc_value("h_1") == hashlib.sha256(A).hexdigest()
    assert doc_value("h_2") == hashlib.sha256(B).hexdigest()
    text = doc()
    example = text[text.index("Roll 1 with two contributions"):text.index("Roll 69")]
    layout = re.search(r"M_1 \|\| u32be\(0\)\s+\(95 bytes\) =\n(.*?)\n\n", example, re.S)
    assert layout is not None
    message_hex = "".join(line.split()[0] for line in layout.group(1).splitlines())
    assert bytes.fromhex(message_hex) == roll_message(1, [A, B]) + bytes(4)
    blocks = re.findall(r"block_0 = (?:HMAC.*\n\s*= )?([0-9a-f]{64})", text)
    assert blocks == [roll_block(SEED, 1, [A, B]).hex(), roll_block(SEED, 69, [A, B]).hex()]
    assert "dice = 1-4" in example and derive_dice(SEED, 1, [A, B]) == (1, 4)
    assert derive_dice(SEED, 69, [A, B]) == (1, 1)


def doc_vectors() -> list[tuple[int, list[bytes], str, tuple[int, int]]]:
    names = {"none": [], "`A`": [A], "`B`": [B]}
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \| ([^|]+) \| (\d)-(\d) \|$", doc(), re.MULTILINE)
    vectors = []
    for index, entropy, first, d1, d2 in rows:
        parts = [p.strip() for p in entropy.split(",")]
        contributions = [c for p in parts for c in names.get(p, [])]
        assert len(contributions) == len([p for p in parts if p != "none"])
        vectors.append((int(index), contributions, first.strip("` "), (int(d1), int(d2))))
    return vectors


def test_dice_md_vector_table() -> None:
    vectors = doc_vectors()
    assert len(vectors) == 7
    for index, entropy, first, dice in vectors:
        block = roll_block(SEED, index, entropy)
        assert block.hex().startswith(first.replace(" ", "")), (index, entropy)
        assert derive_dice(SEED, index, entropy) == dice, (index, entropy)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js for DICE.md's JavaScript")
def test_dice_md_javascript_agrees(tmp_path: Path) -> None:
    # The browser's verification page mirrors DICE.md's JavaScript: run it on the vectors.
    found = re.search(r"```js\n(.*?)```", doc(), re.S)
    assert found is not None
    calls = [
        f"[{index}, [{', '.join(repr(e.hex()) for e in entropy)}]]"
        for index, entropy, _, _ in doc_vectors()
    ]
    script = found.group(1) + f"""
const hex = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
const out = [];
for (const [k, e] of [{", ".join(calls)}])
  out.push(await deriveDice(hex({SEED.hex()!r}), k, e.map(hex)));
console.log(JSON.stringify(out));
"""
    path = tmp_path / "dice.mjs"
    path.write_text(script, encoding="utf-8")
    result = subprocess.run(["node", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [list(dice) for _, _, _, dice in doc_vectors()]


# -- gammon verify ---------------------------------------------------------------------


def run_verify(*argv: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="gammon")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["verify", *argv])
    out = io.StringIO()
    status: int = args.run(args, out)
    return status, out.getvalue()


def write(tmp_path: Path, record: Any) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def test_cli_prints_every_roll_and_all_verified(tmp_path: Path) -> None:
    dice = played(SEED, [[A, B], [], [B]])
    status, out = run_verify(write(tmp_path, record_of(dice)), "--commitment", dice.commitment)
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == f"commitment {dice.commitment}"
    assert lines[1] == f"seed       {SEED.hex()} (matches the commitment)"
    d = [r.dice for r in dice.rolls]
    assert lines[2:5] == [
        f"roll 1: {d[0][0]}-{d[0][1]}  (2 entropy contributions)  ok",
        f"roll 2: {d[1][0]}-{d[1][1]}  (no entropy)  ok",
        f"roll 3: {d[2][0]}-{d[2][1]}  (1 entropy contribution)  ok",
    ]
    assert lines[5:] == ["all 3 rolls verified"]


def test_cli_speaks_the_language_of_lang(tmp_path: Path) -> None:
    """gammon verify --lang: the same check in the player's words (docs/TRANSLATING.md)."""
    dice = played(SEED, [[A, B], [], [B]])
    status, out = run_verify(write(tmp_path, record_of(dice)), "--lang", "sv")
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == f"åtagande {dice.commitment}"
    assert lines[1] == f"frö      {SEED.hex()} (stämmer med åtagandet)"
    d = [r.dice for r in dice.rolls]
    assert lines[2:5] == [
        f"kast 1: {d[0][0]}-{d[0][1]}  (2 entropibidrag)  ok",
        f"kast 2: {d[1][0]}-{d[1][1]}  (ingen entropi)  ok",
        f"kast 3: {d[2][0]}-{d[2][1]}  (1 entropibidrag)  ok",
    ]
    assert lines[5:] == ["alla 3 kast kontrollerade"]
    _, finnish = run_verify(write(tmp_path, record_of(played(SEED, [[A]]))), "--lang", "fi")
    assert finnish.splitlines()[-1] == "1 heitto tarkistettu"


def test_cli_fails_on_a_tampered_roll(tmp_path: Path) -> None:
    dice = played(SEED, [[A, B], [B]])
    record = record_of(dice)
    record["rolls"][1]["dice"] = [6, 6] if dice.rolls[1].dice != (6, 6) else [1, 1]
    with pytest.raises(FairDiceError, match=r"^roll 2 does not match: the record says"):
        run_verify(write(tmp_path, record))


def test_cli_fails_on_another_games_commitment(tmp_path: Path) -> None:
    path = write(tmp_path, record_of(played(SEED, [[A]])))
    with pytest.raises(FairDiceError, match="is not the one shown before the game"):
        run_verify(path, "--commitment", "ab" * 32)


def test_cli_reports_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(FairDiceError, match=r"cannot read .*missing\.json"):
        run_verify(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(FairDiceError, match="is not JSON"):
        run_verify(str(bad))
