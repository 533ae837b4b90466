//! Tank Commander's own panels beside the shared frame: the unit card, the action bar
//! with its costs and shortcuts (a greyed-out action says which rule forbids it now), the
//! card of what is under the pointer, and the battle's figures on the end screen.
//!
//! The action bar keeps one size and its buttons keep their places whatever the pointer
//! does, so that no button ever slides under the pointer on its way to the table.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::highlights::{Highlights, Hovered, Selection};
use super::input::EndTurn;
use crate::client::core::session::{Busy, Order, Session};
use crate::client::core::{Clean, GameScreen, HudSystems};
use crate::client::frame::input::PanelOrder;
use crate::client::table::theme::{self, color32, side_color};
use crate::framework::{Game, PlayerId};
use crate::grid::Rotation;
use crate::rules::tank_commander::state::{
    Activation, AirStrike, CrewMember, RoleState, Status, Unit,
};
use crate::rules::tank_commander::{
    Ability, Action, Fact, FireTarget, Role, Round, TankCommander, Terrain, UnitId,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (draw_unit_card, draw_action_bar, draw_hover)
            .chain()
            .in_set(HudSystems::Game)
            .run_if(
                in_state(GameScreen::TankCommander)
                    .and_then(resource_exists::<Session<TankCommander>>),
            )
            .run_if(not(resource_exists::<Clean>)),
    );
}

/// One button of the action bar.
#[derive(Clone, Debug)]
pub struct BarItem {
    pub label: String,
    /// The key that presses it.
    pub key: Option<KeyCode>,
    pub key_name: &'static str,
    /// Action points it costs, when it has a cost.
    pub cost: Option<u8>,
    /// The action it plays; `None` for End turn.
    pub action: Option<Action>,
    /// The rule that forbids it now, if any.
    pub why_not: Option<String>,
    /// What it does.
    pub help: String,
    /// The rule its odds apply, for an aimed shot (F1 over it opens it).
    pub odds_rule: Option<&'static str>,
}

fn item(
    battle: &TankCommander,
    player: PlayerId,
    label: impl Into<String>,
    key: Option<(KeyCode, &'static str)>,
    cost: Option<u8>,
    action: Action,
    help: impl Into<String>,
) -> BarItem {
    BarItem {
        label: label.into(),
        key: key.map(|k| k.0),
        key_name: key.map_or("", |k| k.1),
        cost,
        action: Some(action),
        why_not: battle.check(player, &action).err().map(|r| r.why),
        help: help.into(),
        odds_rule: None,
    }
}

/// The action bar for `player`: every kind of action, legal or not, with its cost and,
/// when it is not allowed now, the rule that forbids it.
#[must_use]
pub fn bar_items(
    battle: &TankCommander,
    player: PlayerId,
    selection: &Selection,
    hovered: Option<hexx::Hex>,
) -> Vec<BarItem> {
    let Some(act) = battle.activation() else {
        return vec![activate_item(battle, player, selection), end_turn_item()];
    };
    let b = BarCtx {
        battle,
        player,
        selection,
        hovered,
        u: battle.unit(act.unit),
        act,
    };
    let mut items = if b.u.is_infantry() {
        squad_bar_items(&b)
    } else if b.u.is_apc() {
        apc_bar_items(&b)
    } else {
        tank_bar_items(&b)
    };
    items.push(end_turn_item());
    items
}

/// What the buttons of the active unit's bar are made from.
#[derive(Clone, Copy)]
struct BarCtx<'a> {
    battle: &'a TankCommander,
    player: PlayerId,
    selection: &'a Selection,
    hovered: Option<hexx::Hex>,
    /// The active unit.
    u: &'a Unit,
    /// Its activation.
    act: &'a Activation,
}

/// The End turn button, last on every bar.
fn end_turn_item() -> BarItem {
    BarItem {
        label: "End turn".into(),
        key: Some(KeyCode::KeyN),
        key_name: "N",
        cost: None,
        action: None,
        why_not: None,
        help: "End this activation and pass with every unit that has not acted this turn".into(),
        odds_rule: None,
    }
}

/// The End activation button, closing the bar of every kind of unit.
fn end_activation_item(battle: &TankCommander, player: PlayerId) -> BarItem {
    item(
        battle,
        player,
        "End activation",
        Some((KeyCode::Backspace, "Backspace")),
        None,
        Action::EndActivation,
        "Finish this unit's activation; unspent action points are lost",
    )
}

/// The Activate button, while no unit is active: it starts the selected one.
fn activate_item(battle: &TankCommander, player: PlayerId, selection: &Selection) -> BarItem {
    match selection.unit {
        Some(id) => item(
            battle,
            player,
            "Activate",
            Some((KeyCode::Enter, "Enter")),
            None,
            Action::Activate(id),
            format!(
                "Start {}'s activation: it gets its action points to spend",
                battle.unit(id).name
            ),
        ),
        None => BarItem {
            label: "Activate".into(),
            key: Some(KeyCode::Enter),
            key_name: "Enter",
            cost: None,
            action: Some(Action::EndActivation),
            why_not: Some("Click one of your tanks first (Tab picks the next one)".into()),
            help: "Start a unit's activation".into(),
            odds_rule: None,
        },
    }
}

/// The action bar of a tank, one group of buttons after the other.
fn tank_bar_items(b: &BarCtx) -> Vec<BarItem> {
    let u = b.u;
    let mut items = tank_drive_items(b);
    items.extend(turret_items(b));
    items.extend(tank_gun_items(b));
    // Equipment the tank does not carry gets no button; what it carries keeps its place.
    if u.build.smoke_launcher {
        items.push(smoke_item(b.battle, b.player, u, b.hovered));
    }
    if u.build.mines > 0 {
        items.push(mine_item(b));
    }
    if u.build.air_support || b.battle.strikes_given(u.side) > 0 {
        items.push(air_strike_item(b));
    }
    if b.battle.night() {
        items.push(flare_item(b));
    }
    if u.build.lieutenant {
        items.push(lieutenant_item(b));
    }
    items.push(item(
        b.battle,
        b.player,
        "Extinguish",
        Some((KeyCode::KeyV, "V")),
        Some(b.battle.rules().costs.extinguish),
        Action::Extinguish,
        "Put out the fire on this tank",
    ));
    items.extend(crew_ability_items(b));
    items.push(end_activation_item(b.battle, b.player));
    items
}

/// A tank's driving buttons: move ahead, and turn the hull with or without the turret.
fn tank_drive_items(b: &BarCtx) -> Vec<BarItem> {
    let (battle, player) = (b.battle, b.player);
    let c = &battle.rules().costs;
    let turn = |rotation, follows| Action::Turn {
        rotation,
        turret_follows: follows,
    };
    vec![
        item(
            battle,
            player,
            "Move",
            Some((KeyCode::KeyM, "M")),
            Some(battle.move_cost(b.u)),
            Action::Move,
            "Drive one hex straight ahead (or click a blue hex to drive there)",
        ),
        item(
            battle,
            player,
            "Turn left",
            Some((KeyCode::Comma, ",")),
            Some(c.turn),
            turn(Rotation::Left, true),
            "Turn the hull 60° left; the turret turns with it",
        ),
        item(
            battle,
            player,
            "Turn right",
            Some((KeyCode::Period, ".")),
            Some(c.turn),
            turn(Rotation::Right, true),
            "Turn the hull 60° right; the turret turns with it",
        ),
        item(
            battle,
            player,
            "Hull left only",
            None,
            Some(c.turn),
            turn(Rotation::Left, false),
            "Turn the hull 60° left; the turret keeps its direction",
        ),
        item(
            battle,
            player,
            "Hull right only",
            None,
            Some(c.turn),
            turn(Rotation::Right, false),
            "Turn the hull 60° right; the turret keeps its direction",
        ),
    ]
}

