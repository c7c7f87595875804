"""Every verdict measured: the lessons' conclusions are computed claims (`coursekit.claims`).

For the course seed and for another seed, a lesson on the claims pattern records at least three claims,
the same names under both seeds; the text shows each claim where it names it, and the words shown are
the words the claim chose; no sentence of its prose judges a quoted number with words of its own.
"""

import ast
import re

import pytest
from conftest import LESSONS
from test_lessons import claim_names, code_cells

from booktools.outputs import glued_texts, recorded_claims
from coursekit.claims import SECOND_RUN_CLAIM, Claim, claims_record, measured, sampling_words, second_run_outweighs
from coursekit.noise import (
    Comparison,
    Paired,
    Runs,
    disagreements,
    mcnemar_p,
    paired_standard_error,
    paired_standard_error_of_mean,
    standard_error,
)

ON_PATTERN = LESSONS
"""Every lesson of the book is on the claims pattern."""
MIN_CLAIMS = 3

# --- the helpers -----------------------------------------------------------------------------------------


def test_a_claim_says_the_sentence_its_condition_chose():
    assert Claim("gain_measured", True, yes="It is measured.", no="It is not.").says == "It is measured."
    assert Claim("gain_measured", False, yes="It is measured.", no="It is not.").says == "It is not."
    assert claims_record([Claim("a", 1 < 2, "yes.", "no.")]) == {"a": {"holds": True, "says": "yes."}}


def test_a_sentence_given_as_a_function_is_written_only_for_its_outcome():
    found = []
    claim = Claim("any_found", bool(found), yes=lambda: f"Found {found[0]}.", no="Nothing found.")
    assert claim.says == "Nothing found."  # found[0] would raise: the yes sentence was never written
    found.append(7)
    assert Claim("any_found", bool(found), yes=lambda: f"Found {found[0]}.", no="Nothing.").says == "Found 7."
    with pytest.raises(ValueError, match="^a: the sentence written for this outcome"):
        Claim("a", True, yes=lambda: "", no="no.")


@pytest.mark.parametrize("arguments, named", [
    (("a", 1, "yes.", "no."), "holds"),             # a number, not a computed comparison
    (("a", None, "yes.", "no."), "holds"),
    (("a", True, "", "no."), "yes"),                # a missing wording
    (("a", True, "yes.", "   "), "no"),
    (("a", True, "yes.", None), "no"),
    (("Capacity", True, "yes.", "no."), "name"),    # not a name the text can {eval}
    (("two words", True, "yes.", "no."), "name"),
])
def test_a_bad_claim_is_refused_by_name(arguments, named):
    with pytest.raises(ValueError, match=named):
        Claim(*arguments)


def test_a_repeated_or_missing_claim_is_refused():
    with pytest.raises(ValueError, match="gain: a claim name is recorded once"):
        claims_record([Claim("gain", True, "y.", "n."), Claim("gain", False, "y.", "n.")])
    with pytest.raises(ValueError, match="at least one"):
        claims_record([])
    with pytest.raises(ValueError, match="Claim objects"):
        claims_record([{"gain": True}])


def test_standard_error_of_an_accuracy():
    # a binomial proportion: 0.8 over 252 examples, sqrt(0.16 / 252), by hand 0.025197...
    assert standard_error(0.8, 252) == pytest.approx(0.0251976, abs=1e-7)
    assert standard_error(1.0, 10) == 0.0
    for bad, named in (((1.2, 252), "accuracy"), ((0.5, 0), "examples"), ((True, 5), "accuracy")):
        with pytest.raises(ValueError, match=named):
            standard_error(*bad)


def hits_table(both: int, only_a: int, only_b: int, neither: int) -> tuple[list[int], list[int]]:
    """Two networks' hits on the same rows, from the four cells of their 2 x 2 table."""
    a = [1] * both + [1] * only_a + [0] * only_b + [0] * neither
    b = [1] * both + [0] * only_a + [1] * only_b + [0] * neither
    return a, b


