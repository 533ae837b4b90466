//! The searching bots: for each sensible action on offer they play the battle out many
//! times, fast bots driving both sides from there (the rest of the activation, the
//! enemy's replies, every activation after), with dice drawn afresh for each playout.
//! The veteran drives the searching side; the enemy is driven by the greedy, tactical
//! and veteran bots in turn, since the bot cannot know how its enemy plays.
//!
//! The bot keeps the veteran's own choice unless the playouts are sure of a better one.
//! The other actions are halved among themselves (sequential halving: every action gets
//! the same few playouts, the better half as many again, and so on until one is left),
//! while the veteran's choice plays every round; the last one left replaces it only if
//! it beats it by 1.5 standard errors of their differences. Every action is measured on
//! the same dice and the same enemy (playout `j` of every action uses the `j`th), so a
//! difference between two actions is their own, not luck's.
//!
//! A budget in nodes (actions played out) makes a bot deterministic: the same battle and
//! bot generator give the same choice on any machine, which the tests and the lab need.
//! A budget in time is for play.

use std::time::{Duration, Instant};

use super::action::{Action, FireTarget};
use super::bot::decide;
use super::state::TankCommander;
use super::tactics::Style;
use crate::framework::bot::Bot;
use crate::framework::rng::derive_seed;
use crate::framework::{Game, MatchRng, Outcome, PlayerId};

/// How much a searching bot may think for each decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Actions played out, summed over every playout: deterministic.
    Nodes(u64),
    /// Wall-clock time: for play only, as the choice depends on the machine's speed.
    Time(Duration),
}

/// A playout that has not ended after this many actions is scored on what is left of
/// each side.
const PLAYOUT_CAP: u32 = 600;

/// What a won playout's material is worth beside its result: the share of its hull
/// points each side has left decides between playouts with the same result.
const MATERIAL_WEIGHT: f64 = 0.5;

/// The fast bot's own choice starts with this much in hand, so that it is kept where
/// the playouts cannot tell the actions apart.
const FAST_CHOICE_HEAD_START: f64 = 0.01;

/// A searching bot. The levels in the seat pickers are [`SearchBot::MAJOR`] and
/// [`SearchBot::GENERAL`]; `search:N` names a budget of N nodes, `search:1.5s` one of a
/// time.
#[derive(Clone, Debug)]
pub struct SearchBot {
    name: String,
    budget: Budget,
    policy: Policy,
}

/// The fast bots a search stands on: the one whose choice it keeps unless the playouts
/// say otherwise, the one that plays the searching side in every playout, and those
/// that play the enemy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Whose choice starts with [`Policy::head_start`] in hand.
    pub fast: Style,
    /// Who drives the searching side in a playout.
    pub playout: Style,
    /// Who drives the enemy in playout `j`: the `j`th of these, round and round (the
    /// bot does not know how its enemy plays); none: [`Policy::playout`].
    pub enemies: &'static [Style],
    /// What the fast choice starts with, in a playout's score (a win is 1).
    pub head_start: f64,
    /// How sure the playouts must be before the bot departs from the fast choice, in
    /// standard errors of the paired differences between the two. 0: the best mean wins
    /// and the fast choice may drop out in any round of the halving; above 0 it plays
    /// every round and is compared with the last other action left, seed by seed.
    pub confidence: f64,
}

/// The fast bots that play the enemy in the levels' playouts, in turn.
const ENEMIES: [Style; 3] = [Style::GREEDY, Style::TACTICAL, Style::VETERAN];

/// How sure the levels' playouts must be to depart from the veteran's choice.
const CONFIDENCE: f64 = 1.5;

impl Policy {
    /// The levels': the veteran's choice, kept unless the playouts are
    /// [`CONFIDENCE`] standard errors sure of a better one; the veteran drives the
    /// searching side in the playouts, and the greedy, tactical and veteran bots take
    /// turns at the enemy's.
    pub const LEVELS: Policy = Policy {
        fast: Style::VETERAN,
        playout: Style::VETERAN,
        enemies: &ENEMIES,
        head_start: FAST_CHOICE_HEAD_START,
        confidence: CONFIDENCE,
    };
}

impl SearchBot {
    /// The middle level's budget in nodes.
    pub const MAJOR: u64 = 6_000;
    /// The strongest level's budget in nodes.
    pub const GENERAL: u64 = 12_000;

    /// A bot of this budget, under `name`.
    #[must_use]
    pub fn new(name: impl Into<String>, budget: Budget) -> Self {
        Self {
            name: name.into(),
            budget,
            policy: Policy::LEVELS,
        }
    }

