"""Every relative link in README.md and docs/*.md resolves: the file exists, and an
``#anchor`` names a heading of the page it points to, by GitHub's anchor rules.

The checker is small and written here so the tests can also show it catches a
broken link (a test that cannot fail proves nothing)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The pages whose links are checked: the front page and every page of docs/.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target) and ![alt](target); the target may carry a "title" after a space.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True)
class Link:
    """One link as written on a page: where it is and what it points to."""

    page: Path
    line: int
    target: str

    def __str__(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.line}: {self.target}"


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The page's lines outside fenced code blocks, numbered from 1, code spans blanked."""
    lines: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, CODE_SPAN.sub(lambda m: "`" + " " * len(m.group(2)) + "`", line)))
    return lines


def heading_text(raw: str) -> str:
    """A heading's text as GitHub renders it: links become their text, code and emphasis marks go."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    # Underscores stay: GitHub keeps them in anchors (snake_case), and no heading here uses _emphasis_.
    return re.sub(r"[`*]", "", text)


def slug(text: str) -> str:
    """GitHub's anchor for a heading (github-slugger): lower case, every character that
    is not a letter, digit, mark, space, hyphen or underscore dropped, spaces to hyphens."""
    kept = []
    for char in text.lower():
        category = unicodedata.category(char)
        if char in " -_" or category[0] in "LNM":
            kept.append(char)
    return "".join(kept).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor GitHub makes for the page's headings (a repeated one gets -1, -2…)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    text = page.read_text(encoding="utf-8")
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if match:
            base = slug(heading_text(match.group(2)))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[Link]:
    """The relative links of a page (web addresses are not this test's business)."""
    found = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for match in LINK.finditer(line):
            target = match.group(1)
            if not SCHEME.match(target):
                found.append(Link(page, number, target))
    return found


def problem(link: Link) -> str | None:
    """What is wrong with a link, or None when it resolves."""
    path_part, _, anchor = link.target.partition("#")
    target = (link.page.parent / path_part).resolve() if path_part else link.page
    if not target.exists():
        return f"{link}: no such file {path_part}"
    if anchor and target.suffix == ".md" and anchor not in anchors(target):
        return f"{link}: {target.name} has no heading with the anchor #{anchor}"
    return None


ALL_LINKS = [link for page in PAGES for link in links(page)]
FILE_LINKS = [link for link in ALL_LINKS if "#" not in link.target]
ANCHOR_LINKS = [link for link in ALL_LINKS if "#" in link.target]


def test_the_pages_have_links_to_check() -> None:
    assert (ROOT / "README.md") in PAGES and len(PAGES) > 5
    assert FILE_LINKS and ANCHOR_LINKS


@pytest.mark.parametrize("link", FILE_LINKS, ids=str)
def test_a_relative_link_names_an_existing_file(link: Link) -> None:
    assert problem(link) is None


@pytest.mark.parametrize("link", ANCHOR_LINKS, ids=str)
def test_an_anchor_link_names_a_heading_of_its_page(link: Link) -> None:
    assert problem(link) is None


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Hex against MoHex 2.0", "hex-against-mohex-20"),
        ("How a `/move` flows from interaction to picture", "how-a-move-flows-from-interaction-to-picture"),
        ("On paper: 100,000 servers", "on-paper-100000-servers"),
        ("5. Move notation (engine, CLI and the bot's `/move`)", "5-move-notation-engine-cli-and-the-bots-move"),
        ("Where to find…", "where-to-find"),
        ("inpHeXion 7×7", "inphexion-77"),
        ("snake_case and [a link](x.md)", "snake_case-and-a-link"),
    ],
)
def test_a_heading_gets_githubs_anchor(heading: str, anchor: str) -> None:
    assert slug(heading_text(heading)) == anchor


def test_a_repeated_heading_gets_a_numbered_anchor(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Usage\n\n## Usage\n\n```\n# not a heading\n```\n", encoding="utf-8")
    assert anchors(page) == {"usage", "usage-1"}


def test_a_link_to_a_missing_file_is_reported(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See [the guide](guide.md).\n", encoding="utf-8")
    [link] = links(page)
    assert problem(link) is not None and "no such file" in str(problem(link))


def test_a_link_to_a_missing_anchor_is_reported(tmp_path: Path) -> None:
    (tmp_path / "guide.md").write_text("# Guide\n\n## Install\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[ok](guide.md#install) and [broken](guide.md#running) and [self](#nowhere)\n", encoding="utf-8")
    assert [problem(link) is None for link in links(page)] == [True, False, False]


def test_links_in_code_are_not_links(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("`[a](missing.md)`\n\n```\n[b](missing.md)\n```\n[c](https://example.com/x)\n", encoding="utf-8")
    assert links(page) == []


def test_the_readme_is_a_front_page_of_at_most_400_lines() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 400
