//! Which rules and actions a run's games exercised: the bots' play measured against the
//! rulebook, so that a verdict on a rule the bots never met is not read as "the rule does
//! not matter".
//!
//! Each game's [`Tally`] holds the rules of the game's rules map its facts applied
//! ([`Playable::fact_rules`]) and the kinds of action its seats took
//! ([`Playable::action_kind`]). [`Count`] sums them over games; [`Coverage`] lays the
//! sum out as a table with every rule and action kind of the game, used or not; and
//! [`exercise`] says, for one changed field of a variant, in how many of its games the
//! rules that field changes came into play, with a warning in words when few did.
//!
//! ```
//! use tanktable::lab::coverage::{Count, Coverage};
//! use tanktable::lab::Tally;
//! use tanktable::rules::range_duel::RangeDuel;
//!
//! let tally = Tally {
//!     rules: vec![("rd.ram.test".into(), 2)],
//!     actions: vec![("hull down".into(), 3)],
//!     ..Tally::default()
//! };
//! let mut count = Count::default();
//! count.add(&tally);
//! let table = Coverage::of::<RangeDuel>(&count);
//! let ram = table.rules.iter().find(|r| r.name == "rd.ram.test").unwrap();
//! assert_eq!((ram.games, ram.times), (1, 2));
//! assert!(table.actions.iter().any(|a| a.name == "close in" && a.games == 0));
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Tally;
use super::run::GameResult;
use crate::framework::Playable;
use crate::rules::map::{self, RowKind};

/// Below this share of a variant's games, a changed rule is flagged as seldom met.
pub const FEW: f64 = 0.05;

/// Uses of rules and action kinds summed over games.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Count {
    pub games: u32,
    /// Rule id → (games that applied it, times applied).
    pub rules: BTreeMap<String, (u32, u64)>,
    /// Action kind → (games that took it, times taken).
    pub actions: BTreeMap<String, (u32, u64)>,
}

/// Adds `games` games and `times` uses of `name` to `table`.
fn bump(table: &mut BTreeMap<String, (u32, u64)>, name: String, games: u32, times: u64) {
    let e = table.entry(name).or_default();
    e.0 += games;
    e.1 += times;
}

impl Count {
    /// Adds one game.
    pub fn add(&mut self, tally: &Tally) {
        self.games += 1;
        for (id, n) in &tally.rules {
            bump(&mut self.rules, id.clone(), 1, u64::from(*n));
        }
        for (kind, n) in &tally.actions {
            bump(&mut self.actions, kind.clone(), 1, u64::from(*n));
        }
    }

    /// Both sums together (the order of games does not matter).
    #[must_use]
    pub fn merge(mut self, other: Count) -> Count {
        self.games += other.games;
        for (id, (g, n)) in other.rules {
            bump(&mut self.rules, id, g, n);
        }
        for (kind, (g, n)) in other.actions {
            bump(&mut self.actions, kind, g, n);
        }
        self
    }
}

/// One line of a coverage table: a rule or action kind, and how often it was used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Use {
    /// The rule's id, or the action kind.
    pub name: String,
    /// The rulebook section a rule comes from (empty for an action kind).
    pub section: String,
    /// Games in which it was used at least once.
    pub games: u32,
    /// Times used over all games.
    pub times: u64,
}

/// Every action kind of a game and every rule of its map whose use can be counted, with
/// how often the games used each; and the rules of the map that no fact names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Coverage {
    pub games: u32,
    pub actions: Vec<Use>,
    pub rules: Vec<Use>,
    /// Rules (and readings) of the map whose use no fact reports: limits that refuse an
    /// action, numbers every roll reads. Listed by id, not counted.
    pub not_counted: Vec<String>,
}

impl Coverage {
    /// The table of game `G` for `count`, in the map's and the action kinds' order.
    #[must_use]
    pub fn of<G: Playable>(count: &Count) -> Self {
        let used = |table: &BTreeMap<String, (u32, u64)>, name: &str| {
            table.get(name).copied().unwrap_or_default()
        };
        let actions = G::action_kinds()
            .iter()
            .map(|kind| {
                let (games, times) = used(&count.actions, kind);
                Use {
                    name: (*kind).to_string(),
                    section: String::new(),
                    games,
                    times,
                }
            })
            .collect();
        let counted = G::counted_rules();
        let mut rules = Vec::new();
        let mut not_counted = Vec::new();
        for row in map::map(G::KIND).map(|m| m.rows).unwrap_or_default() {
            if !row.kind.needs_test() && row.kind != RowKind::NotImplemented {
                continue;
            }
            if counted.contains(&row.id.as_str()) {
                let (games, times) = used(&count.rules, &row.id);
                rules.push(Use {
                    name: row.id,
                    section: row.section,
                    games,
                    times,
                });
            } else if row.kind.needs_test() {
                not_counted.push(row.id);
            }
        }
        Self {
            games: count.games,
            actions,
            rules,
            not_counted,
        }
    }

