"""Discord's official OpenAPI specification as the fake's oracle.

:func:`spec` loads the vendored ``spec/openapi.json`` once. :meth:`Spec.operation`
finds the operation a request is for (method + path matched against the spec's
path templates), and :meth:`Operation.request_problems` /
:meth:`Operation.response_problems` check a JSON body against that operation's
``requestBody`` / response schema, giving Discord-style ``(field.path, CODE,
message)`` problems (see :mod:`.validation` for the limits the schema does not
encode).

The spec is OpenAPI 3.1, whose schemas are JSON Schema 2020-12; ``$ref``\\ s
(``#/components/schemas/…``) resolve inside the one spec document, registered
with :mod:`referencing`. A validator is compiled once per operation and kept.

Three deliberate departures from the schema, where Discord is documented to
be more lenient than (or different from) its own spec:

- snowflakes (``SnowflakeType``, a numeric *string* in the spec) may also be
  JSON integers: Discord coerces them, and discord.py sends some as integers;
- permission bit sets (``default_member_permissions``, ``permissions``) are
  ``integer`` in the request schemas but ``string`` in the developer docs and
  in every response; discord.py sends the string, which Discord accepts;
- a *field* error in a 400 answer (``{"_errors": [{"code": "BASE_TYPE_REQUIRED",
  …}]}``) has a string code, where the spec reuses the numeric top-level ``Error``.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

Problem = tuple[str, str, str]

SPEC_PATH = Path(__file__).with_name("spec") / "openapi.json"
SPEC_URI = "urn:discord:openapi"
METHODS = ("get", "put", "post", "patch", "delete")
#: Permission bit-set properties the docs (and responses) give as strings.
PERMISSION_FIELDS = ("default_member_permissions", "permissions")


@dataclass
class Operation:
    """One operation of the spec (``POST /channels/{channel_id}/messages`` = ``create_message``)."""

    operation_id: str
    method: str
    template: str
    pointer: str  # JSON pointer of the operation object inside the spec
    raw: dict[str, Any]
    registry: Registry = field(repr=False)
    _validators: dict[str, Draft202012Validator | None] = field(default_factory=dict, repr=False)

    @property
    def has_body(self) -> bool:
        """Whether the operation takes a request body at all."""
        return "requestBody" in self.raw

    @property
    def body_required(self) -> bool:
        """Whether the spec marks the request body required."""
        return bool(self.raw.get("requestBody", {}).get("required"))

    def _validator(self, key: str, pointer: str | None) -> Draft202012Validator | None:
        """A compiled validator for the schema at ``pointer`` (cached under ``key``)."""
        if key not in self._validators:
            self._validators[key] = None if pointer is None else Draft202012Validator(
                {"$ref": f"{SPEC_URI}#{pointer}"}, registry=self.registry)
        return self._validators[key]

    def request_validator(self) -> Draft202012Validator | None:
        """The validator of the JSON request body (multipart: of its ``payload_json``)."""
        content = self.raw.get("requestBody", {}).get("content", {})
        pointer = None
        if "application/json" in content:
            pointer = f"{self.pointer}/requestBody/content/application~1json/schema"
        return self._validator("request", pointer)

    def response_validator(self, status: int) -> Draft202012Validator | None:
        """The validator of the JSON answer with ``status`` (``"4XX"`` ranges included), if the spec has one."""
        responses = self.raw.get("responses", {})
        code = str(status) if str(status) in responses else f"{str(status)[0]}XX"
        if code not in responses:
            return None
        answer = responses[code]
        pointer = f"{self.pointer}/responses/{code}"
        if "$ref" in answer:  # a shared response, e.g. #/components/responses/ClientErrorResponse
            pointer = answer["$ref"][1:]
            answer = _resolve(self.registry, answer["$ref"])
        if "application/json" not in answer.get("content", {}):
            return self._validator(f"response {code}", None)
        return self._validator(f"response {code}", f"{pointer}/content/application~1json/schema")

    def request_problems(self, body: Any) -> list[Problem]:
        """What is wrong with a request body, by field path (empty: the spec accepts it)."""
        if body is None:
            return [("", "BASE_TYPE_REQUIRED", "This field is required")] if self.body_required else []
        validator = self.request_validator()
        return [] if validator is None else problems_of(validator, body)

    def response_problems(self, status: int, body: Any) -> list[Problem]:
        """What is wrong with an answer the fake gave, against the spec's response schema."""
        validator = self.response_validator(status)
        if validator is None or body is None:
            return []
        return problems_of(validator, body)