    /// The same bot standing on other fast bots.
    #[must_use]
    pub const fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// The bot a name in the seat pickers or on the command line means: `major`,
    /// `general`, `search:N` (N nodes, at least 1) or `search:Xs` (X seconds, at most
    /// 600).
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        let budget = match name {
            "major" => Budget::Nodes(Self::MAJOR),
            "general" => Budget::Nodes(Self::GENERAL),
            _ => {
                let spec = name.strip_prefix("search:")?;
                if let Some(seconds) = spec.strip_suffix('s') {
                    let s: f64 = seconds.parse().ok()?;
                    if !(s.is_finite() && s > 0.0 && s <= 600.0) {
                        return None;
                    }
                    Budget::Time(Duration::from_secs_f64(s))
                } else {
                    Budget::Nodes(spec.parse().ok().filter(|&n| n > 0)?)
                }
            }
        };
        Some(Self::new(name, budget))
    }

    /// The budget of each decision.
    #[must_use]
    pub const fn budget(&self) -> Budget {
        self.budget
    }
}

impl Bot<TankCommander> for SearchBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        game: &TankCommander,
        player: PlayerId,
        rng: &mut MatchRng,
    ) -> Option<Action> {
        // The playouts start from what the seat sees: with hidden mines, not the
        // enemy's.
        let root = game.view(player);
        let legal: Vec<Action> = root
            .legal(player)
            .into_iter()
            .filter(|a| *a != Action::Concede)
            .collect();
        let fast = decide(&root, player, &self.policy.fast);
        let candidates = shortlist(&root, player, &legal, fast);
        if candidates.len() <= 1 {
            return candidates.first().copied().or(fast);
        }
        Some(
            search(
                &root,
                player,
                &candidates,
                fast,
                self.budget,
                rng.next_u64(),
                &self.policy,
            )
            .action,
        )
    }
}

/// The ways of weighing a position whose choices the search compares (beside the fast
/// choice): the tactical bot's, the veteran's, the greedy bot's, a warier and a bolder
/// tactical bot.
const STYLES: [Style; 5] = [
    Style::TACTICAL,
    Style::VETERAN,
    Style::GREEDY,
    Style {
        threat_weight: 1.0,
        cover_worth: 6.0,
        ..Style::TACTICAL
    },
    Style {
        threat_weight: 0.0,
        cover_worth: 0.0,
        smoke: false,
        ..Style::TACTICAL
    },
];

/// The actions worth playing out: the `fast` choice, what each of [`STYLES`] would do,
/// every unit that may activate and every shot at a
/// unit on offer. Only sensible actions are compared, so that a playout's luck cannot talk the
/// bot into a silly one.
fn shortlist(
    root: &TankCommander,
    player: PlayerId,
    legal: &[Action],
    fast: Option<Action>,
) -> Vec<Action> {
    let mut list: Vec<Action> = Vec::new();
    let mut add = |a: Action| {
        if legal.contains(&a) && !list.contains(&a) {
            list.push(a);
        }
    };
    let others = STYLES
        .iter()
        .filter_map(|style| decide(root, player, style));
    for a in fast.into_iter().chain(others) {
        add(a);
    }
    // Shots at buildings only where a style chose one (a mission's target): a building
    // shot that lucky playouts favour is the silly move the shortlist is there to keep
    // out.
    for &a in legal {
        if matches!(
            a,
            Action::Activate(_)
                | Action::Fire(FireTarget::Unit(_))
                | Action::FireMissile(..)
                | Action::FireAntiInfantry(_)
        ) {
            add(a);
        }
    }
    list
}

/// One action's playouts so far: the score of each, playout `j` on the `j`th dice.
#[derive(Clone, Debug)]
struct Arm {
    action: Action,
    values: Vec<f64>,
    head_start: f64,
    fast: bool,
}

impl Arm {
    fn playouts(&self) -> u32 {
        u32::try_from(self.values.len()).unwrap_or(u32::MAX)
    }

    fn mean(&self) -> f64 {
        self.head_start + self.values.iter().sum::<f64>() / f64::from(self.playouts().max(1))
    }

    /// Whether this arm beats `fast` by more than `z` standard errors of their paired
    /// differences (the playouts both have had, each pair on the same dice), after the
    /// fast choice's head start.
    fn beats(&self, fast: &Arm, z: f64) -> bool {
        let n = self.values.len().min(fast.values.len());
        if n < 2 {
            return self.mean() > fast.mean();
        }
        let d: Vec<f64> = (0..n).map(|j| self.values[j] - fast.values[j]).collect();
        let count = n as f64;
        let mean = d.iter().sum::<f64>() / count;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (count - 1.0);
        mean - fast.head_start > z * (var / count).sqrt()
    }
}