    /// The table as text: every action kind and counted rule with its share of games,
    /// those never used marked, then the rules that are not counted.
    #[must_use]
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let games = f64::from(self.games.max(1));
        let mut out = String::new();
        let line = |out: &mut String, u: &Use| {
            let _ = writeln!(
                out,
                "    {:<34} {:>6} games {:>6.1}%  {:>8} times{}",
                u.name,
                u.games,
                100.0 * f64::from(u.games) / games,
                u.times,
                if u.games == 0 { "  never" } else { "" }
            );
        };
        let _ = writeln!(out, "  actions taken, over {} games:", self.games);
        for u in &self.actions {
            line(&mut out, u);
        }
        let _ = writeln!(out, "  rules applied:");
        let mut section = "";
        for u in &self.rules {
            if u.section != section {
                section = &u.section;
                let _ = writeln!(out, "   {section}");
            }
            line(&mut out, u);
        }
        if !self.not_counted.is_empty() {
            let _ = writeln!(
                out,
                "  not counted (no fact reports them: limits and numbers every roll reads): {}",
                self.not_counted.join(", ")
            );
        }
        out
    }
}

/// A rule of the map, by id and in its words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleRef {
    pub id: String,
    /// The rule in the project's words (the map's "Rule" column).
    pub rule: String,
    /// Whether a fact reports its use ([`Playable::counted_rules`]).
    pub counted: bool,
}

/// The rules of `G`'s map that the tuning field `path` changes: the rows that name it,
/// or a group holding it, among their switches.
#[must_use]
pub fn rules_of_field<G: Playable>(path: &str) -> Vec<RuleRef> {
    let Ok(m) = map::map(G::KIND) else {
        return Vec::new();
    };
    let counted = G::counted_rules();
    m.rows_for_switch(path)
        .into_iter()
        .map(|row| RuleRef {
            id: row.id.clone(),
            rule: row.rule.clone(),
            counted: counted.contains(&row.id.as_str()),
        })
        .collect()
}

/// How often the rules one changed field of a variant changes came into play.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exercise {
    /// The changed field's path.
    pub field: String,
    /// The counted rules it changes, by id.
    pub rules: Vec<String>,
    /// The variant's games in which any of them applied.
    pub games: u32,
    /// The variant's games.
    pub of: u32,
    /// The same for the base's games, when there is a base to compare with: a change can
    /// keep a rule from applying (a cover so thick nobody fires into it), and then the
    /// base's games show that the rule was in play.
    pub base: Option<(u32, u32)>,
    /// In words, when the rules applied in few or no games of the variant and of the
    /// base, or when their use is not counted.
    pub warning: Option<String>,
}

impl Exercise {
    /// Whether the field's rules are counted at all: when not, its warning is a note
    /// that says so, not an alarm.
    #[must_use]
    pub fn counted(&self) -> bool {
        !self.rules.is_empty()
    }

    /// The count in words, for a field that is not flagged: "firing.forest_penalty
    /// (tc.terrain.forest) applied in 52 of 400 games, the base's 61 of 400".
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "{} ({}) applied in {} of {} games{}",
            self.field,
            self.rules.join(", "),
            self.games,
            self.of,
            self.base
                .map(|(n, of)| format!(", the base's {n} of {of}"))
                .unwrap_or_default()
        )
    }
}

/// The games of `games` in which any of `rules` applied, and how many games there are.
#[cfg(test)]
fn applied_in(rules: &[&RuleRef], games: &[&GameResult]) -> (u32, u32) {
    let applied = games.iter().filter(|g| applies(rules, g)).count();
    (
        u32::try_from(applied).unwrap_or(u32::MAX),
        u32::try_from(games.len()).unwrap_or(u32::MAX),
    )
}

/// Whether `game` applied any of `rules` (counted or not: a rule no fact reports never
/// shows in a tally).
#[must_use]
pub fn applies<R: std::borrow::Borrow<RuleRef>>(rules: &[R], game: &GameResult) -> bool {
    game.tally
        .rules
        .iter()
        .any(|(id, _)| rules.iter().any(|r| r.borrow().id == *id))
}

