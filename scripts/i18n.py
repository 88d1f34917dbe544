"""Keep the translation catalogs in step with the code (docs/TRANSLATING.md).

    python scripts/i18n.py extract   # the messages of SOURCES into gammon/locale/gammon.pot
    python scripts/i18n.py update    # the template merged into every gammon.po
    python scripts/i18n.py check     # exit 1 if the template or a catalog is behind the code

Nothing here is needed to run gammon: the catalogs are read from their .po text at run
time (gammon.i18n). The template is committed so that a translator can start from it
without running Python, and tests/test_i18n.py fails when it is behind the code.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any, Final

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from gammon.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE, catalog_path

ROOT: Final = Path(__file__).resolve().parents[1]
#: The modules whose player-facing words are in the catalogs (tests/test_i18n.py scans
#: them for sentences outside a catalog). Add a module here when you convert it.
SOURCES: Final = (
    "gammon/events.py",
    "gammon/cli/analyse.py",
    "gammon/cli/hint.py",
    "gammon/cli/verify.py",
    # The rules' refusals that reach players through the server (gammon.messages.Message).
    "gammon/game.py",
    "gammon/rules.py",
    "gammon/match.py",
    "gammon/series.py",
    "gammon/notation.py",
    "gammon/notation_syntax.py",
    "gammon/notation_search.py",
    "gammon/position_id.py",
    "gammon/match_id.py",
    "gammon/xgid.py",
    "gammon/errors.py",
    "gammon/position.py",
    "gammon/written.py",
    # The server's refusals (protocol.Refused with a Message) and the game log per viewer.
    "gammon/server/app.py",
    "gammon/server/edge.py",
    "gammon/server/routes/accounts.py",
    "gammon/server/routes/tables.py",
    "gammon/server/routes/tournaments.py",
    "gammon/server/routes/players.py",
    "gammon/server/routes/sockets.py",
    "gammon/server/routes/operations.py",
    "gammon/server/routes/analyses.py",
    "gammon/server/bodies.py",
    "gammon/server/chat.py",
    "gammon/server/chat_settings.py",
    "gammon/server/chatroom.py",
    "gammon/server/connections.py",
    "gammon/server/hub.py",
    "gammon/server/table_sockets.py",
    "gammon/server/lobby_sockets.py",
    "gammon/server/socket_answers.py",
    "gammon/server/runner.py",
    "gammon/server/table_log.py",
    "gammon/server/ids.py",
    "gammon/server/pages.py",
    "gammon/server/practice.py",
    "gammon/server/protocol.py",
    "gammon/server/client_vocabulary.py",
    "gammon/server/game_json.py",
    "gammon/server/table.py",
    "gammon/server/settings.py",
    "gammon/server/auth.py",
    "gammon/server/names.py",
    "gammon/server/rematch.py",
    "gammon/server/user_settings.py",
    "gammon/server/pairing.py",
    "gammon/server/analysis.py",
    "gammon/server/analysis_rows.py",
    "gammon/server/analysis_pool.py",
    "gammon/server/analysis_worker.py",
    "gammon/server/views.py",
    "gammon/server/analysis_board.py",
    "gammon/server/tournaments/live.py",
    "gammon/server/tournaments/pages.py",
    "gammon/server/tournaments/log.py",
    "gammon/server/tournaments/settings.py",
    "gammon/server/tournaments/state.py",
    "gammon/engine/analysis/explain.py",
    "gammon/engine/analysis/words.py",
    "gammon/engine/analysis/checker_facts.py",
    "gammon/engine/analysis/cube_facts.py",
    "gammon/engine/analysis/patterns.py",
    "gammon/engine/analysis/summary.py",
    # The review's HTML page and the boards it and the command line draw.
    "gammon/engine/analysis/report.py",
    "gammon/engine/analysis/report_tables.py",
    "gammon/diagram.py",
    "gammon/svg.py",
    "gammon/cli/play.py",
    # The terminal client (gammon connect): what it prints around the server's own words.
    "gammon/cli/connect/__init__.py",
    "gammon/cli/connect/api.py",
    "gammon/cli/connect/commands.py",
    "gammon/cli/connect/link.py",
    "gammon/cli/connect/screen.py",
    "gammon/cli/connect/session.py",
    # gammon moves (gammon/cli/rules.py) and gammon rollout: the lines a player reads.
    "gammon/cli/rules.py",
    "gammon/cli/rollout.py",
    # The browser client (static/js/i18n.js): t(), tn() and N_().
    "gammon/server/static/js/language-switch.js",
    "gammon/server/static/js/table.js",
    "gammon/server/static/js/table-controls.js",
    "gammon/server/static/js/table-text.js",
    "gammon/server/static/js/table-connection.js",
    "gammon/server/static/js/table-motion.js",
    "gammon/server/static/js/board.js",
    "gammon/server/static/js/board-animator.js",
    "gammon/server/static/js/moves.js",
    "gammon/server/static/js/play-path.js",
    "gammon/server/static/js/drag.js",
    "gammon/server/static/js/geometry.js",
    "gammon/server/static/js/chat.js",
    "gammon/server/static/js/practice.js",
    "gammon/server/static/js/result-screen.js",
    "gammon/server/static/js/sound.js",
    "gammon/server/static/js/state-deltas.js",
    "gammon/server/static/js/protocol.js",
    "gammon/server/static/js/app.js",
    "gammon/server/static/js/auth.js",
    "gammon/server/static/js/lobby.js",
    "gammon/server/static/js/lobby-form.js",
    "gammon/server/static/js/lobby-play.js",
    "gammon/server/static/js/players.js",
    "gammon/server/static/js/pages.js",
    "gammon/server/static/js/rating-graph.js",
    "gammon/server/static/js/settings-panel.js",
    "gammon/server/static/js/settings.js",
    "gammon/server/static/js/fairdice.js",
    "gammon/server/static/js/api.js",
    "gammon/server/static/js/socket.js",
    "gammon/server/static/js/util.js",
    "gammon/server/static/js/analysis-board.js",
    "gammon/server/static/js/board-setup.js",
    "gammon/server/static/js/review.js",
    "gammon/server/static/js/review-model.js",
    "gammon/server/static/js/record.js",
    "gammon/server/static/js/replay.js",
    "gammon/server/static/js/tournament.js",
    "gammon/server/static/js/tournament-text.js",
    "gammon/server/static/js/tournament-notices.js",
)
#: What marks a message: a translator's methods, and ``N_`` for tables of words (Python);
#: ``Message`` (``Message.plural`` with a count) for a message written later in its
#: reader's language (gammon.messages: the server's refusals, the rules' errors); ``t``,
#: ``tn`` and ``N_`` (JavaScript).
KEYWORDS: Final = {
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "N_": None,
    "Message": None,
    "plural": (1, 2),
}
JS_KEYWORDS: Final = {"t": None, "tn": (1, 2), "N_": None}
TEMPLATE: Final = LOCALE_DIR / f"{DOMAIN}.pot"


def extract() -> Catalog:
    """The template: every message of :data:`SOURCES`, with where it is used."""
    template = Catalog(
        project="gammon", version="0.1.0", domain=DOMAIN, fuzzy=False,
        copyright_holder="the gammon authors", language_team="gammon's translators",
        header_comment="# The messages of gammon (English, the source language).\n"
        "# Made by scripts/i18n.py extract; see docs/TRANSLATING.md.",
    )  # fmt: skip
    for source in SOURCES:
        method, keywords = (
            ("javascript", JS_KEYWORDS) if source.endswith(".js") else ("python", KEYWORDS)
        )
        for lineno, message, comments, context in extract_from_file(
            method, ROOT / source, keywords=keywords
        ):
            template.add(
                message,
                locations=[(source, lineno)],
                auto_comments=comments,
                context=context,
                flags=("python-brace-format",),
            )
    return template


def _po_text(catalog: Catalog, **options: Any) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, **options)
    return out.getvalue()


def _merged(lang: str, template: Catalog) -> Catalog:
    path = catalog_path(lang)
    if path.is_file():
        with path.open("rb") as file:
            catalog = read_po(file, locale=lang, domain=DOMAIN)
    else:
        catalog = Catalog(
            locale=lang, domain=DOMAIN, project="gammon", version="0.1.0", fuzzy=False,
            copyright_holder="the gammon authors", language_team="gammon's translators",
            header_comment=f"# The messages of gammon in {lang} (docs/TRANSLATING.md).",
        )  # fmt: skip
    catalog.update(template, update_header_comment=False)
    return catalog


def _ids(catalog: Catalog) -> set[Any]:
    return {message.id for message in catalog if message.id}


def check() -> list[str]:
    """What is behind the code: messages missing from the template or a catalog."""
    template = extract()
    problems = []
    with TEMPLATE.open("rb") as file:
        written = read_po(file)
    if _ids(written) != _ids(template):
        problems.append(
            f"{TEMPLATE.relative_to(ROOT)} is not the code's messages: run "
            "'python scripts/i18n.py extract' and 'update'"
        )
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        with catalog_path(lang).open("rb") as file:
            catalog = read_po(file, locale=lang)
        missing = _ids(template) - _ids(catalog)
        if missing:
            problems.append(f"{lang}: {len(missing)} messages missing: run 'update'")
    return problems


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "extract":
        TEMPLATE.write_bytes(_po_text(extract(), sort_output=False))
    elif command == "update":
        template = extract()
        for lang in LANGUAGES:
            if lang != SOURCE_LANGUAGE:
                path = catalog_path(lang)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(_po_text(_merged(lang, template), ignore_obsolete=True))
    elif command == "check":
        problems = check()
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
