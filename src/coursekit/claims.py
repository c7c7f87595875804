"""Conclusions as computed claims: the words that judge a number come from the number.

A lesson that concludes something from a measurement ("the hidden layer adds less than the runs
move", "the rectified network is the best of the three") states it as a `Claim`: a name, the
condition computed from this run's numbers, and a sentence for either outcome. `record` then does
three things at once::

    record(
        Claim("capacity_within_runs", capacity < spread,
              yes=f"The hidden layer adds less than one run moves from the next.",
              no=f"The hidden layer adds more than one run moves from the next."),
    )

- the chosen sentence is quoted under the claim's name, like every prose number
  (`coursekit.prose.quote`): the text writes ``{eval}`capacity_within_runs``` and shows, on the HTML
  page and in JupyterLab alike, the sentence that this run's numbers chose;
- every claim is recorded in one machine-readable output of the executed notebook, mime type
  `CLAIMS_MIME`, ``{name: {"holds": bool, "says": sentence}}``, which no reader sees (no renderer of
  JupyterLab or of the book's HTML build shows that type) and which the tests and the seed atlas read;
- outside IPython (a script, a test, the page's in-browser run) nothing is displayed or set: the
  sentences and claims are kept in `coursekit.registry`, where a runner reads them.

So with any seed no sentence of a lesson contradicts its own table: the sentence is the outcome.
"""

from collections.abc import Callable
from dataclasses import dataclass

from . import registry
from .noise import Comparison, Paired, Runs
from .prose import counted, glue, require_quotable_name
from .tables import show_table

CLAIMS_MIME = "application/vnd.coursekit.claims+json"
"""The mime type of a lesson's recorded claims (one or more outputs per notebook; readers merge them)."""


@dataclass(frozen=True)
class Claim:
    """One conclusion: ``name`` (a lowercase identifier, the same for every seed), ``holds`` (the
    condition, computed), and the sentence shown when it holds (``yes``) or not (``no``).

    A sentence that can only be written for its own outcome (it lists what was found, and with
    another seed nothing may be) is given as a function of no arguments, ``yes=lambda: f"..."``: it is
    called only when its outcome is chosen.

    >>> found = []
    >>> Claim("any_found", bool(found), yes=lambda: f"Found {found[0]}.", no="Nothing found.").says
    'Nothing found.'
    """

    name: str
    holds: bool
    yes: str | Callable[[], str]
    no: str | Callable[[], str]
    detail: str | None = None  # the yardsticks behind a short verdict, in words (`measured`)
    sure: "SureRow | None" = None  # its row of the lesson's "How sure is this?" table

    def __post_init__(self):
        require_quotable_name("name", self.name)
        if self.detail is not None and (not isinstance(self.detail, str) or not self.detail.strip()):
            raise ValueError(f"{self.name}: detail must be the yardsticks in words, got {self.detail!r}")
        if self.sure is not None and not isinstance(self.sure, SureRow):
            raise ValueError(f"{self.name}: sure must be a SureRow, got {self.sure!r}")
        if not isinstance(self.holds, bool):
            raise ValueError(f"{self.name}: holds must be a bool computed from the numbers (write the "
                             f"comparison, e.g. a < b), got {self.holds!r} ({type(self.holds).__name__})")
        for outcome in ("yes", "no"):
            words = getattr(self, outcome)
            if callable(words):
                continue
            if not isinstance(words, str) or not words.strip():
                raise ValueError(f"{self.name}: {outcome} must be the non-empty sentence shown when the "
                                 f"claim {'holds' if outcome == 'yes' else 'does not hold'} (or a function "
                                 f"that writes it), got {words!r}")
        chosen = self.says
        if not isinstance(chosen, str) or not chosen.strip():
            raise ValueError(f"{self.name}: the sentence written for this outcome must be a non-empty string, "
                             f"got {chosen!r}")

    @property
    def says(self) -> str:
        """The sentence this run's numbers chose."""
        words = self.yes if self.holds else self.no
        return words() if callable(words) else words


