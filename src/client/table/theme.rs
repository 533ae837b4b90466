//! Every colour the client draws, in one file (as bevy_new_2d's `theme/palette.rs`): the
//! panels' text, the seats, the terrain, the light, the models, the highlights, each
//! game's table and panels, the Lab's plots, the rules reference, the editor's marks, the
//! effects and the background. A colour is named for what it shows, and the places that
//! show the same thing share its name.
//!
//! The table's colours are Bevy's (`Color` in sRGB; an emissive `LinearRgba` is linear
//! light, brighter than white where it glows), the panels' are egui's (`Color32`).

use bevy::color::{Color, ColorToPacked, LinearRgba};
use bevy_egui::egui::Color32;

use crate::framework::PlayerId;
use crate::rules::map::RowKind;
use crate::rules::tank_combat::{Card, CardKind};
use crate::rules::tank_commander::Terrain;

// ---------------------------------------------------------------------------------------
// Panels: text and plates every screen uses.

/// A warning, a refusal or a problem.
pub const WARN: Color32 = Color32::from_rgb(255, 170, 110);
/// A title or a heading: the game's name, the menu's, the Lab's, the editor's.
pub const TITLE: Color32 = Color32::from_rgb(230, 200, 120);
/// What must be seen first: a game's outcome, the replay mark, the guide's current step,
/// the current range band, the dice at War, a big moment's callout.
pub const EMPHASIS: Color32 = Color32::GOLD;
/// Plain bright text: the status line when no seat's colour applies, a chip's words.
pub const TEXT_BRIGHT: Color32 = Color32::WHITE;
/// The status line during a replay.
pub const REPLAY_STATUS: Color32 = Color32::LIGHT_BLUE;
/// The dark plate under text on the table.
pub const LABEL_PLATE: Color32 = Color32::from_rgba_unmultiplied_const(15, 16, 20, 200);
/// The privacy screen between people in hot seat.
pub const PRIVACY_SCREEN: Color32 = Color32::from_rgb(18, 19, 22);
/// The callout's window.
pub const CALLOUT_FILL: Color32 = Color32::from_rgb(32, 28, 20);
/// A graphics setting the machine cannot honour.
pub const SETTING_PROBLEM: Color32 = Color32::from_rgb(230, 160, 60);

// ---------------------------------------------------------------------------------------
// Seats.

/// Okabe and Ito's palette, told apart with every common colour-vision deficiency: sky
/// blue and vermillion for the first two seats (a two-sided game's Blue and Red), then
/// bluish green, yellow, reddish purple, orange, blue and grey.
const SEATS: [Color32; 8] = [
    Color32::from_rgb(86, 180, 233),
    Color32::from_rgb(213, 94, 0),
    Color32::from_rgb(0, 158, 115),
    Color32::from_rgb(240, 228, 66),
    Color32::from_rgb(204, 121, 167),
    Color32::from_rgb(230, 159, 0),
    Color32::from_rgb(0, 114, 178),
    Color32::from_rgb(190, 190, 190),
];

/// The colour of a seat: the same in panels and on the table. One palette for any number
/// of seats, so that a seat keeps its colour; each seat also has its mark (the HUD's
/// `seat_mark`).
#[must_use]
pub fn seat_color(player: PlayerId) -> Color32 {
    SEATS[player.index() % SEATS.len()]
}

/// The same colour for the 3D table.
#[must_use]
pub fn seat_color_3d(player: PlayerId) -> Color {
    let c = seat_color(player);
    Color::srgb_u8(c.r(), c.g(), c.b())
}

/// A Tank Commander side's colour, its seat's: blue for the first side, red for the
/// second.
#[must_use]
pub fn side_color(side: u8) -> Color {
    seat_color_3d(PlayerId(side))
}

/// A table colour in the panels, each channel rounded to its 8 bits.
#[must_use]
pub fn color32(c: Color) -> Color32 {
    let [r, g, b, _] = c.to_srgba().to_u8_array();
    Color32::from_rgb(r, g, b)
}

// ---------------------------------------------------------------------------------------
// Terrain: Tank Commander's hex board, and the editor's.

