//! Golden playthroughs: a scenario, a seed and scripted dice, the commands, and the facts
//! they must produce in words, with the final state hash.
//!
//! After a deliberate rules change, regenerate with `TANKTABLE_BLESS=1 cargo test
//! playthrough` and review the diff of `tests/playthroughs/`.

use serde::{Deserialize, Serialize};
use tanktable::data::{self, load_ron};
use tanktable::framework::{Game, Match, MatchRng, PlayerId, RecordedAction};
use tanktable::rules::tank_commander::{self as tc, Action, Rules, ScenarioSource, TankCommander};

use crate::project;

/// One command; `refused: true` marks a command the rules must refuse (the expected facts
/// then hold the refusal's sentence).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Step {
    player: PlayerId,
    action: Action,
    #[serde(default)]
    refused: bool,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename = "Playthrough")]
struct Playthrough {
    description: String,
    scenario: ScenarioSource,
    seed: u64,
    #[serde(default)]
    dice: Vec<u32>,
    actions: Vec<Step>,
    #[serde(default)]
    expected: Vec<String>,
    #[serde(default)]
    final_hash: Option<String>,
}

#[test]
fn golden_playthroughs() {
    let bless = std::env::var_os("TANKTABLE_BLESS").is_some();
    let rules = Rules::builtin();
    let dir = project("tests/playthroughs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 4,
        "expected the golden playthroughs in {}",
        dir.display()
    );
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut p, _): (Playthrough, _) = load_ron(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        let scenario = p
            .scenario
            .load(Some(&project(".")), &rules)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let game = TankCommander::new(&scenario, &rules).unwrap();
        let mut m = Match::with_rng(game, MatchRng::scripted(p.seed, p.dice.iter().copied()));
        let mut lines: Vec<String> = m
            .opening_facts()
            .iter()
            .map(|f| m.state().describe_fact(f))
            .collect();
        for (i, step) in p.actions.iter().enumerate() {
            let words = m.state().describe_action(&step.action);
            match m.play(step.player, &step.action) {
                Ok(facts) => {
                    assert!(
                        !step.refused,
                        "{name}: step {} ({words}) should have been refused",
                        i + 1
                    );
                    let facts = facts.to_vec();
                    lines.extend(facts.iter().map(|f| m.state().describe_fact(f)));
                }
                Err(why) => {
                    assert!(
                        step.refused,
                        "{name}: step {} ({words}) was refused: {why}",
                        i + 1
                    );
                    lines.push(format!("Refused: {words}: {why}"));
                }
            }
        }
        assert_eq!(
            m.rng_mut().script_left(),
            0,
            "{name}: not every scripted die was used"
        );
        let hash = tanktable::framework::hash::format_hash(m.state_hash());
        // The accepted commands, as a match record, replay to the same state.
        let record = tc::Record {
            game: "tank-commander".into(),
            scenario: p.scenario.clone(),
            seed: p.seed,
            dice: p.dice.clone(),
            actions: p
                .actions
                .iter()
                .filter(|s| !s.refused)
                .map(|s| RecordedAction {
                    player: s.player,
                    action: s.action,
                })
                .collect(),
            final_hash: Some(hash.clone()),
        };
        tc::replay_record(&record, &scenario, &rules).unwrap_or_else(|e| panic!("{name}: {e}"));
        if bless {
            // Keep the hand-written head (comments included); rewrite what follows.
            let head_end = text
                .find("    expected:")
                .or_else(|| text.rfind(')'))
                .unwrap();
            let mut out = text[..head_end].trim_end().to_string();
            if !out.ends_with(',') {
                out.push(',');
            }
            out.push_str("\n    expected: [\n");
            for line in &lines {
                out.push_str(&format!(
                    "        {},\n",
                    serde_json::to_string(line).unwrap()
                ));
            }
            out.push_str(&format!("    ],\n    final_hash: \"{hash}\",\n)\n"));
            data::write_atomic(&path, &out).unwrap();
            p.expected = lines;
            continue;
        }
        for (i, (got, want)) in lines.iter().zip(&p.expected).enumerate() {
            assert_eq!(got, want, "{name}: fact {} differs", i + 1);
        }
        assert_eq!(
            lines.len(),
            p.expected.len(),
            "{name}: number of facts differs"
        );
        assert_eq!(Some(hash), p.final_hash, "{name}: final state hash differs");
    }
}
