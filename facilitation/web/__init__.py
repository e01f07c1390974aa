"""CoinLab web front end: instructor pages, team play page, live updates, replay."""
