"""Post-game analysis over HTTP (docs/PROTOCOL.md 9): a table's analysis asked for and
read, an uploaded match, a job's state with its review, and the review's reports."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.messages import Message
from gammon.server.analysis import MAX_UPLOAD_BYTES, too_large
from gammon.server.analysis_worker import in_language
from gammon.server.ids import path_id
from gammon.server.pages import requested_language
from gammon.server.protocol import Refused

if TYPE_CHECKING:
    from gammon.server.analysis import Analyses
    from gammon.server.connections import LiveTable
    from gammon.server.edge import Edge

__all__ = ["AnalysisRoutes"]


class AnalysisRoutes:
    """The analysis endpoints, wrapped in the edge's ``handler`` (refusals as JSON errors)."""

    def __init__(self, edge: Edge, analyses: Analyses) -> None:
        self.edge = edge
        self.analyses = analyses

    def routes(self) -> list[Route]:
        handler = self.edge.handler
        return [
            Route(
                "/api/tables/{table_id}/analysis",
                handler(self.table_analysis),
                methods=["GET", "POST"],
            ),
            Route("/api/analyses", handler(self.upload), methods=["POST"]),
            Route("/api/analyses/{key:str}", handler(self.one), methods=["GET"]),
            Route(
                "/api/analyses/{key:str}/report.html", handler(self.report_html), methods=["GET"]
            ),
            Route(
                "/api/analyses/{key:str}/report.json", handler(self.report_json), methods=["GET"]
            ),
        ]

    async def _table_of(self, request: Request) -> LiveTable:
        table_id = path_id(request.path_params["table_id"], "table")
        live = await self.edge.hub.live_table(table_id)
        if live is None:
            raise Refused("no_such_table", Message("there is no table {table}", table=table_id))
        return live

    async def table_analysis(self, request: Request) -> Response:
        """GET: the table's latest analysis; POST: analyse its finished games."""
        if request.method == "GET":
            live = await self._table_of(request)
            return JSONResponse({"analysis": await self.analyses.for_table(live.table.id)})
        await self.edge.body_fields(request, {})
        user = await self.edge.current_user(request)
        if user is None:
            raise Refused(
                "not_signed_in", Message("sign in (or play as a guest) to ask for an analysis")
            )
        live = await self._table_of(request)
        job = await self.analyses.request_table(live, user)
        return JSONResponse({"analysis": job}, status_code=202)

    async def upload(self, request: Request) -> Response:
        """A match file as the body (read no further than the largest accepted)."""
        user = await self.edge.current_user(request)
        if user is None:
            raise Refused(
                "not_signed_in", Message("sign in (or play as a guest) to upload a match")
            )
        name = request.query_params.get("name", "")[:200]
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
            raise Refused("too_large", too_large())
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_UPLOAD_BYTES:
                raise Refused("too_large", too_large())
        job = await self.analyses.upload(name, bytes(raw), user)
        return JSONResponse({"analysis": job}, status_code=202)

    async def one(self, request: Request) -> Response:
        key = request.path_params["key"]
        job, headers = _spoken(await self.analyses.get(key, document=True), request)
        return JSONResponse({"analysis": job}, headers=headers)

    async def report_html(self, request: Request) -> Response:
        key = request.path_params["key"]
        text, lang = await self.analyses.html(key, requested_language(request))
        return Response(
            text,
            media_type="text/html; charset=utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="analysis-{key}.html"',
                "Content-Language": lang,
                "Vary": "Accept-Language, Cookie",
            },
        )

    async def report_json(self, request: Request) -> Response:
        key = request.path_params["key"]
        job = await self.analyses.get(key, document=True)
        if job["document"] is None:
            raise Refused("no_analysis", Message("the analysis {key} is not ready", key=repr(key)))
        job, headers = _spoken(job, request)
        return JSONResponse(
            job["document"],
            headers={
                "Content-Disposition": f'attachment; filename="analysis-{key}.json"',
                **headers,
            },
        )


def _spoken(job: dict[str, Any], request: Request) -> tuple[dict[str, Any], dict[str, str]]:
    """The job with its document's teacher's words in the request's language, and the
    headers that say so."""
    lang = requested_language(request)
    if job.get("document") is not None:
        job = {**job, "document": in_language(job["document"], lang)}
        lang = job["document"]["lang"]
    return job, {"Content-Language": lang, "Vary": "Accept-Language, Cookie"}