/// A tank's turret buttons: turn it left or right.
fn turret_items(b: &BarCtx) -> Vec<BarItem> {
    let c = &b.battle.rules().costs;
    vec![
        item(
            b.battle,
            b.player,
            "Turret left",
            Some((KeyCode::BracketLeft, "[")),
            Some(c.turret),
            Action::RotateTurret(Rotation::Left),
            "Turn the turret 60° left",
        ),
        item(
            b.battle,
            b.player,
            "Turret right",
            Some((KeyCode::BracketRight, "]")),
            Some(c.turret),
            Action::RotateTurret(Rotation::Right),
            "Turn the turret 60° right",
        ),
    ]
}

/// A tank's gun buttons: load either round, fire, and its anti-infantry weapon if any.
fn tank_gun_items(b: &BarCtx) -> Vec<BarItem> {
    let (battle, player, u) = (b.battle, b.player, b.u);
    let rules = battle.rules();
    let c = &rules.costs;
    let load_cost = u.load_cost(rules, b.act.quick_load);
    let mut items = vec![
        item(
            battle,
            player,
            "Load AT",
            Some((KeyCode::KeyL, "L")),
            load_cost,
            Action::Load(Round::At),
            "Load an anti-tank round",
        ),
        item(
            battle,
            player,
            "Load HE",
            Some((KeyCode::KeyH, "H")),
            load_cost,
            Action::Load(Round::He),
            "Load a high-explosive round (needs the HE Rounds upgrade)",
        ),
        aimed(
            battle,
            player,
            b.selection,
            ("Fire", KeyCode::KeyF, "F"),
            c.fire,
            |t| Action::Fire(FireTarget::Unit(t)),
            "Fire the loaded round".into(),
        ),
    ];
    if u.build.anti_infantry {
        items.push(aimed(
            battle,
            player,
            b.selection,
            ("Anti-infantry", KeyCode::KeyK, "K"),
            c.fire,
            Action::FireAntiInfantry,
            format!(
                "Fire the anti-infantry weapon at an infantry squad within {} (any direction, \
                 no loading): a hit wipes it out",
                rules.anti_infantry.tank_range
            ),
        ));
    }
    items
}

/// The mine button, at the hex under the pointer.
fn mine_item(b: &BarCtx) -> BarItem {
    let (battle, u) = (b.battle, b.u);
    let rules = battle.rules();
    let c = &rules.costs;
    match b.hovered {
        Some(h) => item(
            battle,
            b.player,
            "Mine",
            Some((KeyCode::KeyJ, "J")),
            Some(c.lay_mine),
            Action::LayMine(h),
            format!(
                "Lay an anti-tank mine at {}, the hex under the pointer ({} left): a vehicle \
                 entering it takes a strength {} hit on its {} armor",
                battle.label(h),
                u.mines_left,
                rules.mines.strength,
                rules.mines.armor_facing
            ),
        ),
        None => BarItem {
            label: "Mine".into(),
            key: Some(KeyCode::KeyJ),
            key_name: "J",
            cost: Some(c.lay_mine),
            action: Some(Action::EndActivation),
            why_not: Some(if u.build.mines > 0 {
                "Point at a hex next to the tank and press J".to_string()
            } else {
                format!("{} carries no mines (the Anti-Tank Mines upgrade)", u.name)
            }),
            help: "Lay an anti-tank mine".into(),
            odds_rule: None,
        },
    }
}

/// What an air strike does, when it comes in and how many are left, for its button.
fn air_strike_help(battle: &TankCommander, u: &Unit) -> String {
    let rules = battle.rules();
    let pool = battle.free_strikes(u.side);
    let aa = battle
        .anti_aircraft_words(u.side)
        .map_or(String::new(), |words| format!("; {words}"));
    format!(
        "it comes in at the start of next turn on a {}+ ({} in 6), one easier each turn \
         after, never on a 1{aa}; it hits the marked hex and a line of 1 to 6 hexes in a \
         rolled direction with strength {} ({})",
        rules.air_strike.need(1),
        7 - rules.air_strike.need(1),
        rules.air_strike.strength,
        if u.air_strike_ready || pool == 0 {
            "once per battle".to_string()
        } else {
            format!(
                "{} has {pool} free strike{} left, one a turn per tank",
                battle.side_name(u.side),
                if pool == 1 { "" } else { "s" }
            )
        }
    )
}

/// The air strike button, at the hex under the pointer.
fn air_strike_item(b: &BarCtx) -> BarItem {
    let (battle, u) = (b.battle, b.u);
    let c = &battle.rules().costs;
    let pool = battle.free_strikes(u.side);
    let strike_help = air_strike_help(battle, u);
    match b.hovered {
        Some(h) => item(
            battle,
            b.player,
            "Air strike",
            Some((KeyCode::KeyB, "B")),
            Some(c.air_strike),
            Action::CallAirStrike(h),
            format!("Mark {} for the air strike: {strike_help}", battle.label(h)),
        ),
        None => BarItem {
            label: "Air strike".into(),
            key: Some(KeyCode::KeyB),
            key_name: "B",
            cost: Some(c.air_strike),
            action: Some(Action::EndActivation),
            why_not: Some(if u.air_strike_ready || pool > 0 {
                "Point at any hex and press B".to_string()
            } else if u.build.air_support {
                format!("{} has already called its air strike", u.name)
            } else {
                format!("{} has no Air Support (an upgrade)", u.name)
            }),
            help: format!("Call the air strike: {strike_help}"),
            odds_rule: None,
        },
    }
}

/// The flare button of a night battle, at the hex under the pointer.
fn flare_item(b: &BarCtx) -> BarItem {
    let (battle, u) = (b.battle, b.u);
    let rules = battle.rules();
    let c = &rules.costs;
    let flare_help = format!(
        "it lights that hex and the hexes within {} of it for both sides until the turn \
         ends: targets there are seen at any range and without the night's +{} ({} left)",
        rules.night.flare_radius, rules.night.accuracy_penalty, u.flares_left
    );
    match b.hovered {
        Some(h) => item(
            battle,
            b.player,
            "Flare",
            Some((KeyCode::KeyY, "Y")),
            Some(c.flare),
            Action::FireFlare(h),
            format!("Fire a flare over {}: {flare_help}", battle.label(h)),
        ),
        None => BarItem {
            label: "Flare".into(),
            key: Some(KeyCode::KeyY),
            key_name: "Y",
            cost: Some(c.flare),
            action: Some(Action::EndActivation),
            why_not: Some(if u.flares_left > 0 {
                format!(
                    "Point at a hex within {} and press Y",
                    rules.night.flare_range
                )
            } else {
                format!("{} has fired all its flares", u.name)
            }),
            help: format!("Fire a flare: {flare_help}"),
            odds_rule: None,
        },
    }
}

/// The Lieutenant's button: he takes over the job of a killed crew member.
fn lieutenant_item(b: &BarCtx) -> BarItem {
    // The lieutenant's choice: the most useful killed role is offered; the unit card
    // offers each of them.
    let take_over = Role::BY_NEED
        .into_iter()
        .map(Action::TakeOver)
        .find(|a| b.battle.check(b.player, a).is_ok())
        .unwrap_or(Action::TakeOver(Role::Gunner));
    item(
        b.battle,
        b.player,
        "Lt. takes over",
        Some((KeyCode::Digit5, "5")),
        None,
        take_over,
        match take_over {
            Action::TakeOver(role) => format!(
                "The Lieutenant Commander takes over the killed {role}'s job for the rest \
                 of the battle, working as if wounded; or wait for a later death (free)"
            ),
            _ => String::new(),
        },
    )
}

