//! Render tests: the real client under Xvfb with Mesa's software Vulkan, checked by what a
//! player would see. Screenshots are kept in `artifacts/render/`.
//!
//! Needs `xvfb-run`; without it the test is skipped, unless `TANKTABLE_REQUIRE_RENDER` is
//! set (CI sets it), when a missing Xvfb is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::project;

fn xvfb_available() -> bool {
    Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Pixels of a PNG as RGB triples.
fn pixels(path: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let px = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|c| [c[0], c[1], c.get(2).copied().unwrap_or(c[0])])
        .collect();
    (info.width, info.height, px)
}

fn count(px: &[[u8; 3]], pred: impl Fn([i32; 3]) -> bool) -> usize {
    px.iter()
        .filter(|p| pred([i32::from(p[0]), i32::from(p[1]), i32::from(p[2])]))
        .count()
}

/// Whether render tests can run here; a missing Xvfb fails when `TANKTABLE_REQUIRE_RENDER`
/// is set.
fn can_render() -> bool {
    if xvfb_available() {
        return true;
    }
    assert!(
        std::env::var_os("TANKTABLE_REQUIRE_RENDER").is_none(),
        "xvfb-run is required but missing"
    );
    eprintln!("skipped: xvfb-run is not installed");
    false
}

/// Runs the client under Xvfb with `args`, writing `name` into `artifacts/render/`.
fn render(args: &[&str], name: &str) -> PathBuf {
    let dir: PathBuf = project("artifacts/render");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(name);
    let _ = std::fs::remove_file(&out);
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_tanktable"))
        .args(args)
        .arg(&out)
        .current_dir(project("."))
        .env("RUST_LOG", "error")
        .env("TANKTABLE_DATA", dir.join("data"))
        .status()
        .expect("xvfb-run starts");
    assert!(status.success(), "the client failed under Xvfb: {args:?}");
    out
}

#[test]
fn the_table_shows_terrain_and_both_sides() {
    if !can_render() {
        return;
    }
    let out = render(
        &["play", "scenarios/skirmish.ron", "--screenshot"],
        "skirmish.png",
    );
    let (w, h, px) = pixels(&out);
    assert_eq!((w, h), (1280, 720));
    let total = px.len();
    // Not blank: many distinct colours.
    let mut distinct: Vec<[u8; 3]> = px.iter().step_by(37).copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(
        distinct.len() > 200,
        "the image looks blank ({} colours)",
        distinct.len()
    );
    // The board: open ground is green and covers a good part of the screen.
    let green = count(&px, |[r, g, b]| g > r + 15 && g > b + 30);
    assert!(
        green > total / 8,
        "too little green board: {green} of {total}"
    );
    // Both sides' tanks: saturated blue and saturated red.
    let blue = count(&px, |[r, g, b]| b > 150 && b > r + 80 && b > g + 50);
    let red = count(&px, |[r, g, b]| r > 150 && r > g + 90 && r > b + 90);
    assert!(blue > 150, "no blue tank on screen ({blue} px)");
    assert!(red > 100, "no red tank on screen ({red} px)");
}

#[test]
fn preview_renders_a_scenario_to_png() {
    if !can_render() {
        return;
    }
    let out = render(
        &["preview", "scenarios/training-range.ron", "-o"],
        "preview-training-range.png",
    );
    let (_, _, px) = pixels(&out);
    // The gold waypoint rings are on the table.
    let gold = count(&px, |[r, g, b]| r > 180 && g > 140 && b < 90);
    assert!(gold > 100, "no waypoint rings visible ({gold} px)");
    let blue = count(&px, |[r, g, b]| b > 150 && b > r + 80 && b > g + 50);
    assert!(blue > 100, "the trainee's tank is missing ({blue} px)");
}

