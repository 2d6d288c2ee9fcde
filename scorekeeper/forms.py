"""WTForms: the shape of the input (required fields, whole numbers, ranges).

The rules (open rows, 157, match needs every trick...) are checked by the pure
core (``scoring.verify_entry``) through the services; a form only makes sure the
values are there and have the right type. Every form carries the CSRF token.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    DateField,
    DecimalField,
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
    ValidationError,
)
from wtforms.widgets import CheckboxInput, HiddenInput, ListWidget, NumberInput

from .game.rulesets import (
    COUNTERMATCH_COST_MAX,
    EXTRA_ROWS,
    MATCH_BONUS_MAX,
    MATCH_POINTS_MAX,
    MATCH_POINTS_MIN,
    ROW_NAME_MAX,
    SEICH_TIMES_MAX,
    SUIT_ORDERS,
    BarrelRule,
    RuleSet,
    Scoring,
    Variant,
    default_ruleset,
)
from .history.purse import PAYMENT_MAX_RAPPEN
from .models import QUEUED_AFTER_MAX, REQUEST_ID_LEN

try:  # WTForms >= 3.3: choices as SelectChoice (tuples are deprecated there)
    from wtforms import SelectChoice as _SelectChoice
except ImportError:  # pragma: no cover - older WTForms
    _SelectChoice = None


def choice(value: Any, label: Any) -> Any:
    """One option of a select or radio field, in the form this WTForms wants."""
    return _SelectChoice(value, label) if _SelectChoice is not None else (value, label)


def choices(pairs: Any) -> list[Any]:
    return [choice(v, label) for v, label in pairs]


QUEUED_AFTER_TEXT_MAX = QUEUED_AFTER_MAX * (REQUEST_ID_LEN + 1)
POINTS_MESSAGE = _l("Points are whole numbers from 0 to 157.")


_ISSUED: ContextVar[list[str] | None] = ContextVar("scorekeeper_issued_request_ids", default=None)


def new_request_id() -> str:
    """A fresh request id for a form (a double tap of it records once)."""
    rid = uuid.uuid4().hex
    issued = _ISSUED.get()
    if issued is not None:
        issued.append(rid)
    return rid


@contextmanager
def issued_request_ids() -> Iterator[list[str]]:
    """The request ids ``new_request_id`` hands out inside the block, in order (a kept page puts
    fresh ones in their places: ``web.page_cache``)."""
    issued: list[str] = []
    token = _ISSUED.set(issued)
    try:
        yield issued
    finally:
        _ISSUED.reset(token)


def renew_request_id(form: Any) -> None:
    """A form shown again after its request id was refused (used before with other values):
    the next submit is a new request."""
    form.request_id.data = new_request_id()
    form.request_id.raw_data = None


class PointsInput(NumberInput):
    """A text box that opens the phone's numeric keypad."""

    input_type = "text"

    def __call__(self, field: Field, **kwargs: Any) -> Any:
        kwargs.setdefault("inputmode", "numeric")
        kwargs.setdefault("pattern", "[0-9]*")
        kwargs.setdefault("autocomplete", "off")
        kwargs.setdefault("maxlength", "3")
        return super().__call__(field, **kwargs)


