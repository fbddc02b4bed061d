"""A finding of the consistency check (pyengine.tools.consistency) or of a document's own lint."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Finding:
    id: str
    severity: str  # error, warning or info
    kind: str
    statement: str
    paragraphs: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    state: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        data = {"id": self.id, "severity": self.severity, "kind": self.kind, "statement": self.statement,
                "paragraphs": self.paragraphs, "rules": self.rules}
        if self.state is not None:
            data["state"] = self.state
        return data
