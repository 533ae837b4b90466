//! Draws the highlights on the table: reachable hexes with their action-point cost, the
//! turret arc within gun range, valid targets with their exact odds, the line of sight to
//! the hovered unit (green when clear; red up to the blocking hex, which is crossed out),
//! the hovered hex, the selected and log-picked units, and every unit's name and state.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::hex_to_world;
use super::highlights::{Highlights, Hovered, Selection};
use super::mirror::Unit;
use super::units::Shown;
use crate::client::core::session::Session;
use crate::client::core::{ClientSystems, GameScreen};
use crate::client::frame::hud::label_box;
use crate::client::table::strokes::Strokes;
use crate::client::table::theme::{self, side_color};
use crate::rules::tank_commander::TankCommander;
use crate::rules::tank_commander::Terrain;
use crate::rules::tank_commander::state::Status;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_strokes.in_set(ClientSystems::Scene).run_if(
            in_state(GameScreen::TankCommander)
                .and_then(resource_exists::<Session<TankCommander>>)
                .and_then(not(resource_exists::<crate::client::core::Clean>)),
        ),
    )
    .add_systems(
        EguiPrimaryContextPass,
        draw_labels
            .in_set(crate::client::core::HudSystems::Game)
            .run_if(
                in_state(GameScreen::TankCommander)
                    .and_then(resource_exists::<Session<TankCommander>>)
                    .and_then(not(resource_exists::<crate::client::core::Clean>)),
            ),
    );
}

/// Height of a hex's top surface.
fn top(table: &Session<TankCommander>, hex: hexx::Hex) -> f32 {
    if table.state().terrain(hex) == Terrain::Hill {
        0.42
    } else {
        0.12
    }
}

fn hexagon(strokes: &mut Strokes, centre: Vec3, radius: f32, color: Color) {
    let corners = (0..=6).map(|i| {
        let a = std::f32::consts::FRAC_PI_3 * i as f32;
        centre + Vec3::new(radius * a.cos(), 0.0, radius * a.sin())
    });
    strokes.linestrip(corners, color);
}

/// Draws the highlights on the table: rings, marks and the line of sight.
fn draw_strokes(
    mut strokes: ResMut<Strokes>,
    table: Res<Session<TankCommander>>,
    highlights: Res<Highlights>,
    selection: Res<Selection>,
    hovered: Res<Hovered>,
    cursor: Res<super::input::KeyCursor>,
) {
    let lift = |hex: hexx::Hex| hex_to_world(hex) + Vec3::Y * (top(&table, hex) + 0.02);
    hex_rings(&mut strokes, &lift, &highlights, &hovered, &cursor);
    let battle = table.state();
    unit_rings(&mut strokes, &lift, battle, &selection);
    mine_marks(&mut strokes, &lift, &table);
    air_strike_marks(&mut strokes, &lift, battle);
    if let Some(sight) = &highlights.sight {
        sight_line(&mut strokes, &lift, &table, sight);
    }
}

/// Rings the turret arc, the reachable hexes, the targets, the hovered hex and the
/// keyboard's cursor.
fn hex_rings(
    strokes: &mut Strokes,
    lift: &impl Fn(hexx::Hex) -> Vec3,
    highlights: &Highlights,
    hovered: &Hovered,
    cursor: &super::input::KeyCursor,
) {
    for hex in &highlights.arc {
        hexagon(strokes, lift(*hex), 0.8, theme::ARC);
    }
    for route in &highlights.routes {
        hexagon(strokes, lift(route.to), 0.88, theme::REACH);
    }
    for target in &highlights.targets {
        let c = lift(target.at);
        hexagon(strokes, c, 0.9, theme::TARGET);
        hexagon(strokes, c, 0.84, theme::TARGET);
    }
    if let Some(hex) = hovered.0 {
        hexagon(strokes, lift(hex), 0.93, theme::HOVERED);
    }
    // The keyboard's cursor: a second, golden ring around the hex it stands for.
    if let Some(hex) = cursor.0 {
        for r in [0.97, 1.0] {
            hexagon(strokes, lift(hex), r, theme::KEY_CURSOR);
        }
    }
}

