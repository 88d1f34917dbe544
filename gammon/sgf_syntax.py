"""SGF's syntax (the Smart Game Format, FF[4]), whatever the game: a collection of game
trees, each a main line of nodes holding properties.

What the properties mean for backgammon is :mod:`gammon.sgf`'s business; this module
only reads the text into nodes, with the line of each for the errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gammon.errors import SgfError

__all__ = ["SgfNode", "parse_sgf"]


@dataclass(frozen=True)
class SgfNode:
    """One node: its properties (each a list of values, in file order) and its line."""

    line: int
    properties: dict[str, list[str]]

    def get(self, key: str) -> str | None:
        values = self.properties.get(key)
        return values[0] if values else None


def parse_sgf(text: str) -> list[list[SgfNode]]:
    """The games of an SGF collection, each as the nodes of its main line (first variation).

    >>> [[n.properties for n in game] for game in parse_sgf("(;GM[6]PW[A\\\\]x];W[21])")]
    [[{'GM': ['6'], 'PW': ['A]x']}, {'W': ['21']}]]
    >>> parse_sgf("(;GM[6];W[21]")
    Traceback (most recent call last):
    ...
    gammon.errors.SgfError: line 1: the file ends inside a game tree
    """
    if not isinstance(text, str):
        raise SgfError(f"an .sgf file is read from text, got {type(text).__name__}")
    return _Parser(text.removeprefix("\ufeff")).collection()


class _Parser:
    """Recursive descent over SGF's grammar: Collection = GameTree+;
    GameTree = "(" Node+ GameTree* ")"; Node = ";" Property*; Property = Ident Value+."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0

    def line(self, index: int | None = None) -> int:
        where = self.position if index is None else index
        return self.text.count("\n", 0, where) + 1

    def skip_space(self) -> str:
        while self.position < len(self.text) and self.text[self.position].isspace():
            self.position += 1
        return self.text[self.position] if self.position < len(self.text) else ""

    def collection(self) -> list[list[SgfNode]]:
        games: list[list[SgfNode]] = []
        while True:
            char = self.skip_space()
            if not char:
                return games
            if char != "(":
                rest = self.text[self.position : self.position + 20]
                raise SgfError(f"line {self.line()}: expected a game tree '(', found {rest!r}")
            games.append(self.tree(main=True))

    def tree(self, *, main: bool) -> list[SgfNode]:
        """A game tree from its "("; the nodes of its main line (empty when not ``main``)."""
        self.position += 1
        nodes: list[SgfNode] = []
        child_read = False
        while True:
            char = self.skip_space()
            if not char:
                raise SgfError(f"line {self.line()}: the file ends inside a game tree")
            if char == ";":
                if child_read:
                    raise SgfError(f"line {self.line()}: a node after a variation")
                node = self.node()
                if main:
                    nodes.append(node)
            elif char == "(":
                below = self.tree(main=main and not child_read)
                nodes += below
                child_read = True
            elif char == ")":
                self.position += 1
                if main and not nodes:
                    raise SgfError(f"line {self.line()}: a game tree without a node")
                return nodes
            else:
                rest = self.text[self.position : self.position + 20]
                raise SgfError(f"line {self.line()}: expected ';', '(' or ')', found {rest!r}")

    def node(self) -> SgfNode:
        node = SgfNode(self.line(), {})
        self.position += 1
        while True:
            self.skip_space()
            found = re.compile(r"[A-Za-z]+").match(self.text, self.position)
            if found is None:
                return node
            self.position = found.end()
            values: list[str] = []
            while self.skip_space() == "[":
                values.append(self.value())
            if not values:
                raise SgfError(f"line {self.line()}: the property {found[0]} has no value")
            node.properties.setdefault(found[0].upper(), []).extend(values)

    def value(self) -> str:
        """One ``[...]`` value: escapes taken out, soft line breaks removed."""
        start = self.position
        out: list[str] = []
        index = start + 1
        text = self.text
        while index < len(text):
            char = text[index]
            if char == "\\":
                index += 1
                if text.startswith("\r\n", index):
                    index += 2  # a soft line break
                    continue
                if index < len(text) and text[index] == "\n":
                    index += 1
                    continue
                if index < len(text):
                    out.append(text[index])
            elif char == "]":
                self.position = index + 1
                return "".join(out)
            else:
                out.append(char)
            index += 1
        raise SgfError(f"line {self.line(start)}: a property value is not closed with ']'")
