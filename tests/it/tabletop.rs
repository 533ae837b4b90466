//! Golden playthroughs of the setup-file games (Battle Tanks, Tank Combat, the Range
//! Duel): a setup, a seed and scripted dice (a shuffle is scripted the same way: each draw
//! is a die roll), the actions, and the facts they must produce in words, with the final
//! state hash.
//!
//! Regenerate after a deliberate rules change with `TANKTABLE_BLESS=1 cargo test
//! tabletop_golden` and review the diff of `tests/playthroughs/tabletop/`. A file blessed
//! with no actions gets the heuristic bots' game from its seed and dice.

use serde::{Deserialize, Serialize};
use tanktable::data::load_ron;
use tanktable::framework::bot::play_out;
use tanktable::framework::hash::format_hash;
use tanktable::framework::record::RecordHeader;
use tanktable::framework::rng::derive_seed;
use tanktable::framework::tabletop::{self, load_setup};
use tanktable::framework::{MatchRng, PlayerId, Tabletop};
use tanktable::rules::TableGame;

use crate::project;

#[derive(Debug, Serialize, Deserialize)]
struct Step<A> {
    player: PlayerId,
    action: A,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename = "MatchRecord")]
struct Playthrough<A> {
    game: String,
    description: String,
    /// The setup file, relative to the project.
    setup: String,
    seed: u64,
    #[serde(default)]
    dice: Vec<u32>,
    actions: Vec<Step<A>>,
    #[serde(default)]
    expected: Vec<String>,
    #[serde(default)]
    final_hash: Option<String>,
}

fn check<G: Tabletop>(path: &std::path::Path, text: &str, bless: bool) {
    let name = path.display().to_string();
    let (mut p, _): (Playthrough<G::Action>, _) =
        load_ron(&name, text).unwrap_or_else(|e| panic!("{e}"));
    let setup = load_setup::<G>(&project(&p.setup)).unwrap_or_else(|e| panic!("{e}"));
    if bless && p.actions.is_empty() {
        let game = G::from_setup(&setup).unwrap();
        let mut bots: Vec<_> = (0..game.player_count())
            .map(|_| G::bot("heuristic").unwrap())
            .collect();
        let played = play_out(
            game,
            &mut bots,
            &mut MatchRng::scripted(p.seed, p.dice.iter().copied()),
            &mut MatchRng::new(derive_seed(p.seed, 1)),
            10_000,
            |_, _| {},
        )
        .unwrap();
        p.actions = played
            .actions
            .into_iter()
            .map(|(player, action)| Step { player, action })
            .collect();
    }
    let mut game = tabletop::start::<G>(&setup, p.seed, &p.dice).unwrap();
    let mut said: Vec<String> = game
        .opening_facts()
        .iter()
        .map(|f| game.state().describe_fact(f))
        .collect();
    for (i, step) in p.actions.iter().enumerate() {
        said.push(format!(
            "{}: {}",
            game.state().player_name(step.player),
            game.state().describe_action(&step.action)
        ));
        let facts = game
            .play(step.player, &step.action)
            .unwrap_or_else(|e| panic!("{name}: action {}: {e}", i + 1))
            .to_vec();
        said.extend(facts.iter().map(|f| game.state().describe_fact(f)));
    }
    let hash = format_hash(game.state_hash());
    if bless {
        p.expected = said;
        p.final_hash = Some(hash);
        let text = tanktable::data::to_ron_pretty(&p).unwrap();
        std::fs::write(path, text).unwrap();
        return;
    }
    for (i, (got, want)) in said.iter().zip(&p.expected).enumerate() {
        assert_eq!(got, want, "{name}: line {} of the expected facts", i + 1);
    }
    assert_eq!(said.len(), p.expected.len(), "{name}: number of fact lines");
    assert_eq!(Some(hash), p.final_hash, "{name}: final state hash");
}

#[test]
fn tabletop_golden_playthroughs() {
    let bless = std::env::var_os("TANKTABLE_BLESS").is_some();
    let dir = project("tests/playthroughs/tabletop");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    let mut games_covered = std::collections::BTreeSet::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let (header, _): (RecordHeader, _) =
            tanktable::data::load_ron_lenient(&path.display().to_string(), &text).unwrap();
        let which = TableGame::ALL
            .into_iter()
            .find(|g| g.name() == header.game)
            .unwrap_or_else(|| panic!("{}: unknown game {}", path.display(), header.game));
        games_covered.insert(which.name());
        tanktable::dispatch_table_game!(which, check(path, &text, bless));
    }
    for g in TableGame::ALL {
        assert!(
            games_covered.contains(g.name()),
            "no golden playthrough of {} in {}",
            g.title(),
            dir.display()
        );
    }
}

/// Every setup-file game plays headless from the command line: a record, its replay, the
/// legal actions, and a short simulation in which every match is accounted for.
#[test]
fn every_table_game_plays_headless() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("tt-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_tanktable"))
            .args(args)
            .current_dir(project("."))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for g in TableGame::ALL {
        let setup = format!("{}/default.ron", g.folder());
        let record = dir.join(format!("{}.ron", g.name()));
        let record = record.to_str().unwrap();
        run(&["record", &setup, "-o", record, "--seed", "5"]);
        let said = run(&["replay", record]);
        assert!(said.contains("Result:"), "{}: {said}", g.title());
        run(&["check", record, &setup]);
        let said = run(&["legal", &setup]);
        assert!(said.contains(" may play "), "{}: {said}", g.title());
        let json = run(&[
            "sim",
            &setup,
            "-n",
            "60",
            "--json",
            "--threads",
            "1",
            "--bots",
            "heuristic,random",
        ]);
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        let wins: u64 = report["wins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap())
            .sum();
        let none = report["no_winner"].as_u64().unwrap();
        // A shared win counts for each winner, so wins may exceed the matches they share.
        assert!(wins + none >= 60, "{}: {report}", g.title());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
