"""gunicorn's worker for the ASGI application (config/gunicorn.conf.py)."""

from typing import Any

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):  # type: ignore[misc]  # uvicorn_worker has no types
    """uvicorn's gunicorn worker, stopping within gunicorn's ``graceful_timeout``. A worker
    that stops (replaced after ``max_requests``, or in a restart) finishes its requests; but
    uvicorn's own waits for every open connection to end, and a screen's stream doesn't: it
    waited until the master killed it for its silence (``timeout``, 30 s, logged as a worker
    timeout), its screens held meanwhile. This one waits ``graceful_timeout`` seconds at
    most, then ends the streams (their screens open them again elsewhere, each after a wait
    of its own, and catch up from their ``Last-Event-ID``) and exits by itself."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout
