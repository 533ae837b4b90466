//! Campaigns at the table: the menu opens a campaign's next battle with the roster in its
//! places; the moment the battle ends its result goes into the campaign, which is saved
//! atomically; a panel shows the briefing, then the report and the way to the next
//! battle.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub use crate::client::core::open::OpenCampaign;
use crate::client::core::session::{AnySetup, OpenGame, OpenProblem, Session};
use crate::client::core::{ClientSystems, HudSystems, Screen};
use crate::client::games::tank_commander::build_card::BuildCard;
use crate::client::table::theme;
use crate::framework::{Game, Seat};
use crate::rules::tank_commander::campaign::{
    Campaign, CampaignState, PreparedBattle, RosterTank, default_state_path, knock_outs_in,
};
use crate::rules::tank_commander::setup::{TankDesign, UnitSetup};
use crate::rules::tank_commander::{Rules, TankCommander};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<OpenCampaign>()
        .add_systems(
            Update,
            (
                open_campaigns.before(ClientSystems::Session),
                attach_campaign
                    .after(ClientSystems::Session)
                    .run_if(resource_exists::<Session<TankCommander>>)
                    .run_if(not(resource_exists::<CampaignPlay>)),
                record_battle
                    .after(ClientSystems::Session)
                    .run_if(resource_exists::<Session<TankCommander>>)
                    .run_if(resource_exists::<CampaignPlay>),
            ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            campaign_window
                .in_set(HudSystems::Game)
                .run_if(in_state(Screen::Playing))
                .run_if(
                    |play: Option<Res<CampaignPlay>>,
                     session: Option<Res<Session<TankCommander>>>| {
                        play.zip(session)
                            .is_some_and(|(play, session)| play.is_on_the_table(&session))
                    },
                ),
        )
        .add_systems(OnEnter(Screen::Menu), |mut commands: Commands| {
            commands.remove_resource::<CampaignPlay>();
        });
    crate::client::frame::redraw::watch::<CampaignPlay>(app);
}

/// The campaign battle on the table.
#[derive(Resource)]
pub struct CampaignPlay {
    /// The campaign file.
    pub file: PathBuf,
    /// Where its state is kept.
    pub save: PathBuf,
    pub name: String,
    /// The battle's index, and how many the campaign has.
    pub battle: usize,
    pub total: usize,
    pub briefing: String,
    pub seats: Vec<Seat>,
    pub prepared: PreparedBattle,
    /// The campaign after this battle, once recorded (or why it could not be saved).
    pub after: Option<Result<CampaignState, String>>,
}

impl CampaignPlay {
    /// The next battle of the campaign in `file`, with its state kept where the game
    /// keeps it (`start_over` first replaces it with a fresh one). One person against bots
    /// in `seats` sits on the campaign's side.
    ///
    /// # Errors
    /// The campaign's or the state's problems, or a roster that does not fit the battle,
    /// in words.
    pub fn next_battle(
        file: &Path,
        start_over: bool,
        mut seats: Vec<Seat>,
    ) -> Result<Self, String> {
        let rules = Rules::load(None).map_err(|d| d.to_string())?;
        let campaign = Campaign::load(file, &rules).map_err(|d| d.to_string())?;
        let save = default_state_path(file);
        let state = CampaignState::open(&campaign, &save, start_over).map_err(|e| e.to_string())?;
        let prepared = state
            .prepare(&campaign, &rules)
            .map_err(|e| e.to_string())?;
        let people: Vec<usize> = (0..seats.len()).filter(|&i| seats[i].is_person()).collect();
        if let [me] = people[..]
            && prepared.side.index() < seats.len()
        {
            seats.swap(me, prepared.side.index());
        }
        Ok(Self {
            file: file.to_path_buf(),
            save,
            name: campaign.name().to_string(),
            battle: state.next,
            total: campaign.setup.battles.len(),
            briefing: campaign.setup.battles[state.next].briefing.clone(),
            seats,
            prepared,
            after: None,
        })
    }

    /// Whether the game on the table is this battle (and not one left from before, when
    /// the battle could not be opened).
    #[must_use]
    pub fn is_on_the_table(&self, session: &Session<TankCommander>) -> bool {
        session.setup.scenario.setup == *self.prepared.scenario()
    }
}

fn open_campaigns(
    mut asked: MessageReader<OpenCampaign>,
    mut opens: MessageWriter<OpenGame>,
    mut problem: ResMut<OpenProblem>,
    mut commands: Commands,
) {
    for ask in asked.read() {
        match CampaignPlay::next_battle(&ask.file, ask.start_over, ask.seats.clone()) {
            Ok(play) => {
                opens.write(OpenGame {
                    seats: Some(play.seats.clone()),
                    ..OpenGame::setup(
                        AnySetup::TankCommander(play.prepared.battle.clone()),
                        format!(
                            "{} · battle {} of {}",
                            play.name,
                            play.battle + 1,
                            play.total
                        ),
                    )
                });
                commands.insert_resource(play);
            }
            Err(e) => {
                warn!("{e}");
                problem.0 = Some(e);
            }
        }
    }
}

