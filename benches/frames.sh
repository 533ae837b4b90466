#!/usr/bin/env bash
# The frame benchmark's table: every scene of the client rendered offscreen, beside an empty
# Bevy app (one camera) measured three times in the same run, interleaved with the scenes,
# and last the playtest lab's screen during a run.
# Each size prints frame times, frames per second, resident memory and each scene's ratio
# to the median empty run (`tanktable bench-frames`, `dev` feature; see docs/performance.md).
#
#   benches/frames.sh                 2,000 frames a scene at 1280x720, 1920x1080, 3840x2160
#   benches/frames.sh --pin           the same on 4 cores (taskset -c 0-3), a desktop's count
#   benches/frames.sh --smoke         every scene for a few frames at 320x180 (CI; no timing)
#   benches/frames.sh --frames 300 --sizes "1920x1080"
#   benches/frames.sh --pin --sizes 1920x1080 --antialiasing "msaa4 msaa2 smaa fxaa off"
#                                     the table once per edge smoothing the Graphics window
#                                     offers (default: auto, the client's default: SMAA
#                                     on a software renderer, msaa4 on a GPU)
#   benches/frames.sh --passes        after each table, each scene's render passes: the GPU's
#                                     time in each and the fragments it shaded per pixel
#                                     (Bevy's render diagnostics; their queries cost a little)
#
# TANKTABLE_BIN=path runs that binary (built with `--features dev`) instead of building one:
# a release build normally, the dev profile for --smoke.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tanktable-target}"

smoke=0
pin=0
frames=2000
warmup=240
sizes="1280x720 1920x1080 3840x2160"
smoothings="auto"
passes=()
while [ $# -gt 0 ]; do
    case "$1" in
        --smoke) smoke=1 ;;
        --pin) pin=1 ;;
        --frames) frames="$2"; shift ;;
        --warmup) warmup="$2"; shift ;;
        --sizes) sizes="$2"; shift ;;
        --antialiasing) smoothings="$2"; shift ;;
        --passes) passes=(--passes) ;;
        -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "frames.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
if [ "$smoke" = 1 ]; then
    frames=5
    warmup=2
    sizes="320x180"
fi

bin="${TANKTABLE_BIN:-}"
if [ -z "$bin" ]; then
    if [ "$smoke" = 1 ]; then
        # The dev profile, with the features `cargo test` resolves (a bench target pulls in
        # the dev-dependencies), so that nothing but this crate is compiled again.
        cargo build --features dev --bin tanktable --bench editor
        bin="$CARGO_TARGET_DIR/debug/tanktable"
    else
        cargo build --release --features dev
        bin="$CARGO_TARGET_DIR/release/tanktable"
    fi
fi

pin_cmd=()
if [ "$pin" = 1 ]; then
    pin_cmd=(taskset -c 0-3)
fi

eight_bots="heuristic,heuristic,heuristic,heuristic,heuristic,heuristic,heuristic,heuristic"
scenes=(
    empty
    menu
    scenarios/battle.ron
    empty
    benches/big-battle.ron
    scenarios/tank-chess/basic-20.ron
    empty
    "scenarios/battle-tanks/eight-players.ron@$eight_bots"
    scenarios/tank-combat/deathmatch-4.ron
    scenarios/range-duel/default.ron@person,heuristic
    # The playtest lab's screen while a run keeps every core but one busy (issue 14's
    # 30 fps goal): the table says how many games the workers finished meanwhile.
    lab
)

for size in $sizes; do
    for smoothing in $smoothings; do
        echo "## $size$([ "$pin" = 1 ] && echo ', pinned to 4 cores'), edge smoothing $smoothing"
        "${pin_cmd[@]}" "$bin" bench-frames --size "$size" --frames "$frames" --warmup "$warmup" \
            --antialiasing "$smoothing" "${passes[@]}" "${scenes[@]}" |
            { grep -v -E ': (pipelines compiled|  (compute|render) )' || [ $? = 1 ]; }
        echo
    done
done