/// The colour of a terrain's tile.
#[must_use]
pub fn terrain_color(t: Terrain) -> Color {
    match t {
        Terrain::Open => Color::srgb(0.47, 0.56, 0.33),
        Terrain::Mud => Color::srgb(0.36, 0.27, 0.17),
        Terrain::Rubble => Color::srgb(0.52, 0.50, 0.47),
        Terrain::Forest => Color::srgb(0.22, 0.40, 0.20),
        Terrain::Building => Color::srgb(0.60, 0.55, 0.50),
        Terrain::Hill => Color::srgb(0.60, 0.58, 0.36),
        Terrain::Water => Color::srgb(0.14, 0.34, 0.56),
    }
}

/// A terrain's colour on the editor's buttons, each channel cut down to its 8 bits.
#[must_use]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "channels in 0..=1"
)]
pub fn terrain_swatch(t: Terrain) -> Color32 {
    let c = terrain_color(t).to_srgba();
    Color32::from_rgb(
        (c.red * 255.0) as u8,
        (c.green * 255.0) as u8,
        (c.blue * 255.0) as u8,
    )
}

/// A forest's trees.
pub const TREE: Color = Color::srgb(0.14, 0.30, 0.13);
/// A tree's trunk.
pub const TRUNK: Color = Color::srgb(0.30, 0.20, 0.12);
/// A building's roof.
pub const ROOF: Color = Color::srgb(0.55, 0.30, 0.25);
/// Rubble's rocks and a building's chimney.
pub const ROCK: Color = Color::srgb(0.40, 0.38, 0.36);
/// Smoke on a hex.
pub const SMOKE_CLOUD: Color = Color::srgba(0.85, 0.85, 0.88, 0.55);
/// The table under Tank Commander's board.
pub const TABLE_WOOD: Color = Color::srgb(0.33, 0.23, 0.15);
/// An objective flag's pole.
pub const FLAG_POLE: Color = Color::srgb(0.35, 0.27, 0.18);
/// An objective's flag while nobody holds it (a held one is its side's colour).
pub const FLAG_UNHELD: Color = Color::srgb(0.95, 0.95, 0.92);

// ---------------------------------------------------------------------------------------
// Light: Tank Commander's weather and night.

/// The sun by day.
pub const SUN_DAY: Color = Color::WHITE;
/// The sun in a storm.
pub const SUN_STORM: Color = Color::srgb(0.75, 0.82, 1.0);
/// The moon, at night.
pub const SUN_NIGHT: Color = Color::srgb(0.55, 0.65, 1.0);
/// The ambient light by day.
pub const AMBIENT_DAY: Color = Color::WHITE;
/// The ambient light at night.
pub const AMBIENT_NIGHT: Color = Color::srgb(0.45, 0.55, 1.0);
/// A flare's light.
pub const FLARE_LIGHT: Color = Color::srgb(1.0, 0.93, 0.75);
/// A flare's star, and its glow.
pub const FLARE: Color = Color::srgb(1.0, 0.95, 0.8);
/// See [`FLARE`].
pub const FLARE_GLOW: LinearRgba = LinearRgba::rgb(30.0, 26.0, 16.0);
/// A burning unit's light at night.
pub const FIRE_LIGHT: Color = Color::srgb(1.0, 0.55, 0.2);

// ---------------------------------------------------------------------------------------
// Models: tanks and the other units.

/// A tank's tracks, barrel and other dark parts, in every game.
pub const TANK_DARK: Color = Color::srgb(0.12, 0.12, 0.12);
/// A tank's pale front plate.
pub const TANK_PLATE: Color = Color::srgb(0.95, 0.95, 0.9);
/// A knocked-out unit's grey.
pub const WRECK: Color = Color::srgb(0.22, 0.21, 0.2);
/// An AA gun's sandbags.
pub const SANDBAGS: Color = Color::srgb(0.62, 0.55, 0.36);
/// An infantry squad's figures.
pub const INFANTRY: Color = Color::srgb(0.3, 0.36, 0.14);
/// A hull pip still held (it glows).
pub const PIP_ON: Color = Color::srgb(0.3, 0.9, 0.3);
/// See [`PIP_ON`].
pub const PIP_ON_GLOW: LinearRgba = LinearRgba::rgb(0.1, 0.5, 0.1);
/// A hull pip lost.
pub const PIP_OFF: Color = Color::srgb(0.35, 0.08, 0.06);
/// A hover tank's halo (it glows).
pub const HALO: Color = Color::srgb(0.5, 0.85, 1.0);
/// See [`HALO`].
pub const HALO_GLOW: LinearRgba = LinearRgba::rgb(0.6, 1.6, 2.4);

