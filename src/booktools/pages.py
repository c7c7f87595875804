"""How a built lesson page reads: how much of its prose speaks of the measurement apparatus, how long its
verdict sentences run, and whether it names the standard content of its topic.

The book keeps its yardsticks (spreads, paired standard errors, McNemar splits, second runs) in one
place per lesson, the section "How sure is this?" (``how-sure-is-this``), and states each result in the
short form of `coursekit.claims.measured` ("3 subscribers fewer (-0.0119), within the noise"). The
measures here are what the tests hold every page to:

- `apparatus_share`: the share of the prose words (paragraphs and list items of the article, outside
  code, printed output, tables and the "How sure is this?" section) that sit in a paragraph or list
  item speaking of the apparatus (`APPARATUS`);
- `verdict_sentences`: every sentence of the article that gives a verdict (`VERDICT`), with its length
  in words;
- `STANDARD_CONTENT`: the terms each lesson's chapter in the field names, any spelling listed.

    python -m booktools.pages      # the measures of every built lesson page, one line each
"""

import argparse
import html
import re
import sys

from .lessons import find_lessons, project_root

APPARATUS = re.compile(
    r"\b(run-to-run|spreads?|standard errors?|McNemar|second runs?|yardsticks?|paired|sampling error|"
    r"measured difference|exact test|2 SE|two standard errors|course seeds?|the seeds?)\b", re.I)
"""Words that speak of the measurement apparatus rather than of the lesson's topic."""

VERDICT = re.compile(r"beyond the noise|within the noise|measured difference|no change \(both", re.I)
"""Words that give a verdict on a difference."""

SURE_SECTION = "how-sure-is-this"
MAX_APPARATUS_SHARE = 0.10
MAX_VERDICT_WORDS = 30

STANDARD_CONTENT = {
    1: ["XOR", "universal approximation", "perceptron (learning )?rule"],
    2: ["leaky ReLU", "GELU", r"\bELU\b", "SiLU|swish", "zero-centred|zero-centered"],
    3: ["mini-?batch", "FLOPs?", "multiply-accumulate"],
    4: ["softmax", "negative log-likelihood", "Huber", "Laplace", "Gaussian"],
    5: [r"W\^\{?\\?top|transpose", "computational graph|computation graph", "gradient check"],
    6: [r"\bAdam\b", "RMSProp", "ill-conditioned", "condition number"],
    7: ["Xavier|Glorot", "warm-?up", "residual connection|skip connection", "normali[sz]ation"],
    8: [r"\bL1\b", "weight decay", "AdamW|decoupled", "mask"],
    9: ["layer normali[sz]ation", "running (average|mean)", r"\\gamma|γ", r"\\beta|β", "inference|eval mode"],
    10: ["feature map", "receptive field", "locality|local connectivity", "weight sharing", "channels"],
    11: ["global average pooling", "stride", "padding", "overlapping pooling"],
    12: ["LeNet", "AlexNet", "VGG", "ResNet", "bottleneck"],
    13: ["backpropagation through time|BPTT", "Jacobian", "gradient clipping", "truncated"],
    14: [r"\bGRU\b|gated recurrent unit", r"\bLSTM\b|long short-term memory"],
    15: ["additive attention|Bahdanau", "scaled dot-product", "context vector", "quer(y|ies)"],
    16: ["self-attention", "sinusoidal", "causal mask", "rotary|relative position"],
    17: ["cosine similarity", "nearest neighbou?r", "word embedding|token embedding", "entity embedding"],
    18: ["fine-tun", "linear prob", "negative transfer", "head"],
    19: ["variational autoencoder|\\bVAE\\b", "reparameteri[sz]ation", "ELBO|evidence lower bound",
         "mode collapse", "prior"],
    20: ["vector-Jacobian product|\\bVJP\\b", "reverse mode", "forward mode", "finite[- ]difference"],
    21: ["prefetch", "drop_last|last partial batch", "augmentation", "sampler|shuffle", "workers?"],
    22: ["GPU|accelerator", "throughput", "mixed precision", "bf16|bfloat16", "checkpointing",
         "gradient accumulation", "data parallel"],
    23: ["run record", "config", "hash", "version", "run id"],
    24: ["random search", "log-?scale|log-uniform", "successive halving", "Hyperband",
         "Bayesian optimi[sz]ation"],
}
"""Per lesson, the terms of its topic's standard content that its page must name (each a regular
expression, case-insensitive): the floor of what the field's chapter teaches, not a measure of how
well the lesson teaches it."""


