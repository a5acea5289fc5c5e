"""Cheap versions of Discord's own checks, so a bot that would be refused by
Discord is refused by the fake too (400 with Discord's error JSON).

Each checker returns a list of ``(field.path, CODE, message)`` problems; the
REST layer turns a non-empty list into ``400 50035 Invalid Form Body``.
"""

from __future__ import annotations

import re
from typing import Any

from .models import FLAG_COMPONENTS_V2, walk_components

Problems = list[tuple[str, str, str]]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_V2_COMPONENTS = 40
MAX_FILES = 10
MAX_CHOICES = 25
THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
COMMAND_NAME = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")


def _too_long(path: str, limit: int) -> tuple[str, str, str]:
    return (path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def check_embeds(embeds: Any) -> Problems:
    """≤ 10 embeds, per-field limits, ≤ 6000 characters in all."""
    problems: Problems = []
    if embeds is None:
        return problems
    if not isinstance(embeds, list):
        return [("embeds", "LIST_TYPE_CONVERT", "Must be an array.")]
    if len(embeds) > MAX_EMBEDS:
        problems.append(_too_long("embeds", MAX_EMBEDS))
    total = 0
    limits = {"title": 256, "description": 4096}
    for i, embed in enumerate(embeds):
        for key, limit in limits.items():
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                problems.append(_too_long(f"embeds.{i}.{key}", limit))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(_too_long(f"embeds.{i}.fields", 25))
        for j, fld in enumerate(fields):
            name, value = fld.get("name") or "", fld.get("value") or ""
            total += len(name) + len(value)
            if not name or len(name) > 256:
                problems.append((f"embeds.{i}.fields.{j}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 256 in length."))
            if not value or len(value) > 1024:
                problems.append((f"embeds.{i}.fields.{j}.value", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 1024 in length."))
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > 2048:
            problems.append(_too_long(f"embeds.{i}.footer.text", 2048))
        if len(author) > 256:
            problems.append(_too_long(f"embeds.{i}.author.name", 256))
    if total > MAX_EMBED_TOTAL:
        problems.append(("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"))
    return problems


def check_components(components: Any, flags: int) -> Problems:
    """≤ 5 action rows of ≤ 5 buttons or one select; custom_ids ≤ 100 chars and unique."""
    problems: Problems = []
    if components is None:
        return problems
    if not isinstance(components, list):
        return [("components", "LIST_TYPE_CONVERT", "Must be an array.")]
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    if v2:
        count = sum(1 for _ in walk_components(components))
        if count > MAX_V2_COMPONENTS:
            problems.append(("components", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in length."))
    else:
        if len(components) > MAX_ROWS:
            problems.append(_too_long("components", MAX_ROWS))
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append((f"components.{i}.type", "UNION_TYPE_CHOICES",
                                 "Value of field \"type\" must be one of (1,) without IS_COMPONENTS_V2."))
                continue
            children = row.get("components") or []
            if not children:
                problems.append((f"components.{i}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if len(children) > MAX_PER_ROW:
                problems.append((f"components.{i}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
            if selects and len(children) > 1:
                problems.append((f"components.{i}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                                 "The specified component exceeds the maximum width"))
    seen: set[str] = set()
    for comp in walk_components(components):
        ctype = comp.get("type")
        cid = comp.get("custom_id")
        if cid is not None:
            if len(cid) > 100:
                problems.append(("components.custom_id", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
            if cid in seen:
                problems.append(("components.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
                                 f"Component custom id cannot be duplicated: {cid}"))
            seen.add(cid)
        if ctype == 2:
            style = comp.get("style")
            label = comp.get("label") or ""
            if len(label) > 80:
                problems.append(("components.label", "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."))
            if style == 5:
                if not comp.get("url") or cid is not None:
                    problems.append(("components.url", "BUTTON_LINK_URL_REQUIRED", "Link buttons need a url and no custom_id."))
            elif style == 6:
                if not comp.get("sku_id"):
                    problems.append(("components.sku_id", "BASE_TYPE_REQUIRED", "This field is required"))
            elif not cid:
                problems.append(("components.custom_id", "BASE_TYPE_REQUIRED", "This field is required"))
        elif ctype == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= 25:
                problems.append(("components.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."))
    return problems


def check_allowed_mentions(am: Any) -> Problems:
    """``parse`` values, and no ``parse: users`` together with a ``users`` list."""
    if am is None:
        return []
    problems: Problems = []
    parse = am.get("parse") or []
    for value in parse:
        if value not in ("users", "roles", "everyone"):
            problems.append(("allowed_mentions.parse", "ENUM_TYPE_COERCE", f"Value \"{value}\" is not a valid enum value."))
    if "users" in parse and am.get("users"):
        problems.append(("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                         "parse:[\"users\"] and users: [ids] are mutually exclusive."))
    if "roles" in parse and am.get("roles"):
        problems.append(("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                         "parse:[\"roles\"] and roles: [ids] are mutually exclusive."))
    if len(am.get("users") or []) > 100:
        problems.append(_too_long("allowed_mentions.users", 100))
    return problems


def check_message(data: dict[str, Any], n_files: int) -> Problems:
    """Content, embeds, components, allowed_mentions and file count of a create/edit body."""
    problems: Problems = []
    content = data.get("content")
    flags = int(data.get("flags") or 0)
    if content is not None:
        if not isinstance(content, str):
            problems.append(("content", "BASE_TYPE_STRING", "Must be a string."))
        elif len(content) > MAX_CONTENT:
            problems.append(_too_long("content", MAX_CONTENT))
    if flags & FLAG_COMPONENTS_V2 and (content or data.get("embeds")):
        problems.append(("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                         "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2"))
    problems += check_embeds(data.get("embeds"))
    problems += check_components(data.get("components"), flags)
    problems += check_allowed_mentions(data.get("allowed_mentions"))
    if n_files > MAX_FILES:
        problems.append(_too_long("files", MAX_FILES))
    return problems


def check_choices(choices: Any) -> Problems:
    """Autocomplete result: ≤ 25 choices, names 1–100 chars, string values ≤ 100 chars."""
    problems: Problems = []
    if not isinstance(choices, list):
        return [("choices", "LIST_TYPE_CONVERT", "Must be an array.")]
    if len(choices) > MAX_CHOICES:
        problems.append(_too_long("choices", MAX_CHOICES))
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append((f"choices.{i}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append(_too_long(f"choices.{i}.value", 100))
        elif value is None:
            problems.append((f"choices.{i}.value", "BASE_TYPE_REQUIRED", "This field is required"))
    return problems


def check_modal(data: dict[str, Any]) -> Problems:
    """A modal needs a custom_id ≤ 100, a title 1–45 chars and 1–5 components."""
    problems: Problems = []
    if not data.get("custom_id") or len(data["custom_id"]) > 100:
        problems.append(("custom_id", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    title = data.get("title") or ""
    if not 1 <= len(title) <= 45:
        problems.append(("title", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length."))
    if not 1 <= len(data.get("components") or []) <= 5:
        problems.append(("components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
    return problems


def check_command(cmd: dict[str, Any], path: str) -> Problems:
    """Name/description lengths, ≤ 25 options, required options first, unique option names."""
    problems: Problems = []
    name = cmd.get("name") or ""
    ctype = cmd.get("type", 1)
    if ctype == 1:
        if not COMMAND_NAME.match(name) or name != name.lower():
            problems.append((f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
        desc = cmd.get("description") or ""
        if not 1 <= len(desc) <= 100:
            problems.append((f"{path}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    elif not 1 <= len(name) <= 32:
        problems.append((f"{path}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length."))
    problems += _check_options(cmd.get("options") or [], f"{path}.options")
    return problems


def _check_options(options: list[dict[str, Any]], path: str) -> Problems:
    problems: Problems = []
    if len(options) > 25:
        problems.append(_too_long(path, 25))
    names: set[str] = set()
    seen_optional = False
    for i, opt in enumerate(options):
        name = opt.get("name") or ""
        if not COMMAND_NAME.match(name) or name != name.lower():
            problems.append((f"{path}.{i}.name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
        if name in names:
            problems.append((f"{path}.{i}.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique"))
        names.add(name)
        if not 1 <= len(opt.get("description") or "") <= 100:
            problems.append((f"{path}.{i}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
        if opt.get("type") in (1, 2):
            problems += _check_options(opt.get("options") or [], f"{path}.{i}.options")
            continue
        if opt.get("required"):
            if seen_optional:
                problems.append((f"{path}.{i}.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                 "Required options must be placed before non-required options"))
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            problems.append(_too_long(f"{path}.{i}.choices", 25))
        if choices and opt.get("autocomplete"):
            problems.append((f"{path}.{i}.autocomplete", "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES",
                             "Autocomplete cannot be set with choices"))
    return problems