class _ClearMessage(Field):
    """A field whose "not a valid value" message says what is expected (``message``)."""

    data: Any

    def __init__(self, *args: Any, message: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clear_message = message

    def not_valid(self) -> Any:
        """The field type's own message, when no ``message`` was given."""
        raise NotImplementedError

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            self.data = None
            raise ValueError(self.clear_message or self.not_valid()) from None


class ClearIntegerField(_ClearMessage, IntegerField):
    """A whole number whose "not a number" message says what is expected (``message``)."""

    data: int | None

    def not_valid(self) -> Any:
        return self.gettext("Not a valid integer value.")


class ClearDecimalField(_ClearMessage, DecimalField):
    """An amount: ``0.50`` or ``0,50`` (Swiss keyboards); a clear message for anything else."""

    data: Decimal | None

    def not_valid(self) -> Any:
        return self.gettext("Not a valid decimal value.")

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist and isinstance(valuelist[0], str):
            valuelist = [valuelist[0].strip().replace(",", ".").replace("'", "")]
        super().process_formdata(valuelist)


STAKE_MESSAGE = _l("The stake is an amount in francs from 0 to 1000, for example 0.50.")
PER_POINTS_MESSAGE = _l("“Per how many points” is a whole number from 1 to 10000, for example 10.")
FACTOR_MESSAGE = _l("A factor is a whole number from 1 to 1000.")


class MultiCheckboxField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class ButtonForm(FlaskForm):
    """A POST-only button with nothing to send but the CSRF token (``{{ button.csrf_token }}``)."""


class ActionForm(ButtonForm):
    """POST-only buttons that change an evening (undo, end, draw cuts): also the version seen, a request id."""

    expected_version = IntegerField(validators=[InputRequired()])
    request_id = HiddenField(validators=[DataRequired(), Length(min=8, max=64)])
    author = HiddenField(validators=[Optional(), Length(max=40)])  # who uses this phone (remembered by the browser)


class AgainForm(ButtonForm):
    """ "Same again" on a finished evening: the next one starts once, however often it is tapped."""

    request_id = HiddenField(validators=[DataRequired(), Length(min=8, max=64)])


class CreateCircleForm(FlaskForm):
    name = StringField(
        _l("Name of the circle"),
        validators=[DataRequired(_l("Give the circle a name.")), Length(max=80)],
        render_kw={"placeholder": _l("e.g. Thursday Jass"), "autocomplete": "off"},
    )


class RestoreForm(FlaskForm):
    """An export file (JSON) to restore into a new circle."""

    file = FileField(_l("Export file (.json)"), render_kw={"accept": ".json,application/json"})


class DeleteCircleForm(FlaskForm):
    """The second question before a circle is deleted for good: its name, typed again."""

    name = StringField(_l("The circle's name"), render_kw={"autocomplete": "off"})


class AddPlayerForm(FlaskForm):
    name = StringField(
        _l("New player"),
        validators=[DataRequired(_l("A player needs a name.")), Length(max=40)],
        render_kw={"autocomplete": "off"},
    )


class PointsUnlessSeich:
    """Points are required, except for a thrown-in Seich hand (then they are ignored)."""

    def __init__(self, message: Any) -> None:
        self.message = message

    def __call__(self, form: Any, field: Field) -> None:
        if form.is_seich():
            field.errors[:] = []
            raise StopValidation()
        raw = field.raw_data or []
        if not raw or not str(raw[0]).strip():
            field.errors[:] = []
            raise StopValidation(self.message)
        if field.process_errors:
            raise StopValidation()  # "not a valid integer": that message is enough


class HandForm(FlaskForm):
    """One hand as the table reports it; choices are filled per evening by the view."""

    declarer = RadioField(_l("Declarer"), coerce=int, validators=[InputRequired(_l("Who declared?"))])
    row = SelectField(_l("Row"), validators=[Optional()], validate_choice=True)
    played_as = SelectField(_l("Played as"), validators=[Optional()], validate_choice=True)
    declarer_points = IntegerField(
        _l("Declarer's points"),
        widget=PointsInput(),
        validators=[
            PointsUnlessSeich(_l("Enter the declarer's points (0 to 157).")),
            NumberRange(0, 157, POINTS_MESSAGE),
        ],
    )
    defender_points = IntegerField(
        _l("Defenders' points"),
        widget=PointsInput(),
        validators=[
            PointsUnlessSeich(_l("Enter the defenders' points (0 to 157).")),
            NumberRange(0, 157, POINTS_MESSAGE),
        ],
    )
    # what happened at the table; which of the two is the ★ match is the row's (a Misère:
    # no trick), the page words them by the row (present.slate.MarkChoice)
    match = BooleanField(_l("Every trick taken"))
    countermatch = BooleanField(_l("No trick taken"))
    seich = BooleanField(_l("Seich (thrown in)"))
    author = SelectField(_l("Entered by"), validators=[Optional()], validate_choice=True)
    expected_version = IntegerField(validators=[InputRequired()])
    request_id = HiddenField(validators=[DataRequired(), Length(min=8, max=64)])
    # a hand sent from an offline phone's queue: its earlier queued hands' request ids (space-separated)
    queued_after = HiddenField(validators=[Optional(), Length(max=QUEUED_AFTER_TEXT_MAX)])

    def is_seich(self) -> bool:
        field = getattr(self, "seich", None)  # removed from the form outside the club variant
        return bool(field is not None and field.data)

    def validate_seich(self, field: Field) -> None:
        """A Seich is never recorded by surprise: ticked together with a row or points (a page
        without its script shows them all), the form asks which of the two was meant."""
        if not field.data:
            return
        piles = [f.raw_data[0] for f in (self.declarer_points, self.defender_points) if f.raw_data]
        if self.row.data or any(str(p).strip() for p in piles):
            raise ValidationError(
                _l(
                    "Seich is ticked, but a row or points are filled in. Untick Seich to write the hand, "
                    "or clear the row and the points to record the Seich."
                )
            )


class CutForm(ActionForm):
    """The result of a real cut at the table: which side ranks first in a tied row."""

    row_key = HiddenField(validators=[DataRequired()])
    end = HiddenField(validators=[DataRequired()])
    winner = IntegerField(validators=[InputRequired()])


# --- starting an evening --------------------------------------------------------

VARIANT_CHOICES = [v.value for v in Variant]
DECK_CHOICES = [
    ("swiss", _l("Swiss suits (Eichel, Schelle, Schilte, Rose)")),
    ("french", _l("French suits (Kreuz, Ecke, Schaufel, Herz)")),
]
EXTRA_LABELS = {"slalom": _l("Slalom"), "gustav": _l("Gustav (Riesenslalom)"), "tuo": _l("TUO")}


# The fields both start forms ask alike. Made by functions, not a shared base class, so that each
# form keeps its own field order (WTForms orders fields by when they were made, and the order
# decides which invalid field is marked first).
def _deck_field() -> Any:
    return RadioField(_l("Suit names"), choices=choices(DECK_CHOICES), default="swiss")


def _barrel_field() -> Any:
    return RadioField(
        _l("Barrel rule"),
        default=BarrelRule.BOOK.value,
        choices=choices(
            [
                (BarrelRule.BOOK.value, _l("Book: back to forehand, who must choose")),
                (BarrelRule.ONLINE.value, _l("Online table: the first who can choose must choose")),
            ]
        ),
    )


def _stake_fields() -> tuple[Any, Any, Any]:
    """The stake, per how many points it counts, and the rounding."""
    return (
        ClearDecimalField(
            _l("Stake in CHF"),
            places=2,
            message=STAKE_MESSAGE,
            validators=[InputRequired(STAKE_MESSAGE), NumberRange(0, 1000, STAKE_MESSAGE)],
            render_kw={"inputmode": "decimal"},
        ),
        ClearIntegerField(
            _l("per how many points"),
            message=PER_POINTS_MESSAGE,
            validators=[Optional(), NumberRange(1, 10000, PER_POINTS_MESSAGE)],
            render_kw={"inputmode": "numeric"},
        ),
        SelectField(
            _l("Rounding"), choices=choices([("5", _l("to 5 Rappen")), ("1", _l("exact to the Rappen"))]), default="5"
        ),
    )


class StartEveningForm(FlaskForm):
    variant = HiddenField(validators=[DataRequired()])
    deck = _deck_field()
    # The choices' words are the chosen deck's suit names, set per request (web.circles._build_form).
    suit_order = SelectField(
        _l("Order of the suit rows"), choices=choices((name, name) for name in SUIT_ORDERS), validate_choice=True
    )
    barrel = _barrel_field()
    undenufe_six11 = BooleanField(_l("Undenufe: ace 0, six 11"))
    extra_rows = MultiCheckboxField(_l("Extra rows"), choices=choices(EXTRA_LABELS.items()))
    jokers_play_extras = BooleanField(_l("A joker may also be played as an extra row"))
    # the suit order and extra rows the factor list was shown for (``rulesets.typed_factors``)
    shown_order = HiddenField()
    shown_extras = HiddenField()
    stake_chf, per_points, round_to = _stake_fields()
    first_dealer = RadioField(_l("First dealer"), coerce=int, validators=[InputRequired(_l("Who deals first?"))])
    request_id = HiddenField(validators=[DataRequired(), Length(min=8, max=64)])

    def validate_variant(self, field: Field) -> None:
        if field.data not in VARIANT_CHOICES:
            raise ValidationError(_l("Choose a variant."))


def start_form_class(ruleset: RuleSet) -> type[StartEveningForm]:
    """A start form with one name field per seat and one factor field per row of ``ruleset``."""

    attrs: dict[str, Any] = {}
    for seat in range(ruleset.n_players):
        attrs[f"seat_{seat}"] = StringField(
            validators=[DataRequired(_l("Every seat needs a player.")), Length(max=40)],
            render_kw={"autocomplete": "off", "list": "circle-players"},
        )
    for row in ruleset.rows:
        attrs[f"factor_{row.key}"] = ClearIntegerField(
            default=row.factor,
            message=FACTOR_MESSAGE,
            validators=[Optional(), NumberRange(1, 1000, FACTOR_MESSAGE)],
            render_kw={"inputmode": "numeric", "pattern": "[0-9]*"},
        )
    return type("StartEveningFormFor" + ruleset.variant.value.title(), (StartEveningForm,), attrs)


SEICH_TIMES_MESSAGE = _l("Seich hands are a whole number from 1 to 9.")
MATCH_POINTS_MESSAGE = _l("A match counts as a whole number of points from 157 to 10000.")
MATCH_BONUS_MESSAGE = _l("The match bonus is a whole number from 0 to 100000.")
COUNTERMATCH_MESSAGE = _l("A countermatch costs a whole number of points from 0 to 10000.")


class OwnRulesForm(FlaskForm):
    """The start page's own-rules editor (web.rules_form): the rule set it shows travels as its
    snapshot (``rules``); ``step`` says which edit a button asked for (or ``start``, ``save``)."""

    rules = HiddenField()
    variant = SelectField(_l("The table"), choices=choices((v.value, v.value) for v in Variant), validate_choice=True)
    deck = _deck_field()
    add_row = SelectField(_l("Add a row"), choices=[], validate_choice=False)
    barrel = _barrel_field()
    add_name = StringField(
        _l("Name of a house row"),
        validators=[Optional(), Length(max=ROW_NAME_MAX)],
        render_kw={"autocomplete": "off", "maxlength": ROW_NAME_MAX, "placeholder": _l("e.g. Molotow")},
    )
    seich = BooleanField(_l("Seich allowed (thrown in from the barrel)"))
    seich_times = ClearIntegerField(
        _l("Seich hands per player or team"),
        message=SEICH_TIMES_MESSAGE,
        validators=[Optional(), NumberRange(1, SEICH_TIMES_MAX, SEICH_TIMES_MESSAGE)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )
    scoring = SelectField(
        _l("A cell holds"),
        choices=choices(
            [
                (Scoring.TENTHS.value, _l("points ÷ 10, rounded down, × factor")),
                (Scoring.FULL.value, _l("points × factor")),
                (Scoring.RAW.value, _l("the declarer's card points")),
            ]
        ),
        validate_choice=True,
    )
    match_points = ClearIntegerField(
        _l("A match counts as (points, before the factor)"),
        message=MATCH_POINTS_MESSAGE,
        validators=[Optional(), NumberRange(MATCH_POINTS_MIN, MATCH_POINTS_MAX, MATCH_POINTS_MESSAGE)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )
    match_bonus = ClearIntegerField(
        _l("Match bonus (added after the factor)"),
        message=MATCH_BONUS_MESSAGE,
        validators=[Optional(), NumberRange(0, MATCH_BONUS_MAX, MATCH_BONUS_MESSAGE)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )
    countermatch_cost = ClearIntegerField(
        _l("A countermatch costs (points, before the factor)"),
        message=COUNTERMATCH_MESSAGE,
        validators=[Optional(), NumberRange(0, COUNTERMATCH_COST_MAX, COUNTERMATCH_MESSAGE)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )
    undenufe_six11 = BooleanField(_l("Undenufe: ace 0, six 11"))
    stake_chf, per_points, round_to = _stake_fields()
    first_dealer = RadioField(_l("First dealer"), coerce=int, validators=[Optional()])
    request_id = HiddenField(validators=[DataRequired(), Length(min=8, max=64)])


def own_rules_form_class(n_players: int, n_rows: int) -> type[OwnRulesForm]:
    """An own-rules form with one name field per seat and one factor field per row (by place)."""
    attrs: dict[str, Any] = {}
    for seat in range(n_players):
        attrs[f"seat_{seat}"] = StringField(
            validators=[Optional(), Length(max=40)],
            render_kw={"autocomplete": "off", "list": "circle-players"},
        )
    for i in range(n_rows):
        attrs[f"factor_{i}"] = ClearIntegerField(
            message=FACTOR_MESSAGE,
            validators=[Optional(), NumberRange(1, 1000, FACTOR_MESSAGE)],
            render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
        )
    return type("OwnRulesFormFor", (OwnRulesForm,), attrs)


def suit_order_default(variant: Variant) -> str:
    """The name of the suit order the variant's default rule set uses."""
    order = tuple(r.suit for r in default_ruleset(variant).rows if r.suit is not None)
    return next(name for name, suits in SUIT_ORDERS.items() if suits == order)


__all__ = [
    "ActionForm",
    "AddPlayerForm",
    "AgainForm",
    "ButtonForm",
    "CreateCircleForm",
    "CutForm",
    "EXTRA_ROWS",
    "HandForm",
    "OwnRulesForm",
    "SUIT_ORDERS",
    "StartEveningForm",
    "new_request_id",
    "own_rules_form_class",
    "renew_request_id",
    "start_form_class",
    "suit_order_default",
]


# --- the purse --------------------------------------------------------------------------
AMOUNT_MESSAGE = _l("The amount is in francs, more than 0 and to the Rappen, for example 12.50.")
AMOUNT_MAX = Decimal(PAYMENT_MAX_RAPPEN) / 100  # the purse's own bound


class MoneyInput(NumberInput):
    """A text box that opens the phone's keypad with a decimal point (``12.50``)."""

    input_type = "text"

    def __call__(self, field: Field, **kwargs: Any) -> Any:
        kwargs.setdefault("inputmode", "decimal")
        kwargs.setdefault("autocomplete", "off")
        kwargs.setdefault("maxlength", "12")
        return super().__call__(field, **kwargs)


def whole_rappen(_form: FlaskForm, field: Field) -> None:
    value = field.data
    if value is not None and (value * 100) != (value * 100).to_integral_value():
        raise ValidationError(str(AMOUNT_MESSAGE))


class SettlementForm(FlaskForm):
    """A payment of the purse (or, with ``supersedes``, its correction); choices are the
    circle's players, filled by the view."""

    payer = SelectField(_l("Who paid"), validators=[InputRequired(_l("Say who paid."))], validate_choice=True)
    payee = SelectField(_l("To whom"), validators=[InputRequired(_l("Say to whom."))], validate_choice=True)
    amount = ClearDecimalField(
        _l("Amount (CHF)"),
        widget=MoneyInput(),
        message=AMOUNT_MESSAGE,
        validators=[
            InputRequired(AMOUNT_MESSAGE),
            NumberRange(min=Decimal("0.01"), max=AMOUNT_MAX, message=AMOUNT_MESSAGE),
            whole_rappen,
        ],
    )
    paid_on = DateField(_l("Paid on"), validators=[InputRequired(_l("Say when the money was paid."))])
    # a player of the circle from the list, or the name this phone remembers (the quick "paid today" buttons)
    author = SelectField(_l("Entered by"), validators=[Optional(), Length(max=40)], validate_choice=False)
    supersedes = IntegerField(widget=HiddenInput(), validators=[Optional()])
    request_id = HiddenField(validators=[DataRequired(), Length(min=8, max=64)])


class VoidForm(ButtonForm):
    """Take a payment back: it never happened (the row stays in the log)."""

    supersedes = IntegerField(widget=HiddenInput(), validators=[InputRequired()])
    request_id = HiddenField(validators=[DataRequired(), Length(min=8, max=64)])
    author = HiddenField(validators=[Optional(), Length(max=40)])