/// Circles the selected unit, the aimed-at unit and the units picked in the log.
fn unit_rings(
    strokes: &mut Strokes,
    lift: &impl Fn(hexx::Hex) -> Vec3,
    battle: &TankCommander,
    selection: &Selection,
) {
    if let Some(unit) = selection.unit {
        let c = lift(battle.unit(unit).at);
        strokes.circle(c, 0.75, theme::SELECTED);
    }
    if let Some(unit) = selection.aim {
        let c = lift(battle.unit(unit).at);
        strokes.circle(c, 0.7, theme::AIM);
    }
    for unit in &selection.focus {
        let c = lift(battle.unit(*unit).at);
        for r in [0.6, 0.7, 0.8] {
            strokes.circle(c, r, theme::FOCUS);
        }
    }
}

/// Mines the seat at the screen knows of: an orange ring with a cross.
fn mine_marks(
    strokes: &mut Strokes,
    lift: &impl Fn(hexx::Hex) -> Vec3,
    table: &Session<TankCommander>,
) {
    for mine in &super::shown_mines(table) {
        let c = lift(mine.at) + Vec3::Y * 0.03;
        let orange = theme::MINE_MARK;
        strokes.circle(c, 0.35, orange);
        strokes.line(
            c + Vec3::new(-0.25, 0.0, 0.0),
            c + Vec3::new(0.25, 0.0, 0.0),
            orange,
        );
        strokes.line(
            c + Vec3::new(0.0, 0.0, -0.25),
            c + Vec3::new(0.0, 0.0, 0.25),
            orange,
        );
    }
}

/// Air strike marks: a red target, and every hex its scatter can reach, fainter the
/// less likely.
fn air_strike_marks(
    strokes: &mut Strokes,
    lift: &impl Fn(hexx::Hex) -> Vec3,
    battle: &TankCommander,
) {
    for strike in battle.air_strikes() {
        let c = lift(strike.at) + Vec3::Y * 0.04;
        let red = theme::AIR_STRIKE;
        for r in [0.3, 0.55, 0.8] {
            strokes.circle(c, r, red);
        }
        strokes.line(
            c + Vec3::new(-0.9, 0.0, 0.0),
            c + Vec3::new(0.9, 0.0, 0.0),
            red,
        );
        strokes.line(
            c + Vec3::new(0.0, 0.0, -0.9),
            c + Vec3::new(0.0, 0.0, 0.9),
            red,
        );
        for (hex, p) in battle.air_strike_reach(strike.at).into_iter().skip(1) {
            #[allow(clippy::cast_possible_truncation, reason = "a chance")]
            let alpha = 0.15 + p.to_f64() as f32 * 3.0;
            hexagon(
                strokes,
                lift(hex),
                0.6,
                theme::AIR_STRIKE_SCATTER.with_alpha(alpha.min(0.8)),
            );
        }
    }
}

/// The line of sight to the hovered unit: green when clear; red up to the blocking hex,
/// which is crossed out, then faint.
fn sight_line(
    strokes: &mut Strokes,
    lift: &impl Fn(hexx::Hex) -> Vec3,
    table: &Session<TankCommander>,
    sight: &super::highlights::Sight,
) {
    let eye = |hex| hex_to_world(hex) + Vec3::Y * (top(table, hex) + 0.6);
    let (from, to) = (eye(sight.from), eye(sight.to));
    match &sight.blocked {
        None => {
            strokes.line(from, to, theme::SIGHT_CLEAR);
        }
        Some((block, _)) => {
            let b = hex_to_world(*block);
            // Red up to the blocking hex, then faint.
            let along =
                (b - from).with_y(0.0).length() / (to - from).with_y(0.0).length().max(1e-3);
            let cut = from.lerp(to, along.clamp(0.0, 1.0));
            strokes.line(from, cut, theme::SIGHT_BLOCKED);
            strokes.line(cut, to, theme::SIGHT_BLOCKED_FAINT);
            let c = lift(*block) + Vec3::Y * 0.05;
            hexagon(strokes, c, 0.9, theme::SIGHT_BLOCKED);
            strokes.line(
                c + Vec3::new(-0.5, 0.0, -0.5),
                c + Vec3::new(0.5, 0.0, 0.5),
                theme::SIGHT_BLOCKED,
            );
            strokes.line(
                c + Vec3::new(-0.5, 0.0, 0.5),
                c + Vec3::new(0.5, 0.0, -0.5),
                theme::SIGHT_BLOCKED,
            );
        }
    }
}