/// How often the rules `refs` (those field `field` changes) applied in a variant's
/// `games` and in the `base` games beside them, with a warning in words when under
/// [`FEW`] of either did.
#[cfg(test)]
#[must_use]
pub fn exercise(
    field: &str,
    refs: &[RuleRef],
    games: &[&GameResult],
    base: Option<&[&GameResult]>,
) -> Exercise {
    let counted: Vec<&RuleRef> = refs.iter().filter(|r| r.counted).collect();
    exercise_counts(
        field,
        refs,
        applied_in(&counted, games),
        base.map(|b| applied_in(&counted, b)),
    )
}

/// [`exercise`] from counts: the variant's games that applied the field's counted rules
/// and its games, and the same for the base.
#[must_use]
pub fn exercise_counts(
    field: &str,
    refs: &[RuleRef],
    (applied, of): (u32, u32),
    base: Option<(u32, u32)>,
) -> Exercise {
    let counted: Vec<&RuleRef> = refs.iter().filter(|r| r.counted).collect();
    let share = |(n, of): (u32, u32)| f64::from(n) / f64::from(of.max(1));
    let most = share((applied, of)).max(base.map_or(0.0, share));
    let names = |rs: &[&RuleRef]| {
        rs.iter()
            .map(|r| format!("{} ({})", r.id, r.rule.trim_end_matches('.')))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let warning = if counted.is_empty() {
        let all: Vec<&RuleRef> = refs.iter().collect();
        Some(if all.is_empty() {
            format!(
                "{field}: no rule of the rules map names this field, so how often the games met it is not counted"
            )
        } else {
            format!(
                "{field} changes {}: no fact reports its use, so how often the games met it is not counted",
                names(&all)
            )
        })
    } else if of > 0 && most < FEW {
        Some(if applied == 0 && base.is_none_or(|b| b.0 == 0) {
            format!(
                "{field} changes {}, applied in 0 of {of} games: the bots never met it, so this verdict says nothing about the change",
                names(&counted)
            )
        } else {
            format!(
                "{field} changes {}, applied in only {applied} of {of} games ({:.1}%){}: the verdict rests on those few",
                names(&counted),
                100.0 * f64::from(applied) / f64::from(of),
                base.map(|(n, of)| format!(", the base's {n} of {of}"))
                    .unwrap_or_default()
            )
        })
    } else {
        None
    };
    Exercise {
        field: field.to_string(),
        rules: counted.iter().map(|r| r.id.clone()).collect(),
        games: applied,
        of,
        base,
        warning,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::battle_tanks::BattleTanks;
    use crate::rules::range_duel::RangeDuel;
    use crate::rules::tank_chess::TankChess;
    use crate::rules::tank_combat::TankCombat;
    use crate::rules::tank_commander::TankCommander;

    fn counted_rules_are_rows_of_the_map<G: Playable>() {
        let m = map::map(G::KIND).expect("the map reads");
        for id in G::counted_rules() {
            assert!(m.get(id).is_some(), "{id} is not a row of the map");
        }
        assert!(!G::counted_rules().is_empty());
        assert!(!G::action_kinds().is_empty());
    }

    #[test]
    fn every_counted_rule_is_a_row_of_its_games_map() {
        counted_rules_are_rows_of_the_map::<TankCommander>();
        counted_rules_are_rows_of_the_map::<TankChess>();
        counted_rules_are_rows_of_the_map::<BattleTanks>();
        counted_rules_are_rows_of_the_map::<TankCombat>();
        counted_rules_are_rows_of_the_map::<RangeDuel>();
    }

    /// Plays two games of every shipped setup of `G` (in `folder`) and checks that every
    /// rule its facts name is one [`Playable::counted_rules`] lists, and every action kind
    /// one of [`Playable::action_kinds`].
    fn games_name_only_counted_rules<G: Playable>(folder: &str, bot: &str) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
        let rules = G::load_rules(None).expect("rules");
        let mut setups = 0;
        for entry in std::fs::read_dir(&root).expect("folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|e| e != "ron") {
                continue;
            }
            let Ok(setup) = crate::framework::playable::load_setup::<G>(&path, &rules) else {
                continue;
            };
            setups += 1;
            for index in 0..2 {
                let bots = [bot.to_string()];
                let game = crate::lab::run::play_one::<G>(&setup, &bots, 3, (0, index), false)
                    .expect("plays");
                for (id, _) in &game.tally.rules {
                    assert!(
                        G::counted_rules().contains(&id.as_str()),
                        "{}: a fact names {id}, which counted_rules leaves out",
                        path.display()
                    );
                }
                for (kind, _) in &game.tally.actions {
                    assert!(G::action_kinds().contains(&kind.as_str()), "{kind}");
                }
                assert!(!game.tally.rules.is_empty() && !game.tally.actions.is_empty());
            }
        }
        assert!(setups > 0, "no setups in {folder}");
    }

    #[test]
    fn the_rules_games_apply_are_all_counted() {
        games_name_only_counted_rules::<TankCommander>("scenarios", "greedy");
        // The quick Tank Chess bot: the engine takes seconds a game.
        games_name_only_counted_rules::<TankChess>("scenarios/tank-chess", "cadet");
        games_name_only_counted_rules::<BattleTanks>("scenarios/battle-tanks", "heuristic");
        games_name_only_counted_rules::<TankCombat>("scenarios/tank-combat", "heuristic");
        games_name_only_counted_rules::<RangeDuel>("scenarios/range-duel", "heuristic");
    }

    #[test]
    fn a_field_finds_the_rules_whose_switch_names_it() {
        let forest = rules_of_field::<TankCommander>("firing.forest_penalty");
        assert_eq!(forest.len(), 1, "{forest:?}");
        assert_eq!(forest[0].id, "tc.terrain.forest");
        assert!(forest[0].counted);
        let hover = rules_of_field::<TankCommander>("unit_types[0].armor.front");
        assert!(
            hover.iter().any(|r| r.id == "tc.ideas.unit-types"),
            "{hover:?}"
        );
        assert!(rules_of_field::<TankCommander>("no.such.field").is_empty());
    }

    fn game(index: u32, rules: &[&str]) -> GameResult {
        GameResult {
            arm: 1,
            index,
            seed: 0,
            winners: vec![0],
            first: None,
            swapped: false,
            rounds: 1,
            actions: 1,
            labels: Vec::new(),
            tally: Tally {
                rules: rules.iter().map(|r| ((*r).to_string(), 1)).collect(),
                ..Tally::default()
            },
            ending: String::new(),
        }
    }

    #[test]
    fn a_change_the_games_never_met_is_flagged_in_words() {
        let refs = rules_of_field::<TankCommander>("firing.forest_penalty");
        let none: Vec<GameResult> = (0..400).map(|i| game(i, &["tc.hit.roll"])).collect();
        let refs_none: Vec<&GameResult> = none.iter().collect();
        let e = exercise("firing.forest_penalty", &refs, &refs_none, None);
        assert_eq!((e.games, e.of), (0, 400));
        let words = e.warning.expect("flagged");
        assert!(
            words.contains("applied in 0 of 400 games") && words.contains("tc.terrain.forest"),
            "{words}"
        );

        // 10 of 400 is under 5%: flagged as few; 40 of 400 is not.
        let few: Vec<GameResult> = (0..400)
            .map(|i| game(i, if i < 10 { &["tc.terrain.forest"] } else { &[] }))
            .collect();
        let e = exercise(
            "firing.forest_penalty",
            &refs,
            &few.iter().collect::<Vec<_>>(),
            None,
        );
        assert_eq!(e.games, 10);
        assert!(e.warning.expect("flagged").contains("only 10 of 400"));
        let enough: Vec<GameResult> = (0..400)
            .map(|i| game(i, if i < 40 { &["tc.terrain.forest"] } else { &[] }))
            .collect();
        let enough: Vec<&GameResult> = enough.iter().collect();
        let e = exercise("firing.forest_penalty", &refs, &enough, None);
        assert_eq!((e.games, e.warning), (40, None));

        // A change that keeps the rule from applying (nobody fires into forest any more)
        // is still in play when the base's games met the rule.
        let e = exercise("firing.forest_penalty", &refs, &refs_none, Some(&enough));
        assert_eq!((e.games, e.base), (0, Some((40, 400))));
        assert_eq!(e.warning, None);
    }

    #[test]
    fn a_rule_no_fact_reports_is_said_to_be_uncounted_not_unused() {
        let refs = rules_of_field::<TankCommander>("tank.gun_range");
        assert!(
            !refs.is_empty() && refs.iter().all(|r| !r.counted),
            "{refs:?}"
        );
        let games = [game(0, &[])];
        let e = exercise(
            "tank.gun_range",
            &refs,
            &games.iter().collect::<Vec<_>>(),
            None,
        );
        assert!(e.warning.expect("said").contains("not counted"));
    }
}
