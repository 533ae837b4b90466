#!/usr/bin/env python3
"""How fair every shipped setup plays, bot against the same bot at every seat.

    benches/balance.py [-n GAMES] [--game GAME] [--only TEXT] [--seed S] [--bin PATH] [--markdown]

For every setup under scenarios/ (the five games; the lab's variants and campaigns left
out), plays GAMES games with the game's default bot (the lab's) at every seat, and for
Tank Commander also with the greedy bot, and prints each seat's score (a game's point
goes to its winner, is split among winners who share it, or among all N seats when
nobody wins) and the share of games without a winner.

A setup is flagged when a seat's score is outside 0.8/N to 1.2/N (40-60% with two
seats) or more than 15% of its games end without a winner, unless its description says
it is so on purpose. The same bot plays every seat, so swapping the seats gives
the same games: the seats' scores are the setup's balance alone.
"""
import argparse, glob, json, os, subprocess

folders = ["", "tank-chess", "range-duel", "battle-tanks", "tank-combat"]
ap = argparse.ArgumentParser()
ap.add_argument("-n", type=int, default=4000)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--bin", default=os.path.expanduser("~/.cache/tanktable-target/release/tanktable"))
ap.add_argument("--chess-games", type=int, default=200,
                help="games per Tank Chess setup: its default bot takes 0.3 s to several seconds a game")
ap.add_argument("--only", default="", help="only the setups whose path holds this text")
ap.add_argument("--game", default="", choices=["", "tank-commander"] + folders[1:],
                help="only this game's setups")
ap.add_argument("--markdown", action="store_true")
args = ap.parse_args()

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
setups = []
for folder in folders:
    if args.game and folder != args.game.replace("tank-commander", ""):
        continue
    setups += sorted(glob.glob(os.path.join(root, "scenarios", folder, "*.ron")))


def run(path, bots, games):
    cmd = [args.bin, "sim", path, "-n", str(games), "--seed", str(args.seed), "--json"]
    if bots:
        cmd += ["--bots", bots]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{path}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def judge(r, text):
    n = len(r["seats"])
    games = r["games"]
    scores = r["scores"]  # a game's point split among its winners, or among all seats
    no_win = r["no_winner"] / games
    fair = all(0.8 / n <= s <= 1.2 / n for s in scores) and no_win <= 0.15
    if "Training(" in text:
        verdict = "solo practice"  # the second side is a row of targets
    elif fair:
        verdict = "fair"
    else:
        verdict = "as meant (its description says why)" if "on purpose" in text else "UNFAIR"
    return scores, no_win, verdict


def show(row):
    rel, bot, seats, scores, no_win, verdict, games, speed = row
    if args.markdown:
        cells = ", ".join(f"{s} {100 * x:.1f}%" for s, x in zip(seats, scores))
        mark = f"**{verdict}**" if verdict == "UNFAIR" else verdict
        print(f"| `{rel}` | {bot} | {games:,} | {cells} | {100 * no_win:.1f}% | {mark} |", flush=True)
    else:
        cells = "  ".join(f"{s} {100 * x:5.1f}%" for s, x in zip(seats, scores))
        print(f"{rel:<45} {bot:<10} {games:>5} {cells}  no winner {100 * no_win:5.1f}%  {verdict}"
              f"  ({speed:.0f} games/s)", flush=True)


if args.markdown:
    print("| Setup | Bot | Games | Seats' scores | No winner | Verdict |")
    print("|---|---|---|---|---|---|")
for path in setups:
    rel = os.path.relpath(path, root)
    if args.only and args.only not in rel:
        continue
    text = open(path).read()
    games = args.n
    if "tank-chess/" in rel:
        games = args.chess_games
    runs = [("default", run(path, None, games))]
    if rel.count("/") == 1:  # Tank Commander: its greedy bot beside the default
        runs.append(("greedy", run(path, "greedy", games)))
    for bot, r in runs:
        scores, no_win, verdict = judge(r, text)
        show((rel, r["bots"][0] if bot == "default" else bot, r["seats"], scores, no_win,
              verdict, r["games"], r["games"] / max(r["seconds"], 1e-9)))