def test_the_paired_standard_error_against_hand_worked_tables():
    # 252 rows: 180 both right, 10 only A, 4 only B, 58 neither. Difference (10 - 4) / 252 = 0.0238;
    # per-row differences: ten +1, four -1, the rest 0; mean 6/252; their variance
    # (14 / 252 - (6 / 252)^2) = 0.055556 - 0.000567 = 0.054989; SE = sqrt(0.054989 / 252) = 0.014772.
    a, b = hits_table(180, 10, 4, 58)
    assert disagreements(a, b) == (10, 4)
    assert paired_standard_error(10, 4, 252) == pytest.approx(0.014772, abs=1e-6)
    assert paired_standard_error_of_mean(a, b) == pytest.approx(paired_standard_error(10, 4, 252), abs=1e-15)
    # Disagreeing rows only: 3 rows, A right on 2, B on 1: d = (+1, +1, -1), mean 1/3, variance 8/9,
    # SE = sqrt(8 / 27) = 0.544331.
    assert paired_standard_error(2, 1, 3) == pytest.approx(0.544331, abs=1e-6)
    assert paired_standard_error(0, 0, 100) == 0.0  # the two agree everywhere: the difference is 0, exactly


def test_the_paired_error_is_smaller_than_two_independent_ones_when_the_networks_agree():
    # Two accuracies of 0.80 and 0.77 on 252 rows, counted as if independent: sqrt(2 * 0.8 * 0.2 / 252)
    # = 0.0356. Two networks that disagree on 14 rows only: 0.0148.
    assert paired_standard_error(10, 4, 252) < (standard_error(0.8, 252) ** 2 + standard_error(0.77, 252) ** 2) ** 0.5


def test_mcnemar_exact_against_the_binomial_by_hand():
    assert mcnemar_p(5, 0) == 2 / 32          # 0.0625: five of five is not under 5%
    assert mcnemar_p(6, 0) == 2 / 64          # 0.03125: six of six is
    assert mcnemar_p(6, 1) == 2 * (1 + 7) / 128
    assert mcnemar_p(9, 3) == pytest.approx(2 * (1 + 12 + 66 + 220) / 4096)   # 0.1460
    assert mcnemar_p(3, 9) == mcnemar_p(9, 3)
    assert mcnemar_p(4, 4) == 1.0 and mcnemar_p(0, 0) == 1.0
    with pytest.raises(ValueError, match="only_a"):
        mcnemar_p(-1, 2)


def test_runs_spread_and_second_run():
    runs = Runs("x", [[1, 1, 1, 0], [1, 0, 0, 0], [1, 1, 0, 0]], judged=2)
    assert runs.numbers == (0.75, 0.25, 0.5) and runs.number == 0.5
    assert runs.spread == 0.5             # the range of three runs, not one pair's difference
    assert runs.second == 1 and runs.second_run == 0.25   # the judged run is the last: the one before
    for bad, named in ((dict(label="", scores=[[1]]), "label"), (dict(label="x", scores=[]), "at least one run"),
                       (dict(label="x", scores=[[1, 0], [1]]), "same, non-empty rows"),
                       (dict(label="x", scores=[[1, 0]], judged=1), "judged")):
        with pytest.raises(ValueError, match=named):
            Runs(**bad)


def test_a_comparison_reads_the_larger_spread_of_the_two_settings_in_rows():
    a = Runs("A", [hits_table(180, 10, 4, 58)[0], [1] * 186 + [0] * 66])   # 190 and 186 right: 4 apart
    b = Runs("B", [hits_table(180, 10, 4, 58)[1], [1] * 183 + [0] * 69])   # 184 and 183 right: 1 apart
    comparison = Comparison(a, b)
    assert comparison.change_count == 6 and comparison.spread == 4 / 252 and comparison.beyond_spread
    # 14 disagreeing rows, under 25: McNemar's exact test decides, 2 * (1 + 14 + 91 + 364 + 1001) / 2**14
    assert comparison.disagreements == (10, 4) and comparison.exact
    assert comparison.p_value == pytest.approx(0.17957, abs=1e-5)
    assert not comparison.beyond_sampling and not comparison.measured
    with pytest.raises(ValueError, match="second run"):
        Comparison(Runs("A", [[1, 0]]), Runs("B", [[0, 1]]))     # no spread was measured
    with pytest.raises(ValueError, match="same rows"):
        Comparison(Runs("A", [[1, 0], [1, 1]]), Runs("B", [[0, 1, 1]]))


