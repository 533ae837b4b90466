//! The frame of panels every game shares: a banner with whose decision it is and what to
//! do, the seats (a person or a bot in each), the log as the screen's seat may read it,
//! the orders as buttons (a refused one says why), the replay timeline, the playtest
//! history, the privacy screen between people in hot seat, and the end of the game.
//! Games with controls of their own (Tank Commander's action bar, Tank Chess's moves)
//! draw them beside this frame.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::open::EditTheGame;
use crate::client::core::remote::rule_of;
use crate::client::core::session::{
    Busy, GameClient, Legal, LogClicked, Order, Refused, Session, SkipAnimations,
};
use crate::client::core::{Clean, Screen};
use crate::client::frame::input::PanelOrder;
use crate::client::table::theme;
use crate::framework::{LogLine, PlayerId, Seat};
use crate::rules::GameKind;

pub(crate) fn plugin<G: GameClient>(app: &mut App) {
    app.init_resource::<Panels>()
        .init_resource::<crate::client::frame::whatif::WhatIf>()
        .add_systems(
            EguiPrimaryContextPass,
            (draw_frame::<G>, crate::client::frame::whatif::window::<G>)
                .chain()
                .in_set(crate::client::core::HudSystems::Frame)
                .run_if(in_state(G::SCREEN).and_then(resource_exists::<Session<G>>))
                .run_if(not(resource_exists::<Clean>)),
        )
        .add_systems(
            Update,
            hide_table_for_privacy::<G>
                .after(crate::client::core::ClientSystems::Session)
                .run_if(in_state(G::SCREEN).and_then(resource_exists::<Session<G>>)),
        );
}

/// Behind the privacy screen the table is not drawn at all (nobody sees it anyway).
fn hide_table_for_privacy<G: GameClient>(
    session: Res<Session<G>>,
    mut hidden: ResMut<crate::client::table::camera::TableHidden>,
) {
    hidden.set_if_neq(crate::client::table::camera::TableHidden(
        session.pass_to.is_some(),
    ));
}

/// Which optional panels are open.
#[derive(Resource, Default)]
pub struct Panels {
    pub history: bool,
    pub hide_end: bool,
    /// The what-if window is open.
    pub whatif: bool,
    /// The Lab was asked for (on this game's setup).
    pub lab: bool,
    /// The editor was asked for (on this game's setup, while the game waits).
    pub edit: bool,
    /// The banner folded to its status line.
    pub banner_folded: bool,
    /// The action bar (or the orders panel) folded to one line; its keys still work.
    pub bar_folded: bool,
}

/// The small ⏷/⏵ that folds a panel to one line and opens it again: whether it was
/// clicked. The caller flips its flag then only, so that an idle frame leaves [`Panels`]
/// unchanged (the panels are laid out again only on a change).
pub fn fold_button(ui: &mut egui::Ui, folded: bool, what: &str) -> bool {
    let (arrow, tip) = if folded {
        ("⏵", format!("Open {what} again"))
    } else {
        ("⏷", format!("Fold {what} to one line"))
    };
    let button = ui.small_button(arrow);
    // Read out by a screen reader as what it does, not as an arrow's glyph.
    button.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, true, &tip));
    button.on_hover_text(tip).clicked()
}

/// A shape for each seat, shown beside its name on the panels and the table, so that
/// sides are told apart without colour as well as by colour ([`theme::seat_color`]).
#[must_use]
pub fn seat_mark(player: PlayerId) -> &'static str {
    // Glyphs of egui's own proportional fonts (the card suits and the cross of Noto
    // Emoji, the square and the star of its icon font).
    const MARKS: [&str; 8] = ["♠", "♦", "♣", "♥", "■", "✖", "★", "⚓"];
    MARKS[player.index() % MARKS.len()]
}

/// Text on the table, on a dark plate so it reads over any colour.
pub fn label_box(
    painter: &egui::Painter,
    at: egui::Pos2,
    anchor: egui::Align2,
    text: impl Into<String>,
    size: f32,
    color: egui::Color32,
) -> egui::Rect {
    let galley = painter.layout_no_wrap(text.into(), egui::FontId::proportional(size), color);
    let rect = anchor.anchor_size(at, galley.size());
    painter.rect_filled(rect.expand(3.0), 4.0, theme::LABEL_PLATE);
    painter.galley(rect.min, galley, color);
    rect.expand(3.0)
}

/// Labels on the table placed so that none covers one placed before it in the same
/// frame: each takes its own place when that is free, else the nearest free place above
/// or below it, then beside it.
#[derive(Default, Debug)]
pub struct Placer {
    taken: Vec<egui::Rect>,
}

