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

from django.core.cache.backends.redis import RedisCache

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


class ResilientRedisCache(RedisCache):
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