def test_two_standard_errors_decide_with_many_disagreements():
    # 60 only A, 30 only B, on 500 rows: difference 30 / 500 = 0.06; SE = sqrt(90 - 900 / 500) / 500
    # = sqrt(88.2) / 500 = 0.018783; two of them 0.037566 < 0.06: beyond sampling error.
    a, b = hits_table(300, 60, 30, 110)
    comparison = Comparison(Runs("A", [a, a]), Runs("B", [b, b]))
    assert not comparison.exact
    assert comparison.sampling_error == pytest.approx(2 * 0.0187830, abs=1e-6)
    assert comparison.beyond_sampling and comparison.measured
    # the same difference from 30 only A, 0 only B... has a tiny SE, and 10 to 40 is a loss
    a, b = hits_table(300, 10, 40, 150)
    assert Comparison(Runs("A", [a, a]), Runs("B", [b, b])).change == -0.06


def test_the_measured_sentence_keeps_its_sign_and_names_both_yardsticks():
    """The short form carries the sign in words and one verdict; the detail and the table's row name
    both yardsticks."""
    a, b = hits_table(300, 30, 60, 110)
    behind = measured("x_measured", Comparison(Runs("The plain network", [a, a]), Runs("the other", [b, b])),
                      noun="subscriber")
    assert behind.holds and behind.says == "30 subscribers fewer (-0.0600), beyond the noise"
    assert behind.detail.startswith("The plain network is behind the other by 0.0600 (30 subscribers)")
    assert "two standard errors of the paired difference (0.0376)" in behind.detail
    assert behind.sure.cells == ("the plain network against the other", "-30 subscribers (-0.0600)", "0 (0.0000)",
                                 "2 SE = 0.0376", "beyond the noise")
    takes = measured("x_measured", Comparison(Runs("A", [a, a]), Runs("B", [b, b])), subject="Depth")
    assert takes.detail.startswith("Depth takes away 0.0600 (30 rows), more than the run-to-run spread (0.0000)")
    assert takes.sure.what == "Depth"
    spread_only = Comparison(Runs("A", [a, [1] * 500]), Runs("B", [b, b]))     # A: 330 and 500 right
    claim = measured("x_measured", spread_only)
    assert not claim.holds and claim.says == "30 rows fewer (-0.0600), within the noise"
    assert "no more than the run-to-run spread (0.3400), though more than two standard errors" in claim.detail
    assert claim.sure.verdict == "within the noise" and claim.sure.spread == "170 (0.3400)"
    with pytest.raises(ValueError, match="Comparison"):
        measured("x_measured", 0.03)
    with pytest.raises(ValueError, match="what it compares"):
        measured("x_measured", Paired(a, b))


def test_the_short_form_stays_short_and_the_table_holds_every_comparison():
    from coursekit import registry
    from coursekit.claims import SURE_HEADER, how_sure, record

    registry.clear()
    a, b = hits_table(300, 30, 60, 110)
    settings = (Runs("A", [a, b]), Runs("B", [b, a]), Runs("C", [a, a]))
    claims = [measured(f"c{k}_measured", Comparison(x, y), noun="subscriber")
              for k, (x, y) in enumerate(zip(settings, settings[1:]))]
    claims.append(measured("fixed_measured", Paired(a, b), what="rule A against rule B", noun="subscriber"))
    record(*claims)
    assert all(len(claim.says.split()) <= 15 for claim in claims)
    how_sure()
    mime, table = registry.displays()[-1]
    lines = table.splitlines()
    assert mime == "text/markdown" and lines[0] == "| " + " | ".join(SURE_HEADER) + " |"
    assert [line.split(" | ")[0].lstrip("| ") for line in lines[2:]] == [
        "A against B", "B against C", "rule A against rule B"]
    registry.clear()
    with pytest.raises(ValueError, match="no comparison"):
        how_sure()


