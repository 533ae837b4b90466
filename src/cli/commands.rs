//! The subcommands.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::tabletop::{self as tt, dispatch};
use super::{BotKind, Command, RoundArg};
use crate::data::{self, Diagnostics};
use crate::framework::bot::{Bot, RandomBot};
use crate::framework::hash::format_hash;
use crate::framework::record::{RecordHeader, RecordedAction};
use crate::framework::{Game, Match, MatchRng};
use crate::rules::tank_commander::{
    self as tc, FireTarget, GreedyBot, Record, Round, Rules, Scenario, ScenarioSource,
    TankCommander,
};

pub(super) fn run(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Check { files, rules } => check(&files, rules.as_deref()),
        Command::Sim {
            scenario,
            games,
            seed,
            bots,
            json,
            threads,
            rules,
        } => {
            if let Some(game) = tabletop_file(&scenario) {
                return dispatch!(game, tt::sim(&scenario, games, seed, &bots, json, threads));
            }
            let rules = load_rules(rules.as_deref())?;
            let scenario = load_scenario(&scenario, &rules)?;
            super::sim::run(&scenario, &rules, games, seed, &bots, json, threads)
        }
        Command::Record {
            scenario,
            output,
            seed,
            bots,
            rules,
        } => record(&scenario, &output, seed, &bots, rules.as_deref()),
        Command::Replay {
            record,
            json,
            rules,
        } => replay_cmd(&record, json, rules.as_deref()),
        Command::Odds {
            scenario,
            shooter,
            target,
            round,
            rules,
        } => odds(&scenario, &shooter, &target, round, rules.as_deref()),
        Command::Legal { file, seed, rules } => legal(&file, seed, rules.as_deref()),
        Command::Play { .. } | Command::Preview { .. } => {
            Err("`play` opens the client and is handled before headless commands".into())
        }
    }
}

/// The setup-file game of the file at `path`, if it is one.
fn tabletop_file(path: &Path) -> Option<tt::Which> {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| tt::which(&text))
}

fn load_rules(path: Option<&Path>) -> Result<Rules, String> {
    Rules::load(path).map_err(|d| d.to_string())
}

fn load_scenario(path: &Path, rules: &Rules) -> Result<Scenario, String> {
    Scenario::load(path, rules).map_err(|d| d.to_string())
}

/// What kind of data file this is, from the name before its first parenthesis.
#[derive(Debug, PartialEq, Eq)]
enum FileKind {
    Scenario,
    Rules,
    Record,
}

fn file_kind(text: &str) -> FileKind {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
        } else if rest.starts_with("#![") {
            rest = rest.split_once('\n').map_or("", |(_, r)| r);
        } else {
            break;
        }
    }
    let head: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    match head.as_str() {
        "Rules" => FileKind::Rules,
        "MatchRecord" => FileKind::Record,
        _ if rest.contains("actions:") && rest.contains("game:") => FileKind::Record,
        _ => FileKind::Scenario,
    }
}

fn check(files: &[PathBuf], rules_path: Option<&Path>) -> Result<ExitCode, String> {
    let rules = Rules::load(rules_path);
    let mut all = Diagnostics::default();
    if let Err(d) = &rules {
        all.0.extend(d.0.iter().cloned());
    }
    let rules = rules.unwrap_or_else(|_| Rules::builtin());
    for file in files {
        let name = file.display().to_string();
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                all.0
                    .extend(Diagnostics::whole_file(&name, format!("cannot read the file: {e}")).0);
                continue;
            }
        };
        if let Some(game) = tt::which(&text) {
            match dispatch!(game, tt::check(file, &text)) {
                Ok(kind) => say!("{name}: ok ({kind})"),
                Err(d) => all.0.extend(d.0),
            }
            continue;
        }
        if super::chess::is_record(&text) || text.contains("TankChess") {
            match super::chess::check(file, &text) {
                Ok(kind) => say!("{name}: ok ({kind})"),
                Err(d) => all.0.extend(d.0),
            }
            continue;
        }
        let result = match file_kind(&text) {
            FileKind::Rules => Rules::parse(&name, &text).map(|_| "rules"),
            FileKind::Scenario => Scenario::parse(&name, &text, &rules).map(|_| "scenario"),
            FileKind::Record => load_record(file, &rules).and_then(|(rec, scenario)| {
                replay(&rec, &scenario, &rules)
                    .map(|_| "match record")
                    .map_err(|e| Diagnostics::whole_file(&name, e))
            }),
        };
        match result {
            Ok(kind) => say!("{name}: ok ({kind})"),
            Err(d) => all.0.extend(d.0),
        }
    }
    if all.0.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("{all}");
        eprintln!(
            "{} problem{} found.",
            all.0.len(),
            if all.0.len() == 1 { "" } else { "s" }
        );
        Ok(ExitCode::FAILURE)
    }
}

