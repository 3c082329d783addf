"""``firefight serve``: the web tracker on uvicorn; uvicorn is imported here only."""

from __future__ import annotations

import gc
from pathlib import Path
from types import FrameType

from firefight.errors import InputError

#: The repository's example scenarios, beside the package in a source checkout.
BUNDLED_EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def serve(db: str | None, host: str, port: int, examples: Path | None) -> None:
    import uvicorn

    from firefight.web.api import create_app
    from firefight.web.store import Store, database_url

    if examples is not None and not examples.is_dir():
        raise InputError(f"--examples {examples} is not a folder", tip="give the examples folder")
    store = Store(database_url(db))
    app = create_app(store, examples=examples or BUNDLED_EXAMPLES)
    # The web libraries leave ~67k long-lived objects; frozen, the collector stops re-walking them
    # on every full collection (~40-60 ms each, every few steps as previews are kept).
    gc.freeze()
    print(f"firefight tracker on http://{host}:{port}/  (database {store.url}; Ctrl-C stops)")
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
