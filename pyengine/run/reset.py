"""`check --reset`: the answers got written back into their scenario files as the questions' expectations, as
Catala's `clerk test --reset` does: each question that failed, or asked with no expectation, gets `expect:` set
to its verdict (and `rules:` to its rule ids, where it lists rules). Only those values are rewritten, in place
in the file's text, so comments, order and layout stay; a file is rewritten whole or not at all (the new text is
checked to hold every expectation before it replaces the old, through a temporary file renamed over it:
pyengine.core.files.write_whole)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from pyengine.core.errors import InputError
from pyengine.core.files import write_whole
from pyengine.core.results import QuestionResult, ScenarioResult
from pyengine.core.yamlio import read_input


def _flow(value: Any) -> str:
    """A value as YAML on one line (a verdict, a mapping of play lists, a list of rule ids)."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1_000_000, sort_keys=False)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def _questions(root: yaml.Node) -> list[yaml.MappingNode]:
    """The question nodes of a scenario's node tree (its top-level `questions:` list)."""
    if not isinstance(root, yaml.MappingNode):
        return []
    for key, value in root.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "questions" and isinstance(value, yaml.SequenceNode):
            return [item for item in value.value if isinstance(item, yaml.MappingNode)]
    return []


def _edits(text: str, node: yaml.MappingNode, values: dict[str, Any]) -> list[tuple[int, int, str]]:
    """The text edits (start, end, new text) that give question `node` these keys' values: a value replaced where
    the key is given, else the key added (before the closing brace of a flow mapping, or on a line of its own
    after the question's first entry in a block mapping)."""
    edits = []
    given = {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    for key, value in values.items():
        if key in given:
            start, end = given[key].start_mark.index, given[key].end_mark.index
            # A block value ends where the next line starts: the line break stays.
            edits.append((start, end, _flow(value) + ("\n" if text[start:end].endswith("\n") else "")))
        elif node.flow_style:
            end = text.rindex("}", 0, node.end_mark.index)
            edits.append((end, end, f", {key}: {_flow(value)}"))
        else:
            first_key, first_value = node.value[0]
            line_end = text.find("\n", first_value.end_mark.index)
            at = len(text) if line_end < 0 else line_end
            edits.append((at, at, f"\n{' ' * first_key.start_mark.column}{key}: {_flow(value)}"))
    return edits


def _wanted(question: QuestionResult, listed: set[str]) -> dict[str, Any]:
    """The expectations a question is reset to: its verdict where it differs or is not written, and its rules
    where it lists rules (a value left as written keeps its own spelling)."""
    got = question.got
    # A number the answer holds as text (a `value` question's) is written as the number a reader would write.
    if isinstance(got, str) and got.lstrip("-").isdigit() and str(int(got)) == got:
        got = int(got)
    kept = "expect" in listed and not isinstance(got, dict) and str(question.expected) == str(got)
    values: dict[str, Any] = {} if kept else {"expect": got}
    if "rules" in listed:
        values["rules"] = sorted(set(question.rules))
    return values


def reset_text(text: str, source: str, scenario: ScenarioResult) -> tuple[str, int]:
    """The file's text with the answers of `scenario` as the expectations of the questions that failed or had
    none, and how many questions changed."""
    nodes = {}
    for number, node in enumerate(_questions(yaml.compose(text)), 1):
        named = [v.value for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == "id"]
        nodes[str(named[0]) if named else f"q{number}"] = node  # a question without an id is q1, q2... (scenario.py)
    edits = []
    changed = 0
    for question in scenario.questions:
        if question.passed and not question.unchecked:
            continue
        node = nodes.get(question.question)
        if node is None:
            raise InputError(f"question {question.question!r} cannot be found in the file's text", file=source,
                             expected="a scenario file whose questions are a list of mappings (not aliases)")
        listed = {k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
        edits += _edits(text, node, _wanted(question, listed))
        changed += 1
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text, changed


def reset_file(path: Path, scenario: ScenarioResult, holds: Any) -> int:
    """Rewrite one scenario file with its answers as expectations, whole or not at all: `holds(text)` must say the
    new text's expectations all hold, else nothing is written. How many questions changed."""
    text = read_input(path)
    new, changed = reset_text(text, str(path), scenario)
    if not changed:
        return 0
    if not holds(new):
        raise InputError("its answers, written as expectations, would not all hold; the file is left as it was",
                         file=str(path), expected="a file whose questions check alike from their text")
    try:
        write_whole(path, [new])
    except OSError as error:
        raise InputError(f"cannot rewrite the file: {error.strerror}", file=str(path),
                         expected="a scenario file this user may write") from None
    return changed