/// What a search found: the action, its mean playout score (0 to 1 and a little), and
/// the work it took.
#[derive(Clone, Copy, Debug)]
pub struct Found {
    pub action: Action,
    pub score: f64,
    pub playouts: u32,
    pub nodes: u64,
}

/// Chooses among `legal` by sequential halving over playouts that `policy` plays.
pub fn search(
    root: &TankCommander,
    player: PlayerId,
    legal: &[Action],
    fast: Option<Action>,
    budget: Budget,
    seed: u64,
    policy: &Policy,
) -> Found {
    let started = Instant::now();
    let mut arms: Vec<Arm> = legal
        .iter()
        .map(|&action| Arm {
            action,
            values: Vec::new(),
            head_start: if Some(action) == fast {
                policy.head_start
            } else {
                0.0
            },
            fast: Some(action) == fast,
        })
        .collect();
    // With a confidence asked for, the fast choice plays every round beside the
    // challengers, which are halved among themselves.
    let guard = policy.confidence > 0.0 && arms.iter().any(|a| a.fast) && arms.len() > 1;
    let challengers = if guard { arms.len() - 1 } else { arms.len() };
    let rounds = challengers.next_power_of_two().trailing_zeros().max(1);
    let (mut nodes, mut playouts) = (0u64, 0u32);
    for round in 0..rounds {
        let left = rounds - round;
        // Each round spends an equal share of what is left of the budget, a playout for
        // every arm at a time, so that every arm has had the same dice when it stops.
        let (round_nodes, round_started) = (nodes, Instant::now());
        let round_time = match budget {
            Budget::Time(t) => t.saturating_sub(started.elapsed()) / left,
            Budget::Nodes(_) => Duration::ZERO,
        };
        loop {
            let (more_nodes, more_playouts) = play_each_arm(root, player, &mut arms, seed, policy);
            nodes += more_nodes;
            playouts += more_playouts;
            let spent = match budget {
                Budget::Nodes(n) => {
                    nodes - round_nodes >= n.saturating_sub(round_nodes) / u64::from(left)
                }
                Budget::Time(_) => round_started.elapsed() >= round_time,
            };
            if spent {
                break;
            }
        }
        if halve(&mut arms, guard) {
            break;
        }
    }
    if guard && arms.len() == 2 {
        let (f, c) = if arms[0].fast { (0, 1) } else { (1, 0) };
        let keep = if arms[c].beats(&arms[f], policy.confidence) {
            c
        } else {
            f
        };
        arms.swap(0, keep);
    }
    let best = &arms[0];
    Found {
        action: best.action,
        score: best.mean() - best.head_start,
        playouts,
        nodes,
    }
}

/// Plays one more playout of every arm, each with its own dice and enemy: the actions
/// played and the playouts, to add to the search's count.
fn play_each_arm(
    root: &TankCommander,
    player: PlayerId,
    arms: &mut [Arm],
    seed: u64,
    policy: &Policy,
) -> (u64, u32) {
    let (mut nodes, mut playouts) = (0u64, 0u32);
    for arm in arms {
        let j = arm.playouts();
        let dice = derive_seed(seed, u64::from(j));
        let enemy = policy
            .enemies
            .get(j as usize % policy.enemies.len().max(1))
            .unwrap_or(&policy.playout);
        let styles = (&policy.playout, enemy);
        let (value, length) = playout(root, player, arm.action, dice, styles);
        arm.values.push(value);
        nodes += u64::from(length);
        playouts += 1;
    }
    (nodes, playouts)
}

/// Keeps the better half of `arms` by mean score; with `guard`, the fast choice stays
/// besides the better half of the challengers. True once the halving is done: one arm
/// left, or (with `guard`) one challenger against the fast choice.
fn halve(arms: &mut Vec<Arm>, guard: bool) -> bool {
    arms.sort_by(|a, b| b.mean().total_cmp(&a.mean()));
    if guard {
        let keep = (arms.len() - 1).div_ceil(2);
        let mut kept = 0;
        arms.retain(|a| {
            let stay = a.fast || kept < keep;
            kept += usize::from(!a.fast && stay);
            stay
        });
        arms.len() <= 2
    } else {
        arms.truncate(arms.len().div_ceil(2));
        arms.len() == 1
    }
}