impl Placer {
    /// How far `rect` moves to a free place (nothing when its own is free); the place is
    /// taken.
    pub fn place(&mut self, rect: egui::Rect) -> egui::Vec2 {
        let (dy, dx) = (rect.height() + 2.0, rect.width() * 0.5 + 2.0);
        let tries = (0..12_i8)
            .map(|k| {
                let n = f32::from(k.div_euclid(2) + 1);
                egui::vec2(0.0, if k % 2 == 0 { -n * dy } else { n * dy })
            })
            .chain([-1.0, 1.0, -2.0, 2.0].map(|n| egui::vec2(n * dx, 0.0)));
        let shift = std::iter::once(egui::Vec2::ZERO)
            .chain(tries)
            .find(|d| {
                let r = rect.translate(*d);
                !self.taken.iter().any(|t| t.intersects(r))
            })
            .unwrap_or(egui::Vec2::ZERO);
        self.taken.push(rect.translate(shift));
        shift
    }

    /// Takes `rect` where it stands (a plate that must stay on its place, as a route's
    /// cost on its hex): later plates move off it.
    pub fn take(&mut self, rect: egui::Rect) {
        self.taken.push(rect);
    }
}

/// The size [`label_box`] gives `text` at `size`, its plate included.
#[must_use]
pub fn label_size(painter: &egui::Painter, text: &str, size: f32) -> egui::Vec2 {
    painter
        .layout_no_wrap(
            text.to_string(),
            egui::FontId::proportional(size),
            egui::Color32::WHITE,
        )
        .size()
        + egui::vec2(6.0, 6.0)
}

/// The log, told again only when the match or the viewer changed.
#[derive(Default)]
struct LogCache {
    key: (u64, u64, Option<PlayerId>),
    lines: Vec<LogLine>,
    /// Each line's height as last laid out (`NAN` until it has been), so that a line
    /// scrolled out of sight takes its space without being laid out again.
    heights: Vec<f32>,
}

impl LogCache {
    /// Takes the log told again, keeping the heights of the lines that did not change
    /// (a new action only adds lines at the end).
    fn replace(&mut self, lines: Vec<LogLine>) {
        let heights = lines
            .iter()
            .enumerate()
            .map(|(i, line)| match (self.lines.get(i), self.heights.get(i)) {
                (Some(old), Some(&h)) if old == line => h,
                _ => f32::NAN,
            })
            .collect();
        self.lines = lines;
        self.heights = heights;
    }

    /// Tells the log again when the match or the viewer changed (or it is empty).
    fn refresh<G: GameClient>(&mut self, session: &Session<G>) {
        let key = (session.generation, session.revision, session.viewer);
        if self.key != key || self.lines.is_empty() {
            self.replace(session.log());
            self.key = key;
        }
    }
}

fn draw_frame<G: GameClient>(
    mut contexts: EguiContexts,
    session: Res<Session<G>>,
    legal: Res<Legal<G>>,
    busy: Res<Busy>,
    time: Res<Time>,
    mut panels: ResMut<Panels>,
    mut orders: MessageWriter<PanelOrder<G>>,
    mut skips: MessageWriter<SkipAnimations>,
    mut clicked: MessageWriter<LogClicked>,
    mut edits: MessageWriter<EditTheGame>,
    mut next: ResMut<NextState<Screen>>,
    mut log: Local<LogCache>,
    (mut reference, mut in_force): (
        ResMut<crate::client::frame::rules_ref::RulesReference>,
        ResMut<crate::client::frame::rules_ref::SwitchesInForce>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let state = session.state();
    let animating = busy.busy(time.elapsed_secs());
    refresh_switches(&session, &mut in_force);

    if let Some(p) = session.pass_to {
        privacy_screen(ctx, &state.player_name(p), p, &mut orders);
        return Ok(());
    }

    banner_window(
        ctx,
        &session,
        animating,
        &mut panels,
        &mut orders,
        &mut skips,
        &mut next,
    );
    // Read before written, so that an idle frame leaves the panels unchanged.
    if panels.edit {
        panels.edit = false;
        edits.write(EditTheGame);
    }

    log.refresh(&session);
    seats_and_log_window(
        ctx,
        &session,
        &mut log,
        &mut orders,
        &mut clicked,
        &mut reference,
    );

    if session.replay.is_some() {
        egui::Window::new("timeline")
            .title_bar(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_BOTTOM, [-170.0, -6.0])
            .show(ctx, |ui| timeline(ui, &session, &mut orders));
    } else if !G::OWN_CONTROLS {
        orders_window(ctx, &session, &legal, animating, &mut panels, &mut orders);
    }

    if panels.history {
        history(ctx, &session, &mut panels, &mut orders);
    }
    if let Some(outcome) = state.outcome() {
        if !animating && session.replay.is_none() && !panels.hide_end {
            end_window(ctx, &session, &outcome, &mut panels, &mut orders, &mut next);
        }
    } else if panels.hide_end {
        panels.hide_end = false;
    }
    Ok(())
}

/// Takes the rule switches in force of the game open when the game or its generation
/// changed (only then, so that an idle frame leaves them unchanged).
fn refresh_switches<G: GameClient>(
    session: &Session<G>,
    in_force: &mut ResMut<crate::client::frame::rules_ref::SwitchesInForce>,
) {
    if in_force.game != Some(G::KIND) || in_force.generation != session.generation {
        **in_force =
            crate::client::frame::rules_ref::SwitchesInForce::of::<G>(&session.seated.setup);
        in_force.generation = session.generation;
    }
}

/// The banner's window at the top: narrower where the window leaves no room beside the log.
fn banner_window<G: GameClient>(
    ctx: &egui::Context,
    session: &Session<G>,
    animating: bool,
    panels: &mut ResMut<Panels>,
    orders: &mut MessageWriter<PanelOrder<G>>,
    skips: &mut MessageWriter<SkipAnimations>,
    next: &mut ResMut<NextState<Screen>>,
) {
    // Narrower where the window leaves no room beside the log (a large interface scale).
    let screen = ctx.content_rect().width();
    let width = (screen - 2.0 * 360.0).clamp(300.0, 520.0);
    let shift = 20.0_f32.min(screen / 2.0 - 345.0 - width / 2.0);
    egui::Window::new("banner")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [shift, 4.0])
        .min_width(width)
        .max_width(width)
        .show(ctx, |ui| {
            banner(ui, session, animating, panels, orders, skips, next);
        });
}