/// The crew's once-a-battle abilities: commander, driver, gunner and loader.
fn crew_ability_items(b: &BarCtx) -> Vec<BarItem> {
    let (battle, player) = (b.battle, b.player);
    let dash = (1..=battle.rules().crew.dash_spaces)
        .rev()
        .map(|spaces| Action::UseAbility(Ability::MoveMoveMove { spaces }))
        .find(|a| battle.check(player, a).is_ok())
        .unwrap_or(Action::UseAbility(Ability::MoveMoveMove { spaces: 1 }));
    let mut items = Vec::new();
    for (n, (ability, key)) in [
        (
            Action::UseAbility(Ability::BoomingVoice),
            (KeyCode::Digit1, "1"),
        ),
        (dash, (KeyCode::Digit2, "2")),
        (
            Action::UseAbility(Ability::BringItDown),
            (KeyCode::Digit3, "3"),
        ),
        (
            Action::UseAbility(Ability::QuickLoad),
            (KeyCode::Digit4, "4"),
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let Action::UseAbility(a) = ability else {
            continue;
        };
        let help = match n {
            0 => "Commander: extra action points this turn",
            1 => "Driver: one action carries the tank several hexes straight ahead",
            2 => "Gunner: hit on 2+ this turn",
            _ => "Loader: loading costs nothing this turn",
        };
        let label = match a {
            Ability::MoveMoveMove { spaces } => format!("{} ({spaces})", a.title()),
            _ => a.title().to_string(),
        };
        items.push(item(
            battle,
            player,
            label,
            Some(key),
            None,
            ability,
            format!("{help} (once per battle)"),
        ));
    }
    items
}

/// The smoke launcher's button, at the hex under the pointer.
fn smoke_item(
    battle: &TankCommander,
    player: PlayerId,
    u: &Unit,
    hovered: Option<hexx::Hex>,
) -> BarItem {
    let rules = battle.rules();
    let c = &rules.costs;
    // The label stays "Smoke" whatever hex is pointed at: a button that changed its width
    // with the pointer would move the others under it.
    match hovered {
        Some(h) => item(
            battle,
            player,
            "Smoke",
            Some((KeyCode::KeyG, "G")),
            Some(c.smoke),
            Action::DeploySmoke(h),
            format!(
                "Fire the smoke launcher at {}, the hex under the pointer",
                battle.label(h)
            ),
        ),
        None => BarItem {
            label: "Smoke".into(),
            key: Some(KeyCode::KeyG),
            key_name: "G",
            cost: Some(c.smoke),
            action: Some(Action::EndActivation),
            why_not: Some(if u.build.smoke_launcher {
                format!("Point at a hex within {} and press G", rules.smoke.range)
            } else {
                format!("{} has no smoke launcher (an upgrade)", u.name)
            }),
            help: "Fire the smoke launcher".into(),
            odds_rule: None,
        },
    }
}

/// The action bar of an APC: drive, turn, its anti-infantry weapon, smoke, fire.
fn apc_bar_items(b: &BarCtx) -> Vec<BarItem> {
    let (battle, player, u) = (b.battle, b.player, b.u);
    let rules = battle.rules();
    let c = &rules.costs;
    let turn = |rotation| Action::Turn {
        rotation,
        turret_follows: true,
    };
    let mut items = vec![
        item(
            battle,
            player,
            "Move",
            Some((KeyCode::KeyM, "M")),
            Some(battle.move_cost(u)),
            Action::Move,
            "Drive one hex straight ahead (or click a blue hex to drive there); \
             the squads inside ride along",
        ),
        item(
            battle,
            player,
            "Turn left",
            Some((KeyCode::Comma, ",")),
            Some(c.turn),
            turn(Rotation::Left),
            "Turn the APC 60° left",
        ),
        item(
            battle,
            player,
            "Turn right",
            Some((KeyCode::Period, ".")),
            Some(c.turn),
            turn(Rotation::Right),
            "Turn the APC 60° right",
        ),
        aimed(
            battle,
            player,
            b.selection,
            ("Anti-infantry", KeyCode::KeyK, "K"),
            c.fire,
            Action::FireAntiInfantry,
            format!(
                "Fire the anti-infantry weapon at an infantry squad within {} (any direction, \
                 no loading): a hit wipes it out",
                rules.apc.anti_infantry_range
            ),
        ),
    ];
    if u.build.smoke_launcher {
        items.push(smoke_item(battle, player, u, b.hovered));
    }
    items.push(item(
        battle,
        player,
        "Extinguish",
        Some((KeyCode::KeyV, "V")),
        Some(c.extinguish),
        Action::Extinguish,
        "Put out the fire on this APC",
    ));
    items.push(end_activation_item(battle, player));
    items
}

/// A button for an action at the aimed-at unit; without one, it says to aim first.
fn aimed(
    battle: &TankCommander,
    player: PlayerId,
    selection: &Selection,
    (label, key, key_name): (&str, KeyCode, &'static str),
    cost: u8,
    action: impl Fn(UnitId) -> Action,
    help: String,
) -> BarItem {
    match selection.aim {
        Some(t) => {
            let mut it = item(
                battle,
                player,
                label,
                Some((key, key_name)),
                Some(cost),
                action(t),
                format!("{help}\nAt {}", battle.unit(t).name),
            );
            if let Some(odds) = battle
                .activation()
                .and_then(|a| super::highlights::target_odds(battle, a.unit, t))
            {
                it.help = format!("{}\n{}\n{}", it.help, odds.label, odds.why);
                it.odds_rule = Some(odds.rule);
            }
            it
        }
        None => BarItem {
            label: label.into(),
            key: Some(key),
            key_name,
            cost: Some(cost),
            action: Some(Action::EndActivation),
            why_not: Some("Click an enemy unit to aim at it first".into()),
            help,
            odds_rule: None,
        },
    }
}

/// The action bar of an infantry squad: its weapons, cover, objectives, mines and rides.
fn squad_bar_items(b: &BarCtx) -> Vec<BarItem> {
    let mut items = vec![squad_step_item(b)];
    items.extend(squad_weapon_items(b));
    items.extend(squad_field_items(b));
    items.push(disarm_item(b));
    items.push(ride_item(b));
    items.push(end_activation_item(b.battle, b.player));
    items
}

/// A squad's Step button: it only says to click a blue hex.
fn squad_step_item(b: &BarCtx) -> BarItem {
    BarItem {
        label: "Step".into(),
        key: None,
        key_name: "",
        cost: Some(b.battle.move_cost(b.u)),
        action: Some(Action::EndActivation),
        why_not: Some("Click a blue hex to move there".into()),
        help: format!(
            "A squad moves one hex in any direction, up to {} a turn: click a blue hex",
            b.u.move_cap(b.battle.rules())
        ),
        odds_rule: None,
    }
}

/// A squad's weapons: its two missiles and its anti-infantry weapon.
fn squad_weapon_items(b: &BarCtx) -> Vec<BarItem> {
    let (battle, player, selection) = (b.battle, b.player, b.selection);
    let rules = battle.rules();
    let c = &rules.costs;
    let missile = |round: Round| move |t: UnitId| Action::FireMissile(t, round);
    let reach = rules.infantry.stats.gun_range;
    vec![
        aimed(
            battle,
            player,
            selection,
            ("Missile AT", KeyCode::KeyF, "F"),
            c.fire,
            missile(Round::At),
            format!(
                "Fire an anti-tank missile (strength {}) at a vehicle within {reach}, in any \
                 direction, no loading",
                rules.firing.at_strength
            ),
        ),
        aimed(
            battle,
            player,
            selection,
            ("Missile HE", KeyCode::KeyH, "H"),
            c.fire,
            missile(Round::He),
            format!(
                "Fire a high-explosive missile (strength {}, may start a fire) at a vehicle within \
                 {reach}",
                rules.firing.he_strength
            ),
        ),
        aimed(
            battle,
            player,
            selection,
            ("Anti-infantry", KeyCode::KeyK, "K"),
            c.fire,
            Action::FireAntiInfantry,
            format!(
                "Fire the anti-infantry weapon at a squad within {}: a hit wipes it out",
                rules.anti_infantry.infantry_range
            ),
        ),
    ]
}

/// A squad's field work: taking cover and capturing an objective.
fn squad_field_items(b: &BarCtx) -> Vec<BarItem> {
    let rules = b.battle.rules();
    let c = &rules.costs;
    vec![
        item(
            b.battle,
            b.player,
            "Take cover",
            Some((KeyCode::KeyC, "C")),
            Some(c.take_cover),
            Action::TakeCover,
            format!(
                "Enemies need {} more to hit this squad until the next turn; it cannot move or \
                 fire meanwhile",
                rules.infantry.cover_penalty
            ),
        ),
        item(
            b.battle,
            b.player,
            "Capture",
            Some((KeyCode::KeyO, "O")),
            Some(c.capture),
            Action::Capture,
            "Capture the objective this squad stands on; its side holds it until the enemy \
             captures it back",
        ),
    ]
}

/// A squad's button to sweep for or disarm a mine at the hex under the pointer.
fn disarm_item(b: &BarCtx) -> BarItem {
    let c = &b.battle.rules().costs;
    let (verb, what) = if b.battle.hidden_mines() {
        (
            "Sweep",
            "Sweep the hex under the pointer for mines (next to the squad)",
        )
    } else {
        (
            "Disarm",
            "Disarm the mine in the hex under the pointer (next to the squad)",
        )
    };
    match b.hovered {
        Some(h) => item(
            b.battle,
            b.player,
            verb,
            Some((KeyCode::KeyI, "I")),
            Some(c.disarm),
            Action::Disarm(h),
            what,
        ),
        None => BarItem {
            label: verb.into(),
            key: Some(KeyCode::KeyI),
            key_name: "I",
            cost: Some(c.disarm),
            action: Some(Action::EndActivation),
            why_not: Some("Point at a hex next to the squad and press I".into()),
            help: what.into(),
            odds_rule: None,
        },
    }
}

/// A squad's button to mount the vehicle under the pointer, or to dismount there.
fn ride_item(b: &BarCtx) -> BarItem {
    let (battle, u) = (b.battle, b.u);
    let c = &battle.rules().costs;
    let ride = match (u.riding, b.hovered) {
        (Some(_), Some(h)) => Some((
            "Dismount",
            Action::Dismount(h),
            "Climb out into the hex under the pointer, next to the carrier (once per turn)",
        )),
        (None, Some(h)) => battle.unit_at(h).map(|t| {
            (
                "Mount",
                Action::Mount(t.id),
                if t.carries_inside() {
                    "Climb into the APC under the pointer: safe inside from every shot (once per turn)"
                } else {
                    "Climb onto the tank under the pointer; a hit on the tank kills the squad (once per turn)"
                },
            )
        }),
        (_, None) => None,
    };
    match ride {
        Some((label, action, help)) => item(
            battle,
            b.player,
            label,
            Some((KeyCode::KeyP, "P")),
            Some(c.mount),
            action,
            help,
        ),
        None => BarItem {
            label: if u.riding.is_some() {
                "Dismount"
            } else {
                "Mount"
            }
            .into(),
            key: Some(KeyCode::KeyP),
            key_name: "P",
            cost: Some(c.mount),
            action: Some(Action::EndActivation),
            why_not: Some(if u.riding.is_some() {
                "Point at an empty hex next to the carrier and press P".into()
            } else {
                "Point at a tank or APC of your side next to the squad and press P".into()
            }),
            help: "Mount up on a tank or into an APC, or dismount".into(),
            odds_rule: None,
        },
    }
}

/// What the unit card's sections are drawn from.
struct CardCtx<'a> {
    battle: &'a TankCommander,
    id: UnitId,
    u: &'a Unit,
    /// The unit's activation, when it is the active unit.
    act: Option<&'a Activation>,
    /// Who may play from the card now (nobody during a replay).
    deciding: Option<PlayerId>,
}

/// The card of the selected unit: who and where it is, its figures, crew and upgrades.
fn draw_unit_card(
    mut contexts: EguiContexts,
    session: Res<Session<TankCommander>>,
    selection: Res<Selection>,
    mut orders: MessageWriter<PanelOrder<TankCommander>>,
) -> Result {
    let deciding = session.deciding().filter(|_| session.replay.is_none());
    let battle = session.state();
    let Some(id) = selection.unit else {
        return Ok(());
    };
    let u = battle.unit(id);
    let card = CardCtx {
        battle,
        id,
        u,
        act: battle.activation().filter(|a| a.unit == id),
        deciding,
    };
    egui::Window::new("Unit card")
        .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
        .resizable(false)
        .collapsible(true)
        .default_width(280.0)
        .max_width(300.0)
        .show(contexts.ctx_mut()?, |ui| {
            card_header(ui, &card);
            card_status(ui, &card);
            egui::Grid::new("card stats")
                .num_columns(2)
                .show(ui, |ui| card_stats(ui, &card));
            if !u.crew.is_empty() {
                card_crew(ui, &card, &mut orders);
            }
            card_upgrades(ui, u);
        });
    Ok(())
}

/// The card's header: the unit's name, what and where it is, and its type's description.
fn card_header(ui: &mut egui::Ui, card: &CardCtx) {
    let (battle, u) = (card.battle, card.u);
    ui.label(
        egui::RichText::new(format!(
            "{} {}",
            crate::client::frame::hud::seat_mark(u.side),
            u.name
        ))
        .size(17.0)
        .strong()
        .color(color32(side_color(u.side.0))),
    );
    ui.label(unit_whereabouts(battle, u));
    // A unit type made in the rules table says what sets it apart.
    if let Some(t) = u
        .unit_type
        .as_ref()
        .and_then(|t| battle.rules().unit_types.get(t))
    {
        let m = t.movement;
        let traits: Vec<&str> = [
            (m.crosses_water, "crosses water"),
            (m.ignores_rough, "mud and rubble cost no extra"),
            (m.free_turns, "turns cost nothing"),
        ]
        .into_iter()
        .filter_map(|(on, what)| on.then_some(what))
        .collect();
        ui.label(
            egui::RichText::new(if traits.is_empty() {
                t.description.clone()
            } else {
                format!("{} ({})", t.description, traits.join(", "))
            })
            .italics()
            .small(),
        );
    }
}

/// The card's second line: the unit's side, kind, hex and facings.
fn unit_whereabouts(battle: &TankCommander, u: &Unit) -> String {
    if u.is_infantry() {
        format!(
            "{} · infantry squad · at {}",
            battle.side_name(u.side),
            battle.label(u.at)
        )
    } else if u.is_apc() {
        format!(
            "{} · APC · at {} · facing {}",
            battle.side_name(u.side),
            battle.label(u.at),
            u.facing
        )
    } else if u.is_aa_gun() {
        format!(
            "{} · AA gun emplacement · at {}",
            battle.side_name(u.side),
            battle.label(u.at)
        )
    } else {
        format!(
            "{}{} · at {} · hull facing {} · turret {}",
            battle.side_name(u.side),
            u.unit_type
                .as_ref()
                .map_or(String::new(), |t| format!(" · {t}")),
            battle.label(u.at),
            u.facing,
            u.turret
        )
    }
}

/// The card's status line: ready, active, done for the turn, knocked out or destroyed.
fn card_status(ui: &mut egui::Ui, card: &CardCtx) {
    let act = card.act;
    let status = match card.u.status {
        Status::Active if card.battle.has_activated(card.id) && act.is_none() => {
            "has acted this turn"
        }
        Status::Active if act.is_some() => "ACTIVE",
        Status::Active => "ready",
        Status::Disabled => "knocked out",
        Status::Destroyed => "destroyed",
    };
    ui.label(format!("Status: {status}"));
}

/// The rows of the card's figures: armor, accuracy, hull, action points, the weapons of
/// its kind and fire.
fn card_stats(ui: &mut egui::Ui, card: &CardCtx) {
    let (battle, u) = (card.battle, card.u);
    let rules = battle.rules();
    let a = u.armor;
    ui.label("Armor");
    ui.label(format!(
        "front {} · side {} · rear {}",
        a.front, a.side, a.rear
    ));
    ui.end_row();
    if !u.is_aa_gun() {
        ui.label("Accuracy");
        ui.label(format!("hits on {}+", u.gun_need(rules)));
        ui.end_row();
    }
    ui.label("Hull");
    ui.label(format!("{} of {}", u.hull, u.base.hull));
    ui.end_row();
    if !u.is_aa_gun() {
        ui.label("Action points");
        ui.label(match card.act {
            Some(a) => format!(
                "{} left · moved {} of {}",
                a.action_points,
                a.moves,
                u.move_cap(rules)
            ),
            None => format!("{} per activation", u.action_points(rules)),
        });
        ui.end_row();
    }
    if u.is_infantry() {
        squad_rows(ui, battle, u);
    } else if u.is_aa_gun() {
        aa_gun_rows(ui, battle, u);
    } else if u.is_apc() {
        apc_rows(ui, battle, u);
    } else {
        gun_rows(ui, battle, u);
    }
    ui.label("Fire");
    ui.label(if u.on_fire {
        egui::RichText::new("ON FIRE").color(theme::ON_FIRE_TEXT)
    } else {
        egui::RichText::new("none")
    });
    ui.end_row();
}

/// A squad's rows on the card: its weapons and where it is safe.
fn squad_rows(ui: &mut egui::Ui, battle: &TankCommander, u: &Unit) {
    let rules = battle.rules();
    ui.label("Weapons");
    ui.label(format!(
        "missiles AT/HE range {} · anti-infantry range {}",
        u.gun_range(rules),
        rules.anti_infantry.infantry_range
    ));
    ui.end_row();
    ui.label("Squad");
    ui.label(match u.riding {
        Some(c) if battle.unit(c).carries_inside() => {
            format!("inside {}: cannot be targeted", battle.unit(c).name)
        }
        Some(c) => format!("riding on {}", battle.unit(c).name),
        None if u.in_cover => "taking cover until the next turn".into(),
        None => battle.untargetable(u).map_or("in the open".into(), |_| {
            "next to a friendly tank: cannot be targeted".into()
        }),
    });
    ui.end_row();
}

/// An AA gun's row on the card: how its side's guns stand against enemy aircraft.
fn aa_gun_rows(ui: &mut egui::Ui, battle: &TankCommander, u: &Unit) {
    let rules = battle.rules();
    ui.label("Against aircraft");
    let standing = battle.aa_guns_against(PlayerId(1 - u.side.0.min(1)));
    ui.label(format!(
        "{standing} gun{} of {} stand{}: enemy strikes are driven off on {}+ \
         as they come in",
        if standing == 1 { "" } else { "s" },
        battle.side_name(u.side),
        if standing == 1 { "s" } else { "" },
        rules.aa_gun.shoot_down_need(standing)
    ));
    ui.end_row();
}

/// An APC's rows on the card: its anti-infantry weapon and who rides inside.
fn apc_rows(ui: &mut egui::Ui, battle: &TankCommander, u: &Unit) {
    let rules = battle.rules();
    ui.label("Anti-infantry");
    ui.label(format!(
        "range {} · any direction",
        rules.apc.anti_infantry_range
    ));
    ui.end_row();
    let inside: Vec<&str> = battle.riders(u.id).map(|r| r.name.as_str()).collect();
    ui.label("Carrying");
    ui.label(if inside.is_empty() {
        format!("nobody (room for {})", rules.apc.capacity)
    } else {
        format!(
            "{} of {}: {}",
            inside.len(),
            rules.apc.capacity,
            inside.join(", ")
        )
    });
    ui.end_row();
}

/// A tank's rows on the card: its gun, the arc it covers and its anti-infantry weapon.
fn gun_rows(ui: &mut egui::Ui, battle: &TankCommander, u: &Unit) {
    let rules = battle.rules();
    ui.label("Gun");
    ui.label(format!(
        "range {} · loaded {}",
        u.gun_range(rules),
        u.loaded.map_or("nothing".to_string(), |r| r.to_string())
    ))
    .on_hover_text(
        "The yellow outlines on the board: the hexes its turret covers within this range",
    );
    ui.end_row();
    ui.label("");
    ui.label(
        egui::RichText::new("yellow outlines: its turret's arc in range")
            .small()
            .color(theme::ARC_TEXT),
    );
    ui.end_row();
    if let Some(range) = u.anti_infantry_range(rules) {
        ui.label("Anti-infantry");
        ui.label(format!("range {range} · any direction"));
        ui.end_row();
    }
}

/// The card's crew section: each member with their ability and condition, then the jobs
/// that suffer.
fn card_crew(
    ui: &mut egui::Ui,
    card: &CardCtx,
    orders: &mut MessageWriter<PanelOrder<TankCommander>>,
) {
    ui.separator();
    ui.label(egui::RichText::new("Crew").strong());
    egui::Grid::new("card crew").num_columns(2).show(ui, |ui| {
        for m in &card.u.crew {
            crew_row(ui, card, m, orders);
        }
    });
    let u = card.u;
    let impaired: Vec<String> = [Role::Commander, Role::Driver, Role::Gunner, Role::Loader]
        .into_iter()
        .filter(|r| u.role_state(*r) != RoleState::Healthy)
        .map(|r| {
            format!(
                "{r} {}",
                if u.role_state(r) == RoleState::Out {
                    "out"
                } else {
                    "impaired"
                }
            )
        })
        .collect();
    if !impaired.is_empty() {
        ui.label(egui::RichText::new(impaired.join(" · ")).color(theme::IMPAIRED_TEXT));
    }
}

/// One crew member's row: role, name and ability (or take-over button), and condition.
fn crew_row(
    ui: &mut egui::Ui,
    card: &CardCtx,
    m: &CrewMember,
    orders: &mut MessageWriter<PanelOrder<TankCommander>>,
) {
    let color = match m.wounds {
        0 => theme::CREW_WELL,
        1 => theme::CREW_WOUNDED,
        _ => theme::CREW_DOWN,
    };
    // The member and, under the name, their ability: two columns
    // keep the card narrow enough to leave the banner clear.
    ui.vertical(|ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        let name = ui.label(format!(
            "{}: {}{}",
            m.role,
            if m.name.is_empty() { "—" } else { &m.name },
            if m.veteran { " ★" } else { "" }
        ));
        if m.veteran {
            name.on_hover_text(format!(
                "A veteran: may use the crew ability {} times a battle",
                card.battle.rules().campaign.veteran_ability_uses
            ));
        }
        crew_ability(ui, card, m, orders);
    });
    ui.label(egui::RichText::new(m.condition()).color(color));
    ui.end_row();
}

