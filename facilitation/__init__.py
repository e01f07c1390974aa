"""The CoinLab Django app: courses, class sessions, teams, seats, the event log,
services (use cases), selectors (reads), the REST API and Celery tasks."""