/// The window of the seats and the log, on the right.
fn seats_and_log_window<G: GameClient>(
    ctx: &egui::Context,
    session: &Session<G>,
    log: &mut LogCache,
    orders: &mut MessageWriter<PanelOrder<G>>,
    clicked: &mut MessageWriter<LogClicked>,
    reference: &mut crate::client::frame::rules_ref::RulesReference,
) {
    let state = session.state();
    egui::Window::new("Seats and log")
        .resizable(false)
        .collapsible(true)
        .anchor(egui::Align2::RIGHT_TOP, [-6.0, 6.0])
        .fixed_size([330.0, 470.0])
        .show(ctx, |ui| {
            ui.heading("Seats");
            seats(ui, session, orders);
            ui.separator();
            ui.horizontal(|ui| {
                ui.heading("Log");
                if let Some(v) = session.viewer.filter(|_| state.holds_secrets()) {
                    ui.label(
                        egui::RichText::new(format!("as {} may read it", state.player_name(v)))
                            .weak(),
                    );
                }
            });
            log_lines(ui, session, log, orders, clicked, reference);
        });
}

/// The orders window at the bottom (games without controls of their own), foldable.
fn orders_window<G: GameClient>(
    ctx: &egui::Context,
    session: &Session<G>,
    legal: &Legal<G>,
    animating: bool,
    panels: &mut ResMut<Panels>,
    orders: &mut MessageWriter<PanelOrder<G>>,
) {
    let state = session.state();
    egui::Window::new("orders")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, [-170.0, -6.0])
        .max_width(900.0)
        .show(ctx, |ui| {
            if panels.bar_folded {
                ui.horizontal(|ui| {
                    if fold_button(ui, panels.bar_folded, "the orders") {
                        panels.bar_folded = !panels.bar_folded;
                    }
                    ui.label(egui::RichText::new("Orders").weak());
                });
                return;
            }
            if fold_button(ui, panels.bar_folded, "the orders") {
                panels.bar_folded = !panels.bar_folded;
            }
            // A spectator of a game held elsewhere holds stand-ins for every secret:
            // nobody's hand is shown to it.
            if session.link.as_ref().is_none_or(|l| l.seat().is_some()) {
                state.seat_panel(ui, session.viewer);
            }
            order_panel(ui, session, legal, animating, orders);
        });
}

fn banner<G: GameClient>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    animating: bool,
    panels: &mut ResMut<Panels>,
    orders: &mut MessageWriter<PanelOrder<G>>,
    skips: &mut MessageWriter<SkipAnimations>,
    next: &mut NextState<Screen>,
) {
    if panels.banner_folded {
        let (text, color) = status_line(session);
        ui.horizontal(|ui| {
            if fold_button(ui, panels.banner_folded, "the banner") {
                panels.banner_folded = !panels.banner_folded;
            }
            ui.label(egui::RichText::new(text).strong().color(color));
        });
        return;
    }
    ui.horizontal_wrapped(|ui| {
        if fold_button(ui, panels.banner_folded, "the banner") {
            panels.banner_folded = !panels.banner_folded;
        }
        if ui
            .button("☰ Menu")
            .on_hover_text("Back to the main menu: the game is autosaved after every action")
            .clicked()
        {
            next.set(Screen::Menu);
        }
        let save_tip = if session.link.is_some() {
            "Save your seat's own copy to your saves folder: every state your seat was shown, to step through later (the host keeps the whole record) (Ctrl+S)"
        } else {
            "Save the game to your saves folder as a record that replays exactly (Ctrl+S)"
        };
        if !session.is_seat_copy() && ui.button("Save").on_hover_text(save_tip).clicked() {
            orders.write(PanelOrder(Order::Save(None)));
        }
        if session.replay.is_none() {
            play_buttons(ui, session, panels, orders);
        } else {
            replay_buttons(ui, orders, session.is_seat_copy());
        }
        tool_buttons(ui, session, animating, panels, skips);
    });
    banner_title(ui, session);
}