/// Under a crew member's name: the Lieutenant's take-over button, or the state of the
/// member's ability, or the job the Lieutenant now does.
fn crew_ability(
    ui: &mut egui::Ui,
    card: &CardCtx,
    m: &CrewMember,
    orders: &mut MessageWriter<PanelOrder<TankCommander>>,
) {
    let u = card.u;
    let ability = Ability::of_role(m.role);
    let can_take_over = card.battle.take_over_problem(u, m.role).is_none();
    match ability {
        _ if can_take_over => take_over_button(ui, card, m.role, orders),
        Some(a) if m.ability_used => {
            ui.label(
                egui::RichText::new(format!("{} used", a.title()))
                    .small()
                    .weak(),
            );
        }
        Some(a) if m.ability_uses_left() > 1 => {
            ui.label(
                egui::RichText::new(format!(
                    "{} ready ({} left)",
                    a.title(),
                    m.ability_uses_left()
                ))
                .small(),
            );
        }
        Some(a) => {
            ui.label(egui::RichText::new(format!("{} ready", a.title())).small());
        }
        None if u.lieutenant_covers.is_some() && m.is_alive() => {
            ui.label(
                egui::RichText::new(format!(
                    "doing the {}'s job",
                    u.lieutenant_covers.unwrap_or(Role::Lieutenant)
                ))
                .small(),
            );
        }
        None => {}
    }
}