/// The first action of a greedy game of the default scenario (as the client's autoplay
/// plays it) that knocks a unit out: its index and the victim's side.
fn first_knockout(seed: u64) -> Option<(u32, u8)> {
    use tanktable::framework::bot::Bot;
    use tanktable::framework::{Game, Match, MatchRng};
    use tanktable::rules::tank_commander::{Fact, GreedyBot, Rules, Scenario, TankCommander};
    let rules = Rules::builtin();
    let scenario = Scenario::load(&project("scenarios/skirmish.ron"), &rules).unwrap();
    let mut m = Match::new(TankCommander::new(&scenario, &rules).unwrap(), seed);
    let mut bot_rng = MatchRng::new(seed);
    for i in 0..400 {
        let player = *m.state().to_act().first()?;
        let action = GreedyBot.choose(m.state(), player, &mut bot_rng)?;
        let facts = m.play(player, &action).unwrap().to_vec();
        for f in facts {
            if let Fact::UnitDisabled { unit, .. } = f {
                return Some((i, m.state().unit(unit).side.0));
            }
        }
    }
    None
}

#[test]
fn a_scripted_game_shows_a_knocked_out_tank() {
    if !can_render() {
        return;
    }
    // The seed whose greedy game knocks a tank out soonest.
    let (seed, (k, victim)) = (1..40)
        .filter_map(|s| first_knockout(s).map(|f| (s, f)))
        .min_by_key(|(_, (k, _))| *k)
        .expect("some greedy game knocks a tank out");
    let seed = seed.to_string();
    let side_px = |px: &[[u8; 3]]| match victim {
        0 => count(px, |[r, g, b]| b > 150 && b > r + 80 && b > g + 50),
        _ => count(px, |[r, g, b]| r > 150 && r > g + 90 && r > b + 90),
    };
    let frame = (k + 60).to_string();
    let shot = |actions: u32, name: &str, clean: bool| {
        let n = actions.to_string();
        let mut args = vec![
            "play",
            "scenarios/skirmish.ron",
            "--seed",
            &seed,
            "--autoplay",
            &n,
            "--screenshot-frame",
            &frame,
        ];
        if clean {
            args.push("--clean");
        }
        args.push("--screenshot");
        let out = render(&args, name);
        pixels(&out).2
    };
    let before = shot(k, "e2e-before-knockout.png", true);
    let after = shot(k + 1, "e2e-after-knockout.png", true);
    // A player's view of the same moment, panels and all, kept for people to look at.
    let _ = shot(k + 1, "e2e-after-knockout-ui.png", false);
    let (b, a) = (side_px(&before), side_px(&after));
    assert!(
        b > 400,
        "the victim's colour is on the table before the knockout ({b} px)"
    );
    assert!(
        a * 3 < b * 2,
        "the knocked-out tank lost its paint: {b} px before, {a} after"
    );
    let green = count(&after, |[r, g, bl]| g > r + 15 && g > bl + 30);
    assert!(
        green > after.len() / 8,
        "the board is still drawn ({green} px)"
    );
    let changed = before.iter().zip(&after).filter(|(x, y)| x != y).count();
    assert!(changed > 500, "the image changed ({changed} px)");
}

#[test]
fn the_tank_chess_board_shows_squares_obstacles_and_both_colours() {
    if !can_render() {
        return;
    }
    let out = render(
        &[
            "play",
            "scenarios/tank-chess/basic-16.ron",
            "--clean",
            "--screenshot",
        ],
        "tank-chess-basic-16.png",
    );
    let (_, _, px) = pixels(&out);
    // Light and dark squares of the board.
    let light = count(&px, |[r, g, b]| {
        r > 170 && g > 160 && b > 120 && r - b > 20 && r - b < 70
    });
    assert!(
        light > px.len() / 20,
        "the board's light squares ({light} px)"
    );
    // Grey obstacle blocks, ivory white pieces and charcoal black pieces.
    let grey = count(&px, |[r, g, b]| {
        (r - b).abs() < 8 && (r - g).abs() < 8 && (90..140).contains(&r)
    });
    assert!(grey > 2000, "obstacle blocks ({grey} px)");
    let ivory = count(&px, |[r, g, b]| r > 215 && g > 210 && b > 190);
    // Darker than the window's background (41, 43, 48).
    let charcoal = count(&px, |[r, g, b]| r < 30 && g < 30 && b < 34);
    assert!(ivory > 300, "white pieces ({ivory} px)");
    assert!(charcoal > 300, "black pieces ({charcoal} px)");
}

