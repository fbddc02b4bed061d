"""Write the GEMP oracle's kill sequences again as sequences: each `r2_kill_seq_*` file of the shared conformance
folder (conformance/gemp/round2) holds the state GEMP reached after killing instance `x` (its comment names the
sequence it ran), with `x` in the dead pile and the card it bore, `xp` where there is one, in the discard pile. This
script writes, for each, the state before the kill (`x` back in play, `xp` borne by it), the kill as the
scenario's one action, and the file's play question asked after it, with where `x` and `xp` went, as GEMP had them.
Only ids and the oracle's verdicts are written, no card data or text.

The `r2_palantir_*` files name no sequence: GEMP was given each state as it stands. Each is written again as a
sequence ending with the oracle's play as an action (done where GEMP found it playable, refused where not), the
oracle's play question asked before it; where the card that decides the verdict reached its zone by a move GEMP
allows in that turn and phase (a possession played on Gandalf in the fellowship phase, a card discarded from hand),
the state before holds it in hand and that move is the first action (PREPARE).

    PYENGINE_STORE=... python -m dev.gemp_sequences [SHARED] [OUT]

SHARED defaults to the folder `shared` beside the repository, OUT to tests/scenarios/lotr_gemp_seq."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
HEADER = ("# Written again by dev/gemp_sequences.py from the GEMP oracle's file of the same name (round 2), whose\n"
          "# state was GEMP's after the sequence it ran (kill x): here the state before it, the kill as the one\n"
          "# action, and the oracle's question asked after it, with where x and the card it bore went, as GEMP had\n"
          "# them.\n")
# The zone a card of each type lies in when in play, as GEMP places it.
IN_PLAY = {"companion": "play", "ally": "support"}
ZONE_ORDER = ("play", "support", "hand", "draw_deck", "discard", "dead_pile", "stacked", "adventure_path",
              "adventure_deck", "removed")


def _flow(item: dict[str, str]) -> str:
    """An instance as one flow mapping (ids and card ids are plain words)."""
    return "{" + ", ".join(f"{key}: {value}" for key, value in item.items()) + "}"


def _table(data: dict[str, Any], players: dict[str, dict[str, list[dict[str, Any]]]]) -> list[str]:
    """The table's lines: its turn, its current site where it has one, and each player's zones in order."""
    turn = data["turn"]
    lines = [f"turn: {{player: {turn['player']}, phase: {turn['phase']}}}"]
    if "current_site" in data:
        lines.append(f"current_site: {data['current_site']}")
    lines.append("players:")
    for player, player_zones in players.items():
        kept = [z for z in ZONE_ORDER if player_zones.get(z)]
        lines.append(f"  {player}:" + ("" if kept else " {}"))
        for zone in kept:
            lines.append(f"    {zone}:")
            lines += [f"      - {_flow(item)}" for item in player_zones[zone]]
    return lines


def rewrite(source: Path, card_type: Any) -> str:
    """The sequence file of one oracle file (`card_type`: a card id -> its type)."""
    text = source.read_text(encoding="utf-8")
    data = yaml.load(text, Loader=yaml.BaseLoader)
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    players: dict[str, dict[str, list[dict[str, str]]]] = data["players"]
    owner = next(p for p, zones in players.items() for z in zones.values() for i in z if i["id"] == "x")
    zones = players[owner]
    killed = next(i for i in zones["dead_pile"] if i["id"] == "x")
    zones["dead_pile"].remove(killed)
    zones.setdefault(IN_PLAY[card_type(killed["card"])], []).append(killed)
    borne = next((i for i in zones.get("discard", []) if i["id"] == "xp"), None)
    if borne is not None:
        zones["discard"].remove(borne)
        zones.setdefault("play", []).append({**borne, "borne_by": "x"})
    lines = [HEADER.rstrip("\n"), "game: lotr", "catalog: gemp", title, "cites: [p10]"]
    lines += _table(data, players)
    lines += ["actions:", f"  - {{player: {owner}, kill: x}}", "questions:"]
    question = data["questions"][0]
    comment = next(line.strip() for line in text.splitlines()
                   if line.strip().startswith("# ") and "sequence run" in line)
    lines += ["  - {id: kill, ask: action, step: 1, profile: gemp, expect: done}",
              "  - {id: x-after, ask: value, after: 1, of: zone(x), profile: gemp, expect: dead_pile}"]
    if borne is not None:
        lines.append("  - {id: xp-after, ask: value, after: 1, of: zone(xp), profile: gemp, expect: discard}")
    asked = {**question, "after": "1"}
    lines += [f"  {comment.split(' (sequence run')[0]} (GEMP's verdict after the kill)", f"  - {_flow(asked)}"]
    return "\n".join(lines) + "\n"


PALANTIR_HEADER = ("# Written again by dev/gemp_sequences.py from the GEMP oracle's file of the same name (round 2),\n"
                   "# whose state GEMP was given as it stands (its comment names no sequence): here its play question\n"
                   "# becomes the last action, done or refused as GEMP found the card playable or not, and the\n"
                   "# question is asked before it.\n")
# The palantir files whose deciding card reached its zone by a move GEMP allows then: that card, the action that
# moves it there from its owner's hand, and the bearer it is played on.
PREPARE = {"r2_palantir_009.yaml": ("d1", "discard", None), "r2_palantir_011.yaml": ("p1", "play", "g")}


def rewrite_palantir(source: Path) -> str:
    """The sequence file of one palantir oracle file."""
    text = source.read_text(encoding="utf-8")
    data = yaml.load(text, Loader=yaml.BaseLoader)
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    players: dict[str, dict[str, list[dict[str, str]]]] = data["players"]
    question = data["questions"][0]

    def owner_of(instance: str) -> str:
        return next(p for p, zones in players.items() for z in zones.values() for i in z if i["id"] == instance)

    actions = []
    if source.name in PREPARE:
        moved, kind, bearer = PREPARE[source.name]
        owner = owner_of(moved)
        zone = next(z for z, items in players[owner].items() for i in items if i["id"] == moved)
        item = next(i for i in players[owner][zone] if i["id"] == moved)
        players[owner][zone].remove(item)
        players[owner].setdefault("hand", []).append({k: v for k, v in item.items() if k != "borne_by"})
        actions.append(f"  - {{player: {owner}, {kind}: {moved}" + (f", on: {bearer}}}" if bearer else "}"))
    played = question["instance"]
    actions.append(f"  - {{player: {owner_of(played)}, play: {played}}}")
    lines = [PALANTIR_HEADER.rstrip("\n"), "game: lotr", "catalog: gemp", title, "cites: [p28, p29, p30, p31]"]
    lines += _table(data, players)
    lines += ["actions:", *actions, "questions:"]
    steps = len(actions)
    lines += [f"  - {{id: step-{n}, ask: action, step: {n}, profile: gemp, expect: done}}" for n in range(1, steps)]
    comment = next(line.strip() for line in text.splitlines() if line.strip().startswith("# ") and "from hand" in line)
    verdict = "done" if question["expect"] == "legal" else "refused"
    lines += [f"  {comment} (GEMP's verdict, the last action)",
              f"  - {{id: play, ask: action, step: {steps}, profile: gemp, expect: {verdict}}}",
              f"  - {_flow({**question, 'after': str(steps - 1)})}"]
    return "\n".join(lines) + "\n"


def main(arguments: list[str]) -> int:
    """Write every sequence file; the card types come from the imported GEMP catalog (PYENGINE_STORE)."""
    from pyengine.core import store

    shared = Path(arguments[0]) if arguments else ROOT.parent / "shared"
    out = Path(arguments[1]) if len(arguments) > 1 else ROOT / "tests" / "scenarios" / "lotr_gemp_seq"
    catalog = store.open_source("gemp")
    out.mkdir(parents=True, exist_ok=True)
    sources = sorted((shared / "conformance" / "gemp" / "round2").glob("r2_kill_seq_*.yaml"))
    for source in sources:
        (out / source.name).write_text(rewrite(source, lambda card: catalog.get(card).type), encoding="utf-8")
    palantir = sorted((shared / "conformance" / "gemp" / "round2").glob("r2_palantir_*.yaml"))
    for source in palantir:
        (out / source.name).write_text(rewrite_palantir(source), encoding="utf-8")
    print(f"{len(sources) + len(palantir)} sequence files written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