/// Plays the battle out from `root` after `player`'s `first` action, fast bots of
/// `styles` choosing for `player` and for the enemy: the score for `player` (a win 1, a draw ½, a loss 0, each
/// side's hull points left deciding between equal results) and the actions played.
fn playout(
    root: &TankCommander,
    player: PlayerId,
    first: Action,
    seed: u64,
    styles: (&Style, &Style),
) -> (f64, u32) {
    let mut game = root.clone();
    let mut dice = MatchRng::new(seed);
    if game.apply(player, &first, &mut dice).is_err() {
        return (0.0, 1);
    }
    let mut length = 1;
    let outcome = loop {
        if let Some(outcome) = game.outcome_now() {
            break Some(outcome);
        }
        if length >= PLAYOUT_CAP {
            break None;
        }
        let side = game.current;
        let style = if side == player { styles.0 } else { styles.1 };
        let Some(action) = decide(&game, side, style) else {
            break None;
        };
        if game.apply(side, &action, &mut dice).is_err() {
            break None;
        }
        length += 1;
    };
    (score(&game, player, outcome.as_ref()), length)
}

/// How a playout ended for `player`.
fn score(game: &TankCommander, player: PlayerId, outcome: Option<&Outcome>) -> f64 {
    let result = match outcome {
        Some(o) if o.winners.contains(&player) => 1.0,
        Some(o) if !o.winners.is_empty() => 0.0,
        _ => 0.5,
    };
    let share = |mine: bool| {
        let (left, all) = game
            .units
            .iter()
            .filter(|u| (u.side == player) == mine)
            .fold((0.0, 0.0), |(left, all), u| {
                let full = f64::from(u.base.hull.max(1));
                let now = if u.is_active() {
                    f64::from(u.hull)
                } else {
                    0.0
                };
                (left + now, all + full)
            });
        if all > 0.0 { left / all } else { 0.0 }
    };
    result + MATERIAL_WEIGHT * (share(true) - share(false))
}