/// Battle Tanks: the felt table, the Battlefield, and the commanders' dice at their seats.
#[test]
fn the_dice_table_shows_the_felt_the_battlefield_and_the_arsenals() {
    if !can_render() {
        return;
    }
    let out = render(
        &[
            "play",
            "scenarios/battle-tanks/default.ron",
            "--seats",
            "human,heuristic,heuristic,heuristic",
            "--seed",
            "7",
            "--autoplay",
            "5",
            "--screenshot-frame",
            "40",
            "--screenshot",
        ],
        "battle-tanks.png",
    );
    let (_, _, px) = pixels(&out);
    let total = px.len();
    let felt = count(&px, |[r, g, b]| g > r + 40 && g > b + 25);
    assert!(felt > total / 6, "too little green felt: {felt} of {total}");
    let battlefield = count(&px, |[r, g, b]| r > g + 20 && g > b + 10 && r < 140);
    assert!(battlefield > total / 40, "no Battlefield: {battlefield}");
    // Ann's dice and plate are blue; the Nukes' pips glow red.
    let blue = count(&px, |[r, _, b]| b > 150 && b > r + 50);
    assert!(blue > 500, "no blue seat ({blue} px)");
    let pips = count(&px, |[r, g, b]| r > 200 && g < 110 && b < 100);
    assert!(pips > 20, "no red Nuke pips ({pips} px)");
}

/// Tank Combat against a bot: the person's hand as readable cards, both tanks.
#[test]
fn the_card_table_shows_the_hand_and_both_tanks() {
    if !can_render() {
        return;
    }
    let out = render(
        &[
            "play",
            "scenarios/tank-combat/default.ron",
            "--seats",
            "human,heuristic",
            "--seed",
            "3",
            "--autoplay",
            "6",
            "--screenshot-frame",
            "40",
            "--screenshot",
        ],
        "tank-combat.png",
    );
    let (_, _, px) = pixels(&out);
    // Card faces are cream.
    let cards = count(&px, |[r, g, b]| r > 230 && g > 225 && b > 205 && b < 228);
    assert!(cards > 20_000, "no cards in hand ({cards} px)");
    let blue = count(&px, |[r, g, b]| b > 180 && b > r + 60 && b > g + 30);
    let red = count(&px, |[r, g, b]| r > 180 && r > g + 80 && r > b + 80);
    assert!(blue > 300, "no blue tank ({blue} px)");
    assert!(red > 300, "no red tank ({red} px)");
}

/// Tank Combat hot seat: before the first player looks, the privacy screen hides all.
#[test]
fn hot_seat_with_hidden_hands_starts_behind_the_privacy_screen() {
    if !can_render() {
        return;
    }
    let out = render(
        &[
            "play",
            "scenarios/tank-combat/default.ron",
            "--seats",
            "human,human",
            "--screenshot-frame",
            "25",
            "--screenshot",
        ],
        "tank-combat-privacy.png",
    );
    let (_, _, px) = pixels(&out);
    let dark = count(&px, |[r, g, b]| r < 30 && g < 30 && b < 35);
    assert!(
        dark > px.len() * 9 / 10,
        "the privacy screen does not cover the table ({dark} of {} px dark)",
        px.len()
    );
    let cards = count(&px, |[r, g, b]| r > 230 && g > 225 && b > 205 && b < 228);
    assert!(
        cards < 200,
        "cards show through the privacy screen ({cards} px)"
    );
}

/// The Range Duel: the track with both tanks on it.
#[test]
fn the_range_track_shows_both_tanks() {
    if !can_render() {
        return;
    }
    let out = render(
        &[
            "play",
            "scenarios/range-duel/default.ron",
            "--seats",
            "human,heuristic",
            "--seed",
            "5",
            "--autoplay",
            "2",
            "--screenshot-frame",
            "40",
            "--screenshot",
        ],
        "range-duel.png",
    );
    let (_, _, px) = pixels(&out);
    let track = count(&px, |[r, g, b]| {
        r > 150 && r > b + 40 && g > b + 20 && r < 220
    });
    assert!(track > px.len() / 30, "no range track ({track} px)");
    let blue = count(&px, |[r, g, b]| b > 180 && b > r + 60 && b > g + 30);
    let red = count(&px, |[r, g, b]| r > 180 && r > g + 80 && r > b + 80);
    assert!(blue > 300, "no blue tank ({blue} px)");
    assert!(red > 300, "no red tank ({red} px)");
}
