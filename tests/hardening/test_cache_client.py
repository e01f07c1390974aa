"""coinlab.cache: one redis-py client per connection pool (issue #8: Django builds a new client,
with its ~170 response callbacks, for every cache call), still resilient when Redis is away."""

from __future__ import annotations

import os
import socket
import uuid

from coinlab.cache import OneClientPerPool, ResilientRedisCache

REDIS_URL = os.environ.get("REDIS_URL", "")


def _cache(location: str) -> ResilientRedisCache:
    return ResilientRedisCache(location, {"KEY_PREFIX": f"t{uuid.uuid4().hex[:8]}",
                                          "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}})


def test_one_client_per_pool_serves_every_call():
    assert REDIS_URL.startswith("redis://"), "scripts/test sets REDIS_URL to the test Redis"
    cache = _cache(REDIS_URL)
    assert isinstance(cache._cache, OneClientPerPool)
    first = cache._cache.get_client("k")
    assert cache._cache.get_client("k2", write=True) is first  # one server: one pool, one client
    cache.set("a", {"x": 1}, 30)
    cache.set_many({"b": 2, "c": [3]}, 30)
    assert cache.get("a") == {"x": 1}
    assert cache.get_many(["a", "b", "c", "missing"]) == {"a": {"x": 1}, "b": 2, "c": [3]}
    assert cache.add("a", 5, 30) is False and cache.incr("b") == 3
    cache.delete("a")
    assert cache.get("a", "gone") == "gone"
    assert cache._cache.get_client() is first


def test_a_dead_redis_is_still_a_miss_not_an_error():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cache = _cache(f"redis://127.0.0.1:{port}/0")
    assert cache.get("a", "default") == "default"
    assert cache.get_many(["a"]) == {}
    assert cache.add("a", 1, 30) is True
    assert cache.incr("n") == 1
    assert cache._cache.get_client() is cache._cache.get_client()
