"""Read CritPt's official release: challenge notebooks, their JSON form, and the parquet table.

Each source gives `OfficialChallenge`s: a dataset name (`Challenge_12`), its setup and tags, and
its steps (the main problem, then the subproblems in order), each with the official problem id
(`Challenge_12_main`, `..._sub_0`), question, code template and whatever answer is public (the
answer's text and answer code, test cases, settings). Nothing read here is run: notebooks and
templates are text. A file that cannot be read raises one `OfficialError` line naming it.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from physbench.core.errors import UserError

MAX_FILE_BYTES = 20_000_000
MAX_LITERAL_CHARS = 200_000


class OfficialError(UserError):
    """An official file that cannot be read; the message names the file and why, in one line."""


@dataclass
class OfficialStep:
    problem_id: str
    kind: str                      # "main" or "sub"
    index: int | None              # None for the main problem, 0, 1, ... for subproblems
    question: str = ""
    template: str = ""
    answer_code: str = ""          # the answer-only code, where public
    answer_text: str = ""          # the stated answer (markdown), where public
    testcases: list[Any] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class OfficialChallenge:
    dataset: str
    source: str
    setup: str = ""
    tags: list[str] = field(default_factory=list)
    steps: list[OfficialStep] = field(default_factory=list)


# ---------------------------------------------------------------- notebooks

_HEADER = re.compile(r"^\s*(#+)\s*(.*?)\s*$")


def _source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    if isinstance(src, list) and all(isinstance(s, str) for s in src):
        return "".join(src)
    if isinstance(src, str):
        return src
    raise ValueError("a cell's source is neither text nor a list of lines")


def _header(text: str) -> tuple[int, str] | None:
    """(level, title without trailing ':') of a markdown cell that opens with a header line."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    m = _HEADER.match(first)
    if not m:
        return None
    return len(m.group(1)), m.group(2).rstrip(":").strip()


def _after_header(text: str) -> str:
    lines = text.strip().splitlines()
    return "\n".join(lines[1:]).strip()


def _role(title: str) -> str:
    t = re.sub(r"\s+", " ", title.lower())
    for role, pattern in (("tag", r"tags?$"), ("setup", r"problem setup"), ("main", r"main problem"),
                          ("sub", r"sub-?problem \d+"), ("subs", r"sub-?problems$"),
                          ("template", r"parsing template"), ("answer_code", r"answer code"),
                          ("answer", r"answers?$"), ("testcases", r"test ?cases?$"),
                          ("settings", r"(settings|error)$")):
        if re.match(pattern, t):
            return role
    return "other"


def _tags(text: str) -> list[str]:
    """The tag cell's entries: quoted strings, else the non-empty lines after the header."""
    body = _after_header(text) if _header(text) else text.strip()
    quoted = re.findall(r'"([^"]+)"', body)
    items = quoted or [line.strip(" -*,") for line in body.splitlines()]
    return [t.strip() for t in items if t.strip()][:10]


