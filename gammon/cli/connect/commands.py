"""What the user types at a table: each line becomes a protocol message or a local answer.

Every rule is the server's to check: a refused command prints the server's
reason and the session goes on. Game commands wait for the user's turn before
they are sent, so a piped script does not race the opponent.
"""

from __future__ import annotations

from typing import Any, Final

from gammon.cli.connect.link import TableLink
from gammon.i18n import N_

__all__ = ["HELP", "run_command"]

#: The commands are typed in English in every language; the help says what each does.
HELP: Final = N_(
    """\
commands (one a line):
  roll | double | take | drop | beaver      the dice and the cube
  24/18 13/9                                 play the dice, in notation
  N                                          play the N-th legal play listed
  moves                                      list every legal play of your roll
  resign [single|gammon|backgammon]          offer to resign; accept | reject answer an offer
  choose N                                   acey-deucey: the double to play after a 1-2
  hint                                       the bot's ranking of your plays (tables with a bot)
  say TEXT                                   table chat
  board | help | quit                        show the board again, this help, leave the table
  forfeit                                    give up the match (you lose it)"""
)
_RESIGN_VALUES: Final = {"single": 1, "s": 1, "1": 1, "gammon": 2, "g": 2, "2": 2,
                         "backgammon": 3, "b": 3, "3": 3}  # fmt: skip
_SIMPLE: Final = {
    "roll": "roll",
    "r": "roll",
    "double": "double",
    "d": "double",
    "take": "take",
    "drop": "drop",
    "beaver": "beaver",
    "hint": "hint",
    "accept": "accept_resignation",
    "reject": "reject_resignation",
    "forfeit": "forfeit",
    "join": "join",
}


async def run_command(link: TableLink, line: str) -> bool:
    """Run one line of input; False to leave."""
    words = line.split()
    if not words or words[0].startswith("#"):
        return True
    word = words[0].lower()
    rest = line.strip()[len(words[0]) :].strip()
    if word in ("quit", "exit", "q"):
        link.say(
            link.gettext(
                "* leaving table {table}; it goes on at the server "
                "(come back with --table {table})",
                table=link.table,
            )
        )
        return False
    if word in ("help", "?"):
        link.say(link.gettext(HELP))
        return True
    if word == "board":
        if link.state is not None:
            link.say(link.screen.render(link.state))
        return True
    if word in ("say", "chat"):
        reply = await link.request({"type": "chat", "text": rest})
        if reply["type"] == "error":
            link.screen.show_error(reply, line.strip())
        return True
    await link.wait_for(link.my_turn)
    if link.finished or link.fatal is not None:
        return True
    message = _message(link, word, words, line.strip())
    if message is None:
        return True
    reply = await link.request(message)
    if reply["type"] == "error":
        link.screen.show_error(reply, line.strip())
    elif reply["type"] == "hint":
        link.screen.show_hint(reply)
    return True


def _message(link: TableLink, word: str, words: list[str], line: str) -> dict[str, Any] | None:
    """The protocol message for a game command, or None after saying why there is none."""
    if word in _SIMPLE and len(words) == 1:
        return {"type": _SIMPLE[word]}
    if word == "resign":
        value = _RESIGN_VALUES.get(words[1].lower() if len(words) > 1 else "single")
        if value is None or len(words) > 2:
            link.say(
                link.gettext("! resign what? 'resign', 'resign gammon' or 'resign backgammon'")
            )
            return None
        return {"type": "resign", "value": value}
    if word == "choose" and len(words) == 2 and words[1].isdigit():
        return {"type": "choose_double", "number": int(words[1])}
    plays = _legal_plays(link)
    if word == "moves":
        if not plays:
            link.say(link.gettext("! no plays to list: it is not your move"))
        for n, play in enumerate(plays, 1):
            link.say(f"  {n:3}  {play['play']}")
        return None
    if line.isdigit():
        if not plays:
            state = link.state or {}
            now = link.screen.status(state, state.get("game") or {})
            link.say(
                link.gettext(
                    "! no play {number} to choose: it is not your move ({now})",
                    number=line,
                    now=now,
                )
            )
            return None
        number = int(line)
        if not 1 <= number <= len(plays):
            link.say(
                link.gettext(
                    "! there is no play {number}: choose 1 to {count}",
                    number=number,
                    count=len(plays),
                )
            )
            return None
        return {"type": "play", "play": plays[number - 1]["play"]}
    return {"type": "play", "play": line}


def _legal_plays(link: TableLink) -> list[dict[str, Any]]:
    game = (link.state or {}).get("game") or {}
    return list(game.get("legal_plays") or [])
