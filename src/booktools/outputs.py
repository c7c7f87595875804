"""What an executed lesson printed, and how it is compared with its stored expected table.

The expected table ``tests/expected/NN-slug.txt`` is the lesson's whole stdout, with its real line
layout. It must equal what the lesson prints, character for character, except for the few
*platform-sensitive* tokens listed in ``tests/expected/platform-sensitive.json``: cells whose value
hinges on the last bit of the C maths library (chaotic training runs). Those are compared by shape
only: a number must still be printed where the source prints a number.
"""

import ast
import difflib
import json
import re
from pathlib import Path

import nbformat

NUMBER = re.compile(r"^[\[(]?[+-]?\d[\d.,]*(e[+-]?\d+)?[\])]?[,;]?$")
TOKEN = re.compile(r"\S+")


def printed_stdout(notebook_path: Path) -> str:
    """The stdout streams of a notebook's code cells, joined in order."""
    notebook = nbformat.read(notebook_path, as_version=4)
    chunks = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream" and output.get("name") == "stdout":
                chunks.append(output["text"])
    return "".join(chunks)


def _sensitive_entry(expected_dir: Path, number: int) -> dict | None:
    path = expected_dir / "platform-sensitive.json"
    return json.loads(path.read_text(encoding="utf-8"))["lessons"].get(str(number)) if path.exists() else None


def sensitive_tokens(expected_dir: Path, number: int) -> set[int]:
    """Indices of the tokens of lesson ``number`` that are compared by shape only: the values of its
    chaotic ("platform") cells, never their labels."""
    entry = _sensitive_entry(expected_dir, number)
    if not entry or entry["kind"] != "platform":
        return set()
    return {i for low, high in entry["ranges"] for i in range(low, high + 1)}


def source_count_tokens(expected_dir: Path, number: int) -> dict[int, tuple[str, ...]]:
    """Token index -> the definitions whose non-blank lines the lesson counts there (lesson 20 prints
    line counts of its own code: the tests compute them from the lesson and compare exactly)."""
    entry = _sensitive_entry(expected_dir, number)
    if not entry or entry["kind"] != "source":
        return {}
    return {low: tuple(names) for (low, _), names in zip(entry["ranges"], entry["definitions"])}


def definition_lines(code_cells: list[str], name: str) -> int:
    """Non-blank lines of the class or function ``name`` as the lesson's code cells define it."""
    import ast

    for source in code_cells:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == name:
                lines = source.splitlines()[node.lineno - 1:node.end_lineno]
                return sum(1 for line in lines if line.strip())
    raise ValueError(f"{name}: no such class or function in the lesson's code")


def same_shape(expected: str, actual: str) -> bool:
    """Both numbers (with the same closing punctuation), or both the very same word."""
    if NUMBER.match(expected) and NUMBER.match(actual):
        return expected[-1].isdigit() == actual[-1].isdigit() and (expected[-1].isdigit() or expected[-1] == actual[-1])
    return expected == actual


def replace_tokens(text: str, indices: set[int], replacement) -> str:
    """``text`` with token ``i`` (for each ``i`` in ``indices``) replaced by ``replacement(i)``,
    whitespace and every other token kept."""
    positions = iter(range(len(text)))
    return TOKEN.sub(lambda m: replacement(i) if (i := next(positions)) in indices else m.group(0), text)


def mask(text: str, indices: set[int]) -> str:
    """``text`` with the tokens at ``indices`` replaced by a placeholder."""
    return replace_tokens(text, indices, lambda i: "<sensitive>")


def differences(expected: str, actual: str, sensitive: set[int]) -> list[str]:
    """Human-readable differences between an expected table and a printed one; empty when they agree."""
    problems = []
    exp_tokens, act_tokens = expected.split(), actual.split()
    for i in sorted(sensitive):
        if i < min(len(exp_tokens), len(act_tokens)) and not same_shape(exp_tokens[i], act_tokens[i]):
            problems.append(f"sensitive token {i}: expected a value shaped like {exp_tokens[i]!r}, "
                            f"got {act_tokens[i]!r}")
    if mask(expected, sensitive) != mask(actual, sensitive):
        diff = difflib.unified_diff(mask(expected, sensitive).splitlines(),
                                    mask(actual, sensitive).splitlines(),
                                    "expected", "printed", lineterm="", n=2)
        problems.append("\n".join(diff))
    return problems


def code_outputs(notebook):
    """The outputs of a notebook's code cells, in order; ``notebook`` is a path or a loaded notebook."""
    if isinstance(notebook, (str, Path)):
        notebook = nbformat.read(notebook, as_version=4)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            yield from cell.get("outputs", [])


def recorded_claims(notebook) -> tuple[dict, list[str]]:
    """The claims an executed lesson recorded (`coursekit.claims`), merged over its outputs, and a list
    of problems: a name recorded twice, an entry without a boolean ``holds`` or a sentence.
    ``notebook`` is a path or a loaded notebook."""
    from coursekit.claims import CLAIMS_MIME

    merged, problems = {}, []
    for output in code_outputs(notebook):
        data = output.get("data", {}).get(CLAIMS_MIME)
        if data is None:
            continue
        if isinstance(data, str):
            data = json.loads(data)
        for name, entry in data.items():
            if name in merged:
                problems.append(f"{name}: recorded twice")
            if not (isinstance(entry, dict) and isinstance(entry.get("holds"), bool)
                    and isinstance(entry.get("says"), str) and entry["says"].strip()):
                problems.append(f"{name}: needs a boolean 'holds' and a non-empty 'says', got {entry!r}")
            merged[name] = entry
    return merged, problems


def glued_texts(notebook) -> dict[str, str]:
    """name -> the text/plain repr that `coursekit.prose` glued for the HTML book (what myst-nb's paste
    role shows); ``notebook`` is a path or a loaded notebook."""
    from coursekit.prose import GLUE_PREFIX

    texts = {}
    for output in code_outputs(notebook):
        name = output.get("metadata", {}).get("scrapbook", {}).get("name")
        data = output.get("data", {}).get(GLUE_PREFIX + "text/plain")
        if name and data is not None:
            texts[name] = "".join(data) if isinstance(data, list) else data
    return texts


def quoted_texts(notebook) -> dict[str, str | int]:
    """name -> the value a lesson quoted (the glued repr read back)."""
    return {name: ast.literal_eval(text) for name, text in glued_texts(notebook).items()}


def parameter(notebook, name: str):
    """The value ``name`` had when ``notebook`` ran: its last assignment in the lesson's ``parameters``
    cell or in the cell papermill injected after it (``injected-parameters``), read back as a literal;
    None if neither assigns it. ``notebook`` is a path or a loaded notebook."""
    if isinstance(notebook, (str, Path)):
        notebook = nbformat.read(notebook, as_version=4)
    value = None
    for cell in notebook["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] != "code" or not {"parameters", "injected-parameters"} & set(tags):
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for node in ast.parse(source).body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                value = ast.literal_eval(node.value)
    return value
