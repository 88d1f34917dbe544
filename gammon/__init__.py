"""gammon: backgammon rules, engine and play server."""
