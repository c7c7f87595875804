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
from .checks import require_positive_int
from .noise import is_measured
from .prose import glue, require_quotable_name

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


def measured(name: str, what: str, change: float, second_run_difference: float, sampling_error: float,
             spec: str = "+.4f") -> Claim:
    r"""The course's standard claim that a change *is measured*: larger, by size, than both the second
    run's difference and the test number's sampling error (`coursekit.noise.is_measured`). ``what``
    names the change as the sentence starts (``"What the hidden layer adds"``); the sentence says
    which yardstick it clears.

    >>> print(measured("gain", "The gain", 0.004, 0.016, 0.026).says)  # doctest: +NORMALIZE_WHITESPACE
    The gain, +0.0040, is no larger than the second run's difference (0.0160) or the sampling error
    (0.0260): not a measured difference.
    """
    if not isinstance(what, str) or not what.strip():
        raise ValueError(f"{name}: what must name the change, got {what!r}")
    holds = is_measured(change, second_run_difference, sampling_error)
    run, error = abs(second_run_difference), sampling_error
    beyond_run, beyond_error = abs(change) > run, abs(change) > error
    yardsticks = (f"the second run's difference ({run:.4f})", f"the sampling error ({error:.4f})")
    if beyond_run and beyond_error:
        reason = f"is larger than both {yardsticks[0]} and {yardsticks[1]}"
    elif beyond_run:
        reason = f"is larger than {yardsticks[0]} but not than {yardsticks[1]}"
    elif beyond_error:
        reason = f"is larger than {yardsticks[1]} but not than {yardsticks[0]}"
    else:
        reason = f"is no larger than {yardsticks[0]} or {yardsticks[1]}"
    head = f"{what}, {change:{spec}}, "
    return Claim(name, holds, yes=f"{head}{reason}: a measured difference.",
                 no=f"{head}{reason}: not a measured difference.")


SECOND_RUN_CLAIM = "second_run_outweighs_change"
"""The name of every lesson's closing claim (`second_run_outweighs`), which the Course Wrap-Up counts."""


def second_run_outweighs(what: str, change: float, second_run_difference: float,
                         spec: str = ".4f", examples: int | None = None) -> Claim:
    """The course's closing question for a lesson: did the second run move the number more than the
    change the lesson studied (capacity, depth, heads, an architecture)? ``what`` names that change as
    the sentence ends (``"the hidden layer adds"``); both differences are compared by size. Given
    ``examples`` (the size of the set both accuracies were counted on), they are compared in whole
    examples, so that equal counts compare equal whatever the floating-point rounding.

    >>> second_run_outweighs("the hidden layer adds", 0.004, -0.0159).says
    'The second run moves the number by 0.0159, more than the 0.0040 the hidden layer adds.'
    >>> second_run_outweighs("the width adds", 5 / 252, 0.7738 - 0.7540, examples=252).holds
    False
    """
    if not isinstance(what, str) or not what.strip():
        raise ValueError(f"what must name the change the lesson studied, got {what!r}")
    for name, value in (("change", change), ("second_run_difference", second_run_difference)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{name} must be a number, got {value!r}")
    if examples is not None:
        require_positive_int("examples", examples)
        change = round(change * examples) / examples
        second_run_difference = round(second_run_difference * examples) / examples
    run, studied = abs(second_run_difference), abs(change)
    head = f"The second run moves the number by {run:{spec}}"
    return Claim(SECOND_RUN_CLAIM, run > studied,
                 yes=f"{head}, more than the {studied:{spec}} {what}.",
                 no=f"{head}, no more than the {studied:{spec}} {what}.")