/// The banner's buttons while playing: Undo, Playtest and History.
fn play_buttons<G: GameClient>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    panels: &mut ResMut<Panels>,
    orders: &mut MessageWriter<PanelOrder<G>>,
) {
    if let Some(link) = &session.link {
        let mine = link.remote.mirror.own_actions > 0;
        if ui
            .add_enabled(mine && link.lost.is_none(), egui::Button::new("Ask to undo (U)"))
            .on_hover_text("Ask the other players to let you take back your last action; a roll or a card already seen is never taken back")
            .on_disabled_hover_text("Nothing of yours to take back yet")
            .clicked()
        {
            orders.write(PanelOrder(Order::Undo));
        }
        return;
    }
    let can = session.can_undo();
    if ui
        .add_enabled(can.is_ok(), egui::Button::new("Undo (U)"))
        .on_hover_text(
            "Take back the last person's action and the bots' answers; the dice rewind too",
        )
        .on_disabled_hover_text(can.err().map(|e| e.to_string()).unwrap_or_default())
        .clicked()
    {
        orders.write(PanelOrder(Order::Undo));
    }
    let mut playtest = session.playtest;
    if ui
        .checkbox(&mut playtest, "Playtest")
        .on_hover_text("Playtest mode: any action may be taken back, dice included, and the History lists them all")
        .changed()
    {
        orders.write(PanelOrder(Order::Playtest(playtest)));
    }
    let back = session.can_go_back();
    if ui
        .add_enabled(back.is_ok(), egui::Button::new("History…"))
        .on_hover_text("Go back to any earlier action")
        .on_disabled_hover_text(back.err().map(|e| e.to_string()).unwrap_or_default())
        .clicked()
    {
        panels.history = !panels.history;
    }
}

/// The banner's buttons in a replay: its mark and Branch here.
fn replay_buttons<G: GameClient>(
    ui: &mut egui::Ui,
    orders: &mut MessageWriter<PanelOrder<G>>,
    seat_copy: bool,
) {
    ui.label(
        egui::RichText::new(if seat_copy { "SEAT'S COPY" } else { "REPLAY" })
            .strong()
            .color(theme::EMPHASIS),
    )
    .on_hover_text(if seat_copy {
        "What your seat was shown of a game played across machines: the others' secrets stay hidden, and it cannot be played on"
    } else {
        "A saved game, stepped through"
    });
    if !seat_copy
        && ui
        .button("Branch here")
        .on_hover_text("A new game from this moment, for people or bots: the record you opened is kept as it is")
        .clicked()
    {
        orders.write(PanelOrder(Order::TakeOver));
    }
}

/// The banner's tools: What if, Lab, Edit scenario and Skip animation.
fn tool_buttons<G: GameClient>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    animating: bool,
    panels: &mut ResMut<Panels>,
    skips: &mut MessageWriter<SkipAnimations>,
) {
    if ui
        .button("What if…")
        .on_hover_text("Simulate from here: each side's chance to win over many bot continuations, and after each candidate action")
        .clicked()
    {
        panels.whatif = !panels.whatif;
    }
    if ui
        .button("Lab…")
        .on_hover_text("The playtest lab on this game's setup: change its rules and see their effect over thousands of games")
        .clicked()
    {
        panels.lab = true;
    }
    if edit_button(ui, session) {
        panels.edit = true;
    }
    if animating && ui.button("Skip animation").on_hover_text("Space").clicked() {
        skips.write(SkipAnimations);
    }
}

/// Who `p` waits for when nobody at this screen decides: a bot, or a player on another
/// machine.
fn deciding_elsewhere<G: GameClient>(session: &Session<G>, p: PlayerId) -> String {
    let name = session.state().player_name(p);
    match session.seats.get(p.index()) {
        Some(Seat::Remote(who)) if *who == name => format!("Waiting for {who}…"),
        Some(Seat::Remote(who)) => format!("Waiting for {who} ({name})…"),
        _ => format!("{name} (a bot) is deciding…"),
    }
}