def test_the_closing_claim_reads_the_networks_own_pair():
    network = Runs("the network", [[1] * 190 + [0] * 62, [1] * 185 + [0] * 67])    # 5 rows apart
    claim = second_run_outweighs(network, 4 / 252, subject="depth")
    assert claim.name == SECOND_RUN_CLAIM and claim.holds
    assert claim.says == ("The second run moves the network's number by 0.0198, more than the 0.0159 "
                          "that depth adds.")
    assert not second_run_outweighs(network, -5 / 252, subject="depth").holds     # equal counts: not more
    assert "takes away" in second_run_outweighs(network, -5 / 252, subject="depth").says
    with pytest.raises(ValueError, match="second run"):
        second_run_outweighs(Runs("one run", [[1, 0]]), 0.1, subject="depth")
    with pytest.raises(ValueError, match="either subject"):
        second_run_outweighs(network, 0.1)
    with pytest.raises(ValueError, match="rows"):
        second_run_outweighs(network, Comparison(Runs("A", [[1, 0], [0, 0]]), Runs("B", [[0, 1]])),
                             subject="depth")


# --- the lessons -----------------------------------------------------------------------------------------

def claim_names_in_code(lesson) -> list[str]:
    """The names of the claims a lesson's code builds (`test_lessons.claim_names`)."""
    return [name for source in code_cells(lesson) for name in claim_names(ast.parse(source))]


@pytest.mark.parametrize("lesson", ON_PATTERN, ids=lambda lesson: lesson.stem)
def test_lesson_records_its_claims_and_shows_the_chosen_words(lesson, executed_lessons, other_seed_lessons):
    names = {}
    for seed, (notebook, error) in (("course seed", executed_lessons[lesson.stem]),
                                    ("other seed", other_seed_lessons[lesson.stem])):
        assert error is None, f"{lesson.stem} ({seed}) failed to execute:\n{error}"
        claims, problems = recorded_claims(notebook)
        assert not problems, f"{lesson.stem} ({seed}): malformed claims: {problems}"
        assert len(claims) >= MIN_CLAIMS, f"{lesson.stem} ({seed}) records {len(claims)} claims"
        glued = glued_texts(notebook)
        for name, entry in claims.items():
            assert glued.get(name) == repr(entry["says"]), (
                f"{lesson.stem} ({seed}): the text of claim {name} is not the sentence it recorded")
        names[seed] = set(claims)
    assert names["course seed"] == names["other seed"], f"{lesson.stem}: the claims differ between seeds"
    text = lesson.path.read_text(encoding="utf-8")
    shown = set(re.findall(r"\{eval\}`([^`]+)`", text))
    assert names["course seed"] <= shown, f"{lesson.stem}: claims never shown: {names['course seed'] - shown}"
    assert sorted(claim_names_in_code(lesson)) == sorted(names["course seed"])


# A sentence judges a number when it compares, ranks or rules on it. These are the words the lessons
# used to type; a sentence that shows a quoted number beside one of them takes its verdict from a
# claim. ("best" and "worst" naming the run a maximum picked, and "the same" describing the method,
# "the same data", do not judge.)
VERDICT_WORDS = (
    r"more than", r"less than", r"fewer than", r"larger", r"smaller", r"higher", r"lower", r"greater",
    r"better", r"worse", r"(best|worst)(?!( [\w-]+){0,2} runs?\b| (of|point|setting|candidate)\b)",
    r"beats?", r"exceeds?", r"within the noise",
    r"(inside|outside) the", r"above", r"below", r"never", r"always", r"does not", r"did not",
    r"no (better|worse|gain|effect|difference)", r"rises", r"drops", r"falls", r"improves", r"hurts",
    r"wins", r"loses", r"narrower", r"wider", r"faster", r"slower", r"hardly", r"barely", r"clearly",
    r"equals?", r"(exactly|nearly|almost|about|roughly|much|practically) the same",
    r"the same (as|number|numbers|value|values|accuracy|result|results|score|band)",
)
VERDICT = re.compile(r"\b(" + "|".join(VERDICT_WORDS) + r")\b", re.I)