/// For tuning (tests only): a searching bot whose budget and policy
/// `TANKTABLE_SEARCH` sets (`nodes=12000,fast=veteran,playout=veteran,head=0.01`), under
/// the name `search-tuned`.
///
/// # Panics
/// On a knob it does not know or a value it cannot read: a tuning run's typo.
#[cfg(test)]
#[must_use]
pub fn tuned_from_env() -> SearchBot {
    let style = |name: &str| match name {
        "tactical" => Style::TACTICAL,
        "veteran" => Style::VETERAN,
        "greedy" => Style::GREEDY,
        _ => panic!("no style {name}"),
    };
    let mut policy = Policy::LEVELS;
    let mut nodes = SearchBot::MAJOR;
    let knobs = std::env::var("TANKTABLE_SEARCH").unwrap_or_default();
    for (knob, value) in knobs.split(',').filter_map(|kv| kv.split_once('=')) {
        match knob {
            "nodes" => nodes = value.parse().expect("nodes is a number"),
            "fast" => policy.fast = style(value),
            "playout" => policy.playout = style(value),
            "head" => policy.head_start = value.parse().expect("head is a number"),
            "z" => policy.confidence = value.parse().expect("z is a number"),
            "enemy" => {
                policy.enemies = match value {
                    "mix" => &ENEMIES,
                    "greedy" => &[Style::GREEDY],
                    "tactical" => &[Style::TACTICAL],
                    _ => &[Style::VETERAN],
                }
            }
            _ => panic!("no knob {knob}"),
        }
    }
    SearchBot::new("search-tuned", Budget::Nodes(nodes)).with_policy(policy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::Playable;

    /// River Town, played by the tactical bot until a unit's activation offers a
    /// choice of more than one sensible action.
    fn river_town() -> TankCommander {
        let battle = super::super::Battle::builtin_default();
        let mut game = TankCommander::from_setup(&battle).expect("a battle");
        let mut dice = MatchRng::new(3);
        game.begin(&mut dice);
        loop {
            let player = game.current;
            let action = decide(&game, player, &Style::TACTICAL).expect("an action");
            if game.activation().is_some()
                && shortlist(&game, player, &game.legal(player), Some(action)).len() > 1
            {
                return game;
            }
            game.apply(player, &action, &mut dice)
                .expect("a legal action");
        }
    }

    #[test]
    fn names_give_levels_and_budgets() {
        assert_eq!(
            SearchBot::named("major").map(|b| b.budget()),
            Some(Budget::Nodes(SearchBot::MAJOR))
        );
        assert_eq!(
            SearchBot::named("search:500").map(|b| b.budget()),
            Some(Budget::Nodes(500))
        );
        assert_eq!(
            SearchBot::named("search:1.5s").map(|b| b.budget()),
            Some(Budget::Time(Duration::from_millis(1500)))
        );
        for bad in [
            "search:0",
            "search:-1s",
            "search:fast",
            "search:900s",
            "admiral",
        ] {
            assert!(SearchBot::named(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_node_budget_gives_the_same_choice_every_time() {
        let game = river_town();
        let player = game.current;
        let choose = || {
            SearchBot::named("search:3000").expect("a bot").choose(
                &game,
                player,
                &mut MatchRng::new(11),
            )
        };
        let first = choose();
        assert!(first.is_some());
        assert_eq!(first, choose());
        assert!(game.legal(player).contains(&first.expect("an action")));
    }

    #[test]
    fn the_search_keeps_to_its_budget_and_tries_every_action() {
        let game = river_town();
        let player = game.current;
        let fast = decide(&game, player, &Style::TACTICAL);
        let legal = shortlist(&game, player, &game.legal(player), fast);
        let found = search(
            &game,
            player,
            &legal,
            None,
            Budget::Nodes(5_000),
            1,
            &Policy::LEVELS,
        );
        assert!(found.playouts as usize >= legal.len());
        // Sequential halving may overrun by the last round's one playout an action.
        assert!(found.nodes < 5_000 + legal.len() as u64 * u64::from(PLAYOUT_CAP));
        assert!((0.0..=1.0 + MATERIAL_WEIGHT).contains(&found.score));
    }

    /// Another action replaces the fast choice only when the paired differences of their
    /// playouts are sure of it, not on a better mean alone.
    #[test]
    fn the_fast_choice_is_replaced_only_when_the_playouts_are_sure() {
        let arm = |values: &[f64], fast: bool| Arm {
            action: Action::EndActivation,
            values: values.to_vec(),
            head_start: if fast { FAST_CHOICE_HEAD_START } else { 0.0 },
            fast,
        };
        let fast = arm(&[0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0], true);
        // A quarter of a win better on every dice: sure.
        let steady = arm(&[0.25, 1.25, 0.25, 1.25, 0.25, 1.25, 0.25, 1.25], false);
        assert!(steady.beats(&fast, CONFIDENCE));
        // A better mean (5 wins of 8 against 4) that one playout's luck makes.
        let lucky = arm(&[1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0], false);
        assert!(lucky.mean() > fast.mean());
        assert!(!lucky.beats(&fast, CONFIDENCE));
        assert!(lucky.beats(&fast, 0.0));
    }

    /// A won battle scores above a drawn one, a drawn one above a lost one.
    #[test]
    fn a_playout_scores_a_won_battle_above_a_lost_one() {
        let game = river_town();
        let player = game.current;
        let mut won = game.clone();
        for u in won.units.iter_mut().filter(|u| u.side != player) {
            u.hull = 0;
        }
        let outcome = Outcome::win(player, "test");
        let lost = Outcome::win(PlayerId(1 - player.0), "test");
        assert!(score(&won, player, Some(&outcome)) > score(&game, player, Some(&lost)));
        assert!(score(&game, player, None) > score(&game, player, Some(&lost)));
    }

    /// A measurement: a searching level against the greedy bot on every shipped
    /// two-sided scenario, both sides, with the time of each decision.
    /// `TANKTABLE_BOT=major TANKTABLE_GAMES=6 cargo test --release --no-default-features
    /// --lib search_strength -- --ignored --nocapture` (two threads).
    #[test]
    #[ignore = "a measurement: TANKTABLE_BOT=major TANKTABLE_GAMES=6 cargo test --release --no-default-features --lib search_strength -- --ignored --nocapture"]
    fn search_strength_against_greedy() {
        use crate::framework::strength::{measure, shipped_setups};
        let level = std::env::var("TANKTABLE_BOT").unwrap_or_else(|_| "major".into());
        let games: u64 = std::env::var("TANKTABLE_GAMES")
            .ok()
            .and_then(|g| g.parse().ok())
            .unwrap_or(2);
        let rules = TankCommander::load_rules(None).expect("rules");
        // Training Range's second side is a row of targets: not a side that plays.
        let setups: Vec<_> = shipped_setups("")
            .expect("the shipped scenarios")
            .into_iter()
            .filter(|p| {
                !std::fs::read_to_string(p)
                    .unwrap_or_default()
                    .contains("Training(")
            })
            .collect();
        let strength =
            measure::<TankCommander>(&setups, &rules, (&level, "greedy"), games, 2).expect("plays");
        println!("{}", strength.table(&level, "greedy"));
    }
}
