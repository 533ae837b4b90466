//! Golden playthroughs: a scenario, a seed and scripted dice, the commands, and the facts
//! they must produce in words, with the final state hash.
//!
//! After a deliberate rules change, regenerate with `TANKTABLE_BLESS=1 cargo test
//! playthrough` and review the diff of `tests/playthroughs/`.

use serde::{Deserialize, Serialize};
use tanktable::data::{self, load_ron};
use tanktable::framework::RecordedAction;
use tanktable::rules::tank_commander::{self as tc, Action, Rules, ScenarioSource};

use crate::project;

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename = "Playthrough")]
struct Playthrough {
    description: String,
    scenario: ScenarioSource,
    seed: u64,
    #[serde(default)]
    dice: Vec<u32>,
    actions: Vec<RecordedAction<Action>>,
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
        let record = tc::Record {
            game: "tank-commander".into(),
            scenario: p.scenario.clone(),
            seed: p.seed,
            dice: p.dice.clone(),
            actions: p.actions.clone(),
            final_hash: None,
        };
        let (mut m, told) =
            tc::replay_record(&record, &scenario, &rules).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            m.rng_mut().script_left(),
            0,
            "{name}: not every scripted die was used"
        );
        let lines: Vec<String> = told.into_iter().map(|t| t.text).collect();
        let hash = tanktable::framework::hash::format_hash(m.state_hash());
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