// ---------------------------------------------------------------------------------------
// Gold on Tank Commander's board: waypoints, the escorted squad, a Take Area's area.

/// A waypoint still to reach, and the ring round the squad an Escort must bring through.
pub const GOLD_RING: Color = Color::srgb(0.95, 0.78, 0.15);
/// A waypoint's glow.
pub const WAYPOINT_GLOW: LinearRgba = LinearRgba::rgb(0.4, 0.3, 0.0);
/// The escorted squad's ring's glow.
pub const ESCORT_GLOW: LinearRgba = LinearRgba::rgb(0.5, 0.35, 0.0);
/// A waypoint already reached.
pub const WAYPOINT_REACHED: Color = Color::srgb(0.5, 0.45, 0.3);
/// A Take Area mission's area on the board.
pub const GOAL_AREA: Color = Color::srgba(1.0, 0.74, 0.05, 0.75);
/// See [`GOAL_AREA`].
pub const GOAL_AREA_GLOW: LinearRgba = LinearRgba::rgb(0.5, 0.35, 0.0);

// ---------------------------------------------------------------------------------------
// Highlights and overlay: strokes over the table.

/// The selected unit's turret arc within gun range.
pub const ARC: Color = Color::srgba(1.0, 0.85, 0.2, 0.3);
/// A hex the selected unit can reach.
pub const REACH: Color = Color::srgb(0.3, 0.85, 1.0);
/// A valid target.
pub const TARGET: Color = Color::srgb(1.0, 0.25, 0.2);
/// The hex under the pointer.
pub const HOVERED: Color = Color::WHITE;
/// The selected unit or piece, and a chosen destination.
pub const SELECTED: Color = Color::WHITE;
/// The keyboard's cursor: a golden ring or frame.
pub const KEY_CURSOR: Color = Color::srgb(1.0, 0.8, 0.1);
/// The unit aimed at.
pub const AIM: Color = Color::srgb(1.0, 0.1, 0.1);
/// The units a log line picked.
pub const FOCUS: Color = Color::srgb(1.0, 0.2, 1.0);
/// A known mine: a ring with a cross.
pub const MINE_MARK: Color = Color::srgb(1.0, 0.55, 0.1);
/// An air strike's target.
pub const AIR_STRIKE: Color = Color::srgb(1.0, 0.1, 0.1);
/// The hexes an air strike's scatter reaches, fainter the less likely (the alpha is the
/// chance's).
pub const AIR_STRIKE_SCATTER: Color = Color::srgb(1.0, 0.2, 0.1);
/// A clear line of sight.
pub const SIGHT_CLEAR: Color = Color::srgb(0.2, 1.0, 0.3);
/// A blocked line of sight up to the blocking hex, and the cross on that hex.
pub const SIGHT_BLOCKED: Color = Color::srgb(1.0, 0.15, 0.1);
/// A blocked line of sight past the blocking hex.
pub const SIGHT_BLOCKED_FAINT: Color = Color::srgba(1.0, 0.15, 0.1, 0.25);

// ---------------------------------------------------------------------------------------
// Tank Commander: plates on the table and text in its panels.