/// A Tank Commander game opened another way (Continue the last game, a saved game) that
/// is, to the letter, a campaign's next battle with its roster in place, and not yet over,
/// is that battle: the campaign takes it back, and records it when it ends.
fn attach_campaign(
    session: Res<Session<TankCommander>>,
    mut seen: Local<u64>,
    mut commands: Commands,
) {
    if *seen == session.generation {
        return;
    }
    *seen = session.generation;
    if session.replay.is_some() || session.state().outcome().is_some() {
        return;
    }
    let Some(dir) = crate::data::find_project_file("scenarios/campaigns") else {
        return;
    };
    for file in crate::client::core::saves::ron_files(&dir) {
        let Ok(play) = CampaignPlay::next_battle(&file, false, session.seats.clone()) else {
            continue;
        };
        if play.is_on_the_table(&session) {
            info!("this is battle {} of {}", play.battle + 1, play.name);
            commands.insert_resource(play);
            return;
        }
    }
}

/// Records the battle in the campaign the moment it ends (once: a rematch does not count
/// again), and saves the campaign.
fn record_battle(session: Res<Session<TankCommander>>, mut play: ResMut<CampaignPlay>) {
    if play.after.is_some() || session.replay.is_some() || !play.is_on_the_table(&session) {
        return;
    }
    if session.state().outcome().is_none() {
        return;
    }
    let after = play
        .prepared
        .record(session.state(), &knock_outs_in(&session.game));
    let saved = after
        .save(&play.save)
        .map(|()| after)
        .map_err(|e| e.to_string());
    if let Err(e) = &saved {
        warn!("{e}");
    }
    play.after = Some(saved);
}

/// A tank of the company on the builder's card, between battles.
struct Refitting {
    /// Its place in the roster.
    tank: usize,
    card: BuildCard,
    /// Why the last refit asked for was refused, with the rules.
    refused: Vec<String>,
}

/// A roster tank as the builder's card edits it: its build, crew, paint and the points
/// it earned.
fn unit_of(tank: &RosterTank, rules: &Rules) -> UnitSetup {
    let mut unit = TankDesign::default().unit();
    tank.place_on(&mut unit, &rules.campaign);
    unit
}

/// The refit window: the builder's card on one tank; *Apply* refits it in the campaign
/// (refused with every rule broken) and saves the campaign.
fn refit_window(
    ctx: &egui::Context,
    play: &mut CampaignPlay,
    refitting: &mut Option<Refitting>,
    rules: &Rules,
) {
    let Some(r) = refitting.as_mut() else {
        return;
    };
    let Some(Ok(after)) = &play.after else {
        *refitting = None;
        return;
    };
    let Some(tank) = after.roster.get(r.tank) else {
        *refitting = None;
        return;
    };
    let name = tank.name.clone();
    let (mut apply, mut close) = (false, false);
    egui::Window::new(format!("Refit {name}"))
        .id(egui::Id::new("campaign refit"))
        .collapsible(false)
        .default_width(760.0)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(format!(
                    "Buy or take off equipment within {} upgrade points: every tank's {} \
                     and the {} point(s) {name} earned in its battles. Only the equipment \
                     changes; the name, crew and paint stay the company's.",
                    tank.budget(rules),
                    rules.upgrades.budget,
                    tank.earned
                ))
                .weak(),
            );
            ui.horizontal(|ui| {
                apply = ui
                    .button(egui::RichText::new("Apply the refit").strong())
                    .on_hover_text("Refit the tank and save the campaign")
                    .clicked();
                close = ui.button("Cancel").clicked();
            });
            for why in &r.refused {
                ui.colored_label(theme::WARN, why);
            }
            ui.separator();
            // The card is taller than a small window: it scrolls under the buttons.
            egui::ScrollArea::vertical()
                .max_height((ctx.content_rect().height() - 200.0).max(200.0))
                .show(ui, |ui| r.card.ui(ui, rules));
        });
    if apply {
        let mut refitted = after.clone();
        match refitted.refit(&name, r.card.unit.build, rules) {
            Ok(said) => match refitted.save(&play.save) {
                Ok(()) => {
                    info!("{said}");
                    play.after = Some(Ok(refitted));
                    close = true;
                }
                Err(e) => r.refused = vec![e.to_string()],
            },
            Err(why) => r.refused = why.lines(),
        }
    }
    if close {
        *refitting = None;
    }
}

