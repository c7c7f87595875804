"""Progress bars for the slow cells, written to stderr.

A lesson's stdout carries only its tables (the tests compare it with the expected tables), so progress
goes to stderr, which the HTML book hides. Bars redraw at most every two seconds to keep the executed
notebooks small.
"""

import sys

from tqdm import tqdm


def progress(iterable, description: str, total: int | None = None):
    """Wrap ``iterable`` in a text progress bar on stderr labelled ``description``."""
    return tqdm(iterable, desc=description, total=total, file=sys.stderr, mininterval=2.0,
                ascii=True, leave=True)