/// A reachable hex's cost.
pub const ROUTE_COST: Color32 = Color32::from_rgb(120, 220, 255);
/// A unit's state under its name (knocked out, damaged, on fire).
pub const UNIT_STATE: Color32 = Color32::from_rgb(255, 170, 60);
/// A flare's plate.
pub const FLARE_LABEL: Color32 = Color32::from_rgb(255, 235, 170);
/// A Take Area mission's HOLD plate.
pub const HOLD_LABEL: Color32 = Color32::from_rgb(255, 210, 80);
/// A Destroy Target mission's target plate.
pub const TARGET_LABEL: Color32 = Color32::from_rgb(255, 120, 90);
/// An air strike's plate.
pub const AIR_STRIKE_LABEL: Color32 = Color32::from_rgb(255, 120, 110);
/// A target's odds: the plate.
pub const ODDS_FILL: Color32 = Color32::from_rgba_unmultiplied_const(120, 10, 10, 200);
/// A target's odds: the words.
pub const ODDS_INK: Color32 = Color32::WHITE;
/// A target's odds greyed, short of action points: the plate.
pub const ODDS_SHORT_FILL: Color32 = Color32::from_rgba_unmultiplied_const(60, 60, 60, 200);
/// A target's odds greyed, short of action points: the words.
pub const ODDS_SHORT_INK: Color32 = Color32::from_gray(190);
/// The turret arc's explanation.
pub const ARC_TEXT: Color32 = Color32::from_rgb(235, 215, 120);
/// ON FIRE on the unit card.
pub const ON_FIRE_TEXT: Color32 = Color32::from_rgb(255, 120, 40);
/// A crew member unhurt.
pub const CREW_WELL: Color32 = Color32::from_rgb(140, 220, 140);
/// A crew member wounded once.
pub const CREW_WOUNDED: Color32 = Color32::from_rgb(240, 200, 80);
/// A crew member wounded more.
pub const CREW_DOWN: Color32 = Color32::from_rgb(240, 90, 80);
/// What the wounded crew impairs.
pub const IMPAIRED_TEXT: Color32 = Color32::from_rgb(240, 170, 80);
/// A mined hex on the hover card.
pub const MINE_TEXT: Color32 = Color32::from_rgb(255, 170, 60);
/// An air strike marked on the hovered hex.
pub const AIR_STRIKE_TEXT: Color32 = Color32::from_rgb(255, 110, 100);
/// A chance to be hit or to hit: a hex in an air strike's scatter, a target's odds.
pub const HIT_CHANCE_TEXT: Color32 = Color32::from_rgb(255, 150, 130);
/// A clear line of sight on the hover card.
pub const SIGHT_CLEAR_TEXT: Color32 = Color32::LIGHT_GREEN;
/// A blocked line of sight on the hover card.
pub const SIGHT_BLOCKED_TEXT: Color32 = Color32::from_rgb(255, 110, 100);
/// A step of the guided first game already done.
pub const GUIDE_STEP_DONE: Color32 = Color32::from_rgb(120, 200, 120);
/// A problem of a tank being built, or of the battle it is built for.
pub const BUILD_PROBLEM: Color32 = Color32::from_rgb(255, 120, 110);
/// A design saved, a build that breaks no rule.
pub const BUILD_DONE: Color32 = Color32::from_rgb(130, 210, 130);

// ---------------------------------------------------------------------------------------
// Tank Chess: the board and pieces, their letters and the panels.

/// The light squares (the editor's too).
pub const CHESS_LIGHT_SQUARE: Color = Color::srgb(0.78, 0.74, 0.62);
/// The dark squares.
pub const CHESS_DARK_SQUARE: Color = Color::srgb(0.55, 0.50, 0.40);
/// An obstacle's block.
pub const CHESS_OBSTACLE: Color = Color::srgb(0.30, 0.30, 0.32);
/// The White pieces.
pub const CHESS_WHITE: Color = Color::srgb(0.93, 0.91, 0.84);
/// The Black pieces.
pub const CHESS_BLACK: Color = Color::srgb(0.07, 0.07, 0.09);
/// A flag team's pennant.
pub const PENNANT: Color = Color::srgb(0.85, 0.15, 0.15);
/// A wrecked piece.
pub const CHESS_WRECK: Color = Color::srgb(0.38, 0.30, 0.26);
/// The board's frame.
pub const CHESS_FRAME: Color = Color::srgb(0.25, 0.17, 0.10);
/// The Command tank's ring.
pub const COMMAND_RING: Color = Color::srgb(0.95, 0.72, 0.12);
/// See [`COMMAND_RING`].
pub const COMMAND_RING_GLOW: LinearRgba = LinearRgba::rgb(0.35, 0.22, 0.0);
/// A flag.
pub const CHESS_FLAG: Color = Color::srgb(0.95, 0.75, 0.1);
/// See [`CHESS_FLAG`].
pub const CHESS_FLAG_GLOW: LinearRgba = LinearRgba::rgb(0.3, 0.2, 0.0);
/// The compass in the board's centre.
pub const COMPASS: Color = Color::srgb(0.9, 0.2, 0.2);
/// The selected piece's reachable squares, and the facing it would take on each.
pub const CHESS_REACH: Color = Color::srgb(0.3, 0.8, 1.0);
/// A firing line, and the square it hits.
pub const FIRE_LINE: Color = Color::srgb(1.0, 0.2, 0.15);
/// The board's coordinates.
pub const COORDINATES: Color32 = Color32::from_rgb(235, 225, 200);
/// A White piece's letters' plate, and a Black piece's letters.
pub const CHESS_LABEL_WHITE: Color32 = Color32::from_rgb(238, 234, 222);
/// A White piece's letters.
pub const CHESS_LABEL_WHITE_INK: Color32 = Color32::from_rgb(20, 20, 24);
/// A Black piece's letters' plate.
pub const CHESS_LABEL_BLACK: Color32 = Color32::from_rgb(24, 24, 28);
/// The outline of a Command piece's letters.
pub const COMMAND_OUTLINE: Color32 = Color32::from_rgb(242, 184, 30);
/// The outline of the other pieces' letters.
pub const LABEL_OUTLINE: Color32 = Color32::from_gray(120);
/// An announcement (check, mate, escapemate).
pub const ANNOUNCEMENT: Color32 = Color32::from_rgb(240, 70, 60);
/// The analysis bar.
pub const EVAL_BAR: Color32 = Color32::from_rgb(225, 220, 205);
/// The analysis bar's words.
pub const EVAL_BAR_TEXT: Color32 = Color32::from_rgb(40, 40, 40);

