"""Bounds on what one client can send: request size and request rate (plain ASGI middleware).

A body over ``max_body`` bytes is refused with 413 whether or not it says its length (a chunked
upload is counted as it arrives). Requests are limited per client address with a token bucket
(``rate`` a second, bursts of ``burst``); past it, 429 with ``Retry-After``. The live streams
count once, when they open. Not per token too: a client could then make itself a fresh bucket
with every request by sending a new made-up token (or query string).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

Scope = dict[str, Any]
Receive = Any
Send = Any
App = Any


async def _refuse(send: Send, status: int, detail: str, headers: list[tuple[bytes, bytes]]) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """413 for a request body over ``max_body`` bytes."""

    def __init__(self, app: App, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        detail = f"the request is over {self.max_body:,} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_body:
                await _refuse(send, 413, detail, [])
                return
        if scope.get("method") not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        # Read the body first (it is bounded), so an oversized chunked upload is refused whole
        # before the app sees any of it.
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_body:
                await _refuse(send, 413, detail, [])
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Any:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class RateLimit:
    """429 past ``rate`` requests a second (bursts of ``burst``) per client address."""

    def __init__(self, app: App, rate: float, burst: int) -> None:
        self.app = app
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _take(self, key: str) -> float:
        """0 if a request may pass now, else the seconds until one may."""
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                if len(self._buckets) > 10_000:  # forget idle clients (bounded memory)
                    self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.rate <= 0:
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        wait = self._take(str(client))
        if wait > 0:
            await _refuse(
                send,
                429,
                f"too many requests: at most {self.rate:g} a second",
                [(b"retry-after", str(max(1, round(wait))).encode())],
            )
            return
        await self.app(scope, receive, send)
