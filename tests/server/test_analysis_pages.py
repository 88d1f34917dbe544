"""A review's HTML pages in the other languages are rows of their own (migration 0009): the
document a review page loads stays small, and each page is read only when asked for."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select

from gammon.server import migrate
from gammon.server.analysis_rows import review_page, save_review
from gammon.server.db import AnalysisPageRow, AnalysisRow, Database


def test_a_review_s_pages_are_rows_of_their_own(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'pages.db'}")
    try:
        migrate.upgrade(db)
        with db.session() as session:
            session.add(AnalysisRow(key="k1", source="mat", ply=0, status="running", created=0.0))
            session.commit()
            assert review_page(session, "k1", "fi") is None  # not done yet
            words = {"fi": {"lang": "fi", "explanations": []}}
            document = {"lang": "en", "explanations": [], "languages": words}
            pages = {"fi": "<p>suomeksi</p>", "nl": "<p>in het Nederlands</p>"}
            save_review(session, "k1", document, "<p>English</p>", pages)
            session.commit()
            assert review_page(session, "k1", "fi") == ("<p>suomeksi</p>", "fi")
            assert review_page(session, "k1", "nl") == ("<p>in het Nederlands</p>", "nl")
            assert review_page(session, "k1", "sv") == ("<p>English</p>", "en")  # none in Swedish
            assert review_page(session, "k1", "en") == ("<p>English</p>", "en")
            assert review_page(session, "nothing", "fi") is None
            row = session.scalars(select(AnalysisRow).where(AnalysisRow.key == "k1")).one()
            assert "<p>" not in json.dumps(row.document)  # the document carries no page
            # Saved again (a job run a second time): one page a language, the new one.
            save_review(session, "k1", document, "<p>English</p>", {"fi": "<p>toinen</p>"})
            session.commit()
            assert review_page(session, "k1", "fi") == ("<p>toinen</p>", "fi")
            assert review_page(session, "k1", "nl") == ("<p>English</p>", "en")
            assert len(session.scalars(select(AnalysisPageRow)).all()) == 1
    finally:
        db.dispose()