def prose_sentences(lesson) -> list[str]:
    """The lesson's text (answers included) without code cells and front matter, as sentences."""
    text = lesson.path.read_text(encoding="utf-8").split("---", 2)[2]
    text = re.sub(r"```\{code-cell\}.*?```", " ", text, flags=re.S)
    text = re.sub(r"^\s*[:#]+.*$", " ", text, flags=re.M)  # headings, directive fences and options
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    return [s for s in re.split(r"(?<=[.!?:;])\s+|\n\s*\n|\n\s*- ", text) if s.strip()]


def typed_verdicts(lesson, claims: set[str]) -> list[str]:
    """Sentences that show a quoted number next to a verdict word of their own, without a claim."""
    found = []
    for sentence in prose_sentences(lesson):
        evaluated = set(re.findall(r"\{eval\}`([^`]+)`", sentence))
        if evaluated and not evaluated & claims:
            words = " ".join(re.sub(r"\{[a-z]+\}`[^`]*`|`[^`]*`|\$[^$]*\$", " ", sentence).split())
            if VERDICT.search(words):
                found.append(" ".join(sentence.split()))
    return found


@pytest.mark.parametrize("lesson", ON_PATTERN, ids=lambda lesson: lesson.stem)
def test_no_typed_verdict_about_a_measured_number(lesson):
    found = typed_verdicts(lesson, set(claim_names_in_code(lesson)))
    assert not found, (f"{lesson.stem}: sentences judge a quoted number in words of their own (take the "
                       f"verdict from a claim, or describe the method):\n- " + "\n- ".join(found))


def test_the_verdict_check_can_fail(tmp_path):
    from booktools.lessons import Lesson

    page = tmp_path / "01-x.md"
    page.write_text("---\nfront: matter\n---\n\nThe network reaches {eval}`number`, far more than the "
                    "baseline.\n\n{eval}`gain_measured` It trains for {eval}`epochs` epochs.\n")
    lesson = Lesson(1, "x", "fundamentals", page)
    assert typed_verdicts(lesson, {"gain_measured"}) == [
        "The network reaches {eval}`number`, far more than the baseline."]


# --- quoted text reads as English ------------------------------------------------------------------------

BADLY_WORDED = {
    r"\bby (0|no) \w+s\b": "a difference of nothing written as a distance ('by 0 subscribers')",
    r"\b1 (subscriber|grid|sequence|run|row|lesson|unit|seed|epoch|layer|pair|step|code|candidate)s\b":
        "a plural after 1",
    r"-\d\.\d+, is (larger|no larger|more|no more)": "a negative number 'is larger than' (the sign in words)",
    r"\+0\.0000, is": "'+0.0000, is ...' (a tie in words)",
    r"\b(\d+) and \1 of its \1\b": "'N and N of its N'",
    r"and not in the other 1\b": "'not in the other 1'",
    r": [A-Z][a-z]+ (?:network|second|run)": "a capital after a colon",
    r"\bin only 0\b": "'in only 0'",
    r"\(s\)": "a noun with '(s)'",
}
BADLY = re.compile("|".join(f"(?:{pattern})" for pattern in BADLY_WORDED))


def badly_worded(texts: dict) -> list[str]:
    """The quoted texts (name: text) that match a pattern of `BADLY_WORDED`, each with its reason."""
    found = []
    for name, text in texts.items():
        for pattern, reason in BADLY_WORDED.items():
            if re.search(pattern, str(text)):
                found.append(f"{name} ({reason}): {str(text)[:120]}")
    return found


def test_the_readability_lint_can_fail():
    assert len(badly_worded({"a": "moves it by 0 subscribers", "b": "1 subscribers", "c": "-0.1850, is larger than",
                             "d": "+0.0000, is no larger", "e": "16 and 16 of its 16 units",
                             "f": "in 3 runs and not in the other 1", "g": "the verdict: The second run"})) == 7
    assert not badly_worded({"a": "moves it by no more than 1 subscriber", "b": "takes away 0.1850"})


