"""Alembic's scripts for the server's database (run them with :mod:`gammon.server.migrate`)."""
