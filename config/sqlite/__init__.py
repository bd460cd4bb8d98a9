"""Django's SQLite backend, whose writers queue for the write lock instead of sleeping for it
(``config.sqlite.base``). Settings name it as the ENGINE for a SQLite database."""