def _literal(code: str) -> list[Any]:
    """Test cases written as a Python literal; anything else is kept as its text."""
    if len(code) > MAX_LITERAL_CHARS:
        raise ValueError(f"test cases are {len(code)} characters; the limit is {MAX_LITERAL_CHARS}")
    try:
        value = ast.literal_eval(code.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return [{"source": code.strip()}]
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _settings(text: str) -> dict[str, Any]:
    """`name = literal` lines of a Settings (or legacy Error) cell, read without running anything."""
    out: dict[str, Any] = {}
    for line in _after_header(text).splitlines():
        name, eq, raw = line.partition("=")
        if eq and name.strip().isidentifier():
            try:
                out[name.strip()] = ast.literal_eval(raw.strip())
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                out[name.strip()] = raw.strip()
        elif line.strip() and not out:
            try:
                out["error"] = float(line.strip())
            except ValueError:
                pass
    return out


def read_notebook(data: Any, dataset: str, source: str) -> OfficialChallenge:
    """One challenge from a notebook's JSON (nbformat 4): cells are grouped by their headers."""
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise ValueError("not a notebook (no list of cells)")
    ch = OfficialChallenge(dataset, source)
    step: OfficialStep | None = None
    section = "none"        # where header-less markdown goes: setup, question, other
    slot = ""               # the code cell awaited: template, answer_code, testcases
    seen_subs: set[str] = set()
    for cell in data["cells"]:
        if not isinstance(cell, dict):
            raise ValueError("a cell is not an object")
        text = _source(cell)
        if cell.get("cell_type") == "code":
            if step is not None and section == "question":
                if not slot:  # legacy notebooks: template first, answer code second
                    slot = "template" if not step.template else ("answer_code" if not step.answer_code else "")
                if slot == "testcases":
                    step.testcases = _literal(text)
                elif slot:
                    setattr(step, slot, text.strip("\n"))
            slot = ""
            continue
        if cell.get("cell_type") != "markdown":
            continue
        head = _header(text)
        role = _role(head[1]) if head else "text"
        if role == "tag":
            ch.tags = _tags(text)
            section = "none"
        elif role == "setup":
            ch.setup = (ch.setup + "\n\n" + text.strip()).strip()
            section, step = "setup", None
        elif role in ("main", "sub"):
            key = re.sub(r"\W+", "", head[1].lower()) if head else ""
            if role == "sub" and key in seen_subs:  # a repeated subproblem header: the first one counts
                section, step = "other", None
                continue
            seen_subs.add(key)
            n_sub = sum(s.kind == "sub" for s in ch.steps)
            step = OfficialStep(f"{dataset}_main" if role == "main" else f"{dataset}_sub_{n_sub}", role,
                                None if role == "main" else n_sub, text.strip())
            ch.steps.append(step)
            section = "question"
        elif role in ("template", "answer_code", "testcases") and step is not None:
            slot = role
        elif role == "answer" and step is not None:
            step.answer_text = _after_header(text)
        elif role == "settings" and step is not None:
            step.settings.update(_settings(text))
        elif role == "text":
            if section == "setup":
                ch.setup += "\n\n" + text.strip()
            elif section == "question" and step is not None and not slot:
                step.question += "\n\n" + text.strip()
        else:  # another section (subproblem list header, detailed solution...): not part of any prompt
            section, step, slot = "other", None, ""
    mains = [s for s in ch.steps if s.kind == "main"]
    if len(mains) != 1:
        raise ValueError(f"has {len(mains)} '# Main problem' sections; a challenge needs exactly one")
    ch.steps.sort(key=lambda s: -1 if s.index is None else s.index)
    return ch


# ---------------------------------------------------------------- JSON form and parquet rows

def _text_of(d: dict[str, Any], key: str) -> str:
    value = d.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"field {key!r} is not text")
    return value


def _metadata(d: dict[str, Any]) -> dict[str, Any]:
    meta = d.get("metadata") or {}
    if isinstance(meta, str):  # a parquet column may hold the object as JSON text
        try:
            meta = json.loads(meta)
        except (json.JSONDecodeError, RecursionError):
            raise ValueError("metadata is neither an object nor JSON text") from None
    if not isinstance(meta, dict):
        raise ValueError("metadata is not an object")
    return meta


def _step_from_row(d: Any) -> tuple[OfficialStep, dict[str, Any]]:
    if not isinstance(d, dict):
        raise ValueError("a problem entry is not an object")
    pid = _text_of(d, "problem_id")
    kind = _text_of(d, "problem_type") or "main"
    if not pid or kind not in ("main", "sub"):
        raise ValueError(f"problem entry {pid!r} lacks a problem_id or a problem_type of main/sub")
    index = d.get("problem_index")
    if kind == "sub" and (isinstance(index, bool) or not isinstance(index, int)):
        raise ValueError(f"subproblem {pid!r} has no integer problem_index")
    meta = _metadata(d)
    setup = meta.get("problem_setup") if isinstance(meta.get("problem_setup"), str) else ""
    question = _text_of(d, "problem_description")
    if setup and question.startswith(setup):  # the description repeats the setup before the question
        question = question[len(setup):]
    tests = d.get("testcases")
    testcases = list(tests) if isinstance(tests, (list, tuple)) else ([] if tests is None else _literal(str(tests)))
    settings = meta.get("settings") if isinstance(meta.get("settings"), dict) else {}
    step = OfficialStep(pid, kind, None if kind == "main" else index, question.strip(),
                        _text_of(d, "code_template").strip("\n"), _text_of(d, "answer_only_code").strip("\n"),
                        "", testcases, dict(settings))
    return step, meta


