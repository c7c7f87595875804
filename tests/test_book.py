"""The HTML book builds with warnings as errors from the lessons the tests executed, without executing
any lesson again; every lesson page shows its figure, explorer, hidden answers and computed numbers;
the site loads nothing from other hosts."""

import ast
import json
import math
import re
from html import unescape
from html.parser import HTMLParser

import pytest
from conftest import LESSONS, ROOT

from booktools.pages import (
    MAX_APPARATUS_SHARE,
    MAX_VERDICT_WORDS,
    SURE_SECTION,
    apparatus_share,
    missing_content,
    verdict_sentences,
)
from coursekit.claims import SURE_HEADER

HTML = ROOT / "_build" / "html"
TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                             "\u2014": "-", "\u00a0": " "})
"""Sphinx's smart quotes and dashes, read back as typed."""


def test_build_executes_nothing_itself(build_log):
    assert "Executing notebook" not in build_log, "the build executed a lesson the tests had executed"


def test_sidebar_lists_each_unit_once_and_every_lesson(build_log):
    html = (HTML / "book" / "intro.html").read_text(encoding="utf-8")
    sidebar = re.search(r'<nav class="[^"]*bd-docs-nav[^"]*".*?</nav>', html, re.S)[0]
    for unit in ("Neural Network Fundamentals", "Image and Sequence Architectures", "Training Practice"):
        shown = re.sub(r"<[^>]+>", "", sidebar).count(unit)  # the text, not the toggles' labels
        assert shown == 1, f"the sidebar shows {unit!r} {shown} times"
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    for lesson in LESSONS:
        assert f"book/{lesson.unit}/{lesson.stem}" in toc, f"{lesson.stem} is missing from _toc.yml"
        assert f"{lesson.stem}.html" in sidebar, f"{lesson.stem} is missing from the sidebar"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_page_has_figure_answers_and_numbers(lesson, build_log):
    page = HTML / "book" / lesson.unit / f"{lesson.stem}.html"
    assert page.exists(), f"no page for {lesson.stem}"
    html = page.read_text(encoding="utf-8")
    outside_explorers = re.sub(r'<div class="coursekit-explorer".*?</div></div>', "", html, flags=re.S)
    images = re.findall(r'<img[^>]+src="([^"]+\.png)"', html)
    assert re.search(r'<img[^>]+src="[^"]+\.png"', outside_explorers), f"{lesson.stem}: the page shows no figure"
    for src in images:
        assert (page.parent / src).resolve().exists(), f"{lesson.stem}: figure {src} is missing"
    hidden_answers = re.findall(r'<div class="dropdown admonition"', html)
    assert len(hidden_answers) >= 3, f"{lesson.stem}: {len(hidden_answers)} hidden answers, at least 3 wanted"
    assert "Check yourself" in html and "Summary" in html and "Next step" in html
    assert not re.search(r"\{glue:", html), f"{lesson.stem}: an unresolved glue role"
    assert "academia.sh" in html and "CC BY-SA 4.0" in html, f"{lesson.stem}: the source is not credited"


def test_intro_credits_source_and_states_licence(build_log):
    html = (HTML / "book" / "intro.html").read_text(encoding="utf-8")
    for phrase in ("academia.sh", "CC BY-SA 4.0", "MIT"):
        assert phrase in html


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_page_quotes_computed_numbers(lesson, build_log):
    html = (HTML / "book" / lesson.unit / f"{lesson.stem}.html").read_text(encoding="utf-8")
    pasted = re.findall(r'<span class="pasted-text">([^<]*)</span>', html)
    assert len(pasted) >= 5, f"{lesson.stem}: the prose quotes fewer than five computed (glued) numbers"


