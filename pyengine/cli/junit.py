"""A check's result as JUnit XML (`pyengine check --junit-xml FILE`), the report CI systems read: a test suite per
scenario file, a test case per question (a failure with what did not hold; skipped when it states no
expectation), and a file not answered as one test case with its errors."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from pyengine.core.files import write_whole
from pyengine.core.results import CheckResult
from pyengine.core.text import printable


def _text(value: object) -> str:
    """A value as XML text: control characters escaped (XML 1.0 cannot hold them), line breaks kept."""
    return printable(str(value), keep="\n")


def junit_xml(result: CheckResult) -> str:
    """The whole report as text."""
    root = ElementTree.Element("testsuites", name="pyengine check")
    for scenario in result.scenarios:
        failures = sum(not q.passed and not q.unchecked for q in scenario.questions)
        skipped = sum(bool(q.unchecked) for q in scenario.questions)
        suite = ElementTree.SubElement(root, "testsuite", name=_text(scenario.file),
                                       tests=str(len(scenario.questions)), failures=str(failures), errors="0",
                                       skipped=str(skipped))
        for question in scenario.questions:
            case = ElementTree.SubElement(suite, "testcase", classname=_text(scenario.file),
                                          name=_text(question.question))
            if question.unchecked:
                ElementTree.SubElement(case, "skipped", message="answered without an expectation")
            elif not question.passed:
                failure = ElementTree.SubElement(case, "failure", message=_text("; ".join(question.failures)))
                failure.text = _text(f"got {question.got}; rules: {', '.join(question.rules) or 'none'}")
    for entry in result.errors:
        suite = ElementTree.SubElement(root, "testsuite", name=_text(entry.file), tests="1", failures="0",
                                       errors="1", skipped="0")
        case = ElementTree.SubElement(suite, "testcase", classname=_text(entry.file), name="input")
        error = ElementTree.SubElement(case, "error", message=_text(entry.errors[0].text if entry.errors
                                                                    else "not answered"))
        error.text = _text("\n".join(e.text for e in entry.errors))
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def write_junit_xml(result: CheckResult, target: Path) -> None:
    """Write the report whole, or not at all."""
    write_whole(target, [junit_xml(result)])
