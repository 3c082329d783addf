"""``firefight serve``: the web tracker on uvicorn; uvicorn is imported here only."""

from __future__ import annotations

import errno
import gc
import socket
from pathlib import Path
from types import FrameType

from firefight.errors import InputError

#: The repository's example scenarios, beside the package in a source checkout.
BUNDLED_EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def serve(
    db: str | None,
    host: str,
    port: int,
    examples: Path | None,
    budget: float | None = None,
    ceiling: float | None = None,
) -> None:
    import uvicorn

    from firefight.analysis.choices import BUDGET, CEILING
    from firefight.cli.encounter_commands import seconds
    from firefight.web.api import create_app
    from firefight.web.store import Store, database_url

    if examples is not None and not examples.is_dir():
        raise InputError(f"--examples {examples} is not a folder", tip="give the examples folder")
    odds_budget = seconds(budget, "--budget", BUDGET, low=0.001)
    odds_ceiling = seconds(ceiling, "--ceiling", CEILING, low=0.0)
    _check_address(host, port)
    store = Store(database_url(db))
    app = create_app(
        store, examples=examples or BUNDLED_EXAMPLES, budget=odds_budget, ceiling=odds_ceiling
    )
    # The web libraries leave ~67k long-lived objects; frozen, the collector stops re-walking them
    # on every full collection (~40-60 ms each, every few steps as previews are kept).
    gc.freeze()
    print(f"firefight tracker on http://{host}:{port}/  (database {store.shown}; Ctrl-C stops)")
    tracker = app.state.tracker

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            tracker.close_watchers()  # live streams end, so shutdown need not wait for them
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5
    )
    try:
        Server(config).run()
    finally:
        store.close()


def _check_address(host: str, port: int) -> None:
    """Refuse an address the server could not listen on, in one line and before the database is
    opened (uvicorn would print its own error after the banner and exit 1)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as err:
        raise InputError(
            f"--host {host!r} is not an address to listen on ({err.strerror})",
            tip="give an address of this machine, e.g. 127.0.0.1, or 0.0.0.0 for every one",
        ) from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise InputError(
                    f"--port {port}: {host}:{port} is already in use",
                    tip="choose another --port, or stop the program that uses this one",
                ) from None
            raise InputError(
                f"--host {host!r}: cannot listen on {host}:{port} ({err.strerror})",
                tip="give an address of this machine, e.g. 127.0.0.1, or 0.0.0.0 for every one",
            ) from None