/// The button by which the Lieutenant takes over `role`'s job; greyed out with the rule
/// that forbids it when it cannot be played now.
fn take_over_button(
    ui: &mut egui::Ui,
    card: &CardCtx,
    role: Role,
    orders: &mut MessageWriter<PanelOrder<TankCommander>>,
) {
    let (battle, deciding) = (card.battle, card.deciding);
    let take_over = Action::TakeOver(role);
    let why = deciding
        .ok_or_else(|| "not your turn".to_string())
        .and_then(|p| battle.check(p, &take_over).map_err(|r| r.why));
    let button = ui.add_enabled(why.is_ok(), egui::Button::new("Lieutenant takes over"));
    let button = match &why {
        Err(why) => {
            let rule = deciding
                .and_then(|p| battle.check(p, &take_over).err())
                .map(|r| r.rule)
                .unwrap_or("tc.intro.activations");
            let link = crate::client::frame::rules_ref::refusal_link(
                ui,
                &button,
                crate::rules::GameKind::TankCommander,
                rule,
            );
            button.on_disabled_hover_text(format!(
                "During this tank's activation the Lieutenant \
                 Commander can take over this job.\nNot now: \
                 {why}\n{link}"
            ))
        }
        Ok(()) => button.on_hover_text(
            "He does this job for the rest of the battle, as if \
             wounded (free); or wait for a later death",
        ),
    };
    if button.clicked()
        && let Some(p) = deciding
    {
        orders.write(PanelOrder(Order::Play(p, take_over)));
    }
}

