"""PURE: cards, contracts, rule sets. No Flask, SQLAlchemy or WTForms here."""