// ---------------------------------------------------------------------------------------
// Tank Combat: the table, the cards and the tableaus.

/// A card's colour, by its kind.
#[must_use]
pub fn card_color(card: Card) -> Color32 {
    match card.kind() {
        CardKind::Munition => Color32::from_rgb(170, 70, 40),
        CardKind::Fire | CardKind::CoaxialMg => Color32::from_rgb(190, 120, 30),
        CardKind::Hazard => Color32::from_rgb(150, 30, 60),
        CardKind::Remedy => Color32::from_rgb(40, 130, 80),
        CardKind::Smoke => Color32::from_rgb(90, 100, 120),
        CardKind::Armor | CardKind::Safety => Color32::from_rgb(40, 90, 160),
    }
}

/// The round table.
pub const COMBAT_TABLE: Color = Color::srgb(0.36, 0.24, 0.15);
/// The deck.
pub const DECK: Color = Color::srgb(0.15, 0.2, 0.35);
/// The face-up discard pile.
pub const DISCARD: Color = Color::srgb(0.85, 0.82, 0.72);
/// A Smoke card's cloud.
pub const COMBAT_SMOKE: Color = Color::srgb(0.75, 0.76, 0.78);
/// An attack smoked, over the target.
pub const SMOKED_TEXT: Color32 = Color32::from_rgb(200, 200, 210);
/// Damage with its arithmetic, over the target.
pub const DAMAGE_TEXT: Color32 = Color32::from_rgb(255, 110, 80);
/// An Adrenaline callout.
pub const ADRENALINE_TEXT: Color32 = Color32::from_rgb(255, 200, 60);
/// A Tactical Override callout.
pub const OVERRIDE_TEXT: Color32 = Color32::from_rgb(120, 180, 255);
/// A hazard repaired, over the tank.
pub const REPAIRED_TEXT: Color32 = Color32::from_rgb(120, 220, 140);
/// The discard pile shuffled into a new deck.
pub const RESHUFFLED_TEXT: Color32 = Color32::from_rgb(220, 220, 220);
/// A tank destroyed.
pub const DESTROYED_TEXT: Color32 = Color32::from_rgb(255, 120, 60);
/// A card's face.
pub const CARD_FACE: Color32 = Color32::from_rgb(242, 236, 220);
/// A card's kind, under its name.
pub const CARD_KIND_TEXT: Color32 = Color32::from_rgb(90, 90, 90);
/// What a card does.
pub const CARD_TEXT: Color32 = Color32::from_rgb(30, 30, 30);
/// A tableau's plate.
pub const TABLEAU_FILL: Color32 = Color32::from_rgba_unmultiplied_const(20, 22, 26, 220);
/// The HP bar above half.
pub const HP_HIGH: Color32 = Color32::from_rgb(60, 150, 60);
/// The HP bar above a quarter.
pub const HP_MID: Color32 = Color32::from_rgb(190, 150, 40);
/// The HP bar at a quarter or less.
pub const HP_LOW: Color32 = Color32::from_rgb(190, 50, 40);
/// The Adrenaline chip.
pub const CHIP_ADRENALINE: Color32 = Color32::from_rgb(200, 140, 20);
/// The Spawn Shield chip.
pub const CHIP_SPAWN_SHIELD: Color32 = Color32::from_rgb(60, 140, 200);
/// The DESTROYED chip.
pub const CHIP_DESTROYED: Color32 = Color32::from_rgb(120, 30, 30);
/// The kills chip.
pub const CHIP_KILLS: Color32 = Color32::from_rgb(80, 80, 80);
/// The deck's and the discard pile's label.
pub const DECK_LABEL: Color32 = Color32::from_rgb(235, 230, 215);
/// The pending attack.
pub const ATTACK_TEXT: Color32 = Color32::from_rgb(255, 150, 100);

