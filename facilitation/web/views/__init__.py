"""Page views of the web front end (thin: selectors to read, services to write)."""
