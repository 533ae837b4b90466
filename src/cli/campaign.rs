//! `tanktable campaign`: a campaign's roster and progress, and its battles played by bots.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::rules::tank_commander::Rules;
use crate::rules::tank_commander::campaign::{
    Campaign, CampaignState, default_state_path, knock_outs_in, parse_build,
};

/// What `tanktable campaign` was asked to do.
pub(super) struct Plan<'a> {
    pub play: u32,
    pub bots: &'a [String],
    pub seed: u64,
    pub save: Option<PathBuf>,
    pub new: bool,
    /// Refits, `TANK=EQUIPMENT`, made before any battle is played.
    pub upgrades: &'a [String],
}

pub(super) fn run(file: &Path, plan: Plan<'_>) -> Result<ExitCode, String> {
    let Plan {
        play,
        bots,
        seed,
        save,
        new,
        upgrades,
    } = plan;
    let rules = Rules::load(None).map_err(|d| d.to_string())?;
    let campaign = Campaign::load(file, &rules).map_err(|d| d.to_string())?;
    let path = save.unwrap_or_else(|| default_state_path(file));
    let mut state = CampaignState::open(&campaign, &path, new).map_err(|e| e.to_string())?;
    if !upgrades.is_empty() {
        refit(&mut state, upgrades, &rules)?;
        state.save(&path).map_err(|e| e.to_string())?;
    }
    for k in 0..play {
        if state.is_over(&campaign) {
            say!("The campaign is over: every battle is fought.");
            break;
        }
        let prepared = state
            .prepare(&campaign, &rules)
            .map_err(|e| e.to_string())?;
        let m = prepared
            .play_with_bots(bots, seed.wrapping_add(u64::from(k)))
            .map_err(|e| e.to_string())?;
        state = prepared.record(m.state(), &knock_outs_in(&m));
        state.save(&path).map_err(|e| e.to_string())?;
        if let Some(r) = state.reports.last() {
            say!(
                "Battle {} of {}, {}: {} ({}).",
                state.reports.len(),
                campaign.setup.battles.len(),
                r.battle,
                r.result,
                r.reason
            );
            for line in &r.lines {
                say!("  {line}");
            }
        }
    }
    show(&campaign, &state, &path, &rules);
    Ok(ExitCode::SUCCESS)
}

/// Makes every refit asked for, or none: each refused one says every rule it breaks.
fn refit(state: &mut CampaignState, upgrades: &[String], rules: &Rules) -> Result<(), String> {
    let mut refitted = state.clone();
    let (mut refused, mut done) = (Vec::new(), Vec::new());
    for asked in upgrades {
        let Some((tank, equipment)) = asked.split_once('=') else {
            refused.push(format!(
                "--upgrade {asked}: write the tank and its whole new build, as `Iron Duke=engine,optics,front:2`"
            ));
            continue;
        };
        let build = match parse_build(equipment) {
            Ok(b) => b,
            Err(e) => {
                refused.push(format!("--upgrade {asked}: {e}"));
                continue;
            }
        };
        match refitted.refit(tank.trim(), build, rules) {
            Ok(said) => done.push(said),
            Err(why) => refused.extend(
                why.lines()
                    .into_iter()
                    .map(|w| format!("--upgrade {asked}: {w}")),
            ),
        }
    }
    if !refused.is_empty() {
        return Err(format!("no refit was made:\n{}", refused.join("\n")));
    }
    for said in done {
        say!("{said}");
    }
    *state = refitted;
    Ok(())
}

fn show(campaign: &Campaign, state: &CampaignState, path: &Path, rules: &Rules) {
    let total = campaign.setup.battles.len();
    say!("{} ({}):", campaign.name(), campaign.path.display());
    match campaign.scenarios.get(state.next) {
        Some(next) => say!(
            "  battle {} of {} next: {}. {}",
            state.next + 1,
            total,
            next.setup.name,
            campaign.setup.battles[state.next].briefing
        ),
        None => say!("  over: {} of {total} battles won.", state.won()),
    }
    say!("  kept in {}", path.display());
    for (i, r) in state.reports.iter().enumerate() {
        say!("  {}. {}: {} ({})", i + 1, r.battle, r.result, r.reason);
    }
    if state.roster.is_empty() {
        say!(
            "Roster: none yet; the first battle's {} tanks will start it.",
            campaign.setup.side
        );
    } else {
        say!("Roster ({}):", campaign.setup.side);
    }
    let c = &rules.campaign;
    for t in &state.roster {
        say!(
            "  {}: {} battle(s), {} knock-out(s); build {} of {} upgrade points ({} earned)",
            t.name,
            t.battles,
            t.knock_outs,
            t.build.cost(&rules.upgrades),
            t.budget(rules),
            t.earned
        );
        for m in &t.crew {
            say!(
                "    {:<22} {:<8} {} xp{}",
                m.role.to_string(),
                m.name,
                m.xp,
                if m.is_veteran(c) { ", veteran" } else { "" }
            );
        }
    }
    if !state.reserve.is_empty() {
        say!("Reserve (crew without a tank):");
        for m in &state.reserve {
            say!("    {:<22} {:<8} {} xp", m.role.to_string(), m.name, m.xp);
        }
    }
    if !state.fallen.is_empty() {
        say!("Fallen: {}", state.fallen.join("; "));
    }
}