def article(page: str) -> str:
    """The lesson's article, as HTML."""
    start, end = page.find("<article"), page.find("</article>")
    return page[start:end] if start >= 0 and end > start else page


def without_sure_section(text: str) -> str:
    """The HTML without the "How sure is this?" section (up to the next section, or the end)."""
    return re.sub(rf'<section[^>]*id="{SURE_SECTION}".*?(?=<section|\Z)', " ", text, flags=re.S)


def _prose_blocks(text: str) -> list[str]:
    """The words of each paragraph and list item, code, printed output and tables left out."""
    text = re.sub(r"<pre.*?</pre>|<div class=\"cell_input.*?</div>|<table.*?</table>", " ", text, flags=re.S)
    blocks = []
    for match in re.finditer(r"<(p|li)\b[^>]*>(.*?)</\1>", text, re.S):
        blocks.append(" ".join(html.unescape(re.sub(r"<[^>]+>", " ", match[2])).split()))
    return blocks


def apparatus_share(page: str) -> tuple[float, int]:
    """The share of the article's prose words, outside "How sure is this?", that sit in a paragraph or
    list item speaking of the apparatus; and the number of prose words.

    >>> page = ('<article><p>A unit adds its inputs.</p><p>The second run moves it.</p>'
    ...         '<section id="how-sure-is-this"><p>Spread, paired, McNemar.</p></section></article>')
    >>> apparatus_share(page)
    (0.5, 10)
    """
    blocks = _prose_blocks(without_sure_section(article(page)))
    total = sum(len(block.split()) for block in blocks)
    speaking = sum(len(block.split()) for block in blocks if APPARATUS.search(block))
    return (speaking / total if total else 0.0), total


def verdict_sentences(page: str) -> list[tuple[int, str]]:
    """Every sentence of the article that gives a verdict, with its length in words, longest first.

    >>> verdict_sentences('<article><p>The layer adds 3 rows (+0.0119), within the noise. It is small.'
    ...                   '</p></article>')
    [(9, 'The layer adds 3 rows (+0.0119), within the noise.')]
    """
    sentences = []
    for block in _prose_blocks(article(page)):
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z{(])", block):
            if VERDICT.search(sentence):
                sentences.append((len(sentence.split()), sentence))
    return sorted(sentences, reverse=True)


def missing_content(number: int, page: str) -> list[str]:
    """The terms of `STANDARD_CONTENT` that lesson ``number``'s page does not name."""
    words = html.unescape(re.sub(r"<[^>]+>", " ", article(page)))
    return [term for term in STANDARD_CONTENT.get(number, []) if not re.search(term, words, re.I)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    root = project_root()
    failing = 0
    for lesson in find_lessons(root):
        path = root / "_build" / "html" / "book" / lesson.unit / f"{lesson.stem}.html"
        if not path.is_file():
            print(f"{lesson.stem}: no built page (make book)")
            failing += 1
            continue
        page = path.read_text(encoding="utf-8")
        share, words = apparatus_share(page)
        verdicts = verdict_sentences(page)
        longest = verdicts[0][0] if verdicts else 0
        missing = missing_content(lesson.number, page)
        has_section = f'id="{SURE_SECTION}"' in page
        ok = share <= MAX_APPARATUS_SHARE and longest <= MAX_VERDICT_WORDS and not missing and has_section
        failing += not ok
        print(f"{lesson.stem}: apparatus {share:.0%} of {words} words, longest verdict {longest} words"
              + ("" if has_section else ", no 'How sure is this?'")
              + (f", names none of {', '.join(missing)}" if missing else ""))
    print(f"{failing} lesson pages short of the measures")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
