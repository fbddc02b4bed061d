"""Random playouts of the Duel for Middle-earth to the end of the game (issue 23), many at a time: each playout
is drawn from a seed (pyengine.games.dfm.playouts.playout), from the setup or, with `--real`, from the base
game's real cards dealt from the seed (playouts.dealt_start), and written as a scenario file, on `--jobs`
processes; once all are drawn, each is answered again from its file, one at a time, by a fresh `pyengine check`
(the time includes its start), with a question for every action (done), the Power tokens after every action (8),
on real cards both players' coins and the reserve after every action (30 together), and who won. Prints each
playout as a JSON line and then the distribution of game lengths and of how games end, and how long the answers
took. `--answer DIR` answers the playout files a run wrote there (`--out DIR`) again, drawing nothing;
`--draw-only` draws and writes them without answering (a long run drawn in parts, answered once).

    python benchmarks/playouts.py [--count 100] [--jobs 2] [--first-seed 1] [--real] [--out DIR] [--answer DIR]
                                  [--draw-only] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import yaml

from pyengine.games.dfm import playouts

# A game that runs its course takes 100-150 actions; one that has not ended by this many is reported as such.
LIMIT = 400
# Where the game's 30 coins are: a real playout asks each after every action, and their sum is checked.
COINS = (("fellowship", ["coins", "fellowship"]), ("sauron", ["coins", "sauron"]), ("reserve", ["reserve"]))


def draw(job: tuple[int, str, bool]) -> dict[str, Any]:
    """One playout drawn from its seed and written to the folder, with a question for every action (and, on real
    cards, the coins of both players and the reserve after every action, 30 together)."""
    seed, folder, real = job
    started = time.perf_counter()
    game = playouts.playout(seed, limit=LIMIT, start=playouts.dealt_start(seed) if real else None)
    drawn = time.perf_counter() - started
    count = len(game["actions"])
    game["questions"] += [{"id": f"step-{n}", "ask": "action", "step": n, "expect": "done"}
                          for n in range(1, count + 1)]
    if real:
        game["questions"] += [{"id": f"{what}-{n}", "ask": "value", "after": n, "of": of}
                              for n in range(count + 1) for what, of in COINS]
    path = Path(folder, f"playout_{seed:04d}.yaml")
    path.write_text(yaml.safe_dump(game, sort_keys=False), encoding="utf-8")
    return {"seed": seed, "actions": count, "drawn_s": round(drawn, 1), "path": str(path)}


def answer(path: Path) -> dict[str, Any]:
    """A playout file answered as a judge would, by a fresh `pyengine check` (its start included)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pyengine", "check", str(path), "--json"], capture_output=True,
                          text=True, check=False)
    answered = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise RuntimeError(f"checking {path} failed: {done.stderr}")
    [result] = json.loads(done.stdout)["scenarios"]
    got = {q["question"]: q["got"] for q in result["questions"]}
    winner = next(q for q in result["questions"] if q["question"] == "winner")
    moments = sorted({int(q.rsplit("-", 1)[1]) for q in got if q.startswith("reserve-")})
    unaccounted = [n for n in moments if sum(int(got[f"{what}-{n}"]) for what, _ in COINS) != 30]
    return {"winner": winner["got"], "by": winner["rules"], "answered_s": round(answered, 2),
            "failed": [q["question"] for q in result["questions"] if q["passed"] is False],
            "coins_unaccounted_after": unaccounted}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="random Duel playouts to the end of the game")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2, help="processes drawing playouts at once")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--out", help="the folder the playouts are written to (default: a temporary one)")
    parser.add_argument("--answer", metavar="DIR", help="draw nothing: answer the playout files already in DIR")
    parser.add_argument("--real", action="store_true",
                        help="on the base game's real cards, dealt from each seed (pyengine import vermihunter first)")
    parser.add_argument("--draw-only", action="store_true", help="draw and write the playouts (--out), answer none")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pyengine-playouts-") as tmp:
        folder = args.answer or args.out or tmp
        Path(folder).mkdir(parents=True, exist_ok=True)
        if args.answer:
            drawn = [{"seed": int(p.stem.split("_")[1]), "path": str(p),
                      "actions": len(yaml.safe_load(p.read_text(encoding="utf-8"))["actions"])}
                     for p in sorted(Path(folder).glob("playout_*.yaml"))]
        else:
            seeds = [(seed, folder, args.real) for seed in range(args.first_seed, args.first_seed + args.count)]
            # Each playout in a process of its own: clingo's symbols stay in their process, and a worker's later
            # playouts were drawn two times slower than its first (real cards: about 70 s, then 2.5 min).
            with ProcessPoolExecutor(max_workers=args.jobs, max_tasks_per_child=1) as pool:
                drawn = []
                for game in pool.map(draw, seeds):
                    drawn.append(game)
                    print(json.dumps(game), file=sys.stderr, flush=True)
            if args.draw_only:
                print(json.dumps({"drawn": len(drawn), "folder": folder}))
                return 0
        # Answered one at a time once every playout is drawn, so that nothing else runs beside an answer.
        results = []
        for game in drawn:
            path = Path(game.pop("path"))
            result = {**game, **answer(path)}
            results.append(result)
            print(json.dumps(result), file=sys.stderr, flush=True)
    lengths = [r["actions"] for r in results]
    answered = sorted(r["answered_s"] for r in results)
    summary = {"playouts": len(results), "ended": sum(r["actions"] < LIMIT for r in results),
               "all_expectations_hold": all(not r["failed"] for r in results),
               "coins_accounted_for": all(not r["coins_unaccounted_after"] for r in results),
               "length": {"min": min(lengths), "median": statistics.median(lengths), "max": max(lengths)},
               "endings": dict(Counter(f"{r['winner']} by {','.join(r['by'])}" for r in results)),
               "answered_s": {"median": statistics.median(answered), "quartiles": [answered[len(answered) // 4],
                              answered[3 * len(answered) // 4]], "max": answered[-1],
                              "at_least_2_s": sum(a >= 2 for a in answered)}}
    if not args.answer:
        summary["drawn_s"] = {"median": statistics.median(r["drawn_s"] for r in results)}
    print(json.dumps(summary, indent=None if not args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
