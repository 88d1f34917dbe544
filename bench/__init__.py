"""Measurement scripts: each prints its figures next to a baseline run in the same process."""
