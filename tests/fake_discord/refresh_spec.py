"""Replace the vendored Discord OpenAPI spec with a newer copy, after checking it.

    python -m tests.fake_discord.refresh_spec PATH   # openapi.json, or a folder holding it

PATH is a copy of ``specs/openapi.json`` from Discord's discord-api-spec
repository (or a folder with it, its ``LICENSE`` and a ``README.md`` saying
which commit it is). The new file is used only if it parses, is OpenAPI 3.1,
and has an operation for every route the fake serves, each of whose schemas
compiles; then it (and the LICENSE/README beside it) replace
``tests/fake_discord/spec/``. Run the suite afterwards: stricter schemas show
up as refused requests in the tests that send them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from .openapi import SPEC_PATH, Spec
from .rest import router


def check(document: dict[str, object]) -> list[str]:
    """What makes ``document`` unusable as the fake's oracle (empty: fine)."""
    try:
        oracle = Spec(document)  # type: ignore[arg-type]
    except (ValueError, KeyError, TypeError) as exc:
        return [f"not a usable OpenAPI 3.1 document: {exc}"]
    problems = []
    for method, _, template, _, _ in router.routes:
        sample = template.replace("{", "").replace("}", "")
        operation = oracle.operation(method, sample)
        if operation is None:
            problems.append(f"no operation for {method} {template}, which the fake serves")
            continue
        try:
            operation.request_validator()
            for status in (200, 201, 400, 429):
                operation.response_validator(status)
        except Exception as exc:  # an unresolvable $ref etc.: report, don't vendor
            problems.append(f"{operation.operation_id}: its schemas do not compile: {exc}")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check the new spec and copy it (with LICENSE and README.md beside it) over the vendored one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="openapi.json, or a folder holding it")
    parser.add_argument("--into", type=Path, default=SPEC_PATH.parent, help="where the vendored copy lives")
    args = parser.parse_args(argv)
    source = args.path / "openapi.json" if args.path.is_dir() else args.path
    try:
        document = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"cannot read {source}: {exc}", file=sys.stderr)
        return 1
    problems = check(document)
    if problems:
        print("not vendored:\n" + "\n".join(f"  - {p}" for p in problems), file=sys.stderr)
        return 1
    target: Path = args.into
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target / "openapi.json")
    for extra in ("LICENSE", "README.md"):
        if (source.parent / extra).is_file():
            shutil.copyfile(source.parent / extra, target / extra)
    paths = document.get("paths", {})
    print(f"vendored {source} ({len(paths)} paths) into {target}; now run the tests")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