@pytest.mark.parametrize("lesson", ON_PATTERN, ids=lambda lesson: lesson.stem)
def test_quoted_text_reads_as_english_under_both_seeds(lesson, executed_lessons, other_seed_lessons):
    for seed, (notebook, error) in (("course seed", executed_lessons[lesson.stem]),
                                    ("other seed", other_seed_lessons[lesson.stem])):
        assert error is None, f"{lesson.stem} ({seed}) failed to execute:\n{error}"
        texts = {name: ast.literal_eval(text) for name, text in glued_texts(notebook).items()}
        found = badly_worded(texts)
        assert not found, f"{lesson.stem} ({seed}): quoted text that reads badly:\n- " + "\n- ".join(found)


def test_a_tie_and_a_single_disagreement_read_as_english():
    a = Runs("The wide network", [[1, 1, 0, 0], [1, 0, 0, 0]])
    b = Runs("the narrow one", [[1, 1, 0, 0], [1, 1, 1, 0]])
    assert measured("x", Comparison(a, b), subject="Widening").detail == (
        "Widening leaves the number where it was (both 0.5000): not a measured difference.")
    assert measured("x", Comparison(a, b), subject="Widening").says == "no change (both 0.5000)"
    one = Runs("the other", [[1, 0, 0, 0], [1, 0, 0, 0]])
    says = measured("x", Comparison(a, one), noun="subscriber").detail
    assert "the two disagree on a single subscriber (McNemar's exact test: p = 1.000, not under 0.05)" in says


def test_numbers_that_happen_to_be_zeros_and_ones_can_be_read_as_numbers():
    leads = Runs("the lead", [[1, 0, 1], [0, 0, 1]], as_numbers=True)
    assert not leads.binary and Runs("hits", [[1, 0, 1]]).binary
    Comparison(leads, Runs("other leads", [[0.5, -1, 1], [1, 1, 1]]))   # numbers with numbers: accepted
    with pytest.raises(ValueError, match="must both be right-or-wrong"):
        Comparison(Runs("hits", [[1, 0, 1], [1, 1, 1]]), leads)


def test_paired_is_the_comparisons_sampling_yardstick():
    a, b = hits_table(300, 60, 30, 110)
    comparison = Comparison(Runs("A", [a, b]), Runs("B", [b, a]))
    paired = Paired(a, b)
    assert (paired.change, paired.disagreements, paired.standard_error, paired.beyond_sampling) == (
        comparison.change, comparison.disagreements, comparison.standard_error, comparison.beyond_sampling)
    # two fixed rules (one run each): Comparison refuses them, Paired reads them
    assert Paired([1] * 6 + [0], [0] * 7).beyond_sampling and not Paired([1] * 5 + [0], [0] * 6).beyond_sampling
    assert sampling_words(Paired([1] * 5 + [0], [0] * 6), "grid") == (
        "the 5 grids on which the two disagree split 5 to 0 (McNemar's exact test: p = 0.062, not under 0.05)")
    with pytest.raises(ValueError, match="same rows"):
        Paired([1, 0], [1])


def test_the_short_form_reads_as_the_end_of_a_sentence_with_than():
    a, b = hits_table(300, 30, 60, 110)
    behind = measured("x_measured", Comparison(Runs("A", [a, a]), Runs("B", [b, b])), noun="subscriber",
                      than="the linear model")
    assert behind.says == "30 fewer subscribers right than the linear model (-0.0600), beyond the noise"
    one = measured("x_measured", Comparison(Runs("A", [[1, 1, 0, 0], [1, 0, 0, 0]]),
                                            Runs("B", [[1, 0, 0, 0], [1, 1, 1, 0]])), noun="grid", than="B")
    assert one.says == "1 more grid right than B (+0.2500), within the noise"
    tie = measured("x_measured", Comparison(Runs("A", [a, b]), Runs("B", [a, a])), noun="grid", than="B")
    assert tie.says == "as many grids right as B (both 0.6600)" and not tie.holds
    assert all(len(claim.says.split()) <= 15 for claim in (behind, one, tie))