def challenge_from_rows(rows: Iterable[Any], dataset: str, source: str) -> OfficialChallenge:
    """One challenge from its problem entries (the JSON form's `problems`, or parquet rows)."""
    ch = OfficialChallenge(dataset, source)
    for row in rows:
        step, meta = _step_from_row(row)
        if step.kind == "main":
            if any(s.kind == "main" for s in ch.steps):
                raise ValueError(f"has two main problems ({step.problem_id})")
            setup = meta.get("problem_setup")
            ch.setup = setup.strip() if isinstance(setup, str) else ""
            tag = meta.get("tag")
            ch.tags = _tags(tag) if isinstance(tag, str) and tag.strip() else []
        ch.steps.append(step)
    if not any(s.kind == "main" for s in ch.steps):
        raise ValueError("has no main problem")
    for s in ch.steps:  # subproblem descriptions repeat the setup too, without saying so in metadata
        if ch.setup and s.question.startswith(ch.setup):
            s.question = s.question[len(ch.setup):].strip()
    ch.steps.sort(key=lambda s: -1 if s.index is None else s.index)
    return ch


def read_json(data: Any, source: str, fallback_name: str) -> OfficialChallenge:
    if not isinstance(data, dict) or not isinstance(data.get("problems"), list):
        raise ValueError("not an official challenge file (no list of problems)")
    name = data.get("dataset_name") if isinstance(data.get("dataset_name"), str) else fallback_name
    return challenge_from_rows(data["problems"], name, source)


def dataset_of(problem_id: str) -> str:
    """`Challenge_12` from `Challenge_12_main` or `Challenge_12_sub_3`."""
    m = re.match(r"^(.*?)_(main|sub_\d+)$", problem_id)
    return m.group(1) if m else problem_id


def read_parquet(path: Path) -> list[OfficialChallenge]:
    """The parquet table: one row per problem (main or sub), grouped into challenges by id."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise OfficialError(f"{path.name}: reading parquet needs pyarrow (pip install 'physbench[parquet]')") from None
    try:
        rows = pq.read_table(path).to_pylist()
    except Exception as exc:  # pyarrow raises many kinds for a damaged file
        raise OfficialError(f"{path.name}: not a readable parquet file ({type(exc).__name__})") from None
    groups: dict[str, list[Any]] = {}
    for row in rows:
        if isinstance(row.get("problems"), (list, str)):  # a row that holds a whole challenge file
            problems = json.loads(row["problems"]) if isinstance(row["problems"], str) else row["problems"]
            name = row.get("dataset_name") or dataset_of(str((problems or [{}])[0].get("problem_id", "")))
            groups.setdefault(str(name), []).extend(problems)
        else:
            groups.setdefault(dataset_of(str(row.get("problem_id") or "")), []).append(row)
    out = []
    for name, problems in groups.items():
        try:
            out.append(challenge_from_rows(problems, name, f"{path.name}#{name}"))
        except ValueError as exc:
            raise OfficialError(f"{path.name}: challenge {name!r}: {exc}") from None
    return out


# ---------------------------------------------------------------- files and folders

def _load_json_file(path: Path) -> Any:
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ValueError(f"is {size} bytes; the limit is {MAX_FILE_BYTES}")
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"is not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise ValueError("is JSON nested too deeply") from None


def read_file(path: Path) -> list[OfficialChallenge]:
    """The challenges of one official file (.ipynb, .json or .parquet); OfficialError if unreadable."""
    try:
        if path.suffix == ".parquet":
            return read_parquet(path)
        data = _load_json_file(path)
        if path.suffix == ".ipynb":
            return [read_notebook(data, path.stem, path.name)]
        return [read_json(data, path.name, path.stem)]
    except OfficialError:
        raise
    except OSError as exc:
        raise OfficialError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (ValueError, TypeError, RecursionError) as exc:
        raise OfficialError(f"{path}: {exc}") from None


def official_files(root: Path) -> list[Path]:
    """The files to import under `root` (or `root` itself): notebooks, then JSON and parquet files
    whose challenge no notebook already gives (a notebook holds the answer text the JSON lacks)."""
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise OfficialError(f"{root}: no such file or folder")
    found = sorted(p for p in root.rglob("*") if p.suffix in (".ipynb", ".json", ".parquet") and p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(root).parts))
    notebooks = {p.stem for p in found if p.suffix == ".ipynb"}
    return [p for p in found if p.suffix != ".json" or p.stem not in notebooks]


def read_release(root: Path) -> Iterator[tuple[Path, list[OfficialChallenge] | OfficialError]]:
    """Each file under `root` with its challenges, or the one-line error that stopped it."""
    for path in official_files(root):
        try:
            yield path, read_file(path)
        except OfficialError as exc:
            yield path, exc