/// Reads a match record and its scenario.
fn load_record(path: &Path, rules: &Rules) -> Result<(Record, Scenario), Diagnostics> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Diagnostics::whole_file(&name, format!("cannot read the file: {e}")))?;
    let (header, _): (RecordHeader, _) = data::load_ron_lenient(&name, &text)?;
    if header.game != TankCommander::NAME {
        return Err(Diagnostics::whole_file(
            &name,
            format!(
                "this is a `{}` record; this build replays `{}` records",
                header.game,
                TankCommander::NAME
            ),
        ));
    }
    let (record, _): (Record, _) = data::load_ron(&name, &text)?;
    let scenario = record.scenario.load(path.parent(), rules)?;
    Ok((record, scenario))
}

/// Replays a record, checking every action and the final hash.
fn replay(
    record: &Record,
    scenario: &Scenario,
    rules: &Rules,
) -> Result<Match<TankCommander>, String> {
    tc::replay_record(record, scenario, rules).map(|(m, _)| m)
}

fn replay_cmd(path: &Path, json: bool, rules: Option<&Path>) -> Result<ExitCode, String> {
    if let Ok(text) = std::fs::read_to_string(path) {
        if let Some(game) = tt::which(&text) {
            return dispatch!(game, tt::replay(path, &text, json));
        }
        if super::chess::is_record(&text) {
            return super::chess::replay(path, &text);
        }
    }
    let rules = load_rules(rules)?;
    let (record, scenario) = load_record(path, &rules).map_err(|d| d.to_string())?;
    let (m, told) = tc::replay_record(&record, &scenario, &rules)?;
    for (index, t) in told.iter().enumerate() {
        if json {
            let line = serde_json::json!({ "index": index, "action": t.action, "fact": t.fact, "text": t.text });
            say!("{line}");
        } else {
            say!("{}", t.text);
        }
    }
    if !json {
        say!(
            "Final state hash {} matches the record.",
            format_hash(m.state_hash())
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn make_bot(kind: BotKind) -> Box<dyn Bot<TankCommander>> {
    match kind {
        BotKind::Random => Box::new(RandomBot),
        BotKind::Greedy => Box::new(GreedyBot),
    }
}

/// One bot per side from a `--bots` list.
pub(super) fn bots_for(
    kinds: &[BotKind],
    sides: usize,
) -> Result<Vec<Box<dyn Bot<TankCommander>>>, String> {
    match kinds.len() {
        0 => Err("name at least one bot".into()),
        1 => Ok((0..sides).map(|_| make_bot(kinds[0])).collect()),
        n if n == sides => Ok(kinds.iter().map(|k| make_bot(*k)).collect()),
        n => Err(format!(
            "--bots names {n} bots but the scenario has {sides} sides"
        )),
    }
}

fn record(
    scenario_path: &Path,
    output: &Path,
    seed: u64,
    bots: &[BotKind],
    rules: Option<&Path>,
) -> Result<ExitCode, String> {
    if let Some(game) = tabletop_file(scenario_path) {
        return dispatch!(game, tt::record(scenario_path, output, seed, bots));
    }
    if let Ok(text) = std::fs::read_to_string(scenario_path)
        && text.contains("TankChessSetup")
    {
        return super::chess::record(scenario_path, output, seed, bots);
    }
    let rules = load_rules(rules)?;
    let scenario = load_scenario(scenario_path, &rules)?;
    let game = TankCommander::new(&scenario, &rules)?;
    let mut bots = bots_for(bots, game.player_count())?;
    let mut rng = MatchRng::new(seed);
    let mut bot_rng = MatchRng::new(crate::framework::rng::derive_seed(seed, u64::MAX));
    let played = crate::framework::bot::play_out(
        game,
        &mut bots,
        &mut rng,
        &mut bot_rng,
        100_000,
        |_, _| {},
    )?;
    let rec = Record {
        game: TankCommander::NAME.into(),
        scenario: ScenarioSource::Inline(Box::new(scenario.setup.clone())),
        seed,
        dice: Vec::new(),
        actions: played
            .actions
            .iter()
            .map(|(player, action)| RecordedAction {
                player: *player,
                action: *action,
            })
            .collect(),
        final_hash: Some(format_hash(played.state.state_hash())),
    };
    let text = data::to_ron_pretty(&rec)?;
    data::write_atomic(output, &text)
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    let result = played
        .outcome
        .map_or("unfinished".to_string(), |o| match o.winners.first() {
            Some(w) => format!("{} won: {}", played.state.side_name(*w), o.reason),
            None => format!("draw: {}", o.reason),
        });
    say!(
        "Wrote {} ({} actions; {result}).",
        output.display(),
        rec.actions.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn odds(
    scenario_path: &Path,
    shooter: &str,
    target: &str,
    round: Option<RoundArg>,
    rules: Option<&Path>,
) -> Result<ExitCode, String> {
    let rules = load_rules(rules)?;
    let scenario = load_scenario(scenario_path, &rules)?;
    let game = TankCommander::new(&scenario, &rules)?;
    let names = || {
        game.units()
            .iter()
            .map(|u| u.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let s = game
        .unit_named(shooter)
        .ok_or_else(|| format!("no unit called `{shooter}` (units: {})", names()))?;
    let t = game
        .unit_named(target)
        .ok_or_else(|| format!("no unit called `{target}` (units: {})", names()))?;
    let round = match round {
        Some(RoundArg::At) => Round::At,
        Some(RoundArg::He) => Round::He,
        None => s.loaded.unwrap_or(Round::At),
    };
    if !s.rounds().contains(&round) {
        return Err(format!("{} carries no {round} rounds", s.name));
    }
    let target_ref = FireTarget::Unit(t.id);
    let why_not = game.why_not_aimable(s.id, target_ref);
    if s.role_state(tc::Role::Gunner) == tc::state::RoleState::Out {
        return Err(format!("{} cannot fire at all: its gunner is dead", s.name));
    }
    let profile = game.shot_profile_anyway(s.id, target_ref, round, false);
    let o = game.odds(&profile);
    say!(
        "{} ({}, turret {}) fires {round} at {} ({}, facing {}), {} spaces",
        s.name,
        game.label(s.at),
        s.turret,
        t.name,
        game.label(t.at),
        t.facing,
        s.at.unsigned_distance_to(t.at)
    );
    if let Some(why) = &why_not {
        say!("Not possible from here: {why}.");
        say!(
            "The odds below are for the same shot as if it could be taken (cover along the line counted)."
        );
    }
    say!("To hit: {}", profile.to_hit.explain());
    if let Some((facing, armor, why)) = &profile.armor {
        say!(
            "Armor: {facing} {armor} ({why}); strength {} + d6 must beat it",
            profile.strength
        );
    }
    let rows = [
        ("hit", o.hit),
        ("penetrating hit", o.penetrating),
        ("glancing hit", o.glancing),
        ("crew wound", o.crew_wound),
        ("fire", o.fire),
        ("disabled outright", o.disable),
        ("expected hull points lost", o.expected_hull_loss),
    ];
    for (name, p) in rows {
        say!("  {name:<27} {:>7}  {:.4}", p.to_string(), p.to_f64());
    }
    Ok(ExitCode::SUCCESS)
}

fn legal(file: &Path, seed: Option<u64>, rules_path: Option<&Path>) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("{}: cannot read the file: {e}", file.display()))?;
    if let Some(game) = tt::which(&text) {
        return dispatch!(game, tt::legal(file, &text, seed));
    }
    let rules = load_rules(rules_path)?;
    if super::chess::is_record(&text) || text.contains("TankChessSetup") {
        return super::chess::legal(file, &text);
    }
    let m = if file_kind(&text) == FileKind::Record {
        let (record, scenario) = load_record(file, &rules).map_err(|d| d.to_string())?;
        replay(&record, &scenario, &rules)?
    } else {
        let scenario = load_scenario(file, &rules)?;
        let seed = tc::choose_seed(seed, &scenario);
        Match::new(TankCommander::new(&scenario, &rules)?, seed)
    };
    let game = m.state();
    if let Some(outcome) = game.outcome() {
        say!("The battle is over: {}", outcome.reason);
        return Ok(ExitCode::SUCCESS);
    }
    for player in game.to_act() {
        let actions = game.legal_actions(player);
        let who = game.who_acts(player);
        say!(
            "Turn {}: {who} to act; {} legal actions:",
            game.turn(),
            actions.len()
        );
        for a in &actions {
            say!("  {}", game.describe_action(a));
        }
        say!("  (conceding is always allowed)");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_kinds() {
        assert_eq!(file_kind("// x\nRules(tank: ())"), FileKind::Rules);
        assert_eq!(file_kind("MatchRecord(game: \"x\")"), FileKind::Record);
        assert_eq!(file_kind("Scenario(name: \"x\")"), FileKind::Scenario);
        assert_eq!(
            file_kind("(game: \"tank-commander\", actions: [])"),
            FileKind::Record
        );
    }
}
