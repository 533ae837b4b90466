//! `tanktable campaign`: a campaign's roster and progress, and its battles played by bots.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::rules::tank_commander::Rules;
use crate::rules::tank_commander::campaign::{
    Campaign, CampaignState, default_state_path, knock_outs_in,
};

pub(super) fn run(
    file: &Path,
    play: u32,
    bots: &[String],
    seed: u64,
    save: Option<PathBuf>,
    new: bool,
) -> Result<ExitCode, String> {
    let rules = Rules::load(None).map_err(|d| d.to_string())?;
    let campaign = Campaign::load(file, &rules).map_err(|d| d.to_string())?;
    let path = save.unwrap_or_else(|| default_state_path(file));
    let mut state = CampaignState::open(&campaign, &path, new)?;
    for k in 0..play {
        if state.is_over(&campaign) {
            say!("The campaign is over: every battle is fought.");
            break;
        }
        let prepared = state.prepare(&campaign, &rules)?;
        let m = prepared.play_with_bots(bots, seed.wrapping_add(u64::from(k)))?;
        state = prepared.record(m.state(), &knock_outs_in(&m));
        state.save(&path)?;
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
            "  {}: {} battle(s), {} knock-out(s)",
            t.name,
            t.battles,
            t.knock_outs
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