/// The banner's game and scenario, its goal, and the status line.
fn banner_title<G: GameClient>(ui: &mut egui::Ui, session: &Session<G>) {
    let (title, description) = G::setup_title(&session.setup);
    let title = session.title.clone().unwrap_or(title);
    ui.horizontal_wrapped(|ui| {
        ui.label(
            egui::RichText::new(G::KIND.title())
                .strong()
                .color(theme::TITLE),
        );
        let seed = if session.link.is_some() {
            "across machines: the host holds the dice".to_string()
        } else if session.is_seat_copy() {
            "played across machines: the host kept the dice".to_string()
        } else {
            format!("seed {}", session.seed)
        };
        ui.label(egui::RichText::new(format!("{title} · {seed}")).weak())
            .on_hover_text(&session.source);
    });
    // The goal of the scenario stays in sight: a mission is won by it, not by kills alone.
    if !description.is_empty() {
        ui.add(egui::Label::new(egui::RichText::new(description).italics()).wrap());
    }
    let (text, color) = status_line(session);
    ui.vertical_centered(|ui| {
        ui.label(egui::RichText::new(text).size(18.0).strong().color(color));
        if let Some(n) = &session.notice {
            ui.colored_label(theme::WARN, n);
        }
    });
}

/// Edit scenario…: the setup in the editor while the game waits (Tank Commander and Tank Chess).
fn edit_button<G: GameClient>(ui: &mut egui::Ui, session: &Session<G>) -> bool {
    if !matches!(G::KIND, GameKind::TankCommander | GameKind::TankChess) || session.replay.is_some()
    {
        return false;
    }
    let from_file = session.path.is_some();
    ui.add_enabled(from_file, egui::Button::new("Edit scenario…"))
        .on_hover_text(
            "Open this scenario in the editor while the game waits; coming back, the game takes up the saved change and keeps the actions that still play on it",
        )
        .on_disabled_hover_text(
            "This game was not opened from a scenario file (open one from the menu to edit it while playing)",
        )
        .clicked()
}