// ---------------------------------------------------------------------------------------
// Battle Tanks: the dice, the table and the callouts.

/// A die no seat owns.
pub const DIE_FREE: Color = Color::srgb(0.6, 0.6, 0.6);
/// A die's pips.
pub const DIE_PIPS: Color = Color::srgb(0.05, 0.05, 0.05);
/// A Nuke die.
pub const DIE_NUKE: Color = Color::srgb(0.08, 0.08, 0.09);
/// A Nuke die's pips (they glow).
pub const NUKE_PIPS: Color = Color::srgb(1.0, 0.15, 0.1);
/// See [`NUKE_PIPS`].
pub const NUKE_PIPS_GLOW: LinearRgba = LinearRgba::rgb(2.0, 0.2, 0.1);
/// The gold ring under a die at War.
pub const WAR_RING: Color = Color::srgb(1.0, 0.8, 0.2);
/// See [`WAR_RING`].
pub const WAR_RING_GLOW: LinearRgba = LinearRgba::rgb(1.5, 1.0, 0.2);
/// The table's felt.
pub const FELT: Color = Color::srgb(0.13, 0.32, 0.18);
/// The Battlefield's wood.
pub const BATTLEFIELD_WOOD: Color = Color::srgb(0.30, 0.22, 0.14);
/// A Meganuke's blast.
pub const BLAST: Color = Color::srgb(1.0, 0.6, 0.1);
/// See [`BLAST`].
pub const BLAST_GLOW: LinearRgba = LinearRgba::rgb(8.0, 3.0, 0.5);
/// A Nuke announced or answered.
pub const NUKE_CALLOUT: Color32 = Color32::from_rgb(255, 90, 60);
/// A callout of no great moment: misfires, the dice going back, a seat out.
pub const QUIET_CALLOUT: Color32 = Color32::from_rgb(200, 200, 200);
/// The Battlefield or the world destroyed.
pub const DESTRUCTION: Color32 = Color32::from_rgb(255, 120, 40);
/// A die's value.
pub const DIE_LABEL: Color32 = Color32::from_rgb(230, 230, 230);
/// The Battlefield's name.
pub const BATTLEFIELD_LABEL: Color32 = Color32::from_rgb(220, 200, 160);

// ---------------------------------------------------------------------------------------
// Range Duel: the range and the shots.

/// The ground.
pub const RANGE_GROUND: Color = Color::srgb(0.33, 0.40, 0.24);
/// The track the tanks drive along.
pub const RANGE_TRACK: Color = Color::srgb(0.48, 0.42, 0.30);
/// The posts of the range bands.
pub const RANGE_POST: Color = Color::srgb(0.9, 0.88, 0.8);
/// A berm a tank digs in behind.
pub const BERM: Color = Color::srgb(0.42, 0.30, 0.18);
/// The smoke over a knocked-out tank.
pub const KNOCKED_OUT_SMOKE: Color = Color::srgba(0.05, 0.05, 0.05, 0.9);
/// A miss's dust.
pub const MISS_DUST: Color = Color::srgb(0.55, 0.45, 0.32);
/// A hit the armour or the berm stops.
pub const NEGATED_HIT: Color = Color::srgb(0.55, 0.42, 0.25);
/// A penetration's glow (its colour is [`FLAME`]).
pub const PENETRATION_GLOW: LinearRgba = LinearRgba::rgb(5.0, 1.5, 0.2);
/// A hit that does not penetrate.
pub const GLANCING_HIT: Color = Color::srgb(1.0, 0.95, 0.6);
/// A range band's label (the current band's is [`EMPHASIS`]).
pub const BAND_LABEL: Color32 = Color32::from_rgb(220, 215, 200);

// ---------------------------------------------------------------------------------------
// Effects: tracers, flames, glow and smoke.