/// What every label group needs: the panels' context, the painter of the table's labels,
/// the battle and the camera that puts the world on the screen.
struct LabelCtx<'a> {
    ctx: &'a egui::Context,
    painter: &'a egui::Painter,
    table: &'a Session<TankCommander>,
    camera: &'a Camera,
    eye: &'a GlobalTransform,
    /// The camera's pixels in the panels' points (the interface may be scaled).
    zoom: f32,
}

impl LabelCtx<'_> {
    /// Where `world` shows on the screen, in the panels' points.
    fn screen(&self, world: Vec3) -> Option<egui::Pos2> {
        self.camera
            .world_to_viewport(self.eye, world)
            .ok()
            .map(|p| egui::pos2(p.x / self.zoom, p.y / self.zoom))
    }

    /// One text on a dark plate: half the glyphs of a drop shadow, and it reads over any
    /// colour.
    fn plate(&self, pos: egui::Pos2, text: String, color: egui::Color32, size: f32) -> egui::Rect {
        label_box(
            self.painter,
            pos,
            egui::Align2::CENTER_CENTER,
            text,
            size,
            color,
        )
    }

    /// Height of a hex's top surface.
    fn top(&self, hex: hexx::Hex) -> f32 {
        top(self.table, hex)
    }
}

/// Names and states over the units, costs on reachable hexes, odds on targets.
fn draw_labels(
    mut contexts: EguiContexts,
    table: Res<Session<TankCommander>>,
    highlights: Res<Highlights>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
    shown: Query<(&Unit, &Shown)>,
    mut reference: ResMut<crate::client::frame::rules_ref::RulesReference>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The camera's pixels in the panels' points (the interface may be scaled).
    let zoom = ctx.zoom_factor();
    let (camera, eye) = *camera;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("table labels"),
    ));
    let lc = LabelCtx {
        ctx,
        painter: &painter,
        table: &table,
        camera,
        eye,
        zoom,
    };
    // The routes' costs stay on their hexes; the units' plates and the odds move off them.
    let mut placer = crate::client::frame::hud::Placer::default();
    route_costs(&lc, &highlights, &mut placer);
    unit_plates(&lc, &shown, &mut placer);
    flare_plates(&lc);
    area_plates(&lc);
    target_plate(&lc);
    air_strike_plates(&lc, &mut reference);
    odds_plates(&lc, &highlights, &mut placer, &mut reference);
    Ok(())
}

/// The action-point cost on each reachable hex.
fn route_costs(
    lc: &LabelCtx,
    highlights: &Highlights,
    placer: &mut crate::client::frame::hud::Placer,
) {
    for route in &highlights.routes {
        if let Some(p) = lc.screen(hex_to_world(route.to) + Vec3::Y * lc.top(route.to)) {
            let rect = lc.plate(p, format!("{} AP", route.cost), theme::ROUTE_COST, 12.0);
            placer.take(rect);
        }
    }
}

