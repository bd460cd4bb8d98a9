"""The API's answers as ``/api/docs`` describes them: every body declared, with examples, and
every recorded answer exactly what its route's declared schema says (no key more or less, in
the same order)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from pydantic import TypeAdapter

from scorekeeper.api import schemas
from scorekeeper.api.endpoints import api
from scorekeeper.api.schemas import ERROR_EXAMPLES, ErrorOut

from .api_answers import FIXTURES

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    return api.get_openapi_schema()


def resolved(schema: dict[str, Any], openapi: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = openapi["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def body_schemas(openapi: dict[str, Any]):
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                yield f"{method.upper()} {path} {status}", response


def test_the_openapi_description_is_served_with_the_answers(client):
    served = client.get("/api/openapi.json").json()
    turn = served["paths"]["/api/games/{game_id}/turns/"]["post"]["responses"]["201"]
    assert turn["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/TurnAnswer"
    }


def test_every_answer_with_a_body_declares_its_schema(openapi):
    for where, response in body_schemas(openapi):
        if where.endswith((" 308", " 204")):  # a redirect, or nothing to say: no body
            assert "content" not in response, where
            continue
        schema = response["content"]["application/json"]["schema"]
        assert schema, where
        shown = resolved(schema, openapi)
        if shown.get("type") == "array":
            shown = resolved(shown["items"], openapi)
        # An object with its fields named, never a bare ``{}`` or ``object``.
        assert shown.get("type") == "object" and shown.get("properties"), where
        if "$ref" in schema:  # an object: shown with its example, in its keys' order
            name = schema["$ref"].rsplit("/", 1)[-1]
            example = response["content"]["application/json"]["example"]
            TypeAdapter(getattr(schemas, name)).validate_python(example, strict=True)
            assert list(example) == [key for key in shown["properties"] if key in example], where


def test_every_answer_schema_carries_examples_and_a_description(openapi):
    named = {
        ref.rsplit("/", 1)[-1]
        for _, response in body_schemas(openapi)
        for ref in re.findall(r'"\$ref": "([^"]+)"', json.dumps(response))
    }
    assert {"GameOut", "NewGameOut", "TurnAnswer", "LogPage", "AnalysisOut", "ImportOut"} <= named
    assert {"RulesetOut", "LexiconOut", "ErrorOut"} <= named
    for name in named:
        schema = openapi["components"]["schemas"][name]
        assert schema.get("examples"), name
        assert schema.get("description"), name
    # The nested ones too: a player, a turn, a play, a refused play's violations.
    for name in ["PlayerOut", "TurnOut", "PlayOut", "ViolationOut", "ChangeOut", "ErrorBody"]:
        assert openapi["components"]["schemas"][name].get("examples"), name


def test_each_schema_s_examples_are_answers_of_that_schema(openapi):
    for name, schema in openapi["components"]["schemas"].items():
        if not name.endswith(("Out", "Answer", "Page", "Body")):
            continue  # what a request sends
        adapter = TypeAdapter(getattr(schemas, name))
        for example in schema["examples"]:
            adapter.validate_python(example, strict=True)


def test_each_refusal_is_shown_with_an_example_of_its_own_status(openapi):
    errors = TypeAdapter(ErrorOut)
    for where, response in body_schemas(openapi):
        status = int(where.rsplit(" ", 1)[-1])
        if status < 400:
            continue
        example = response["content"]["application/json"]["example"]
        errors.validate_python(example, strict=True)
        assert example == ERROR_EXAMPLES[status], where
    codes = [example["error"]["code"] for example in ERROR_EXAMPLES.values()]
    assert len(set(codes)) == len(codes)


def declared_schema(method: str, path: str, status: int) -> Any:
    """The type a route declares for an answer with this status."""
    path = path.split("?")[0].removeprefix("/api")
    for _, router in api._routers:
        for route, path_view in router.path_operations.items():
            if not re.fullmatch(re.sub(r"\{\w+\}", "[^/]+", route), path):
                continue
            operations = [o for o in path_view.operations if method in o.methods]
            # A method the address doesn't take (405): any of its routes declares it.
            operation = (operations or path_view.operations)[0]
            assert status in operation.response_models, f"{method} {route} doesn't declare {status}"
            return operation.response_models[status].model_fields["response"].annotation
    assert status == 404, f"{method} {path} {status}: no route"  # an unknown address
    return ErrorOut


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_every_recorded_answer_is_exactly_its_declared_schema(database):
    recorded = json.loads((FIXTURES / f"api_answers.{database}.json").read_text())
    checked = 0
    for entry in recorded:
        if not entry["body"]:  # a redirect
            assert entry["status"] in (301, 308), entry["name"]
            continue
        declared = declared_schema(entry["method"], entry["path"], entry["status"])
        adapter = TypeAdapter(declared)
        value = adapter.validate_python(json.loads(entry["body"]), strict=True)
        # Dumped again, the same bytes: every key declared, in the declared order.
        assert json.dumps(adapter.dump_python(value)) == entry["body"], entry["name"]
        checked += 1
    assert checked > 80