/// Whose decision it is and what to do, or how the game ended.
fn status_line<G: GameClient>(session: &Session<G>) -> (String, egui::Color32) {
    let state = session.state();
    if let Some(o) = state.outcome() {
        let who = match o.winners.as_slice() {
            [] => "No one wins".to_string(),
            ws => {
                ws.iter()
                    .map(|w| state.player_name(*w))
                    .collect::<Vec<_>>()
                    .join(" and ")
                    + " won"
            }
        };
        return (format!("{who}: {}", o.reason), theme::EMPHASIS);
    }
    if let Some(r) = &session.replay {
        let whose = if r.seen.is_some() {
            "Your seat's own copy"
        } else {
            "Replay"
        };
        return (
            format!(
                "{whose} at action {} of {}: use the timeline, or click a line of the log",
                session.shown(),
                r.len()
            ),
            theme::REPLAY_STATUS,
        );
    }
    if let Some(held) = &session.held {
        return (held.why.clone(), theme::TEXT_BRIGHT);
    }
    let to_act = state.to_act();
    let color = to_act
        .first()
        .map_or(theme::TEXT_BRIGHT, |p| theme::seat_color(*p));
    let text = match (session.deciding(), to_act.as_slice()) {
        (_, []) => "Nobody may act".to_string(),
        (Some(p), _) => match state.prompt(p) {
            Some(what) => format!("{} to act: {what}", state.player_name(p)),
            None => format!("{}, your decision", state.player_name(p)),
        },
        (None, [p]) => deciding_elsewhere(session, *p),
        (None, many) => format!(
            "Waiting for {}",
            many.iter()
                .map(|p| state.player_name(*p))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    (text, color)
}

fn seats<G: GameClient>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    orders: &mut MessageWriter<PanelOrder<G>>,
) {
    let state = session.state();
    let to_act = state.to_act();
    for (i, seat) in session.seats.iter().enumerate() {
        let Ok(index) = u8::try_from(i) else { continue };
        let p = PlayerId(index);
        ui.horizontal(|ui| {
            let marker = if to_act.contains(&p) { "▶" } else { " " };
            ui.label(
                egui::RichText::new(format!(
                    "{marker} {} {}",
                    seat_mark(p),
                    state.player_name(p)
                ))
                .strong()
                .color(theme::seat_color(p)),
            );
            if session.link.is_some() || session.is_seat_copy() {
                // Across machines the host seats the players and the bots.
                ui.label(if seat.is_person() {
                    "you".to_string()
                } else {
                    seat.to_string()
                });
                return;
            }
            let combo = egui::ComboBox::from_id_salt(("seat", i))
                .selected_text(seat.to_string())
                .width(120.0)
                .show_ui(ui, |ui| {
                    if ui.selectable_label(seat.is_person(), "person").clicked() {
                        orders.write(PanelOrder(Order::Sit(p, Seat::Person)));
                    }
                    for name in G::bot_names() {
                        let on = matches!(seat, Seat::Bot(n) if n == name);
                        if ui
                            .selectable_label(on, format!("{name} bot"))
                            .on_hover_text(G::bot_about(name))
                            .clicked()
                        {
                            orders.write(PanelOrder(Order::Sit(p, Seat::Bot((*name).to_string()))));
                        }
                    }
                })
                .response;
            // Read out by a screen reader with whose seat it is.
            let label = format!("{}'s seat: {seat}", state.player_name(p));
            combo.widget_info(|| {
                egui::WidgetInfo::labeled(egui::WidgetType::ComboBox, true, &label)
            });
            combo.on_hover_text("A person at this computer, or a bot; change it at any time");
        });
    }
}

fn log_lines<G: GameClient>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    log: &mut LogCache,
    orders: &mut MessageWriter<PanelOrder<G>>,
    clicked: &mut MessageWriter<LogClicked>,
    reference: &mut crate::client::frame::rules_ref::RulesReference,
) {
    let history = session.game.history();
    let at = session.shown();
    let replay = session.replay.is_some();
    ui.label(
        egui::RichText::new(if replay {
            "Click a line to jump there."
        } else {
            "Click a line to pick out what it is about."
        })
        .weak()
        .small(),
    );
    let LogCache { lines, heights, .. } = log;
    egui::ScrollArea::vertical()
        .stick_to_bottom(!replay)
        .auto_shrink([false, false])
        .show_viewport(ui, |ui, viewport| {
            // Only the lines in sight are laid out: a long game's log would otherwise
            // cost more every action. The others take the height they had.
            let top = ui.min_rect().top();
            for (i, (line, height)) in lines.iter().zip(heights.iter_mut()).enumerate() {
                let y = ui.cursor().top() - top;
                if height.is_finite() && (y + *height < viewport.top() || y > viewport.bottom()) {
                    ui.allocate_space(egui::vec2(ui.available_width(), *height));
                    continue;
                }
                let mut text = if line.fact.is_none() {
                    egui::RichText::new(&line.text).strong().size(13.0)
                } else {
                    egui::RichText::new(&line.text).size(12.5)
                };
                if replay && line.step.is_some_and(|s| s >= at) {
                    text = text.weak();
                }
                let indent = if line.fact.is_some() && line.step.is_some() {
                    10.0
                } else {
                    0.0
                };
                // The rule the line's fact applied, linked to the rules reference.
                let rule = match (line.step, line.fact) {
                    (Some(step), Some(fact)) => history.get(step).and_then(|s| s.facts.get(fact)),
                    (None, Some(fact)) => session.game.opening_facts().get(fact),
                    _ => None,
                }
                .and_then(|fact| session.state().fact_rule(fact))
                .or_else(|| session.link.as_ref().and_then(|l| l.rule_of_line(i)))
                .or_else(|| {
                    let seen = session.replay.as_ref()?.seen.as_ref()?;
                    rule_of::<G>(seen.rules.get(i)?.as_deref()?)
                });
                let row = ui.horizontal(|ui| {
                    ui.add_space(indent);
                    if let Some(id) = rule {
                        crate::client::frame::rules_ref::rule_link(ui, reference, G::KIND, id);
                    }
                    ui.add(egui::Label::new(text).wrap().sense(egui::Sense::click()))
                });
                *height = row.response.rect.height();
                let r = row.inner;
                if r.clicked() {
                    if replay {
                        orders.write(PanelOrder(Order::Seek(line.step.map_or(0, |s| s + 1))));
                    }
                    clicked.write(LogClicked {
                        step: line.step,
                        fact: line.fact,
                    });
                }
            }
        });
}

/// The buttons of the person deciding (the game's own controls draw themselves).
fn order_panel<G: GameClient>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    legal: &Legal<G>,
    animating: bool,
    orders: &mut MessageWriter<PanelOrder<G>>,
) {
    let state = session.state();
    let Some(player) = person_deciding(ui, session, animating, orders) else {
        return;
    };
    ui.label(
        egui::RichText::new(format!("{}, your decision:", state.player_name(player)))
            .strong()
            .color(theme::seat_color(player)),
    );
    let mut groups: Vec<(String, Vec<&(G::Action, Option<Refused>)>)> = Vec::new();
    for b in &legal.buttons {
        let g = state.action_group(&b.0);
        match groups.iter_mut().find(|(name, _)| *name == g) {
            Some((_, list)) => list.push(b),
            None => groups.push((g, vec![b])),
        }
    }
    egui::ScrollArea::vertical()
        .max_height(210.0)
        .show(ui, |ui| {
            for (group, buttons) in groups {
                ui.horizontal_wrapped(|ui| {
                    if !group.is_empty() {
                        ui.label(egui::RichText::new(format!("{group}:")).weak());
                    }
                    for (action, why) in buttons {
                        if action_button(ui, state, action, why.as_ref()) {
                            orders.write(PanelOrder(Order::Play(player, action.clone())));
                        }
                    }
                });
            }
        });
}