/// No glow at all.
pub const NO_GLOW: LinearRgba = LinearRgba::BLACK;
/// A shell's tracer (Tank Combat, Range Duel).
pub const TRACER: Color = Color::srgb(1.0, 0.9, 0.5);
/// See [`TRACER`].
pub const TRACER_GLOW: LinearRgba = LinearRgba::rgb(6.0, 4.0, 1.0);
/// Fire: a burning unit, a destroyed tank, a penetration.
pub const FLAME: Color = Color::srgb(1.0, 0.45, 0.05);
/// A burning Tank Commander unit's flames' glow.
pub const UNIT_FIRE_GLOW: LinearRgba = LinearRgba::rgb(4.0, 1.2, 0.1);
/// A destroyed Tank Combat tank's fire's glow.
pub const BURN_GLOW: LinearRgba = LinearRgba::rgb(6.0, 2.0, 0.2);
/// Tank Commander's muzzle flash (its glow is the colour times a power).
pub const MUZZLE_FLASH: Color = Color::srgb(1.0, 0.9, 0.5);
/// Tank Commander's shell in flight.
pub const SHELL: Color = Color::srgb(1.0, 0.8, 0.3);
/// A hit's spark.
pub const HIT_SPARK: Color = Color::srgb(1.0, 0.95, 0.6);
/// A penetration's burst, flames and explosions.
pub const BURST: Color = Color::srgb(1.0, 0.45, 0.1);
/// The bright streak behind a shell.
pub const SHELL_STREAK: Color = Color::srgb(1.0, 0.85, 0.3);
/// The streak's warmer edge.
pub const SHELL_STREAK_EDGE: Color = Color::srgb(1.0, 0.6, 0.2);
/// The dirt a miss throws up.
pub const MISS_DIRT: Color = Color::srgba(0.45, 0.35, 0.25, 0.8);
/// A knocked-out unit's black smoke.
pub const SOOT: Color = Color::srgba(0.08, 0.08, 0.08, 0.75);
/// A falling building's dust.
pub const DUST: Color = Color::srgba(0.7, 0.66, 0.6, 0.7);
/// A puff of smoke laid.
pub const SMOKE_PUFF: Color = Color::srgba(0.9, 0.9, 0.92, 0.7);

// ---------------------------------------------------------------------------------------
// The Lab's plots.

/// Each variant's colour (see [`arm_color`]).
const ARMS: [Color32; 6] = [
    Color32::from_rgb(120, 150, 200),
    Color32::from_rgb(240, 150, 60),
    Color32::from_rgb(110, 200, 120),
    Color32::from_rgb(200, 110, 210),
    Color32::from_rgb(230, 220, 90),
    Color32::from_rgb(90, 210, 220),
];

/// The colour of variant `i` in every plot.
#[must_use]
pub fn arm_color(i: usize) -> Color32 {
    ARMS[i % ARMS.len()]
}

/// A note of little weight: a verdict not significant, a rule the games met enough.
pub const PLOT_NOTE: Color32 = Color32::GRAY;
/// A plot's reference line: no difference, no advantage, even.
pub const PLOT_REFERENCE: Color32 = Color32::GRAY;
/// An interval's whiskers.
pub const PLOT_INTERVAL: Color32 = Color32::WHITE;
/// Words written on a plot.
pub const PLOT_TEXT: Color32 = Color32::WHITE;
/// A significant verdict.
pub const SIGNIFICANT: Color32 = Color32::from_rgb(250, 230, 150);
/// A rule the bots' games seldom met.
pub const UNEXERCISED: Color32 = Color32::from_rgb(255, 170, 90);
/// A sequential test that reached its answer.
pub const SPRT_ANSWERED: Color32 = Color32::from_rgb(150, 230, 170);
/// A unit's side's win rate when it lasted.
pub const LASTED: Color32 = Color32::from_rgb(110, 200, 120);
/// A unit's side's win rate when it was lost.
pub const LOST: Color32 = Color32::from_rgb(220, 90, 80);
/// A choice made before play that made a significant difference.
pub const TAKEN_SIGNIFICANT: Color32 = Color32::from_rgb(250, 200, 80);
/// A choice made before play that made none to speak of.
pub const TAKEN_NOT_SIGNIFICANT: Color32 = Color32::from_gray(150);
/// The matchups' row and column names.
pub const MATCHUP_LABEL: Color32 = Color32::LIGHT_GRAY;
/// The numbers on a heat map ([`heat`]).
pub const HEAT_TEXT: Color32 = Color32::BLACK;