/// The card's upgrades line.
fn card_upgrades(ui: &mut egui::Ui, u: &Unit) {
    let b = u.build;
    // Air support and mines say how much of them is left.
    let mut ups: Vec<String> = b
        .switched_on()
        .into_iter()
        .filter(|n| *n != "air support")
        .map(str::to_string)
        .collect();
    if b.air_support {
        ups.push(if u.air_strike_ready {
            "air support (ready)".into()
        } else {
            "air support (called)".into()
        });
    }
    if b.mines > 0 {
        ups.push(format!("mines ({} of {} left)", u.mines_left, b.mines));
    }
    if !ups.is_empty() {
        ui.separator();
        ui.add(egui::Label::new(format!("Upgrades: {}", ups.join(", "))).wrap());
    }
}

/// What the action bar's items depend on: the match, the player, the selection and the
/// hex under the pointer.
type BarKey = (u64, u64, PlayerId, Selection, Option<hexx::Hex>);

/// The action bar: every kind of action with its cost and shortcut. It keeps one size,
/// and a replay or a bot's turn shows it disabled rather than taking it away.
fn draw_action_bar(
    mut contexts: EguiContexts,
    session: Res<Session<TankCommander>>,
    selection: Res<Selection>,
    hovered: Res<Hovered>,
    busy: Res<Busy>,
    time: Res<Time>,
    mut orders: MessageWriter<PanelOrder<TankCommander>>,
    mut end_turn: ResMut<EndTurn>,
    mut items: Local<Option<(BarKey, Vec<BarItem>)>>,
    mut under: ResMut<crate::client::frame::rules_ref::RuleUnderPointer>,
    (mut ask, graphics, mut panels): (
        ResMut<super::input::AskEnd>,
        Option<Res<crate::client::table::graphics::Graphics>>,
        ResMut<crate::client::frame::hud::Panels>,
    ),
) -> Result {
    if session.replay.is_some() || !session.interactive {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let battle = session.state();
    let animating = busy.busy(time.elapsed_secs());
    // An end asked for with actions left: yes or no, above the bar.
    if let Some(ending) = ask.0.clone() {
        draw_ask_end(ctx, &ending, &mut ask, &mut orders, &mut end_turn);
    }
    // Folded to one line, its keys still work.
    let size = if panels.bar_folded {
        [760.0, 18.0]
    } else {
        [760.0, 92.0]
    };
    egui::Window::new("action bar")
        .title_bar(false)
        .resizable(false)
        .fixed_size(size)
        .anchor(egui::Align2::CENTER_BOTTOM, [-120.0, -4.0])
        .show(ctx, |ui| {
            ui.set_min_size(size.into());
            if panels.bar_folded {
                draw_folded_bar(ui, &mut panels);
                return;
            }
            let player = session
                .deciding()
                .or_else(|| battle.to_act().first().copied());
            let Some(player) = player else {
                ui.label("The battle is over.");
                return;
            };
            let waiting = bar_waiting(&session, player, animating);
            let items = cached_bar_items(&mut items, &session, player, &selection, hovered.0);
            ui.horizontal_wrapped(|ui| {
                if crate::client::frame::hud::fold_button(ui, panels.bar_folded, "the action bar") {
                    panels.bar_folded = !panels.bar_folded;
                }
                for it in items {
                    let button = bar_button(ui, battle, player, it, &waiting, &mut under);
                    if button.clicked() {
                        press_bar_item(
                            battle,
                            player,
                            it,
                            &mut ask,
                            &mut orders,
                            &mut end_turn,
                            graphics.as_deref(),
                        );
                    }
                }
            });
        });
    Ok(())
}

/// The question asked before ending with actions left, with its yes and no.
fn draw_ask_end(
    ctx: &egui::Context,
    ending: &super::input::Ending,
    ask: &mut ResMut<super::input::AskEnd>,
    orders: &mut MessageWriter<PanelOrder<TankCommander>>,
    end_turn: &mut ResMut<EndTurn>,
) {
    egui::Window::new("End with actions left?")
        .id(egui::Id::new("ask end"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, [-120.0, -110.0])
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(&ending.question).strong());
            ui.horizontal(|ui| {
                let what = if ending.action.is_some() {
                    "End the activation [Y]"
                } else {
                    "End the turn [Y]"
                };
                if ui.button(what).clicked() {
                    ask.0 = None;
                    match ending.action {
                        Some(action) => {
                            orders.write(PanelOrder(Order::Play(ending.player, action)));
                        }
                        None => end_turn.0 = Some(ending.player),
                    }
                }
                if ui.button("Keep playing [N, Esc]").clicked() {
                    ask.0 = None;
                }
            });
            ui.label(
                egui::RichText::new(
                    "The Graphics and settings window (menu) can turn this question off.",
                )
                .small()
                .weak(),
            );
        });
}

