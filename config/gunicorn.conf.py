"""gunicorn settings (make serve). Override with GUNICORN_CMD_ARGS or the env vars below.

The app is served as ASGI by uvicorn's worker (the uvicorn-worker package): a screen's open
stream of changes (scorekeeper.live) waits in the worker's event loop, not in a thread, so a
worker holds thousands; the pages and the API run as ever, each request in a thread of the
worker. WORKER_CLASS=gthread serves WSGI instead (no streams: every page polls).
"""

import os

_SHARE_PARTS = False  # whether the workers share their live parts in a folder made here
_PARTS_MADE = ""  # that folder (on_starting), removed on exit

bind = os.environ.get("BIND", "127.0.0.1:8000")
# Two workers a core, since a worker runs Python one thread at a time and its turns would wait
# for its own streams' work (docs/performance.md).
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * (os.cpu_count() or 1))
worker_class = os.environ.get("WORKER_CLASS", "config.workers.Worker")  # uvicorn's (ASGI)
if worker_class == "gthread":
    wsgi_app = "config.wsgi:application"
    # Threads overlap the database round trips of one worker's requests.
    threads = int(os.environ.get("THREADS", "4"))
    # A stream would hold one of the few threads: none here, the pages poll.
    os.environ.setdefault("PUSH_THREAD_STREAMS", "0")
else:
    wsgi_app = "config.asgi:application"
    # Without Redis the workers hear of each other's changes through the database, and share
    # the spectator's live part, drawn once per change, in a folder of their own (on_starting).
    if not os.environ.get("REDIS_URL") and workers > 1:
        os.environ.setdefault("PUSH_WATCH_SECONDS", "0.5")
        _SHARE_PARTS = not os.environ.get("LIVE_PARTS_DIR")
timeout = 30
# A worker told to stop finishes its requests and ends its screens' streams within this many
# seconds (config.workers.Worker), then exits.
graceful_timeout = 10
# Replaced rarely, since each replacement sends a worker's thousands of screens reconnecting.
max_requests = int(os.environ.get("MAX_REQUESTS", "100000"))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("ACCESS_LOG") or None
# Scorer links carry their game's secret: every gunicorn log line is masked (config.logs),
# uvicorn's access log included (the worker writes it through gunicorn's access log).
logger_class = "config.logs.GunicornLogger"
# No control socket: nothing here uses it, and its fixed path would be shared by every
# gunicorn on the machine (tests, the benchmark, make serve).
control_socket_disable = True


# Full collections come rarely, since one walks every open stream's objects and stalls the
# worker meanwhile (docs/performance.md); a request's young objects still go at once.
GC_THRESHOLD = os.environ.get("GC_THRESHOLD", "1000,20,1000")


def post_worker_init(worker: object) -> None:
    """The app is loaded (modules, settings, URLs, templates): what it holds for the worker's
    life is moved out of the garbage collector's way (``gc.freeze``, so no full collection
    walks it), and the collector's thresholds set (``GC_THRESHOLD``)."""
    import gc

    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - loaded now, not by the first request
    gc.collect()
    gc.freeze()
    gc.set_threshold(*(int(n) for n in GC_THRESHOLD.split(",")))


# The rows of the workers' shared counts of open connections by client (config.clients):
# one a worker, with room for a restart's new workers beside the old.
_CLIENT_ROWS = 2 * workers + 2
_rows_free = list(range(_CLIENT_ROWS))


def pre_fork(server: object, worker: object) -> None:
    """The worker about to be forked gets a row of the shared counts of its own."""
    from config import clients

    clients.shared(_CLIENT_ROWS)
    worker.client_row = _rows_free.pop(0) if _rows_free else 0  # type: ignore[attr-defined]


def child_exit(server: object, worker: object) -> None:
    """What an exited worker counted goes with it (its connections are closed)."""
    from config import clients

    row = getattr(worker, "client_row", None)
    if row is not None and clients.table is not None:
        clients.table.clear(row)
        if row not in _rows_free:
            _rows_free.append(row)


def _more_descriptors() -> None:
    """The workers may hold as many files as the system lets this user (the soft limit raised
    to the hard one): each open screen is a connection, and so a descriptor."""
    import contextlib
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def on_starting(server: object) -> None:
    """The workers' live parts folder, when they share one: made by the master (named by its
    process id; readable by this user only) before it starts them, which inherit its path
    (LIVE_PARTS_DIR). The folders of this user's servers that are gone without removing
    theirs (killed outright: on_exit never ran) are removed first.

    A LIVE_PARTS_DIR given that others could put files in (config.private_folder) is refused,
    and said so: the workers then share no parts (each draws its own) rather than read what
    another user planted there into spectators' pages."""
    global _PARTS_MADE
    _more_descriptors()
    given = os.environ.get("LIVE_PARTS_DIR")
    if given:
        from config.private_folder import refusal

        reason = refusal(given)
        if reason is not None:
            server.log.error(  # type: ignore[attr-defined]
                "LIVE_PARTS_DIR %s is refused: %s. The workers share no live parts (each "
                "draws its own) until it is fixed.",
                given,
                reason,
            )
            del os.environ["LIVE_PARTS_DIR"]
    if not _SHARE_PARTS:
        return
    import shutil
    import tempfile
    from pathlib import Path

    for folder in Path(tempfile.gettempdir()).glob("live-parts-*-*"):
        pid = folder.name.split("-")[2]
        try:
            mine = folder.is_dir() and folder.stat().st_uid == os.getuid()
        except OSError:
            continue
        if mine and pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)
    try:
        made = tempfile.mkdtemp(prefix=f"live-parts-{os.getpid()}-")
    except OSError as error:  # no room for it: each worker draws its own parts
        server.log.warning("No folder for the workers' live parts (%s): not shared.", error)  # type: ignore[attr-defined]
        return
    os.environ["LIVE_PARTS_DIR"] = _PARTS_MADE = made


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def on_exit(server: object) -> None:
    """The live parts' folder made for this server goes with it."""
    if _PARTS_MADE:
        import shutil

        shutil.rmtree(_PARTS_MADE, ignore_errors=True)