/// Each shown unit's name, with its state below, moved off the plates placed before.
fn unit_plates(
    lc: &LabelCtx,
    shown: &Query<(&Unit, &Shown)>,
    placer: &mut crate::client::frame::hud::Placer,
) {
    let battle = lc.table.state();
    // Say what the model shows: a knock-out is told once its effects have played.
    let mut models = vec![None; battle.units().len()];
    for (unit, shown) in shown {
        if let Some(slot) = models.get_mut(usize::from(unit.0.0)) {
            *slot = shown.0;
        }
    }
    for (u, model) in battle.units().iter().zip(models) {
        let Some(c) = model else {
            continue;
        };
        // Squads inside an APC are out of sight (its card lists them).
        if c.status == Status::Destroyed || c.inside {
            continue;
        }
        let Some(mut p) = lc.screen(hex_to_world(u.at) + Vec3::Y * (lc.top(u.at) + 1.35)) else {
            continue;
        };
        // A squad on a tank's deck gets its plate above the tank's.
        if c.riding {
            p -= egui::vec2(0.0, 17.0);
        }
        let [r, g, b, _] = side_color(u.side.0).to_srgba().to_u8_array();
        let color = egui::Color32::from_rgb(
            r.saturating_add(60),
            g.saturating_add(60),
            b.saturating_add(60),
        );
        // The name and the state as one block, moved off any plate placed before it
        // (units side by side, a squad beside a tank).
        let state = unit_state(&c);
        let title = format!(
            "{} {}",
            crate::client::frame::hud::seat_mark(u.side),
            u.name
        );
        let name = crate::client::frame::hud::label_size(lc.painter, &title, 13.0);
        let mut block = egui::Rect::from_center_size(p, name);
        if !state.is_empty() {
            let below = crate::client::frame::hud::label_size(lc.painter, &state, 11.0);
            block = block.union(egui::Rect::from_center_size(
                p + egui::vec2(0.0, 17.0),
                below,
            ));
        }
        let p = p + placer.place(block);
        lc.plate(p, title, color, 13.0);
        if !state.is_empty() {
            lc.plate(p + egui::vec2(0.0, 17.0), state, theme::UNIT_STATE, 11.0);
        }
    }
}

/// A unit's state under its name: knocked out or damaged, on fire, crew hurt.
fn unit_state(c: &super::mirror::Condition) -> String {
    let mut state = Vec::new();
    if c.status == Status::Disabled {
        state.push("KNOCKED OUT".to_string());
    } else if c.hull < c.max_hull {
        state.push(format!("damaged {}/{}", c.hull, c.max_hull));
    }
    if c.on_fire {
        state.push("ON FIRE".into());
    }
    let wounded = c.wounded_crew;
    if wounded > 0 {
        state.push(format!("{wounded} crew hurt"));
    }
    state.join(" · ")
}

/// Each flare burning at night.
fn flare_plates(lc: &LabelCtx) {
    let battle = lc.table.state();
    for &flare in battle.flares() {
        if let Some(p) = lc.screen(hex_to_world(flare) + Vec3::Y * (lc.top(flare) + 2.6)) {
            lc.plate(
                p - egui::vec2(0.0, 16.0),
                format!("✦ FLARE · lights {} and around", battle.label(flare)),
                theme::FLARE_LABEL,
                11.0,
            );
        }
    }
}

/// A Take Area mission's area: one plate over each connected patch of it.
fn area_plates(lc: &LabelCtx) {
    let battle = lc.table.state();
    if let Some((attacker, area)) = battle.goal_area() {
        for patch in patches(area) {
            let n = patch.len() as f32;
            let centre = patch
                .iter()
                .fold(Vec3::ZERO, |acc, h| acc + hex_to_world(*h) / n);
            if let Some(p) = lc.screen(centre + Vec3::Y * 0.3) {
                lc.plate(
                    p,
                    format!("{}: HOLD", battle.side_name(attacker).to_uppercase()),
                    theme::HOLD_LABEL,
                    12.0,
                );
            }
        }
    }
}

/// A Destroy Target mission's target, while it stands.
fn target_plate(lc: &LabelCtx) {
    let battle = lc.table.state();
    if let Some(at) = battle.target_standing() {
        // Above a unit's own plates, or over the roof of a building.
        let lift = if battle.unit_at(at).is_some() {
            1.85
        } else {
            1.2
        };
        if let Some(p) = lc.screen(hex_to_world(at) + Vec3::Y * (lc.top(at) + lift)) {
            lc.plate(
                p - egui::vec2(0.0, 18.0),
                "◎ TARGET".into(),
                theme::TARGET_LABEL,
                14.0,
            );
        }
    }
}

