"""The pages a newcomer reads hold together: every link between them opens something, and
every section of docs/DECISIONS.md is in its index by topic."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "bench").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    return {_slug(h) for h in HEADING.findall(text)} | set(ANCHOR.findall(text))


def test_every_link_between_the_pages_opens_a_page_and_a_place_on_it() -> None:
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # a web address, not ours to check
            path, _, fragment = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif fragment and (linked.suffix != ".md" or fragment not in _anchors(linked)):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such place)")
    assert broken == []


def test_every_section_of_the_decisions_is_in_the_index() -> None:
    text = (ROOT / "docs" / "DECISIONS.md").read_text(encoding="utf-8")
    index, _, sections = text.partition("\n<a id=")
    assert "## Index by topic" in index
    linked = {target.removeprefix("#") for target in LINK.findall(index) if target.startswith("#")}
    anchored = set(ANCHOR.findall("<a id=" + sections))
    assert anchored == linked  # the index opens every anchored section, and nothing else
    lines = ("<a id=" + sections).splitlines()  # every section has its anchor on the line before
    unanchored = [line for n, line in enumerate(lines) if line.startswith("## ") and not ANCHOR.match(lines[n - 1])]
    assert unanchored == []
