"""PURE: see DESIGN.md. No Flask, SQLAlchemy or WTForms imports."""