/// A heat map's colour for `t` in 0..=1: dark blue (nothing) to yellow (the most).
#[must_use]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "channels in 0..=255"
)]
pub fn heat(t: f64) -> Color32 {
    let t = t.clamp(0.0, 1.0);
    if t == 0.0 {
        return Color32::from_rgb(35, 40, 55);
    }
    let lerp = |a: f64, b: f64| (a + (b - a) * t) as u8;
    Color32::from_rgb(lerp(90.0, 255.0), lerp(40.0, 230.0), lerp(120.0, 60.0))
}

// ---------------------------------------------------------------------------------------
// The rules reference.

/// Each kind of row's colour; a reading's is the titles' gold.
const RULE_KINDS: [(RowKind, Color32); 4] = [
    (RowKind::Rule, Color32::from_rgb(140, 200, 140)),
    (RowKind::Reading, TITLE),
    (RowKind::Flavour, Color32::from_rgb(150, 150, 170)),
    (RowKind::NotImplemented, Color32::from_rgb(255, 150, 120)),
];

/// The colour of a row's kind.
#[must_use]
pub fn rule_kind_color(kind: RowKind) -> Color32 {
    RULE_KINDS
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(Color32::GRAY, |(_, c)| *c)
}

/// The row a link opened the reference at.
pub const FOCUSED_RULE: Color32 = Color32::from_rgb(70, 60, 30);
/// A rule's reading.
pub const READING_TEXT: Color32 = Color32::from_rgb(215, 205, 170);
/// A switch at its default (a variant's is [`WARN`]).
pub const SWITCH_TEXT: Color32 = Color32::from_rgb(160, 180, 200);
/// The rules map's sections on the menu.
pub const RULE_SECTIONS: Color32 = Color32::from_gray(200);

// ---------------------------------------------------------------------------------------
// The editor: its marks on the table and its panels.

/// The editor's gold: objectives, flags, a target, a Command ring, the picked unit or
/// piece.
pub const EDITOR_GOLD: Color = Color::srgb(0.98, 0.8, 0.2);
/// See [`EDITOR_GOLD`].
pub const EDITOR_GOLD_GLOW: LinearRgba = LinearRgba::rgb(0.6, 0.45, 0.0);
/// A problem's place.
pub const PROBLEM_MARK: Color = Color::srgb(1.0, 0.12, 0.1);
/// See [`PROBLEM_MARK`].
pub const PROBLEM_MARK_GLOW: LinearRgba = LinearRgba::rgb(0.9, 0.0, 0.0);
/// The mission's own hexes (waypoints, the area, the target building), in cyan.
pub const MISSION_MARK: Color = Color::srgb(0.2, 0.9, 0.95);
/// See [`MISSION_MARK`].
pub const MISSION_MARK_GLOW: LinearRgba = LinearRgba::rgb(0.0, 0.5, 0.6);
/// The brush under the pointer.
pub const BRUSH: Color = Color::srgba(1.0, 1.0, 1.0, 0.35);
/// A mine.
pub const MINE: Color = Color::srgb(0.1, 0.1, 0.1);
/// The ground around the editor's hex board.
pub const EDITOR_GROUND: Color = Color::srgb(0.25, 0.18, 0.12);
/// The editor's Tank Chess board's dark squares (its light ones are
/// [`CHESS_LIGHT_SQUARE`]).
pub const EDITOR_DARK_SQUARE: Color = Color::srgb(0.45, 0.40, 0.32);
/// The editor's Tank Chess obstacles.
pub const EDITOR_OBSTACLE: Color = Color::srgb(0.35, 0.35, 0.38);
/// The editor's Tank Chess teams' pieces, in the order of [`crate::editor::TEAMS`].
pub const EDITOR_TEAMS: [Color; 4] = [
    Color::srgb(0.92, 0.92, 0.88),
    Color::srgb(0.12, 0.12, 0.13),
    Color::srgb(0.25, 0.45, 0.9),
    Color::srgb(0.85, 0.25, 0.2),
];
/// The chosen terrain's name on its button.
pub const TERRAIN_CHOSEN: Color32 = Color32::WHITE;
/// The other terrains' names.
pub const TERRAIN_OTHER: Color32 = Color32::LIGHT_GRAY;
/// The check found no problem.
pub const NO_PROBLEMS: Color32 = Color32::from_rgb(120, 210, 120);

// ---------------------------------------------------------------------------------------
// Background.

/// Behind the table.
pub const CLEAR: Color = Color::srgb(0.16, 0.17, 0.19);
