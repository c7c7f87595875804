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
from coursekit.claims import Claim, claims_record
from coursekit.noise import is_measured, standard_error

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


def test_a_change_is_measured_only_beyond_both_yardsticks():
    assert is_measured(-0.04, 0.02, 0.025)
    assert not is_measured(0.03, 0.04, 0.025)    # the second run moved more
    assert not is_measured(0.03, 0.01, 0.03)     # not beyond the sampling error
    with pytest.raises(ValueError, match="sampling_error"):
        is_measured(0.1, 0.0, -0.1)


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