def test_lesson_one_overview_quotes_what_the_lesson_printed(build_log, executed_lessons):
    """The overview gives the baseline and the network's number; the second run stands in "How sure is
    this?", all three as the lesson printed them."""
    from booktools.execute import executed_path
    from booktools.lessons import find_lessons
    from booktools.outputs import printed_stdout

    first = find_lessons(ROOT, ["01"])[0]  # executed for the build whatever LESSONS selects
    printed = printed_stdout(executed_path(ROOT, first))
    baseline, network, second = re.search(r"baseline (\S+), network (\S+), second run (\S+),", printed).groups()
    html = (HTML / "book" / first.unit / f"{first.stem}.html").read_text(encoding="utf-8")
    assert tuple(re.findall(r'<span class="pasted-text">([^<]*)</span>', html)[:2]) == (baseline, network)
    assert f'<span class="pasted-text">{second}</span>' in sure_section(html)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_page_has_an_explorer_with_frames_of_the_site(lesson, build_log):
    """The explorer's HTML rendering: its controls described for the book's script, at least eight
    frames, each an image file of the site (not an inline data: URI), exactly one shown at first."""
    page = HTML / "book" / lesson.unit / f"{lesson.stem}.html"
    html = page.read_text(encoding="utf-8")
    explorers = re.findall(r'<div class="coursekit-explorer" data-controls="([^"]*)">(.*?)</div></div>', html, re.S)
    assert explorers, f"{lesson.stem}: the page has no explorer"
    assert "_static/explorer.js" in html, f"{lesson.stem}: the page does not load the explorer script"
    for controls, body in explorers:
        specs = json.loads(unescape(controls))
        frames = re.findall(r'<img src="([^"]+)" data-frame="([0-9,]+)"', body)
        assert len(frames) >= 8, f"{lesson.stem}: {len(frames)} explorer frames, at least 8 wanted"
        assert len(frames) == math.prod(len(spec["values"]) for spec in specs), f"{lesson.stem}: missing frames"
        for src, _ in frames:
            assert not src.startswith("data:") and (page.parent / src).resolve().is_file(), (
                f"{lesson.stem}: explorer frame {src[:60]} is not an image of the site")
        shown = [tag for tag in re.findall(r"<img [^>]*data-frame=[^>]*>", body) if "display:none" not in tag]
        assert len(shown) == 1, f"{lesson.stem}: {len(shown)} frames shown before any control is touched"


def test_no_page_shows_a_raw_role(build_log):
    for page in HTML.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "{eval}" not in text and "{term}" not in text and "{glue" not in text, f"{page}: a raw role"


class AssetCollector(HTMLParser):
    """Every URL a page loads by itself: scripts, stylesheets and icons, images, media, frames."""

    LOADED = {"script": ["src"], "img": ["src", "srcset"], "source": ["src", "srcset"], "iframe": ["src"],
              "video": ["src", "poster"], "audio": ["src"], "embed": ["src"], "object": ["data"],
              "link": ["href"]}

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and not {"stylesheet", "icon", "preload", "modulepreload", "manifest",
                                  "shortcut"} & set((attrs.get("rel") or "").split()):
            return  # a plain link (prev/next, search, the source course) loads nothing by itself
        for name in self.LOADED.get(tag, []):
            for url in re.split(r",\s*", attrs.get(name) or ""):
                if url.strip():
                    self.urls.append(url.strip().split()[0])


def test_every_page_loads_only_files_of_the_site(build_log):
    """Offline and private: no page of the site asks another host for anything."""
    pages = sorted(p for p in HTML.rglob("*.html") if "_static" not in p.parts)
    assert len(pages) > len(LESSONS)
    outside = []
    for page in pages:
        collector = AssetCollector()
        collector.feed(page.read_text(encoding="utf-8"))
        outside += [f"{page.relative_to(HTML)}: {url}" for url in collector.urls
                    if re.match(r"^(https?:)?//", url) or url.startswith(("ftp:", "ws:", "wss:"))]
    assert not outside, "pages load files from other hosts:\n" + "\n".join(outside[:20])


