"""The HTTP and WebSocket routes of the protocol (docs/PROTOCOL.md), one module a concern.

Each module's ``*_routes`` function takes the :class:`~gammon.server.edge.Edge` (who is
asking, bodies, errors) and the services it speaks to, and returns its Starlette routes;
``gammon.server.app.create_app`` only builds the services and puts the routes together.
The routes that live beside their own logic are there instead: the analyses
(:mod:`gammon.server.analysis`), the analysis board (:mod:`~gammon.server.analysis_board`),
the pages (:mod:`~gammon.server.pages`), account settings
(:mod:`~gammon.server.user_settings`), rematches (:mod:`~gammon.server.rematch`) and quick
pairing (:mod:`~gammon.server.pairing`).
"""
