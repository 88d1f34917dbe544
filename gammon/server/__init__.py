"""The play server (R13): tables, games and chat over WebSockets, with provably fair dice."""