def test_mathjax_is_served_by_the_site(build_log):
    page = (HTML / "book" / "glossary.html").read_text(encoding="utf-8")
    src = re.search(r'<script[^>]+src="([^"]*tex-chtml\.js)(?:\?[^"]*)?"', page)
    assert src, "the glossary page (it has a formula) loads no MathJax"
    assert (HTML / "book" / src[1]).resolve().is_file()
    assert (HTML / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").is_dir()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_page_offers_its_executed_notebook(lesson, build_log):
    page = HTML / "book" / lesson.unit / f"{lesson.stem}.html"
    links = re.findall(r'href="([^"]+\.(?:ipynb|md))"', page.read_text(encoding="utf-8"))
    notebooks = [link for link in links if link.endswith(f"{lesson.stem}.ipynb")]
    assert notebooks and any(link.endswith(f"{lesson.stem}.md") for link in links)
    notebook = json.loads((page.parent / notebooks[0]).resolve().read_text(encoding="utf-8"))
    outputs = [o for cell in notebook["cells"] for o in cell.get("outputs", [])]
    assert any(o.get("name") == "stdout" for o in outputs), f"{lesson.stem}: the download has no outputs"
    filled = [cell for cell in notebook["cells"] if cell["metadata"].get("user_expressions")]
    assert filled, f"{lesson.stem}: the download's prose numbers are not filled in for JupyterLab"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_links_the_glossary(lesson, build_log):
    html = (HTML / "book" / lesson.unit / f"{lesson.stem}.html").read_text(encoding="utf-8")
    terms = set(re.findall(r'href="[^"]*glossary\.html#term-([^"]+)"', html))
    assert len(terms) >= 5, f"{lesson.stem}: links {len(terms)} glossary terms, at least 5 wanted"


def test_execution_report_lists_every_lesson(build_log):
    html = (HTML / "book" / "execution.html").read_text(encoding="utf-8")
    for lesson in LESSONS:
        assert f"book/{lesson.unit}/{lesson.stem}" in html, f"{lesson.stem} missing from the execution report"
    intro = (HTML / "book" / "intro.html").read_text(encoding="utf-8")
    assert 'href="execution.html"' in intro and 'href="glossary.html"' in intro


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_page_download_and_tests_show_one_execution(lesson, build_log):
    """The numbers a page shows in its text, the ones its download carries and the ones the tests read
    from `_build/executed` come from the same execution."""
    from booktools.execute import executed_path
    from booktools.outputs import glued_texts

    tested = glued_texts(executed_path(ROOT, lesson))
    page = (HTML / "book" / lesson.unit / f"{lesson.stem}.html").read_text(encoding="utf-8")
    download = json.loads((HTML / "_sources" / "book" / lesson.unit / f"{lesson.stem}.ipynb").read_text())
    shown = [e["result"]["data"]["text/plain"] for cell in download["cells"]
             for e in cell["metadata"].get("user_expressions", [])]
    assert tested and set(shown) <= set(tested.values()), f"{lesson.stem}: the download is another execution's"
    text = unescape(re.sub(r"<[^>]+>", "", page)).translate(TYPOGRAPHIC)  # tags first: a "<" may be text
    missing = [name for name, value in tested.items() if str(ast.literal_eval(value)).translate(TYPOGRAPHIC) not in text
               and f"`{name}`" in lesson.path.read_text(encoding="utf-8")]
    assert not missing, f"{lesson.stem}: the page does not show what the tested execution quoted: {missing[:5]}"


MACHINERY = re.compile(r"\b(quote|record|Claim|measured|second_run_outweighs|show|Explorer|require_\w+)\b")
"""Code that serves the book rather than teaching: quoting numbers, recording claims, showing figures,
building explorers, checking parameters."""
PASTED = re.compile(r'<span class="pasted-text">(.*?)</span>', re.S)


def visible_text(html: str) -> str:
    """The text a reader sees: tags dropped, entities and typographic marks read back as typed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).translate(TYPOGRAPHIC).split())


def page_parts(html: str) -> tuple[str, str, list[str]]:
    """A lesson page's main text, its overview (the text before the first section) and its visible code
    lines (every code cell the page shows, collapsed ones included)."""
    main = re.search(r'<main[^>]*>(.*)</main>', html, re.S)[1]
    # the lesson's own title, inside its top section (the theme's print header has an <h1> of its own)
    title_end = main.index("</h1>", main.index("<section"))
    overview = main[title_end:main.index("<section", title_end)]
    code = []
    for block in re.findall(r'<div class="cell_input[^"]*">(.*?)</pre>', main, re.S):
        code += [line for line in unescape(re.sub(r"<[^>]+>", "", block)).splitlines() if line.strip()]
    return main, overview, code


def computed_sentences(html: str) -> list[str]:
    """The sentences of ``html`` that hold computed (pasted) text."""
    marked = PASTED.sub(lambda m: "\u27e6" + m[1] + "\u27e7", html)
    text = visible_text(marked)
    ends = r"(?:(?<=[.!?])|(?<=[.!?]\u27e7))\s+(?=[A-Z\u27e6])"
    return [s for s in re.split(ends, text) if "\u27e6" in s]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_page_reads_like_a_chapter(lesson, build_log, executed_lessons):
    """Each claim's sentence at most twice on its page, an overview of at most three computed sentences,
    and at most 15% of the visible code lines calling the book's machinery."""
    from booktools.outputs import recorded_claims

    html = (HTML / "book" / lesson.unit / f"{lesson.stem}.html").read_text(encoding="utf-8")
    main, overview, code = page_parts(html)
    text = visible_text(main)
    claims, _ = recorded_claims(executed_lessons[lesson.stem][0])
    repeated = {name: text.count(entry["says"].translate(TYPOGRAPHIC)) for name, entry in claims.items()}
    assert all(count <= 2 for count in repeated.values()), (
        f"{lesson.stem}: claims shown more than twice: {[n for n, c in repeated.items() if c > 2]}")
    in_overview = computed_sentences(overview)
    assert len(in_overview) <= 3, f"{lesson.stem}: the overview holds {len(in_overview)} computed sentences"
    machinery = [line for line in code if MACHINERY.search(line)]
    assert code and len(machinery) <= 0.15 * len(code), (
        f"{lesson.stem}: {len(machinery)} of {len(code)} visible code lines call the book's machinery:\n"
        + "\n".join(machinery[:12]))


def test_the_chapter_check_counts_what_a_reader_sees():
    page = ('<main><h1>T</h1><p>Z <span class="pasted-text">0.1</span> print header.</p><section id="t">'
            '<h1>T</h1><p>A <span class="pasted-text">0.79</span> here. B <span class="pasted-text">'
            'claim said.</span> C plain. D <span class="pasted-text">1</span>.</p><section id="s">'
            '<div class="cell_input docutils container"><pre>quote(a=1)\nx = 1\n\ny = 2</pre></div>'
            '</section></main>')
    main, overview, code = page_parts(page)
    assert computed_sentences(overview) == ["A \u27e60.79\u27e7 here.", "B \u27e6claim said.\u27e7",
                                            "D \u27e61\u27e7."]
    assert code == ["quote(a=1)", "x = 1", "y = 2"] and sum(bool(MACHINERY.search(c)) for c in code) == 1


# --- measurement in the margin ---------------------------------------------------------------------------

def sure_section(html: str) -> str:
    """The lesson's "How sure is this?" section, up to the next section."""
    start = html.index(f'id="{SURE_SECTION}"')
    end = html.find("<section", start)
    return html[start:end if end > 0 else len(html)]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_page_keeps_its_measurement_in_one_section(lesson, build_log):
    """Outside "How sure is this?", at most 10% of the prose speaks of the yardsticks; no verdict sentence
    runs past 30 words; the section comes before "Check yourself" and holds the table of comparisons."""
    html = (HTML / "book" / lesson.unit / f"{lesson.stem}.html").read_text(encoding="utf-8")
    assert f'id="{SURE_SECTION}"' in html, f"{lesson.stem}: no section 'How sure is this?'"
    assert html.index(f'id="{SURE_SECTION}"') < html.index('id="check-yourself"'), (
        f"{lesson.stem}: 'How sure is this?' must come before 'Check yourself'")
    table = re.search(r"<table.*?</table>", sure_section(html), re.S)
    assert table and all(column in table[0] for column in SURE_HEADER), (
        f"{lesson.stem}: 'How sure is this?' holds no table of the lesson's comparisons")
    share, words = apparatus_share(html)
    assert share <= MAX_APPARATUS_SHARE, (
        f"{lesson.stem}: {share:.0%} of {words} prose words outside 'How sure is this?' speak of the apparatus")
    longest = verdict_sentences(html)[:1]
    assert not longest or longest[0][0] <= MAX_VERDICT_WORDS, (
        f"{lesson.stem}: a verdict sentence of {longest[0][0]} words: {longest[0][1]}")


def test_the_margin_measures_can_fail():
    page = ('<article><p>The network scores 0.79.</p><p>Its second run scores 0.77, and the spread is 2.</p>'
            '<p>The hidden layer gives 3 subscribers fewer (-0.0119), within the noise, which is a result we'
            ' state here at great length with many words so that this sentence runs well past the thirty'
            ' words the book allows for one verdict.</p></article>')
    share, _ = apparatus_share(page)
    assert share > MAX_APPARATUS_SHARE and verdict_sentences(page)[0][0] > MAX_VERDICT_WORDS
    inside = page.replace("<p>Its", '<section id="how-sure-is-this"><p>Its').replace("2.</p>", "2.</p></section>")
    assert apparatus_share(inside)[0] == 0


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_lesson_page_names_its_standard_content(lesson, build_log):
    html = (HTML / "book" / lesson.unit / f"{lesson.stem}.html").read_text(encoding="utf-8")
    missing = missing_content(lesson.number, html)
    assert not missing, f"{lesson.stem}: the page names none of {missing}"


HIDDEN_CELL = re.compile(r'<div class="cell tag_remove-input[^"]*">(.*?)(?=<div class="cell |</section>|</article>)',
                         re.S)


def accidental_outputs(html: str) -> list[str]:
    """The values a hidden cell left on the page (an expression's value, shown as plain text): a hidden
    cell may show a table, a figure or an explorer, never a stray value."""
    return [" ".join(re.sub(r"<[^>]+>", " ", block).split())[:60] for cell in HIDDEN_CELL.findall(html)
            for block in re.findall(r'<div class="output text_plain[^"]*">(.*?)</div>', cell, re.S)]


def test_the_accident_check_can_fail():
    page = ('<div class="cell tag_remove-input coursekit-cell-2 docutils container"><div class="cell_output">'
            '<div class="output text_plain highlight-myst-ansi notranslate"><pre>True</pre></div></div></div>'
            '<div class="cell coursekit-cell-3 docutils container"><div class="output text_plain"><pre>4</pre>'
            '</div></div></section>')
    assert accidental_outputs(page) == ["True"]


def test_no_hidden_cell_leaves_a_value_on_the_page(build_log):
    pages = sorted((HTML / "book").rglob("*.html"))
    assert len(pages) > len(LESSONS)
    found = {page.name: accidental_outputs(page.read_text(encoding="utf-8")) for page in pages}
    assert not any(found.values()), f"hidden cells left values on pages: { {k: v for k, v in found.items() if v} }"


def test_the_chapter_on_measuring_comes_first_and_is_linked(build_log):
    """The chapter that teaches the yardsticks stands before lesson 1, computes its worked example (quoted
    numbers, its table of comparisons, a described figure), and the front page and the glossary link it."""
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    assert toc.index("book/measuring") < toc.index(f"book/{LESSONS[0].unit}/"), "the chapter is not before lesson 1"
    html = (HTML / "book" / "measuring.html").read_text(encoding="utf-8")
    assert len(re.findall(r'<span class="pasted-text">', html)) >= 10, "the chapter quotes too few computed numbers"
    assert all(column in html for column in SURE_HEADER), "the chapter shows no table of comparisons"
    figure = re.search(r'<figure class="coursekit-figure"><img src="[^"]+\.png" alt="([^"]{200,})"', html)
    assert figure, "the chapter's figure is missing or not described"
    for page in ("intro.html", "glossary.html"):
        assert 'href="measuring.html' in (HTML / "book" / page).read_text(encoding="utf-8"), f"{page} does not link it"
