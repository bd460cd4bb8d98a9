"""Static files: WhiteNoise's compressed, hashed files, forgiving where a page is concerned."""

from __future__ import annotations

import logging

from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

log = logging.getLogger(__name__)


class StaticStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # untyped
    """If a file was never collected (collectstatic not run after a change), link it by its
    plain name instead of failing: a page, an error page above all, must still render."""

    def url(self, name: str | None, force: bool = False) -> str:
        try:
            return str(super().url(name, force))
        except ValueError:
            log.warning("static file %s is not collected: run manage.py collectstatic", name)
            return FileSystemStorage.url(self, name)
