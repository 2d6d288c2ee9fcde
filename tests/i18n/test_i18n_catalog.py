"""Every catalog (de_CH, fr_CH, it_CH): complete, nothing fuzzy, placeholders and plurals intact, compiled."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.support import Translations
from i18n_helpers import CONVERSION, LOCALES, TRANSLATIONS, ids, load_catalog, placeholders, strings


@pytest.fixture(scope="module", params=LOCALES)
def catalog(request: pytest.FixtureRequest) -> Catalog:
    return load_catalog(request.param)


def test_catalog_has_messages(catalog: Catalog) -> None:
    assert len([m for m in catalog if m.id]) > 150


def test_every_message_is_translated_and_none_is_fuzzy(catalog: Catalog) -> None:
    untranslated = [m.id for m in catalog if m.id and not all(s.strip() for s in strings(m))]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not untranslated, f"{len(untranslated)} untranslated: {untranslated}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy (check and clear the flag): {fuzzy}"
    assert not catalog.fuzzy, "the catalog header is marked fuzzy"


def test_placeholders_are_the_msgids(catalog: Catalog) -> None:
    wrong = []
    for m in catalog:
        if not m.id:
            continue
        expected = set().union(*(placeholders(i) for i in ids(m)))
        for s in strings(m):
            # A stray % would break a template (Jinja's gettext always applies % to the translation).
            if placeholders(s) != expected or "%" in CONVERSION.sub("", s):
                wrong.append((m.id, s))
    assert not wrong, "placeholders differ from the msgid's:\n" + "\n".join(f"{i!r} -> {s!r}" for i, s in wrong)


def test_babel_checkers_pass(catalog: Catalog) -> None:
    """Babel's own checks: python-format compatibility and the number of plural forms."""
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check()]
    assert not problems, problems


PLURALS = {"de_CH": "(n != 1)", "fr_CH": "(n > 1)", "it_CH": "(n != 1)"}  # French: 0 and 1 are singular


def test_plural_forms(catalog: Catalog) -> None:
    assert catalog.num_plurals == 2 and catalog.plural_expr == PLURALS[str(catalog.locale)]
    for m in catalog:
        if m.pluralizable:
            assert len(strings(m)) == catalog.num_plurals, m.id


def test_swiss_spelling(catalog: Catalog) -> None:
    """Swiss Standard German writes ss, never ß (and no other catalog has a reason to)."""
    assert not [s for m in catalog if m.id for s in strings(m) if "ß" in s]


def test_the_compiled_catalog_is_current(catalog: Catalog) -> None:
    """The .mo the app loads (compiled by make or by the test session) says what the .po says."""
    translations = Translations.load(str(TRANSLATIONS), [str(catalog.locale)])
    assert isinstance(translations, Translations), "no compiled catalog found"
    for m in catalog:
        if not m.id:
            continue
        if m.pluralizable:
            singular, plural = ids(m)
            for n, expected in ((1, strings(m)[0]), (2, strings(m)[1])):
                assert translations.ngettext(singular, plural, n) == expected, m.id
        elif m.context:
            assert translations.pgettext(m.context, ids(m)[0]) == m.string, m.id
        else:
            assert translations.gettext(ids(m)[0]) == m.string, m.id
