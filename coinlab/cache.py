"""A Redis cache that degrades to a miss when Redis is away (docs/operations.md).

Redis holds nothing CoinLab cannot lose (ARCHITECTURE.md): the Celery queue,
task results, caches and rate-limit counters. So when Redis stops, the web
processes go on serving from PostgreSQL: reads are misses, writes are dropped,
``add`` reports success and ``incr`` counts from 1 (rate limits are then
per-request, i.e. off, until Redis returns). A warning is logged at most once a
minute per process. Timeouts are short so a dead Redis costs milliseconds.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger("coinlab.cache")

try:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
except ImportError:  # pragma: no cover - redis is a dependency
    REDIS_DOWN = (OSError,)

_last_warning = 0.0


def _warn(op: str, exc: Exception) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning > 60:
        _last_warning = now
        log.warning("Redis cache unreachable (%s: %s: %s); serving without the cache", op, type(exc).__name__, exc)


class OneClientPerPool(RedisCacheClient):
    """Django's client builds a new ``redis.Redis`` object for every cache call, and redis-py's
    constructor fills a table of about 170 response callbacks each time: 0.2 ms of CPU per call,
    two thirds of a 304 poll's whole cost (benchmarks/load/cost.py, 2026-11-26). A ``redis.Redis``
    is only a handle on its connection pool (thread-safe; each command checks a connection
    out), so one per pool does the same work."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None or client.connection_pool is not pool:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = OneClientPerPool

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except REDIS_DOWN as exc:
            _warn("get", exc)
            return default

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except REDIS_DOWN as exc:
            _warn("get_many", exc)
            return {}

    def set(self, key, value, timeout=None, version=None):
        try:
            return super().set(key, value, timeout, version)
        except REDIS_DOWN as exc:
            _warn("set", exc)

    def set_many(self, data, timeout=None, version=None):
        try:
            return super().set_many(data, timeout, version)
        except REDIS_DOWN as exc:
            _warn("set_many", exc)
            return list(data)

    def add(self, key, value, timeout=None, version=None):
        try:
            return super().add(key, value, timeout, version)
        except REDIS_DOWN as exc:
            _warn("add", exc)
            return True

    def incr(self, key, delta=1, version=None):
        try:
            return super().incr(key, delta, version)
        except REDIS_DOWN as exc:
            _warn("incr", exc)
            return delta

    def touch(self, key, timeout=None, version=None):
        try:
            return super().touch(key, timeout, version)
        except REDIS_DOWN as exc:
            _warn("touch", exc)
            return False

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except REDIS_DOWN as exc:
            _warn("has_key", exc)
            return False

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except REDIS_DOWN as exc:
            _warn("delete", exc)
            return False

    def delete_many(self, keys, version=None):
        try:
            return super().delete_many(keys, version)
        except REDIS_DOWN as exc:
            _warn("delete_many", exc)

    def clear(self):
        try:
            return super().clear()
        except REDIS_DOWN as exc:
            _warn("clear", exc)