/// Each air strike's odds of arriving next turn (and of landing, against AA), with a
/// link to its rule.
fn air_strike_plates(
    lc: &LabelCtx,
    reference: &mut crate::client::frame::rules_ref::RulesReference,
) {
    let battle = lc.table.state();
    for strike in battle.air_strikes() {
        if let Some(p) = lc.screen(hex_to_world(strike.at) + Vec3::Y * lc.top(strike.at)) {
            let chance = battle.air_strike_chance(strike);
            let text = match battle.anti_aircraft_need(strike.side) {
                Some((need, guns)) => format!(
                    "AIR STRIKE · {}+ next turn, AA {need}+ ({guns} gun{}) · lands {:.0}%",
                    battle.air_strike_need(strike),
                    if guns == 1 { "" } else { "s" },
                    battle.air_strike_lands_chance(strike).to_f64() * 100.0
                ),
                None => format!(
                    "AIR STRIKE · {}+ next turn ({:.0}%)",
                    battle.air_strike_need(strike),
                    chance.to_f64() * 100.0
                ),
            };
            let rect = lc.plate(
                p + egui::vec2(0.0, 26.0),
                text,
                theme::AIR_STRIKE_LABEL,
                12.0,
            );
            rule_link_at(
                lc.ctx,
                reference,
                egui::Id::new(("air strike odds", strike.at)),
                rect,
                "tc.air.arrival",
            );
        }
    }
}

/// The odds on each valid target (greyed when short of action points), with a link to
/// the rule they apply.
fn odds_plates(
    lc: &LabelCtx,
    highlights: &Highlights,
    placer: &mut crate::client::frame::hud::Placer,
    reference: &mut crate::client::frame::rules_ref::RulesReference,
) {
    let painter = lc.painter;
    for target in &highlights.targets {
        if let Some(p) = lc.screen(hex_to_world(target.at) + Vec3::Y * lc.top(target.at)) {
            // Short of action points: the odds greyed, with what is missing.
            let (text, fill, ink) = match &target.short_of {
                Some(short) => (
                    format!("{} · {short}", target.label),
                    theme::ODDS_SHORT_FILL,
                    theme::ODDS_SHORT_INK,
                ),
                None => (target.label.clone(), theme::ODDS_FILL, theme::ODDS_INK),
            };
            let galley = painter.layout_no_wrap(text, egui::FontId::proportional(12.0), ink);
            let rect =
                egui::Align2::CENTER_CENTER.anchor_size(p + egui::vec2(0.0, 22.0), galley.size());
            // Off the unit plates and the other odds (targets side by side).
            let rect = rect.translate(placer.place(rect.expand(3.0)));
            painter.rect_filled(rect.expand(3.0), 3.0, fill);
            painter.galley(rect.min, galley, ink);
            rule_link_at(
                lc.ctx,
                reference,
                egui::Id::new(("odds rule", target.unit)),
                rect.expand(3.0),
                target.rule,
            );
        }
    }
}

/// A § at the right end of an odds plate, opening the rule the odds apply. It is a panel
/// of its own, so a click on it never reaches the table.
fn rule_link_at(
    ctx: &egui::Context,
    reference: &mut crate::client::frame::rules_ref::RulesReference,
    id: egui::Id,
    plate: egui::Rect,
    rule: &'static str,
) {
    egui::Area::new(id)
        // Among the windows: one opened later (the rules reference itself) covers it.
        .order(egui::Order::Middle)
        .fixed_pos(plate.right_top() + egui::vec2(2.0, -1.0))
        .show(ctx, |ui| {
            crate::client::frame::rules_ref::rule_link(
                ui,
                reference,
                crate::rules::GameKind::TankCommander,
                rule,
            );
        });
}

/// The connected patches of `area` (hexes joined by a side), each in area order.
fn patches(area: &[hexx::Hex]) -> Vec<Vec<hexx::Hex>> {
    let mut out: Vec<Vec<hexx::Hex>> = Vec::new();
    let mut left: Vec<hexx::Hex> = area.to_vec();
    while let Some(first) = left.first().copied() {
        let mut patch = vec![first];
        left.retain(|h| *h != first);
        let mut k = 0;
        while k < patch.len() {
            let h = patch[k];
            let (near, far): (Vec<_>, Vec<_>) =
                left.iter().partition(|o| o.unsigned_distance_to(h) == 1);
            patch.extend(near);
            left = far;
            k += 1;
        }
        out.push(patch);
    }
    out
}
