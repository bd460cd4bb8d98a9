"""gunicorn settings (make serve). Override with GUNICORN_CMD_ARGS or the env vars below."""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads overlap the database round trips of one worker's requests and keep connections alive.
worker_class = "gthread"
threads = int(os.environ.get("THREADS", "4"))
timeout = 30
graceful_timeout = 10
max_requests = 5000
max_requests_jitter = 500
accesslog = os.environ.get("ACCESS_LOG") or None
# Scorer links carry their game's secret: every gunicorn log line is masked (config.logs).
logger_class = "config.logs.GunicornLogger"
wsgi_app = "config.wsgi:application"
# No control socket: nothing here uses it, and its fixed path would be shared by every
# gunicorn on the machine (tests, the benchmark, make serve).
control_socket_disable = True