/// The folded action bar: its fold button and a word that its keys still work.
fn draw_folded_bar(ui: &mut egui::Ui, panels: &mut ResMut<crate::client::frame::hud::Panels>) {
    ui.horizontal(|ui| {
        if crate::client::frame::hud::fold_button(ui, panels.bar_folded, "the action bar") {
            panels.bar_folded = !panels.bar_folded;
        }
        ui.label(egui::RichText::new("Actions (folded: their keys still work)").weak());
    });
}

/// Why no button can be pressed now, whatever the rules say: an animation or a bot.
fn bar_waiting(
    session: &Session<TankCommander>,
    player: PlayerId,
    animating: bool,
) -> Option<String> {
    if animating {
        Some("Wait for the animation (Space skips it)".to_string())
    } else if session.deciding() != Some(player) {
        Some(format!(
            "{} is a bot: it is deciding",
            session.state().side_name(player)
        ))
    } else {
        None
    }
}

/// The bar's items, asked of the rules again only when something changed, not every frame.
fn cached_bar_items<'a>(
    cache: &'a mut Option<(BarKey, Vec<BarItem>)>,
    session: &Session<TankCommander>,
    player: PlayerId,
    selection: &Selection,
    hovered: Option<hexx::Hex>,
) -> &'a [BarItem] {
    // Each item asks the rules whether it may be played: only when something
    // changed, not every frame.
    let key = (
        session.generation,
        session.revision,
        player,
        selection.clone(),
        hovered,
    );
    if cache.as_ref().is_none_or(|(k, _)| *k != key) {
        *cache = Some((key, bar_items(session.state(), player, selection, hovered)));
    }
    cache.as_ref().map_or(&[][..], |(_, i)| i.as_slice())
}

/// One button of the bar, with its cost and key, greyed out with the rule that refuses it,
/// or with the odds it shoots at.
fn bar_button(
    ui: &mut egui::Ui,
    battle: &TankCommander,
    player: PlayerId,
    it: &BarItem,
    waiting: &Option<String>,
    under: &mut ResMut<crate::client::frame::rules_ref::RuleUnderPointer>,
) -> egui::Response {
    let mut text = it.label.clone();
    if let Some(cost) = it.cost {
        text.push_str(&format!(" · {cost} AP"));
    }
    if !it.key_name.is_empty() {
        text.push_str(&format!(" [{}]", it.key_name));
    }
    let why = waiting.clone().or(it.why_not.clone());
    let button = ui.add_enabled(why.is_none(), egui::Button::new(text));
    // The rule that refuses it, linked to the rules reference.
    let rule = it
        .why_not
        .as_ref()
        .and(it.action)
        .and_then(|action| battle.check(player, &action).err().map(|r| r.rule));
    match (&why, rule) {
        (Some(why), Some(id)) => {
            let link = crate::client::frame::rules_ref::refusal_link(
                ui,
                &button,
                crate::rules::GameKind::TankCommander,
                id,
            );
            button.on_disabled_hover_text(format!("{}\nNot now: {why}\n{link}", it.help))
        }
        (Some(why), None) => button.on_disabled_hover_text(format!("{}\nNot now: {why}", it.help)),
        (None, _) => match it.odds_rule {
            Some(id) => {
                if button.contains_pointer() {
                    under.0 = Some((crate::rules::GameKind::TankCommander, id));
                }
                button.on_hover_text(format!(
                    "{}\n§ {id}: F1 opens the rule these odds apply",
                    it.help
                ))
            }
            None => button.on_hover_text(&it.help),
        },
    }
}

/// A pressed button: its action is played, or the turn ended, unless ending with actions
/// left asks first.
fn press_bar_item(
    battle: &TankCommander,
    player: PlayerId,
    it: &BarItem,
    ask: &mut ResMut<super::input::AskEnd>,
    orders: &mut MessageWriter<PanelOrder<TankCommander>>,
    end_turn: &mut ResMut<EndTurn>,
    graphics: Option<&crate::client::table::graphics::Graphics>,
) {
    let ending = matches!(it.action, None | Some(Action::EndActivation));
    if ending
        && !super::input::end_or_ask(
            battle,
            player,
            it.action,
            super::input::asks_before_ending(graphics),
            ask,
        )
    {
        return;
    }
    match it.action {
        Some(action) => {
            orders.write(PanelOrder(Order::Play(player, action)));
        }
        None => end_turn.0 = Some(player),
    }
}

/// What is under the pointer: the hex, its terrain and effect, and any unit's stats.
fn draw_hover(
    mut contexts: EguiContexts,
    session: Res<Session<TankCommander>>,
    hovered: Res<Hovered>,
    highlights: Res<Highlights>,
    mut under: ResMut<crate::client::frame::rules_ref::RuleUnderPointer>,
) -> Result {
    let Some(hex) = hovered.0 else { return Ok(()) };
    let battle = session.state();
    if !battle.board().contains(hex) {
        return Ok(());
    }
    egui::Window::new("Under the pointer")
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -120.0])
        .resizable(false)
        .title_bar(false)
        .show(contexts.ctx_mut()?, |ui| {
            hover_terrain(ui, battle, hex);
            for m in super::shown_mines(&session).iter().filter(|m| m.at == hex) {
                ui.label(
                    egui::RichText::new(format!(
                        "Mined by {}: a vehicle entering takes a strength {} hit",
                        battle.side_name(m.owner),
                        battle.rules().mines.strength
                    ))
                    .color(theme::MINE_TEXT),
                );
            }
            for strike in battle.air_strikes() {
                hover_air_strike(ui, battle, strike, hex);
            }
            hover_highlights(ui, &highlights, hex);
            hover_unit(ui, battle, &highlights, hex, &mut under);
            hover_sight(ui, battle, &highlights, hex);
        });
    Ok(())
}

/// The hex's first line: its name, terrain, what the terrain does and any smoke.
fn hover_terrain(ui: &mut egui::Ui, battle: &TankCommander, hex: hexx::Hex) {
    let terrain = battle.terrain(hex);
    let effect = match terrain {
        Terrain::Mud | Terrain::Rubble => " (2 AP to leave)",
        Terrain::Forest => " (−1 to hit units in or behind it)",
        Terrain::Building => " (impassable, blocks sight; can be shot to rubble)",
        Terrain::Hill => " (−1 to hit units behind it; units on it are hit on the rear)",
        Terrain::Water => " (no unit enters it; it hides nothing)",
        Terrain::Open => "",
    };
    let smoke = if battle.smoke(hex) {
        " · smoke (blocks sight)"
    } else {
        ""
    };
    ui.strong(format!("{} · {terrain}{effect}{smoke}", battle.label(hex)));
}

/// An air strike's line, when the hex is its mark or in its scatter.
fn hover_air_strike(ui: &mut egui::Ui, battle: &TankCommander, strike: &AirStrike, hex: hexx::Hex) {
    let chance = battle.air_strike_chance(strike);
    if strike.at == hex {
        let aa = match battle.anti_aircraft_need(strike.side) {
            Some((need, guns)) => format!(
                "; {guns} AA gun{} drive{} it off on {need}+, so it lands {} \
                 ({:.0}%)",
                if guns == 1 { "" } else { "s" },
                if guns == 1 { "s" } else { "" },
                battle.air_strike_lands_chance(strike),
                battle.air_strike_lands_chance(strike).to_f64() * 100.0
            ),
            None => String::new(),
        };
        ui.label(
            egui::RichText::new(format!(
                "Air strike marked by {}: {chance} ({:.0}%) to come in at the \
                 start of next turn{aa}",
                battle.side_name(strike.side),
                chance.to_f64() * 100.0
            ))
            .color(theme::AIR_STRIKE_TEXT),
        );
    } else if let Some((_, p)) = battle
        .air_strike_reach(strike.at)
        .into_iter()
        .find(|(h, _)| *h == hex)
    {
        ui.label(
            egui::RichText::new(format!(
                "In the scatter of the air strike on {}: hit {p} of the times it \
                 comes in",
                battle.label(strike.at)
            ))
            .color(theme::HIT_CHANCE_TEXT),
        );
    }
}

