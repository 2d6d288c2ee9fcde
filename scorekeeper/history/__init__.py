"""PURE: the circle's memory. No Flask, SQLAlchemy or WTForms imports.

Plain frozen records of a circle (``records``) as a service reads them from the
database or an export file holds them; housekeeping events applied as a pure fold
(``housekeeping``); statistics, ratings and the purse derived from them with the
scoring core; the export format (JSON and CSV) and chart data.
"""
