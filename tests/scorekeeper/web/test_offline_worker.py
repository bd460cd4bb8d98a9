"""The scorer page's service worker (``/sw.js``, scorekeeper.web.offline) and the copy of the
page it keeps; what it does in the browser is in tests/browser/test_offline.py."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper.web import offline
from tests.factories import scorer, start, turn

pytestmark = pytest.mark.django_db


def test_the_worker_is_served_from_the_top_so_its_scope_covers_the_scorer_pages(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"  # a deploy's new worker is found at once
    assert "script-src 'self'" in response["Content-Security-Policy"]
    body = response.content.decode()
    scorer_pattern = json.loads(re.search(r"const SCORER = new RegExp\((.*)\);", body)[1])
    assert re.match(scorer_pattern, "/games/0b1e4a46-5f41-4d4e-9f3a-0c2b7d8e9f10/score/")
    for not_kept in ("/games/0b1e4a46-5f41-4d4e-9f3a-0c2b7d8e9f10/score/secret/",
                     "/games/0b1e4a46-5f41-4d4e-9f3a-0c2b7d8e9f10/score/turn",
                     "/games/0b1e4a46-5f41-4d4e-9f3a-0c2b7d8e9f10/events"):  # fmt: skip
        assert not re.match(scorer_pattern, not_kept)
    assert 'const FORGET_ON = ["/accounts/login/", "/accounts/logout/", "/admin/logout/"];' in body
    assert "{{" not in body and "{%" not in body


def test_the_worker_s_caches_are_named_after_the_deploy_s_static_files(client, monkeypatch):
    class Deployed:
        manifest_hash = "3f2a9c"

    assert 'const VERSION = "dev";' in client.get("/sw.js").content.decode()
    monkeypatch.setattr(offline, "staticfiles_storage", Deployed())
    assert 'const VERSION = "3f2a9c";' in client.get("/sw.js").content.decode()


def test_the_worker_is_only_read(client):
    assert client.post("/sw.js").status_code == 405


def test_the_kept_copy_leaves_the_turn_s_sentence_for_the_page(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOD")
    copy = client.get(scorer(game), headers={offline.COPY_HEADER: "offline"})
    assert copy.status_code == 200
    said = '<li class="message success">Ann played 5D MOOD'
    assert said not in copy.content.decode()
    assert said in client.get(scorer(game)).content.decode()


def test_the_kept_copy_leaves_a_refusal_for_the_page(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOX")
    copy = client.get(scorer(game), headers={offline.COPY_HEADER: "offline"}).content.decode()
    assert "Not entered." not in copy and 'value="5D MOOX"' not in copy
    page = client.get(scorer(game)).content.decode()
    assert "Not entered." in page and 'value="5D MOOX"' in page


def test_no_copy_for_a_browser_without_the_scorer_s_secret(client):
    game = start(client)
    client.cookies.clear()
    assert client.get(scorer(game), headers={offline.COPY_HEADER: "offline"}).status_code == 403


def test_the_web_app_manifest_installs_the_site_with_maskable_icons(client):
    from django.contrib.staticfiles import finders
    from PIL import Image

    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == manifest["scope"] == "/"  # the home page: "your games"
    assert manifest["display"] == "standalone" and manifest["name"] == "Scorekeeper"
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert set(icons) == {(s, p) for s in ("192x192", "512x512") for p in ("any", "maskable")}
    for (sizes, _), icon in icons.items():
        assert icon["type"] == "image/png" and icon["src"].startswith("/static/icons/")
        found = finders.find(icon["src"].removeprefix("/static/"))
        assert found is not None, icon["src"]
        with Image.open(found) as image:
            assert image.format == "PNG" and "x".join(map(str, image.size)) == sizes


def test_every_page_links_the_manifest_its_policy_lets_load(client):
    game = start(client)
    for page in ("/", scorer(game)):
        response = client.get(page)
        assert '<link rel="manifest" href="/manifest.webmanifest">' in response.content.decode()
        # No manifest-src of its own: default-src 'self' lets the browser load it.
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "manifest-src" not in policy