/// The person deciding when one may act now; otherwise what the orders panel shows
/// instead (the held game's button, the end, the bots deciding, an animation), if anything.
fn person_deciding<G: GameClient>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    animating: bool,
    orders: &mut MessageWriter<PanelOrder<G>>,
) -> Option<PlayerId> {
    let state = session.state();
    if let Some(held) = &session.held {
        if session.interactive
            && ui
                .add(egui::Button::new(
                    egui::RichText::new(&held.button).strong(),
                ))
                .on_hover_text(format!("{} (Enter)", held.why))
                .clicked()
        {
            orders.write(PanelOrder(Order::Begin));
        }
        return None;
    }
    if state.outcome().is_some() {
        ui.label("The game is over.");
        return None;
    }
    let Some(player) = session.deciding() else {
        let waiting = state.to_act();
        ui.label(match waiting.as_slice() {
            [one] => deciding_elsewhere(session, *one),
            many => format!(
                "Waiting for {}",
                many.iter()
                    .map(|p| state.player_name(*p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
        return None;
    };
    if animating {
        ui.label("…");
        return None;
    }
    if !session.interactive {
        return None;
    }
    Some(player)
}

/// One action's button, refused ones greyed with why (and a link to the rule): whether
/// it was clicked.
fn action_button<G: GameClient>(
    ui: &mut egui::Ui,
    state: &G,
    action: &G::Action,
    why: Option<&Refused>,
) -> bool {
    let b = ui.add_enabled(
        why.is_none(),
        egui::Button::new(state.describe_action(action)),
    );
    let b = match state.action_hint(action) {
        Some(h) => b.on_hover_text(h),
        None => b,
    };
    let rule = why.and_then(|r| r.rule);
    let why = why.map(|r| &r.why);
    let b = match (why, rule) {
        (Some(why), Some(id)) => {
            let link = crate::client::frame::rules_ref::refusal_link(ui, &b, G::KIND, id);
            b.on_disabled_hover_text(format!("Not now: {why}\n{link}"))
        }
        (Some(why), None) => b.on_disabled_hover_text(format!("Not now: {why}")),
        (None, _) => b,
    };
    b.clicked()
}

fn timeline<G: GameClient>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    orders: &mut MessageWriter<PanelOrder<G>>,
) {
    let at = session.shown();
    let len = session.replay.as_ref().map_or(0, |r| r.len());
    ui.horizontal(|ui| {
        if ui.button("|◀").on_hover_text("The start").clicked() {
            orders.write(PanelOrder(Order::Seek(0)));
        }
        if ui
            .button("◀ (,)")
            .on_hover_text("One action back")
            .clicked()
        {
            orders.write(PanelOrder(Order::Seek(at.saturating_sub(1))));
        }
        if ui.button("(.) ▶").on_hover_text("One action on").clicked() {
            orders.write(PanelOrder(Order::Seek(at + 1)));
        }
        if ui.button("▶|").on_hover_text("The end").clicked() {
            orders.write(PanelOrder(Order::Seek(len)));
        }
        let mut to = at;
        ui.spacing_mut().slider_width = 360.0;
        if ui
            .add(egui::Slider::new(&mut to, 0..=len).text(format!("of {len} actions")))
            .changed()
        {
            orders.write(PanelOrder(Order::Seek(to)));
        }
    });
    let state = session.state();
    let last = at.checked_sub(1);
    ui.label(match last.and_then(|i| session.game.history().get(i)) {
        Some(step) => format!(
            "last: {}: {}",
            state.player_name(step.player),
            step.describe()
        ),
        // A seat's copy has no actions, only its log: the line that names the last.
        None => last
            .and_then(|i| {
                let r = session.replay.as_ref()?;
                r.log.iter().find(|l| l.step == Some(i) && l.fact.is_none())
            })
            .map_or_else(|| "the start".into(), |l| format!("last: {}", l.text)),
    });
}

fn history<G: GameClient>(
    ctx: &egui::Context,
    session: &Session<G>,
    panels: &mut ResMut<Panels>,
    orders: &mut MessageWriter<PanelOrder<G>>,
) {
    let state = session.state();
    let mut open = true;
    egui::Window::new("History (playtest)")
        .open(&mut open)
        .default_width(340.0)
        .anchor(egui::Align2::LEFT_CENTER, [8.0, 0.0])
        .show(ctx, |ui| {
            if let Err(why) = session.can_go_back() {
                ui.label(egui::RichText::new(why.to_string()).color(theme::WARN));
                return;
            }
            ui.label("Go back to just before any action; its dice are taken back too.");
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for (i, step) in session.game.history().iter().enumerate().rev() {
                        ui.horizontal(|ui| {
                            if ui.small_button("back to here").clicked() {
                                orders.write(PanelOrder(Order::GoBack(i)));
                            }
                            if ui
                                .small_button("branch here")
                                .on_hover_text("Keep the game as it is now in your saves, and play on from just before this action")
                                .clicked()
                            {
                                orders.write(PanelOrder(Order::Branch(i)));
                            }
                            ui.label(format!(
                                "{}. {}: {}",
                                i + 1,
                                state.player_name(step.player),
                                step.describe()
                            ));
                        });
                    }
                });
        });
    if !open {
        panels.history = false;
    }
}

fn end_window<G: GameClient>(
    ctx: &egui::Context,
    session: &Session<G>,
    outcome: &crate::framework::Outcome,
    panels: &mut ResMut<Panels>,
    orders: &mut MessageWriter<PanelOrder<G>>,
    next: &mut NextState<Screen>,
) {
    let state = session.state();
    egui::Window::new("The end")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [-20.0, 40.0])
        .show(ctx, |ui| {
            let title = match outcome.winners.as_slice() {
                [] => "No one wins".to_string(),
                [w] => format!("{} wins!", state.player_name(*w)),
                many => format!(
                    "{} win!",
                    many.iter()
                        .map(|w| state.player_name(*w))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            };
            ui.vertical_centered(|ui| {
                ui.heading(egui::RichText::new(title).size(28.0).color(theme::EMPHASIS));
                ui.label(&outcome.reason);
                ui.label(
                    egui::RichText::new(format!(
                        "{} actions, {} rounds · final state {}",
                        session.game.history().len(),
                        state.rounds(),
                        session.hash_text()
                    ))
                    .weak(),
                );
            });
            G::end_summary(session, ui);
            ui.separator();
            ui.horizontal(|ui| {
                if ui
                    .button("Rematch")
                    .on_hover_text("The same setup and seats, new dice")
                    .clicked()
                {
                    orders.write(PanelOrder(Order::Rematch));
                }
                if ui
                    .button("Save replay")
                    .on_hover_text("Save the record; open it later from the menu as a replay")
                    .clicked()
                {
                    orders.write(PanelOrder(Order::Save(None)));
                }
                if ui.button("Look at the table").clicked() {
                    panels.hide_end = true;
                }
                if ui.button("Main menu").clicked() {
                    next.set(Screen::Menu);
                }
            });
        });
}

fn privacy_screen<G: GameClient>(
    ctx: &egui::Context,
    name: &str,
    player: PlayerId,
    orders: &mut MessageWriter<PanelOrder<G>>,
) {
    let screen = ctx.content_rect();
    egui::Area::new(egui::Id::new("privacy screen"))
        .fixed_pos(screen.min)
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            ui.set_min_size(screen.size());
            ui.painter().rect_filled(screen, 0.0, theme::PRIVACY_SCREEN);
            ui.vertical_centered(|ui| {
                ui.set_width(screen.width());
                ui.add_space(screen.height() * 0.3);
                ui.label(
                    egui::RichText::new(format!("Pass to {name}"))
                        .size(40.0)
                        .strong()
                        .color(theme::seat_color(player)),
                );
                ui.add_space(8.0);
                ui.label(
                    egui::RichText::new(
                        "The table is hidden so that nobody sees another player's secrets.",
                    )
                    .size(16.0),
                );
                ui.add_space(18.0);
                if ui
                    .button(egui::RichText::new(format!("I am {name}: show my screen")).size(20.0))
                    .clicked()
                {
                    orders.write(PanelOrder(Order::Reveal));
                }
            });
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(step: usize, text: &str) -> LogLine {
        LogLine {
            step: Some(step),
            fact: None,
            text: text.into(),
        }
    }

    #[test]
    fn a_told_again_log_keeps_the_heights_of_the_lines_that_did_not_change() {
        let mut log = LogCache::default();
        log.replace(vec![line(0, "Ann rolls"), line(1, "Bob rolls")]);
        assert!(log.heights.iter().all(|h| h.is_nan()), "not laid out yet");
        log.heights = vec![18.0, 36.0];
        // A new action adds a line; a viewer change rewrites one.
        log.replace(vec![
            line(0, "Ann rolls"),
            line(1, "Bob rolls a 6"),
            line(2, "Cat rolls"),
        ]);
        assert_eq!(log.heights[0], 18.0);
        assert!(log.heights[1].is_nan() && log.heights[2].is_nan());
    }
}