def claims_record(claims) -> dict:
    """``{name: {"holds": ..., "says": ...}}`` of ``claims``; a repeated name raises ValueError."""
    record = {}
    for claim in claims:
        if not isinstance(claim, Claim):
            raise ValueError(f"claims must be Claim objects, got {claim!r} ({type(claim).__name__})")
        if claim.name in record:
            raise ValueError(f"{claim.name}: a claim name is recorded once per lesson, repeated here")
        record[claim.name] = {"holds": claim.holds, "says": claim.says}
        if claim.detail is not None:
            record[claim.name]["detail"] = claim.detail
    if not record:
        raise ValueError("claims: record at least one Claim")
    return record


def record(*claims: Claim) -> None:
    """Quote each claim's sentence under its name and record all of them as one `CLAIMS_MIME` output
    (outside IPython they are only kept in `coursekit.registry`)."""
    recorded = claims_record(claims)
    registry.record_claims(recorded)
    registry.record_sure_rows([(claim.name, claim.sure) for claim in claims if claim.sure is not None])
    shown = glue({name: entry["says"] for name, entry in recorded.items()})
    if shown:
        from IPython.display import display

        display({CLAIMS_MIME: recorded}, raw=True)


def _p_words(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def sampling_words(comparison: Comparison | Paired, noun: str = "row", clause: bool = False) -> str:
    """What the sampling yardstick says of a difference, in words: whether it is more than two standard
    errors of the paired difference, or, with few disagreeing rows, how they split and McNemar's p. The
    comparative ("more than two standard errors ...") continues a sentence about the difference; with
    ``clause`` it is a clause of its own ("the difference is more than ...") either way.

    >>> sampling_words(Paired([1] * 6 + [0] * 4, [0] * 10), "grid")
    "the 6 grids on which the two disagree split 6 to 0 (McNemar's exact test: p = 0.031, under 0.05)"
    >>> sampling_words(Paired([1] * 40 + [0] * 60, [0] * 40 + [1] * 30 + [0] * 30), clause=True)
    'the difference is no more than two standard errors of the paired difference (0.1661)'
    >>> sampling_words(Paired([1, 0], [1, 0]), "grid")
    "the two disagree on no grid (McNemar's exact test: p = 1.000, not under 0.05)"
    """
    if not isinstance(comparison, (Comparison, Paired)):
        raise ValueError(f"comparison must be a coursekit.noise Comparison or Paired, got {comparison!r}")
    if not isinstance(noun, str) or not noun.strip():
        raise ValueError(f"noun must name a test row, got {noun!r}")
    if comparison.exact:
        only_a, only_b = comparison.disagreements
        p = comparison.p_value
        verdict = "under" if comparison.beyond_sampling else "not under"
        test = f"(McNemar's exact test: {_p_words(p)}, {verdict} 0.05)"
        if only_a + only_b <= 1:
            return f"the two disagree on {'a single' if only_a + only_b else 'no'} {noun} {test}"
        return (f"the {counted(only_a + only_b, noun)} on which the two disagree split {only_a} to {only_b} "
                f"{test}")
    sampling = f"two standard errors of the paired difference ({comparison.sampling_error:.4f})"
    words = f"more than {sampling}" if comparison.beyond_sampling else f"no more than {sampling}"
    return f"the difference is {words}" if clause else words


BEYOND = "beyond the noise"
"""The short verdict of a difference that clears both yardsticks (`Comparison.measured`)."""

WITHIN = "within the noise"
"""The short verdict of a difference that does not clear both."""


@dataclass(frozen=True)
class SureRow:
    """One comparison's row of a lesson's "How sure is this?" table: what was compared, the change,
    the run-to-run spread, the sampling yardstick and the verdict, each already in words."""

    what: str
    change: str
    spread: str
    sampling: str
    verdict: str

    def __post_init__(self):
        for field in ("what", "change", "spread", "sampling", "verdict"):
            value = getattr(self, field)
            if not isinstance(value, str) or not value.strip() or "|" in value:
                raise ValueError(f"SureRow.{field} must be words for a table cell (no '|'), got {value!r}")

    @property
    def cells(self) -> tuple[str, ...]:
        return self.what, self.change, self.spread, self.sampling, self.verdict


SURE_HEADER = ("comparison", "change", "run-to-run spread", "paired test", "verdict")
"""The columns of every lesson's "How sure is this?" table."""


def _signed(value: float, spec: str) -> str:
    return f"{value:+{spec}}" if value else f"{0:{spec}}"


def short_form(comparison: Comparison | Paired, noun: str = "row", spec: str = ".4f",
               plural: str | None = None, than: str | None = None) -> str:
    """A measured result in the book's one short form: the signed change in the data set's own unit
    and as a share, then one verdict (beyond the noise: clears both yardsticks; within the noise: does
    not).

    With ``than`` (what the first is compared with) the clause continues a sentence whose subject is
    the first setting: "The convolutional network gets 29 more grids right than the fully connected one
    (+0.1450), beyond the noise." Without it, the clause follows a colon after the sentence that says
    what was compared.

    >>> def runs(label, *hits):
    ...     return Runs(label, [[1] * h + [0] * (200 - h) for h in hits])
    >>> short_form(Comparison(runs("A", 150, 148), runs("B", 100, 101)), "subscriber")
    '50 subscribers more (+0.2500), beyond the noise'
    >>> short_form(Comparison(runs("A", 100, 90), runs("B", 101, 99)), "grid", than="the pooled network")
    '1 fewer grid right than the pooled network (-0.0050), within the noise'
    >>> short_form(Comparison(runs("A", 100, 90), runs("B", 101, 99)), "grid")
    '1 grid fewer (-0.0050), within the noise'
    >>> short_form(Comparison(runs("A", 100, 90), runs("B", 100, 99)))
    'no change (both 0.5000)'
    >>> short_form(Comparison(runs("A", 100, 90), runs("B", 100, 99)), "grid", than="B")
    'as many grids right as B (both 0.5000)'
    >>> short_form(Comparison(Runs("A", [[0.5, 0.7], [0.5, 0.6]]), Runs("B", [[0.2, 0.3], [0.2, 0.3]])))
    '0.3500 higher, beyond the noise'
    >>> short_form(Comparison(Runs("A", [[0.5, 0.7], [0.5, 0.6]]), Runs("B", [[0.2, 0.3], [0.2, 0.3]])),
    ...            than="B's")
    "0.3500 higher than B's, beyond the noise"
    """
    if not isinstance(comparison, (Comparison, Paired)):
        raise ValueError(f"comparison must be a coursekit.noise Comparison or Paired, got {comparison!r}")
    if not isinstance(noun, str) or not noun.strip():
        raise ValueError(f"noun must name a test row, got {noun!r}")
    if than is not None and (not isinstance(than, str) or not than.strip()):
        raise ValueError(f"than must name what the first is compared with, got {than!r}")
    change = comparison.change
    measured = comparison.measured if isinstance(comparison, Comparison) else comparison.beyond_sampling
    verdict = BEYOND if measured else WITHIN
    if change == 0:
        number = comparison.a.number if isinstance(comparison, Comparison) else sum(comparison.a) / comparison.rows
        if than is None:
            return f"no change (both {number:{spec}})"
        if comparison.binary:
            return f"as many {plural or noun + 's'} right as {than} (both {number:{spec}})"
        return f"the same as {than} (both {number:{spec}})"
    if comparison.binary:
        count = round(change * comparison.rows)
        side = "more" if count > 0 else "fewer"
        if than is not None:
            nouns = noun if abs(count) == 1 else (plural or noun + "s")
            return f"{abs(count)} {side} {nouns} right than {than} ({_signed(change, spec)}), {verdict}"
        return f"{counted(abs(count), noun, plural)} {side} ({_signed(change, spec)}), {verdict}"
    direction = "higher" if change > 0 else "lower"
    return f"{abs(change):{spec}} {direction}{'' if than is None else f' than {than}'}, {verdict}"


def sure_row(what: str, comparison: Comparison | Paired, noun: str = "row", spec: str = ".4f",
             plural: str | None = None) -> SureRow:
    """The comparison's row of "How sure is this?": each yardstick with its number. A `Paired` (two
    fixed rules, one run each) has no run-to-run spread, and only the sampling yardstick decides.

    >>> sure_row("rule A against rule B", Paired([1] * 6 + [0] * 4, [0] * 10), "grid").cells
    ('rule A against rule B', '+6 grids (+0.6000)', 'none (one run each)', 'McNemar p = 0.031 (6 to 0)', \
'beyond the noise')
    """
    if not isinstance(comparison, (Comparison, Paired)):
        raise ValueError(f"comparison must be a coursekit.noise Comparison or Paired, got {comparison!r}")
    paired = isinstance(comparison, Paired)
    if comparison.binary:
        count = round(comparison.change * comparison.rows)
        change = f"{counted(count, noun, plural, signed=True)} ({_signed(comparison.change, spec)})" if count \
            else "no change"
    else:
        change = _signed(comparison.change, spec) if comparison.change else "no change"
    if paired:
        spread = "none (one run each)"
    elif comparison.binary:
        widest = round(comparison.spread * comparison.rows)
        spread = f"{widest} ({comparison.spread:{spec}})"  # "0 (0.0000)": runs that score alike
    else:
        spread = f"{comparison.spread:{spec}}"
    if comparison.exact:
        only_a, only_b = comparison.disagreements
        sampling = f"McNemar {_p_words(comparison.p_value)} ({only_a} to {only_b})"
    else:
        sampling = f"2 SE = {comparison.sampling_error:{spec}}"
    measured = comparison.beyond_sampling if paired else comparison.measured
    verdict = BEYOND if measured else "no change" if comparison.change == 0 else WITHIN
    return SureRow(what, change, spread, sampling, verdict)


def _what(comparison: Comparison, subject: str | None) -> str:
    if subject is not None:
        return subject
    label = comparison.a.label
    return f"{label[0].lower() + label[1:] if label[1:2].islower() else label} against {comparison.b.label}"


def measured(name: str, comparison: Comparison, *, what: str | None = None, subject: str | None = None,
             noun: str = "row", spec: str = ".4f", plural: str | None = None, than: str | None = None) -> Claim:
    r"""The course's standard claim that a difference *is measured*: beyond both the run-to-run spread
    and the sampling error of the paired difference (`coursekit.noise.Comparison`).

    The sentence the text shows is the short form (`short_form`): the signed change counted in
    ``noun`` (``"subscriber"``) and as a share, and one verdict. With ``than`` it reads as the end of a
    sentence about the first setting: "The two-layer network gets {eval}`capacity_measured`." shows
    "The two-layer network gets 1 more subscriber right than the single-layer one (+0.0040), within the
    noise."; without it the text says what was compared and writes the claim after a colon.
    The yardsticks behind the verdict are the claim's ``detail`` (a sentence, shown on hover on the
    page) and its row of the lesson's "How sure is this?" table (`how_sure`), named ``what`` (or
    ``subject``, or the two settings' labels).

    >>> wide = Runs("The wide network", [[1] * 90 + [0] * 10, [1] * 88 + [0] * 12])
    >>> narrow = Runs("the narrow one", [[0] * 20 + [1] * 70 + [0] * 10, [0] * 21 + [1] * 69 + [0] * 10])
    >>> claim = measured("width_measured", Comparison(wide, narrow), noun="subscriber")
    >>> claim.says
    '20 subscribers more (+0.2000), beyond the noise'
    >>> print(claim.detail)  # doctest: +NORMALIZE_WHITESPACE
    The wide network is ahead of the narrow one by 0.2000 (20 subscribers), more than the run-to-run
    spread (0.0200), and the 20 subscribers on which the two disagree split 20 to 0 (McNemar's exact
    test: p < 0.001, under 0.05): a measured difference.
    >>> claim.sure.cells  # doctest: +NORMALIZE_WHITESPACE
    ('the wide network against the narrow one', '+20 subscribers (+0.2000)', '2 (0.0200)',
     'McNemar p < 0.001 (20 to 0)', 'beyond the noise')

    With many disagreeing rows, two standard errors decide; each outcome names both yardsticks:

    >>> def runs(label, first, second, n=200):
    ...     return Runs(label, [[1] * first + [0] * (n - first), [1] * second + [0] * (n - second)])
    >>> def claim(a, b):
    ...     return measured("x_measured", Comparison(a, b), subject="The change")
    >>> low = Runs("the low one", [[0] * 50 + [1] * 100 + [0] * 50] * 2)
    >>> print(claim(runs("The high one", 106, 104), low).detail)  # doctest: +NORMALIZE_WHITESPACE
    The change adds 0.0300 (6 rows), more than the run-to-run spread (0.0100), but no more than two
    standard errors of the paired difference (0.0969): not a measured difference.
    >>> claim(runs("The high one", 106, 104), low).sure.cells[1:]
    ('+6 rows (+0.0300)', '2 (0.0100)', '2 SE = 0.0969', 'within the noise')
    >>> print(claim(runs("The high one", 150, 80), low).detail)  # doctest: +NORMALIZE_WHITESPACE
    The change adds 0.2500 (50 rows), no more than the run-to-run spread (0.3500), though more than two
    standard errors of the paired difference (0.0612): not a measured difference.
    >>> print(claim(runs("The high one", 106, 60), low).detail)  # doctest: +NORMALIZE_WHITESPACE
    The change adds 0.0300 (6 rows), no more than the run-to-run spread (0.2300) or two standard errors
    of the paired difference (0.0969): not a measured difference.

    A tie, with and without a subject:

    >>> same = Runs("the same network", [[1] * 90 + [0] * 10])
    >>> measured("gain_measured", Comparison(wide, same)).says
    'no change (both 0.9000)'
    >>> print(measured("gain_measured", Comparison(wide, same), subject="Widening").detail)
    Widening leaves the number where it was (both 0.9000): not a measured difference.
    >>> swapped = Runs("the swapped one", [[0] + [1] * 90 + [0] * 9, [1] * 88 + [0] * 12])
    >>> print(measured("gain_measured", Comparison(wide, swapped), subject="Swapping", noun="grid").detail)
    ... # doctest: +NORMALIZE_WHITESPACE
    Swapping leaves the number where it was (both 0.9000), though the two disagree on 2 grids, 1 each
    way: not a measured difference.
    """
    if not isinstance(comparison, (Comparison, Paired)):
        raise ValueError(f"{name}: comparison must be a coursekit.noise.Comparison of the two settings' runs "
                         f"(or a Paired of two fixed rules), got {comparison!r}")
    if isinstance(comparison, Paired) and what is None:
        raise ValueError(f"{name}: a Paired comparison has no labels: give what it compares (what=...)")
    for label, words in (("what", what), ("subject", subject)):
        if words is not None and (not isinstance(words, str) or not words.strip()):
            raise ValueError(f"{name}: {label} must name what makes the change, got {words!r}")
    if not isinstance(noun, str) or not noun.strip():
        raise ValueError(f"{name}: noun must name a test row, got {noun!r}")
    short = short_form(comparison, noun, spec, plural, than)
    row = sure_row(what or _what(comparison, subject), comparison, noun, spec, plural)
    if isinstance(comparison, Paired):
        detail = f"{what[0].upper() + what[1:]}: {sampling_words(comparison, noun, clause=True)}."
        return Claim(name, comparison.beyond_sampling, yes=short, no=short, detail=detail, sure=row)
    detail = _detail(comparison, subject, noun, spec)
    return Claim(name, comparison.measured, yes=short, no=short, detail=detail, sure=row)


def _detail(comparison: Comparison, subject: str | None, noun: str, spec: str) -> str:
    """The yardsticks behind a verdict in one sentence (the claim's hover text on the page)."""
    change = comparison.change
    count = f" ({counted(abs(comparison.change_count), noun)})" if comparison.binary else ""
    if change == 0:
        value = comparison.a.number
        head = (f"{subject} leaves the number where it was (both {value:{spec}})" if subject is not None else
                f"{comparison.a.label} and {comparison.b.label} score the same ({value:{spec}})")
        differ = sum(comparison.disagreements) if comparison.binary else 0
        if differ:
            head += f", though the two disagree on {counted(differ, noun)}, {differ // 2} each way"
        return f"{head}: not a measured difference."
    if subject is not None:
        head = f"{subject} {'adds' if change > 0 else 'takes away'} {abs(change):{spec}}{count}"
    else:
        side = "ahead of" if change > 0 else "behind"
        head = f"{comparison.a.label} is {side} {comparison.b.label} by {abs(change):{spec}}{count}"
    spread = f"the run-to-run spread ({comparison.spread:{spec}})"
    sampling = sampling_words(comparison, noun)
    if comparison.beyond_spread and comparison.beyond_sampling:
        # a comma before McNemar's clause, which is a sentence of its own
        reason = f"more than {spread}{',' if comparison.exact else ''} and {sampling}"
    elif comparison.beyond_spread:
        reason = f"more than {spread}, but {sampling}"
    elif comparison.beyond_sampling:
        reason = f"no more than {spread}, though {sampling}"
    elif comparison.exact:
        reason = f"no more than {spread}, and {sampling}"
    else:
        reason = f"no more than {spread} or two standard errors of the paired difference " \
                 f"({comparison.sampling_error:{spec}})"
    verdict = "a measured difference" if comparison.measured else "not a measured difference"
    return f"{head}, {reason}: {verdict}."


def measured_again(name: str, first: Comparison, a_label: str, b_label: str, *, noun: str = "row",
                   earlier: str = "the first runs", spec: str = ".4f", what: str | None = None,
                   plural: str | None = None, than: str | None = None) -> Claim:
    """The same comparison as ``first`` read on the two settings' second runs, in the short form, with
    whether it agrees: the claim holds when the second runs keep the first runs' side and verdict. A
    verdict read from first runs is one draw of initial values; this says whether the second runs tell
    the same story. Its row of "How sure is this?" is named ``what`` (or the two labels).

    >>> a = Runs("A", [[1] * 150 + [0] * 50, [1] * 148 + [0] * 52])
    >>> b = Runs("B", [[0] * 50 + [1] * 100 + [0] * 50] * 2)
    >>> measured_again("again", Comparison(a, b), "A's second run", "B's").says
    '48 rows more (+0.2400), beyond the noise, as in the first runs'
    >>> c = Runs("C", [[1] * 150 + [0] * 50, [1] * 98 + [0] * 102])
    >>> measured_again("again", Comparison(c, b), "C's second run", "B's").says
    '2 rows fewer (-0.0100), within the noise, as the first runs were'
    >>> d = Runs("D", [[1] * 150 + [0] * 50, [1] * 100 + [0] * 100])
    >>> measured_again("again", Comparison(d, b), "D's second run", "B's").says
    'no change (both 0.5000), where the first runs differed'
    """
    if not isinstance(first, Comparison):
        raise ValueError(f"{name}: first must be the Comparison of the first runs, got {first!r}")
    again = first.on_second_runs(a_label, b_label)
    short = short_form(again, noun, spec, plural, than)
    agree = again.side == first.side and again.measured == first.measured
    if agree:
        tail = f", as in {earlier}"
    elif not again.measured and not first.measured and again.side * first.side < 0:
        tail = f", as {earlier} were"  # two differences within the noise have no direction to reverse
    elif again.side * first.side < 0:
        tail = f", the other way round from {earlier}"
    elif first.side == 0:
        tail = f", where {earlier} tied"
    elif again.side == 0:
        tail = f", where {earlier} differed"
    else:
        tail = f", unlike {earlier}"
    row = sure_row(what or _what(again, None), again, noun, spec, plural)
    return Claim(name, agree, yes=short + tail, no=short + tail, detail=_detail(again, None, noun, spec),
                 sure=row)


def both_pairs(subject: str, first: Comparison, again: Comparison, words: Callable[[int], str]) -> str:
    """The plain answer of one comparison read on both pairs of runs (run 1 of each setting, then run 2 of
    each, `Comparison.on_second_runs`): what both pairs show, or where they part. ``subject`` names the
    first setting as it stands inside a sentence ("global pooling"), and ``words(side)`` is its predicate
    for a side (+1, -1, and 0 for neither way).

    >>> a = Runs("A", [[1] * 150 + [0] * 50, [1] * 148 + [0] * 52])
    >>> b = Runs("B", [[0] * 50 + [1] * 100 + [0] * 50] * 2)
    >>> def right(side):
    ...     return f"gets {({1: 'more', -1: 'fewer'}).get(side, 'neither more nor fewer')} rows right than B"
    >>> both_pairs("the wide network", Comparison(a, b), Comparison(a, b).on_second_runs("A", "B"), right)
    'In both pairs of runs, the wide network gets more rows right than B, beyond the noise.'
    >>> c = Runs("C", [[1] * 150 + [0] * 50, [1] * 101 + [0] * 99])
    >>> both_pairs("the wide network", Comparison(c, b), Comparison(c, b).on_second_runs("C", "B"), right)
    'The wide network gets more rows right than B beyond the noise in the first pair of runs, but not in the second.'
    """
    for name, comparison in (("first", first), ("again", again)):
        if not isinstance(comparison, Comparison):
            raise ValueError(f"{name} must be a Comparison, got {comparison!r}")
    if not isinstance(subject, str) or not subject.strip():
        raise ValueError(f"subject must name the first setting, got {subject!r}")
    start = subject[0].upper() + subject[1:]
    if first.measured and again.measured and first.side == again.side:
        return f"In both pairs of runs, {subject} {words(first.side)}, beyond the noise."
    if not first.measured and not again.measured:
        return f"{start} {words(0)}: both pairs of runs stay within the noise."
    if first.measured and again.measured:
        return (f"{start} {words(first.side)} in the first pair of runs and the opposite in the second, "
                "each beyond the noise.")
    clear, unclear = ("first", "second") if first.measured else ("second", "first")
    side = first.side if first.measured else again.side
    return f"{start} {words(side)} beyond the noise in the {clear} pair of runs, but not in the {unclear}."


def how_sure(*extra: tuple[str, SureRow]) -> None:
    """Show the lesson's "How sure is this?" table: a row for every comparison recorded so far with
    `measured` or `measured_again` (and any ``(name, SureRow)`` of ``extra``), in recording order, with
    its change, run-to-run spread (in rows, and as a share), paired test (two standard errors of the
    paired difference, or McNemar's exact p with the split of the disagreeing rows) and verdict.

    >>> registry.clear()
    >>> a = Runs("A", [[1] * 150 + [0] * 50, [1] * 148 + [0] * 52])
    >>> b = Runs("B", [[0] * 50 + [1] * 100 + [0] * 50] * 2)
    >>> record(measured("a_against_b", Comparison(a, b), what="A against B"))
    >>> how_sure()
    >>> print(registry.displays()[-1][1])
    | comparison | change | run-to-run spread | paired test | verdict |
    |:---|---:|---:|---:|---:|
    | A against B | +50 rows (+0.2500) | 2 (0.0100) | 2 SE = 0.0612 | beyond the noise |
    """
    rows = registry.sure_rows() + list(extra)
    for name, row in extra:
        require_quotable_name("extra", name)
        if not isinstance(row, SureRow):
            raise ValueError(f"{name}: an extra row must be a SureRow, got {row!r}")
    if not rows:
        raise ValueError("how_sure: no comparison was recorded with measured() and no extra row was given")
    show_table(SURE_HEADER, [row.cells for _, row in rows], left=1)


SECOND_RUN_CLAIM = "second_run_outweighs_change"
"""The name of every lesson's closing claim (`second_run_outweighs`), which the Course Wrap-Up counts."""


def second_run_outweighs(network: Runs, change: float | Comparison, *, subject: str | None = None,
                         between: str | None = None, spec: str = ".4f") -> Claim:
    """The course's closing question for a lesson: did the second run move the network's number more
    than the change the lesson studied (capacity, depth, heads, an architecture)?

    ``network`` holds the lesson's one network's runs: its number and its second run are the pair the
    lesson reports everywhere (overview, tables, the Course Wrap-Up's row). ``change`` is the studied
    change, signed (or the `Comparison` that measured it); the sentence says what ``subject`` *adds* or
    *takes away*, or, for a spread that has no sign, what lies ``between`` the settings. Right-or-wrong
    scores are compared in whole rows, so that equal counts compare equal.

    >>> network = Runs("the network", [[1] * 80 + [0] * 20, [1] * 78 + [0] * 22])
    >>> second_run_outweighs(network, -0.05, subject="depth").says
    "The second run moves the network's number by 0.0200, less than the 0.0500 that depth takes away."
    >>> second_run_outweighs(network, 0.01, between="the good runs").says
    "The second run moves the network's number by 0.0200, more than the 0.0100 between the good runs."
    >>> second_run_outweighs(network, 0.0, subject="depth").says
    "The second run moves the network's number by 0.0200, while depth leaves it where it was."
    >>> again = Runs("the network", [[1] * 80 + [0] * 20, [0] + [1] * 80 + [0] * 19])
    >>> second_run_outweighs(again, -0.05, subject="depth").says
    "The second run gives the network's number again exactly, while depth takes away 0.0500."
    """
    if not isinstance(network, Runs) or len(network.scores) < 2:
        raise ValueError(f"network must be the lesson's network as Runs with a second run, got {network!r}")
    if (subject is None) == (between is None):
        raise ValueError("give either subject (what makes the change) or between (what a spread lies between)")
    words = subject if subject is not None else between
    if not isinstance(words, str) or not words.strip():
        raise ValueError(f"{'subject' if subject is not None else 'between'} must be words, got {words!r}")
    if isinstance(change, Comparison):
        if change.rows != network.rows:
            raise ValueError(f"change must be measured on the network's {network.rows} rows, got {change.rows}")
        change = change.change
    _require_change("change", change)
    if between is not None and change < 0:
        raise ValueError(f"a spread between settings is not negative, got {change!r}")
    first, second = network.totals[network.judged], network.totals[network.second]
    if network.binary:
        run_rows, change_rows = abs(first - second), abs(round(change * network.rows))
        outweighs = run_rows > change_rows
    else:
        outweighs = abs(first - second) / network.rows > abs(change)
    run = abs(first - second) / network.rows
    if run == 0:  # nothing moved: say what the change does instead of "moves it no more than"
        head = "The second run gives the network's number again exactly"
        if between is not None:
            sentence = f"{head}, while {change:{spec}} lies between {between}."
        elif change == 0:
            sentence = f"{head}, and {subject} leaves the number where it was too."
        else:
            sentence = f"{head}, while {subject} {'adds' if change > 0 else 'takes away'} {abs(change):{spec}}."
        return Claim(SECOND_RUN_CLAIM, outweighs, yes=sentence, no=sentence)
    head = f"The second run moves the network's number by {run:{spec}}"
    if between is None and change == 0:  # nothing to weigh the run against: say what the change does
        sentence = f"{head}, while {subject} leaves it where it was."
        return Claim(SECOND_RUN_CLAIM, outweighs, yes=sentence, no=sentence)
    if network.binary:
        level = run_rows == change_rows
    else:
        level = abs(first - second) / network.rows == abs(change)
    comparison = "more than" if outweighs else "as much as" if level else "less than"
    if between is not None:
        tail = f"the {change:{spec}} between {between}"
    else:
        tail = f"the {abs(change):{spec}} that {subject} {'adds' if change > 0 else 'takes away'}"
    sentence = f"{head}, {comparison} {tail}."
    return Claim(SECOND_RUN_CLAIM, outweighs, yes=sentence, no=sentence)


def _require_change(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ValueError(f"{name} must be a number, got {value!r}")
    return value

