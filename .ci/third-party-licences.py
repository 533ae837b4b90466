"""Every crate the binary links (normal dependencies, for this machine's target), with its
licence expression and the text of its licence files, for THIRD-PARTY-LICENSES.txt."""
import json
import os
import subprocess

host = next(
    line.split(": ", 1)[1]
    for line in subprocess.check_output(["rustc", "-vV"], text=True).splitlines()
    if line.startswith("host: ")
)
meta = json.loads(
    subprocess.check_output(
        ["cargo", "metadata", "--format-version", "1", "--locked", "--filter-platform", host]
    )
)
tree = subprocess.check_output(
    ["cargo", "tree", "-e", "normal", "--prefix", "none", "--format", "{p}", "--locked"],
    text=True,
)
linked = set()
for line in tree.splitlines():
    parts = line.split()
    if len(parts) >= 2 and parts[1].startswith("v"):
        linked.add((parts[0], parts[1][1:]))

print("Tanktable links these crates; each one's licence follows its name.\n")
packages = sorted(meta["packages"], key=lambda p: (p["name"], p["version"]))
for p in packages:
    if p["source"] is None or (p["name"], p["version"]) not in linked:
        continue
    folder = os.path.dirname(p["manifest_path"])
    files = sorted(
        f
        for f in os.listdir(folder)
        if f.upper().startswith(("LICENSE", "LICENCE", "COPYING", "NOTICE", "UNLICENSE"))
        and os.path.isfile(os.path.join(folder, f))
    )
    print("=" * 78)
    print(f"{p['name']} {p['version']}: {p.get('license') or 'see its files'}")
    if p.get("repository"):
        print(p["repository"])
    for f in files:
        print("-" * 78)
        print(f)
        print()
        with open(os.path.join(folder, f), encoding="utf-8", errors="replace") as text:
            print(text.read().rstrip())
    if not files:
        print("(no licence file in the crate; its licence is the expression above)")
    print()