class Spec:
    """The loaded specification: operations by method and path."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.version: str = document.get("openapi", "")
        if not self.version.startswith("3.1"):
            # 3.0 schemas are not JSON Schema 2020-12 (nullable, exclusiveMaximum…): refuse rather than mis-validate.
            raise ValueError(f"expected an OpenAPI 3.1 document, got {self.version!r}")
        resource = Resource.from_contents(_coerced(document), default_specification=DRAFT202012)
        self.registry: Registry = Registry().with_resource(SPEC_URI, resource).crawl()
        self._routes: dict[tuple[str, int], list[tuple[int, re.Pattern[str], Operation]]] = {}
        self.operations: dict[str, Operation] = {}
        for template, item in document.get("paths", {}).items():
            for method in METHODS:
                if method not in item:
                    continue
                op = Operation(item[method].get("operationId", f"{method} {template}"), method.upper(), template,
                               f"/paths/{_escape(template)}/{method}", item[method], self.registry)
                self.operations[op.operation_id] = op
                segments = template.strip("/").split("/")
                regex = re.compile("^/" + "/".join(
                    "[^/]+" if re.fullmatch(r"\{\w+\}", s) else re.escape(s) for s in segments) + "$")
                literal = sum(1 for s in segments if not s.startswith("{"))
                self._routes.setdefault((op.method, len(segments)), []).append((literal, regex, op))
        for routes in self._routes.values():
            routes.sort(key=lambda r: -r[0])  # "@original" before "{message_id}"

    def operation(self, method: str, path: str) -> Operation | None:
        """The operation for ``METHOD /path`` (literal segments win over parameters), or None."""
        path = path.split("?", 1)[0]
        for _, regex, op in self._routes.get((method.upper(), len(path.strip("/").split("/"))), []):
            if regex.match(path):
                return op
        return None


@functools.lru_cache(maxsize=4)
def spec(path: Path = SPEC_PATH) -> Spec:
    """The vendored spec, loaded and indexed once per process."""
    return Spec(json.loads(path.read_text(encoding="utf-8")))


# --------------------------------------------------------------------------- errors → Discord's field paths


#: jsonschema keyword → Discord's error code (as in real 50035 answers).
_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "required": "BASE_TYPE_REQUIRED",
    "type": "BASE_TYPE_BAD_TYPE",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "pattern": "STRING_TYPE_REGEX",
    "maxProperties": "BASE_TYPE_MAX_LENGTH",
}


def problems_of(validator: Draft202012Validator, instance: Any) -> list[Problem]:
    """Every schema error of ``instance`` as a ``(dotted.path, CODE, message)``, most specific first."""
    out: list[Problem] = []
    for error in validator.iter_errors(instance):
        for leaf in _leaves(error):
            out.append(_problem(leaf))
    return sorted(set(out))


def _leaves(error: ValidationError) -> Iterable[ValidationError]:
    """The errors worth reporting under a oneOf/anyOf: those of the branch(es) the value was meant for.

    A branch is ruled out when the value is of the wrong JSON type for it or
    its discriminating ``type`` property does not match (an embed footer is
    not ``null``; a button is not an action row).
    """
    if not error.context:
        yield error
        return
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    meant = [errs for errs in branches.values() if not any(_rules_out(e) for e in errs)]
    if not meant:
        yield error
        return
    # The branch closest to valid: fewest errors once its own unions are resolved.
    leaves = [[leaf for sub in errs for leaf in _leaves(sub)] for errs in meant]
    yield from min(leaves, key=len)


def _rules_out(error: ValidationError) -> bool:
    path = list(error.relative_path)
    if not path and error.validator in ("type", "enum", "const"):
        return True
    return path == ["type"] and error.validator in ("enum", "const")


def _problem(error: ValidationError) -> Problem:
    path = [str(p) for p in error.absolute_path]
    kind = str(error.validator)
    code = _CODES.get(kind, "BASE_TYPE_INVALID")
    value = error.validator_value
    if kind == "required" and isinstance(error.instance, dict):
        missing = [name for name in value if name not in error.instance]
        path.append(missing[0] if missing else "?")
        message = "This field is required"
    elif kind in ("maxLength", "maxItems", "maxProperties"):
        message = f"Must be {value} or fewer in length."
    elif kind in ("minLength", "minItems"):
        message = f"Must be {value} or more in length."
    elif kind == "maximum":
        message = f"int value should be less than or equal to {value}."
    elif kind == "minimum":
        message = f"int value should be greater than or equal to {value}."
    elif kind in ("enum", "const"):
        message = f"Value must be one of {value!r}."
    else:
        message = error.message if len(error.message) < 200 else error.message[:197] + "..."
    return ".".join(path), code, message


# --------------------------------------------------------------------------- the documented leniencies


def _coerced(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of the spec where snowflakes may be integers and permission sets strings (see module doc),
    and unions are ``anyOf``.

    Every union in the spec is discriminated (by JSON type, or by a ``type``
    property with one value per member), so at most one member can match and
    ``anyOf`` accepts and refuses exactly what ``oneOf`` does — but it stops
    at the first member that fits instead of trying all of them.
    """
    doc = _any_of(copy.deepcopy(document))
    schemas = doc.get("components", {}).get("schemas", {})
    if "SnowflakeType" in schemas:
        snowflake = schemas["SnowflakeType"]
        schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    if "InnerErrors" in schemas:
        # A field error's code is a string ("BASE_TYPE_REQUIRED"), unlike a top-level error's number.
        inner = schemas["InnerErrors"]["properties"]["_errors"]
        inner["items"] = {"type": "object", "required": ["code", "message"],
                          "properties": {"code": {"type": ["string", "integer"]}, "message": {"type": "string"}}}
    for schema in schemas.values():
        props = schema.get("properties") or {}
        for name in PERMISSION_FIELDS:
            prop = props.get(name)
            if isinstance(prop, dict) and "integer" in _types(prop):
                props[name] = {"anyOf": [prop, {"type": "string", "pattern": "^[0-9]+$"}]}
    return doc


def _any_of(node: Any) -> Any:
    """``oneOf`` → ``anyOf`` throughout (see :func:`_coerced`)."""
    if isinstance(node, dict):
        if "oneOf" in node and "anyOf" not in node:
            node["anyOf"] = node.pop("oneOf")
        for value in node.values():
            _any_of(value)
    elif isinstance(node, list):
        for value in node:
            _any_of(value)
    return node


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type", [])
    return [kind] if isinstance(kind, str) else list(kind)


def _escape(token: str) -> str:
    """JSON-pointer escaping of one reference token."""
    return token.replace("~", "~0").replace("/", "~1")


def _resolve(registry: Registry, ref: str) -> dict[str, Any]:
    resolved = registry.resolver(SPEC_URI).lookup(ref)
    contents = resolved.contents
    assert isinstance(contents, dict)
    return contents