/// The campaign panel: the battle's briefing, then its report, the company's refits and
/// the way to the next battle.
fn campaign_window(
    mut contexts: EguiContexts,
    session: Res<Session<TankCommander>>,
    mut play: ResMut<CampaignPlay>,
    mut refitting: Local<Option<Refitting>>,
    mut asks: MessageWriter<OpenCampaign>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let ctx = &ctx;
    let over = session.state().outcome().is_some();
    let rules = &session.setup.rules;
    let mut open_refit = None;
    egui::Window::new(format!("Campaign: {}", play.name))
        .id(egui::Id::new("campaign window"))
        .collapsible(true)
        .resizable(false)
        .default_width(360.0)
        .anchor(egui::Align2::RIGHT_BOTTOM, [-10.0, -110.0])
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(format!(
                    "Battle {} of {}: {}",
                    play.battle + 1,
                    play.total,
                    play.prepared.scenario().name
                ))
                .strong(),
            );
            match (&play.after, over) {
                (None, _) => briefing(ui, &play),
                (Some(Err(e)), _) => {
                    ui.colored_label(theme::WARN, e);
                }
                (Some(Ok(_)), false) => {
                    ui.label(
                        "This battle's result is already in the campaign: a rematch does not \
                         count again.",
                    );
                }
                (Some(Ok(after)), true) => {
                    battle_report(ui, after);
                    if after.next < play.total && !after.roster.is_empty() {
                        refit_list(ui, after, rules, &mut open_refit);
                    }
                    next_battle_row(ui, &play, after, &mut asks, &mut next);
                }
            }
        });
    if let (Some(k), Some(Ok(after))) = (open_refit, &play.after)
        && let Some(tank) = after.roster.get(k)
    {
        *refitting = Some(Refitting {
            tank: k,
            card: BuildCard::new(
                k,
                unit_of(tank, rules),
                crate::client::core::saves::builds_dir(),
            ),
            refused: Vec::new(),
        });
    }
    refit_window(ctx, &mut play, &mut refitting, rules);
    Ok(())
}

/// Before the battle: the briefing, the side the player leads and who joined the company.
fn briefing(ui: &mut egui::Ui, play: &CampaignPlay) {
    if !play.briefing.is_empty() {
        ui.label(&play.briefing);
    }
    ui.label(
        egui::RichText::new(format!(
            "You lead {}. Tanks and crews carry over; the result is saved \
             the moment the battle ends.",
            play.prepared.scenario().sides[play.prepared.side.index()].name
        ))
        .weak(),
    );
    for line in &play.prepared.joined {
        ui.label(egui::RichText::new(line).small());
    }
}

/// After the battle: its result and the report's lines, scrolling.
fn battle_report(ui: &mut egui::Ui, after: &CampaignState) {
    if let Some(r) = after.reports.last() {
        ui.label(
            egui::RichText::new(format!("Battle {}: {}", r.result, r.reason))
                .color(theme::EMPHASIS),
        );
        egui::ScrollArea::vertical()
            .max_height(160.0)
            .show(ui, |ui| {
                for line in &r.lines {
                    ui.label(line);
                }
            });
    }
}

/// The company's tanks with their points, each with a button that opens its refit.
fn refit_list(
    ui: &mut egui::Ui,
    after: &CampaignState,
    rules: &Rules,
    open_refit: &mut Option<usize>,
) {
    ui.separator();
    ui.label(egui::RichText::new("Refit the company").strong())
        .on_hover_text(
            "Between battles each tank may buy or take off equipment \
             within its budget and the upgrade points it earned by \
             coming through its battles",
        );
    for (k, tank) in after.roster.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!(
                "{}: {} of {} points ({} earned)",
                tank.name,
                tank.build.cost(&rules.upgrades),
                tank.budget(rules),
                tank.earned
            ));
            if ui.button("Refit…").clicked() {
                *open_refit = Some(k);
            }
        });
    }
}

/// Where the campaign is saved, then the next battle (or the campaign's end) and the way
/// back to the menu.
fn next_battle_row(
    ui: &mut egui::Ui,
    play: &CampaignPlay,
    after: &CampaignState,
    asks: &mut MessageWriter<OpenCampaign>,
    next: &mut NextState<Screen>,
) {
    ui.label(
        egui::RichText::new(format!(
            "Saved in {} · {} tank(s), {} battle(s) won",
            play.save.display(),
            after.roster.len(),
            after.won()
        ))
        .weak()
        .small(),
    );
    ui.horizontal(|ui| {
        if after.next < play.total {
            if ui
                .button(egui::RichText::new("Next battle ▶").size(16.0))
                .on_hover_text(format!(
                    "Battle {} of {}, with the company as it now stands",
                    after.next + 1,
                    play.total
                ))
                .clicked()
            {
                asks.write(OpenCampaign {
                    file: play.file.clone(),
                    seats: play.seats.clone(),
                    start_over: false,
                });
            }
        } else {
            ui.label(
                egui::RichText::new(format!(
                    "The campaign is over: {} of {} battles won.",
                    after.won(),
                    play.total
                ))
                .strong(),
            );
        }
        if ui.button("Main menu").clicked() {
            next.set(Screen::Menu);
        }
    });
}
