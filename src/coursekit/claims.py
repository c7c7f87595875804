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

    def __post_init__(self):
        require_quotable_name("name", self.name)
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
    if not record:
        raise ValueError("claims: record at least one Claim")
    return record


def record(*claims: Claim) -> None:
    """Quote each claim's sentence under its name and record all of them as one `CLAIMS_MIME` output
    (outside IPython they are only kept in `coursekit.registry`)."""
    recorded = claims_record(claims)
    registry.record_claims(recorded)
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


def measured(name: str, comparison: Comparison, *, subject: str | None = None, noun: str = "row",
             spec: str = ".4f") -> Claim:
    r"""The course's standard claim that a difference *is measured*: beyond both the run-to-run spread
    and the sampling error of the paired difference (`coursekit.noise.Comparison`).

    The sentence keeps the sign in words: with ``subject`` it says what the first setting *adds* to the
    second or *takes away* (``"Depth takes away 0.1850 (47 grids)"``), without it which is *ahead*
    (``"The wide network is ahead of the narrow one by ..."``); ``noun`` counts the test rows
    (``"subscriber"``). Then it names each yardstick and whether the change clears it.

    >>> wide = Runs("The wide network", [[1] * 90 + [0] * 10, [1] * 88 + [0] * 12])
    >>> narrow = Runs("the narrow one", [[0] * 20 + [1] * 70 + [0] * 10, [0] * 21 + [1] * 69 + [0] * 10])
    >>> print(measured("width_measured", Comparison(wide, narrow), noun="subscriber").says)
    ... # doctest: +NORMALIZE_WHITESPACE
    The wide network is ahead of the narrow one by 0.2000 (20 subscribers), more than the run-to-run
    spread (0.0200), and the 20 subscribers on which the two disagree split 20 to 0 (McNemar's exact
    test: p < 0.001, under 0.05): a measured difference.
    >>> print(measured("width_measured", Comparison(narrow, wide), subject="Narrowing").says)
    ... # doctest: +NORMALIZE_WHITESPACE
    Narrowing takes away 0.2000 (20 rows), more than the run-to-run spread (0.0200), and the 20 rows on
    which the two disagree split 0 to 20 (McNemar's exact test: p < 0.001, under 0.05): a measured
    difference.

    With many disagreeing rows, two standard errors decide; each outcome names both yardsticks:

    >>> def runs(label, first, second, n=200):
    ...     return Runs(label, [[1] * first + [0] * (n - first), [1] * second + [0] * (n - second)])
    >>> def says(a, b):
    ...     return measured("x_measured", Comparison(a, b), noun="row").says
    >>> low = Runs("the low one", [[0] * 50 + [1] * 100 + [0] * 50] * 2)
    >>> print(says(runs("The high one", 150, 148), low))  # doctest: +NORMALIZE_WHITESPACE
    The high one is ahead of the low one by 0.2500 (50 rows), more than the run-to-run spread (0.0100)
    and more than two standard errors of the paired difference (0.0612): a measured difference.
    >>> print(says(runs("The high one", 106, 104), low))  # doctest: +NORMALIZE_WHITESPACE
    The high one is ahead of the low one by 0.0300 (6 rows), more than the run-to-run spread (0.0100),
    but no more than two standard errors of the paired difference (0.0969): not a measured difference.
    >>> print(says(runs("The high one", 150, 80), low))  # doctest: +NORMALIZE_WHITESPACE
    The high one is ahead of the low one by 0.2500 (50 rows), no more than the run-to-run spread
    (0.3500), though more than two standard errors of the paired difference (0.0612): not a measured
    difference.
    >>> print(says(runs("The high one", 106, 60), low))  # doctest: +NORMALIZE_WHITESPACE
    The high one is ahead of the low one by 0.0300 (6 rows), no more than the run-to-run spread (0.2300)
    or two standard errors of the paired difference (0.0969): not a measured difference.

    A tie, with and without a subject:

    >>> same = Runs("the same network", [[1] * 90 + [0] * 10])
    >>> print(measured("gain_measured", Comparison(wide, same)).says)
    The wide network and the same network score the same (0.9000): not a measured difference.
    >>> print(measured("gain_measured", Comparison(wide, same), subject="Widening").says)
    Widening leaves the number where it was (both 0.9000): not a measured difference.
    >>> swapped = Runs("the swapped one", [[0] + [1] * 90 + [0] * 9, [1] * 88 + [0] * 12])
    >>> print(measured("gain_measured", Comparison(wide, swapped), subject="Swapping", noun="grid").says)
    ... # doctest: +NORMALIZE_WHITESPACE
    Swapping leaves the number where it was (both 0.9000), though the two disagree on 2 grids, 1 each
    way: not a measured difference.
    """
    if not isinstance(comparison, Comparison):
        raise ValueError(f"{name}: comparison must be a coursekit.noise.Comparison of the two settings' runs, "
                         f"got {comparison!r}")
    if subject is not None and (not isinstance(subject, str) or not subject.strip()):
        raise ValueError(f"{name}: subject must name what makes the change, got {subject!r}")
    if not isinstance(noun, str) or not noun.strip():
        raise ValueError(f"{name}: noun must name a test row, got {noun!r}")
    change = comparison.change
    count = f" ({counted(abs(comparison.change_count), noun)})" if comparison.binary else ""
    if change == 0:
        value = comparison.a.number
        head = (f"{subject} leaves the number where it was (both {value:{spec}})" if subject is not None else
                f"{comparison.a.label} and {comparison.b.label} score the same ({value:{spec}})")
        differ = sum(comparison.disagreements) if comparison.binary else 0
        if differ:
            head += f", though the two disagree on {counted(differ, noun)}, {differ // 2} each way"
        same = f"{head}: not a measured difference."
        return Claim(name, False, yes=same, no=same)
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
    return Claim(name, comparison.measured, yes=f"{head}, {reason}: a measured difference.",
                 no=f"{head}, {reason}: not a measured difference.")


