#!/usr/bin/env python3
"""Bot against bot over the shipped two-sided Tank Commander scenarios, both sides.

    benches/bots.py A B [-n GAMES] [--seed S] [--bin PATH] [--coverage]

For every scenario in scenarios/*.ron with two sides, plays GAMES games with A as the
first side and B as the second, then GAMES with the seats swapped, and prints A's score
(a win 1, a game without a winner 1/2) per scenario and side, and over all. With
--coverage, also the action kinds and rules A's games used (summed over the scenarios;
`tanktable sim --coverage` counts both seats' play, so run it with A against A for A's
coverage alone).
"""
import argparse, glob, json, os, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("a"); ap.add_argument("b")
ap.add_argument("-n", type=int, default=100)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--bin", default=os.path.expanduser("~/.cache/tanktable-target/release/tanktable"))
ap.add_argument("--coverage", action="store_true")
ap.add_argument("--only", default="")
args = ap.parse_args()

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
total = [0.0, 0]
actions, rules, cov_games = {}, {}, 0
print(f"{'scenario':<24}{'as side 1 (no win)':>17}{'as side 2 (no win)':>17}  games/s")
for path in sorted(glob.glob(os.path.join(root, "scenarios", "*.ron"))):
    name = os.path.basename(path)[:-4]
    # Basic Training's second side is a row of targets: not a side that plays.
    if "Training(" in open(path).read():
        continue
    if args.only and args.only not in name:
        continue
    row = []
    speed = []
    for seats, me in ((f"{args.a},{args.b}", 0), (f"{args.b},{args.a}", 1)):
        cmd = [args.bin, "sim", path, "-n", str(args.n), "--seed", str(args.seed), "--bots", seats, "--json"]
        if args.coverage:
            cmd.append("--coverage")
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            row = None
            break
        r = json.loads(out.stdout)
        if len(r["seats"]) != 2:
            row = None
            break
        score = r["wins"][me] + 0.5 * r["no_winner"]
        row.append((score / r["games"], r["no_winner"] / r["games"]))
        total[0] += score; total[1] += r["games"]
        speed.append(r["games"] / max(r["seconds"], 1e-9))
        if args.coverage and r.get("coverage"):
            c = r["coverage"]; cov_games += c["games"]
            for u in c["actions"]:
                a = actions.setdefault(u["name"], [0, 0]); a[0] += u["games"]; a[1] += u["times"]
            for u in c["rules"]:
                a = rules.setdefault(u["name"], [0, 0]); a[0] += u["games"]; a[1] += u["times"]
    if row is None:
        continue
    cells = "".join(f"{100*s:>9.1f}% ({100*d:>2.0f}%)" for s, d in row)
    print(f"{name:<24}{cells}  {sum(speed)/len(speed):>6.0f}")
print(f"overall: {args.a} scores {100*total[0]/max(total[1],1):.1f}% against {args.b} over {total[1]} games")
if args.coverage:
    print(f"\ncoverage over {cov_games} games:")
    for k, (g, t) in actions.items():
        print(f"  {k:<34} {g:>6} games {t:>8} times{'  NEVER' if g == 0 else ''}")
    for k, (g, t) in rules.items():
        print(f"  {k:<34} {g:>6} games {t:>8} times{'  NEVER' if g == 0 else ''}")