/// What the selected unit's highlights say of the hex: in its arc, or a route's end.
fn hover_highlights(ui: &mut egui::Ui, highlights: &Highlights, hex: hexx::Hex) {
    if highlights.arc.contains(&hex) {
        ui.label(
            egui::RichText::new(
                "Yellow outline: within the selected unit's turret arc and gun range",
            )
            .color(theme::ARC_TEXT),
        );
    }
    if let Some(route) = highlights.routes.iter().find(|r| r.to == hex) {
        ui.label(format!(
            "Click to drive here: {} AP ({} orders)",
            route.cost,
            route.actions.len()
        ));
    }
}

/// The unit in the hex, if any: its figures and, for a vehicle, the odds of a shot at it.
fn hover_unit(
    ui: &mut egui::Ui,
    battle: &TankCommander,
    highlights: &Highlights,
    hex: hexx::Hex,
    under: &mut ResMut<crate::client::frame::rules_ref::RuleUnderPointer>,
) {
    if let Some(u) = battle.unit_at(hex).filter(|u| u.is_infantry()) {
        ui.label(format!(
            "{} ({}) · infantry squad · armor {}/{}/{} · hits on {}+ · missiles range {}{}",
            u.name,
            battle.side_name(u.side),
            u.armor.front,
            u.armor.side,
            u.armor.rear,
            u.base.accuracy,
            u.gun_range(battle.rules()),
            if u.in_cover { " · in cover" } else { "" }
        ));
    } else if let Some(u) = battle.unit_at(hex).filter(|u| u.is_aa_gun()) {
        ui.label(format!(
            "{} ({}) · AA gun · armor {}/{}/{} · hull {}/{} · {}",
            u.name,
            battle.side_name(u.side),
            u.armor.front,
            u.armor.side,
            u.armor.rear,
            u.hull,
            u.base.hull,
            if u.is_active() {
                "drives off the enemy's air strikes"
            } else {
                "knocked out"
            }
        ));
    } else if let Some(u) = battle.unit_at(hex) {
        hover_vehicle(ui, battle, u);
        hover_target(ui, highlights, u.id, under);
    }
}

/// A vehicle's figures: side, type, armor, hull, accuracy, range and loaded round.
fn hover_vehicle(ui: &mut egui::Ui, battle: &TankCommander, u: &Unit) {
    let a = u.armor;
    ui.label(format!(
        "{} ({}{}) · armor {}/{}/{} · hull {}/{} · hits on {}+ · range {} · loaded {}",
        u.name,
        battle.side_name(u.side),
        u.unit_type
            .as_ref()
            .map_or(String::new(), |t| format!(", {t}")),
        a.front,
        a.side,
        a.rear,
        u.hull,
        u.base.hull,
        u.gun_need(battle.rules()),
        u.gun_range(battle.rules()),
        u.loaded.map_or("nothing".to_string(), |r| r.to_string())
    ));
}

/// The odds of the selected unit's shot at `unit`, when it is a target, and the rule
/// F1 opens for them.
fn hover_target(
    ui: &mut egui::Ui,
    highlights: &Highlights,
    unit: UnitId,
    under: &mut ResMut<crate::client::frame::rules_ref::RuleUnderPointer>,
) {
    let Some(t) = highlights.targets.iter().find(|t| t.unit == unit) else {
        return;
    };
    ui.label(egui::RichText::new(format!("Target: {}", t.label)).color(theme::HIT_CHANCE_TEXT));
    ui.label(egui::RichText::new(&t.why).small());
    // The odds come from the to-hit and penetration rules: F1 opens them.
    let rule = t.rule;
    under.0 = Some((crate::rules::GameKind::TankCommander, rule));
    ui.label(
        egui::RichText::new(format!(
            "§ {rule}, tc.hit.penetration: F1 opens the rules these odds apply"
        ))
        .small()
        .weak(),
    );
}

/// The line of sight from the selected unit to the hex: clear, or where it is blocked.
fn hover_sight(ui: &mut egui::Ui, battle: &TankCommander, highlights: &Highlights, hex: hexx::Hex) {
    if let Some(s) = highlights.sight.as_ref().filter(|s| s.to == hex) {
        match &s.blocked {
            None => {
                ui.label(egui::RichText::new("Line of sight: clear").color(theme::SIGHT_CLEAR_TEXT))
            }
            Some((h, why)) => ui.label(
                egui::RichText::new(format!(
                    "Line of sight blocked at {}: {why}",
                    battle.label(*h)
                ))
                .color(theme::SIGHT_BLOCKED_TEXT),
            ),
        };
    }
}

/// Per-side figures of a battle, from its facts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    pub shots: u32,
    pub hits: u32,
    pub penetrations: u32,
    pub knocked_out: u32,
    pub units_left: u32,
    pub hull_left: u32,
}

/// The battle summary shown on the victory screen.
#[must_use]
pub fn summary(session: &Session<TankCommander>) -> Vec<SideSummary> {
    let battle = session.state();
    let sides = battle.player_count();
    let mut out = vec![SideSummary::default(); sides];
    for fact in session.game.all_facts() {
        match fact {
            Fact::ShotResolved {
                shooter,
                hit,
                penetration,
                ..
            } => {
                let s = &mut out[usize::from(battle.unit(*shooter).side.0)];
                s.shots += 1;
                s.hits += u32::from(*hit);
                s.penetrations += u32::from(penetration.as_ref().is_some_and(|p| p.penetrating));
            }
            Fact::AntiInfantryFired { shooter, hit, .. } => {
                let s = &mut out[usize::from(battle.unit(*shooter).side.0)];
                s.shots += 1;
                s.hits += u32::from(*hit);
            }
            Fact::UnitDisabled { unit, .. } | Fact::UnitDestroyed { unit, .. } => {
                let loser = battle.unit(*unit).side.0;
                for (i, s) in out.iter_mut().enumerate() {
                    if i != usize::from(loser) {
                        s.knocked_out += 1;
                    }
                }
            }
            _ => {}
        }
    }
    for u in battle.units() {
        if u.status == Status::Active {
            let s = &mut out[usize::from(u.side.0)];
            s.units_left += 1;
            s.hull_left += u32::from(u.hull);
        }
    }
    out
}

/// The battle's figures on the end screen: shots, hits, knock-outs and what is left.
pub(super) fn end_summary(session: &Session<TankCommander>, ui: &mut egui::Ui) {
    let battle = session.state();
    ui.separator();
    egui::Grid::new("summary")
        .num_columns(7)
        .striped(true)
        .show(ui, |ui| {
            for h in [
                "Side",
                "Shots",
                "Hits",
                "Penetrating",
                "Knocked out",
                "Units left",
                "Hull left",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for (i, s) in summary(session).iter().enumerate() {
                let p = PlayerId(u8::try_from(i).unwrap_or(0));
                ui.label(egui::RichText::new(battle.side_name(p)).color(color32(side_color(p.0))));
                for v in [
                    s.shots,
                    s.hits,
                    s.penetrations,
                    s.knocked_out,
                    s.units_left,
                    s.hull_left,
                ] {
                    ui.label(v.to_string());
                }
                ui.end_row();
            }
        });
}