def measured_again(name: str, first: Comparison, a_label: str, b_label: str, *, noun: str = "row",
                   earlier: str = "the first runs", spec: str = ".4f") -> Claim:
    """The same comparison as ``first`` read on the two settings' second runs, with its `measured`
    sentence and whether it agrees: the claim holds when the second runs keep the first runs' side and
    verdict. A verdict read from first runs is one draw of initial values; the reader sees the second
    runs beside it, and this says whether they tell the same story.

    >>> a = Runs("A", [[1] * 150 + [0] * 50, [1] * 148 + [0] * 52])
    >>> b = Runs("B", [[0] * 50 + [1] * 100 + [0] * 50] * 2)
    >>> print(measured_again("again", Comparison(a, b), "A's second run", "B's").says)
    ... # doctest: +NORMALIZE_WHITESPACE
    A's second run is ahead of B's by 0.2400 (48 rows), more than the run-to-run spread (0.0100) and more
    than two standard errors of the paired difference (0.0636): a measured difference, as in the first
    runs.
    """
    if not isinstance(first, Comparison):
        raise ValueError(f"{name}: first must be the Comparison of the first runs, got {first!r}")
    again = first.on_second_runs(a_label, b_label)
    words = measured(name, again, noun=noun, spec=spec).says[:-1]
    agree = again.side == first.side and again.measured == first.measured
    if agree:
        tail = f", as in {earlier}."
    elif again.side * first.side < 0:
        tail = f", the other way round from {earlier}" + (
            f", so the verdict above rests on {earlier} alone." if first.measured else ".")
    elif again.side != first.side:
        verb = "were" if earlier.endswith("s") else "was"
        tail = f", where {earlier} {verb}{'' if first.side == 0 else ' not'} level."
    elif first.measured:
        tail = f", unlike {earlier}, so the verdict above rests on {earlier} alone."
    else:
        tail = f", unlike {earlier}."
    return Claim(name, agree, yes=words + tail, no=words + tail)


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
    "The second run moves the network's number by 0.0200, no more than the 0.0500 that depth takes away."
    >>> second_run_outweighs(network, 0.01, between="the good runs").says
    "The second run moves the network's number by 0.0200, more than the 0.0100 between the good runs."
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
    if run == 0:
        head = "The second run gives the network's number again exactly"
        comparison = "so it moves it no more than"
    else:
        head = f"The second run moves the network's number by {run:{spec}}"
        comparison = "more than" if outweighs else "no more than"
    if between is not None:
        tail = f"the {change:{spec}} between {between}"
    elif change == 0:
        tail = f"{subject}, which leaves the number where it was"
    else:
        tail = f"the {abs(change):{spec}} that {subject} {'adds' if change > 0 else 'takes away'}"
    sentence = f"{head}, {comparison} {tail}."
    return Claim(SECOND_RUN_CLAIM, outweighs, yes=sentence, no=sentence)


def _require_change(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ValueError(f"{name} must be a number, got {value!r}")
    return value

