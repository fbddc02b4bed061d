"""The Allies document's own lint in the consistency check: the enter/exit pairing of each ally and its
evidence, the token arithmetic, terms named two ways, rows that do not fit the two-effect shape."""

from __future__ import annotations

from pathlib import Path

import clingo

from pyengine.core.findings import Finding
from pyengine.core.resources import facts_dir, rules_dir
from pyengine.core.sources import Paragraph


def _facts() -> list[clingo.Symbol]:
    control = clingo.Control(["--warn=none"])
    for name in ("base_game.lp", "terms.lp", "layouts.lp", "setup.lp"):
        control.load(str(Path(facts_dir(), "dfm", name)))
    control.load(str(Path(rules_dir(), "dfm", "pairing.lp")))
    control.load(str(Path(rules_dir(), "dfm", "calls.lp")))
    control.add("base", [], "#defined act/3. #defined refused/3. #defined done/1. #defined holds/2. #defined num/3."
                "#defined reading/2. #defined choice/3. #defined did/3. #defined step/1. #defined short/3.")
    control.ground([("base", [])])
    return [a.symbol for a in control.symbolic_atoms if a.is_fact or a.symbol.name in (
        "enter_row", "exit_row", "exit_evidence", "continues", "aid_row", "cost", "box_tokens", "term_variant",
        "layout_token", "faction", "drawn_allies", "setup_tokens")]


def check(current: list[Paragraph]) -> list[Finding]:
    """The Allies document's own lint: pairing and its evidence, token arithmetic, terms, row shapes."""
    facts = _facts()
    findings = []
    rows: dict[str, list[str]] = {}
    for atom in facts:
        if atom.name == "aid_row":
            rows.setdefault(str(atom.arguments[0]), []).append(str(atom.arguments[2]))
    evidence: dict[str, set[str]] = {}
    for atom in facts:
        if atom.name == "exit_evidence":
            evidence.setdefault(str(atom.arguments[0]), set()).add(str(atom.arguments[2]))
    for ally, paras in sorted(rows.items()):
        enter = [str(a.arguments[1]) for a in facts if a.name == "enter_row" and str(a.arguments[0]) == ally]
        exits = [str(a.arguments[1]) for a in facts if a.name == "exit_row" and str(a.arguments[0]) == ally]
        kinds = ", ".join(sorted(evidence.get(ally, set()))) or "none"
        weak = evidence.get(ally) == {"dfm_pairing_row_order"}
        findings.append(Finding(f"lint:pairing:{ally}", "warning" if weak else "info", "pairing",
                                f"{ally}: enter {', '.join(enter)}, exit {', '.join(exits)} (evidence: {kinds})"
                                + ("; only the row order supports it" if weak else ""), sorted(paras)))
        if len(paras) != 2:
            findings.append(Finding(f"lint:rows:{ally}", "warning", "row-shape",
                                    f"{ally} has {len(paras)} rows, not one per effect; the extra row is read as "
                                    "continuing the exit effect", sorted(paras), ["dfm_pairing_continuation"]))
    number = {a.name: a.arguments[0].number for a in facts if a.name in ("box_tokens", "drawn_allies", "setup_tokens")}
    costs = {str(a.arguments[0]): a.arguments[1].number for a in facts if a.name == "cost"}
    players = sum(1 for a in facts if a.name == "faction")
    on_layouts = sum(1 for a in facts if a.name == "layout_token")
    box, each, drawn = number["box_tokens"], number["setup_tokens"], number["drawn_allies"]
    placed = players * each + on_layouts
    findings.append(Finding("lint:tokens:count", "info" if placed == box else "error", "tokens",
                            f"setup gives each of {players} players {each} token(s) and the chapters place "
                            f"{on_layouts}: {placed} tokens, the box holds {box}", ["p11", "p17", "p20"],
                            ["dfm_token_count"]))
    most = box - (players - 1) * each
    full = drawn * (costs["enter"] + costs["exit"])
    verdict = "so no player can" if full > most else "so a player could"
    findings.append(Finding("lint:tokens:all-allies", "warning" if full > most else "info", "tokens",
                            f"using both effects of all {drawn} allies costs {full} tokens; one player can hold at "
                            f"most {most} of the {box} (the opponent keeps its setup tokens), {verdict}",
                            ["p15", "p33", "p35", "p11"]))
    for atom in facts:
        if atom.name != "term_variant":
            continue
        term, variant, why = (a.string for a in atom.arguments)
        uses = {w: [p.id for p in current if w.lower() in p.text.lower()] for w in (term, variant)}
        if uses[term] and uses[variant]:
            findings.append(Finding(f"lint:terms:{variant}", "warning", "terminology",
                                    f"'{variant}' ({', '.join(uses[variant])}) where the rulebook says '{term}' "
                                    f"({', '.join(uses[term][:6])}): {why}", sorted(set(uses[variant]))))
    return findings
