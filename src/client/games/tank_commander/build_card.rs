//! The card that builds one Tank Commander tank: its upgrades, crew and gun, each control
//! disabled with the rules' own sentence where it would break one, and the designs saved
//! beside it. The upgrade builder screen, the campaign's between-battle card and the
//! scenario editor's unit panel all show it.
//!
//! Every rule comes from the rules layer: `blocked_on` applies a change to a copy of the
//! tank and asks [`Scenario::validate`] (which calls [`Build::problems`]) what the copy
//! would newly break. Nothing here re-states a rule.

use std::path::{Path, PathBuf};

use bevy_egui::egui;

use crate::client::table::theme::{BUILD_DONE, BUILD_PROBLEM};
pub use crate::rules::tank_commander::setup::TankDesign;
use crate::rules::tank_commander::setup::{
    ArmorFacing, BoardSetup, Build, Round, Rules, Scenario, ScenarioSetup, SideSetup, TerrainSetup,
    UnitKind, UnitSetup, VictorySetup,
};

// ---------------------------------------------------------------------------------------
// Rules, asked (never restated)

/// Every problem the validator finds with this one tank, as `(field, message)` with the
/// field relative to the unit (`build.armor.side`, `named`, `loaded`).
///
/// The tank is validated inside a small probe scenario, so that the checks that live in
/// [`Scenario::validate`] rather than in [`Build::problems`] (crew names for the named
/// bonus, HE loaded without HE rounds, unit kinds not playable yet) are asked too. Where
/// the tank stands and its side are the probe's own and are not reported.
pub(crate) fn unit_problems(unit: &UnitSetup, rules: &Rules) -> Vec<(String, String)> {
    const SIDE: &str = "builder";
    let probe = ScenarioSetup {
        name: "builder probe".into(),
        description: String::new(),
        board: BoardSetup {
            width: 2,
            height: 2,
        },
        terrain: TerrainSetup::default(),
        sides: vec![
            SideSetup { name: SIDE.into() },
            SideSetup {
                name: "opponent".into(),
            },
        ],
        units: vec![UnitSetup {
            side: SIDE.into(),
            at: "A1".into(),
            ..unit.clone()
        }],
        victory: VictorySetup::default(),
        mines: Default::default(),
        objectives: Vec::new(),
        seed: None,
        weather: false,
        night: false,
        air_support: Vec::new(),
    };
    let Err(problems) = Scenario::validate(probe, rules) else {
        return Vec::new();
    };
    let prefix = format!("`{}`: ", unit.name);
    problems
        .0
        .into_iter()
        .filter_map(|(path, message)| {
            let field = path.strip_prefix("units[0].")?;
            if field == "at" || field == "side" {
                return None;
            }
            let message = message
                .strip_prefix(&prefix)
                .map_or_else(|| message.clone(), str::to_string);
            Some((field.to_string(), message))
        })
        .collect()
}

/// Why `change` may not be made to `unit`: the field and the message of a problem it
/// would add (the field relative to the unit), or `None` when it breaks nothing new.
///
/// Problems are compared by the field they sit on, counted, so that a tank that already
/// breaks a rule (a scenario file over budget, say) can still be edited towards a fix:
/// only a change that adds a problem on a field is refused.
fn blocked_on(
    unit: &UnitSetup,
    change: impl FnOnce(&mut UnitSetup),
    rules: &Rules,
) -> Option<(String, String)> {
    let mut before: Vec<String> = unit_problems(unit, rules)
        .into_iter()
        .map(|(field, _)| field)
        .collect();
    let mut changed = unit.clone();
    change(&mut changed);
    for (field, message) in unit_problems(&changed, rules) {
        match before.iter().position(|f| *f == field) {
            Some(i) => {
                before.swap_remove(i);
            }
            None => return Some((field, message)),
        }
    }
    None
}

/// A control the rules refuse: its tooltip gives the reason and links the rule it breaks
/// (a click on it, or F1 over it, opens the rules reference there).
fn refused(
    ui: &egui::Ui,
    response: egui::Response,
    kind: UnitKind,
    (field, why): (String, String),
) -> egui::Response {
    let id = crate::rules::tank_commander::Build::rule_of(kind, &field);
    let link = crate::client::frame::rules_ref::refusal_link(
        ui,
        &response,
        crate::rules::GameKind::TankCommander,
        id,
    );
    response.on_disabled_hover_text(format!("{why}\n{link}"))
}

/// The on/off upgrades, in the rulebook's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Upgrade {
    Engine,
    Barrel,
    Optics,
    HeRounds,
    AntiInfantry,
    SmokeLauncher,
    Medkit,
    Lieutenant,
    AirSupport,
}

impl Upgrade {
    const ALL: [Upgrade; 9] = [
        Upgrade::Engine,
        Upgrade::Barrel,
        Upgrade::Optics,
        Upgrade::HeRounds,
        Upgrade::AntiInfantry,
        Upgrade::SmokeLauncher,
        Upgrade::Medkit,
        Upgrade::Lieutenant,
        Upgrade::AirSupport,
    ];

    fn flag(self, build: &mut Build) -> &mut bool {
        match self {
            Upgrade::Engine => &mut build.engine,
            Upgrade::Barrel => &mut build.barrel,
            Upgrade::Optics => &mut build.optics,
            Upgrade::HeRounds => &mut build.he_rounds,
            Upgrade::AntiInfantry => &mut build.anti_infantry,
            Upgrade::SmokeLauncher => &mut build.smoke_launcher,
            Upgrade::Medkit => &mut build.medkit,
            Upgrade::Lieutenant => &mut build.lieutenant,
            Upgrade::AirSupport => &mut build.air_support,
        }
    }

    /// Its field in the build, as the rules name it ([`Build::allows`]).
    fn field(self) -> &'static str {
        match self {
            Upgrade::Engine => "engine",
            Upgrade::Barrel => "barrel",
            Upgrade::Optics => "optics",
            Upgrade::HeRounds => "he_rounds",
            Upgrade::AntiInfantry => "anti_infantry",
            Upgrade::SmokeLauncher => "smoke_launcher",
            Upgrade::Medkit => "medkit",
            Upgrade::Lieutenant => "lieutenant",
            Upgrade::AirSupport => "air_support",
        }
    }

    fn is_on(self, mut build: Build) -> bool {
        *self.flag(&mut build)
    }

    fn label(self) -> &'static str {
        match self {
            Upgrade::Engine => "Engine",
            Upgrade::Barrel => "Extended barrel",
            Upgrade::Optics => "Enhanced optics",
            Upgrade::HeRounds => "HE rounds",
            Upgrade::AntiInfantry => "Anti-infantry weapons",
            Upgrade::SmokeLauncher => "Smoke launcher",
            Upgrade::Medkit => "Medkit",
            Upgrade::Lieutenant => "Lieutenant commander",
            Upgrade::AirSupport => "Air support",
        }
    }

    fn cost(self, rules: &Rules) -> u8 {
        let u = &rules.upgrades;
        match self {
            Upgrade::Engine => u.engine,
            Upgrade::Barrel => u.barrel,
            Upgrade::Optics => u.optics,
            Upgrade::HeRounds => u.he_rounds,
            Upgrade::AntiInfantry => u.anti_infantry,
            Upgrade::SmokeLauncher => u.smoke_launcher,
            Upgrade::Medkit => u.medkit,
            Upgrade::Lieutenant => u.lieutenant,
            Upgrade::AirSupport => u.air_support,
        }
    }

    /// What it does, short enough for the checkbox.
    fn effect(self, rules: &Rules) -> String {
        let u = &rules.upgrades;
        match self {
            Upgrade::Engine => format!("+{} move per turn", u.engine_moves),
            Upgrade::Barrel => format!("+{} gun range", u.barrel_range),
            Upgrade::Optics => format!("+{} accuracy", u.optics_accuracy),
            Upgrade::HeRounds => format!("strength {}, may start fires", rules.firing.he_strength),
            Upgrade::AntiInfantry => {
                format!("fire at infantry within {}", rules.anti_infantry.tank_range)
            }
            Upgrade::SmokeLauncher => format!("smoke up to {} hexes away", rules.smoke.range),
            Upgrade::Medkit => "first wound has no penalty".into(),
            Upgrade::Lieutenant => "a fifth crew member".into(),
            Upgrade::AirSupport => "one air strike per battle".into(),
        }
    }

    /// The longer explanation, for the tooltip.
    fn help(self) -> &'static str {
        match self {
            Upgrade::Engine => "The tank may move one space further each turn.",
            Upgrade::Barrel => "The main gun reaches one space further.",
            Upgrade::Optics => "The gunner hits on one less: 3+ instead of 4+.",
            Upgrade::HeRounds => {
                "HE rounds can be loaded: weaker than AT, but a hit may set the target on fire."
            }
            Upgrade::AntiInfantry => "Fire at infantry units up to 2 spaces away.",
            Upgrade::SmokeLauncher => "Deploy smoke that blocks line of sight through its hex.",
            Upgrade::Medkit => {
                "The first time a crew member is wounded, the wound carries no penalty."
            }
            Upgrade::Lieutenant => {
                "A fifth crew member who takes over the role of a crew member who is killed."
            }
            Upgrade::AirSupport => "Call in an air strike once during the battle.",
        }
    }

    /// Bought and counted in the budget, but with no effect in play yet (the validator
    /// accepts them; docs/rules/tank-commander.md, "Upgrades").
    fn not_in_play(self) -> Option<&'static str> {
        match self {
            Upgrade::AirSupport => Some(
                "Counted in the budget, but it has no effect yet: air strikes arrive with the advanced rules.",
            ),
            _ => None,
        }
    }
}

const MINES_NOT_IN_PLAY: &str = "Counted in the budget, but mines have no effect yet: minefields arrive with the advanced rules.";

fn pts(n: u32) -> String {
    if n == 1 {
        "1 pt".into()
    } else {
        format!("{n} pts")
    }
}

// ---------------------------------------------------------------------------------------
// Designs on disk

/// A file name for a design: its name in lower case, words joined by `-`.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "tank".into()
    } else {
        out.to_string()
    }
}

fn design_path(dir: &Path, design: &TankDesign) -> PathBuf {
    dir.join(format!("{}.ron", slug(&design.name)))
}

/// Writes `design` to `dir/<slug>.ron`, returning the path.
fn save_design(design: &TankDesign, dir: &Path) -> Result<PathBuf, String> {
    let text = crate::data::to_ron_pretty(design)?;
    let path = design_path(dir, design);
    crate::data::write_atomic(&path, &text)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

fn load_design(path: &Path) -> Result<TankDesign, String> {
    crate::data::load_ron_file::<TankDesign>(path)
        .map(|(design, _, _)| design)
        .map_err(|d| d.to_string())
}

/// Every `.ron` file in `dir`, sorted by name; none when it does not exist yet.
pub(crate) fn design_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The builder on one unit of a scenario, for the scenario editor's window: the same
/// controls, summary and saved designs as the builder screen, on a working copy that the
/// editor takes back as one edit.
pub(crate) struct BuildCard {
    /// The unit's index in the scenario.
    pub index: usize,
    /// The working copy.
    pub unit: UnitSetup,
    /// Where designs are saved and loaded.
    dir: PathBuf,
    designs: Vec<PathBuf>,
    notice: Option<Result<String, String>>,
}

impl BuildCard {
    /// The card on unit `index`, with the designs saved in `dir`.
    pub(crate) fn new(index: usize, unit: UnitSetup, dir: PathBuf) -> Self {
        Self {
            index,
            unit,
            designs: design_files(&dir),
            dir,
            notice: None,
        }
    }

    /// What the working copy breaks, in the validator's words.
    pub(crate) fn problems(&self, rules: &Rules) -> Vec<String> {
        unit_problems(&self.unit, rules)
            .into_iter()
            .map(|(_, message)| message)
            .collect()
    }

    pub(crate) fn ui(&mut self, ui: &mut egui::Ui, rules: &Rules) {
        ui.columns(2, |cols| {
            tank_controls(&mut cols[0], &mut self.unit, rules, true);
            summary_card(&mut cols[1], &self.unit, rules);
            cols[1].add_space(16.0);
            if self.unit.kind == UnitKind::Tank {
                designs_section(
                    &mut cols[1],
                    &mut self.unit,
                    rules,
                    (&self.dir, &mut self.designs),
                    &mut self.notice,
                    false,
                );
            }
        });
    }
}

/// A checkbox for a flag of the tank, disabled with the rules' reason when flipping it
/// would break one.
fn guarded_checkbox(
    ui: &mut egui::Ui,
    unit: &mut UnitSetup,
    rules: &Rules,
    text: String,
    help: &str,
    flag: fn(&mut UnitSetup) -> &mut bool,
) {
    let mut on = *flag(&mut unit.clone());
    let reason = blocked_on(unit, |u| *flag(u) = !on, rules);
    let response = ui.add_enabled(reason.is_none(), egui::Checkbox::new(&mut on, text));
    let response = match reason {
        Some(r) => refused(ui, response, unit.kind, r),
        None => response.on_hover_text(help),
    };
    if response.changed() {
        *flag(unit) = on;
    }
}

/// A −/+ pair around a count, each disabled with the rules' reason when it would break one.
fn stepper(
    ui: &mut egui::Ui,
    unit: &mut UnitSetup,
    rules: &Rules,
    value_text: String,
    count: fn(&mut UnitSetup) -> &mut u8,
) {
    let now = *count(&mut unit.clone());
    let less = if now == 0 {
        Err("nothing to take off: this is the basic tank")
    } else {
        Ok(blocked_on(unit, |u| *count(u) = now - 1, rules))
    };
    let more = blocked_on(unit, |u| *count(u) = now.saturating_add(1), rules);
    let size = egui::vec2(26.0, 22.0);
    let minus = ui.add_enabled(
        matches!(less, Ok(None)),
        egui::Button::new("−").min_size(size),
    );
    let minus = match less {
        Err(why) => minus.on_disabled_hover_text(why),
        Ok(Some(r)) => refused(ui, minus, unit.kind, r),
        Ok(None) => minus,
    };
    ui.label(egui::RichText::new(value_text).monospace().size(16.0));
    let plus = ui.add_enabled(more.is_none(), egui::Button::new("+").min_size(size));
    let plus = match more {
        Some(r) => refused(ui, plus, unit.kind, r),
        None => plus,
    };
    if minus.clicked() {
        *count(unit) = now.saturating_sub(1);
    } else if plus.clicked() {
        *count(unit) = now.saturating_add(1);
    }
}

/// Everything that can be changed about the selected tank.
///
/// The named bonus is a checkbox rather than automatic: whether a name is "suitably epic"
/// is the players' call, and a scenario file says `named: true` just the same. It is
/// enabled only once every crew member the tank carries has a name (the validator's check
/// in [`Scenario::validate`]); a name cleared afterwards shows as a problem below.
pub(crate) fn tank_controls(
    ui: &mut egui::Ui,
    unit: &mut UnitSetup,
    rules: &Rules,
    in_scenario: bool,
) {
    let tank = unit.kind == UnitKind::Tank;

    ui.heading(if tank { "Tank" } else { "APC" });
    ui.horizontal(|ui| {
        ui.label("Name");
        ui.add(
            egui::TextEdit::singleline(&mut unit.name)
                .hint_text("a suitably epic name")
                .desired_width(220.0),
        );
    });
    if tank {
        tank_crew_controls(ui, unit, rules);
    } else {
        ui.label(
            egui::RichText::new(format!(
                "An APC has no crew and no main gun. It carries up to {} squads inside and \
                 fires its anti-infantry weapon up to {} spaces all round.",
                rules.apc.capacity, rules.apc.anti_infantry_range
            ))
            .weak(),
        );
    }

    points_section(ui, unit, rules);
    armor_section(ui, unit, rules);
    upgrades_section(ui, unit, rules);

    if in_scenario && tank {
        gun_controls(ui, unit, rules);
    }

    problems_footer(ui, unit, rules);
}

/// The upgrade points left (or over budget), big, and where the budget comes from.
fn points_section(ui: &mut egui::Ui, unit: &UnitSetup, rules: &Rules) {
    let u = &rules.upgrades;
    ui.add_space(8.0);
    ui.heading("Upgrade points");
    let budget = unit.budget(rules);
    let cost = unit.build.cost(u);
    let (big, colour) = if cost <= budget {
        let left = budget - cost;
        (
            format!(
                "{left} of {budget} point{} left",
                if budget == 1 { "" } else { "s" }
            ),
            BUILD_DONE,
        )
    } else {
        let over = cost - budget;
        (
            format!(
                "{over} point{} over budget",
                if over == 1 { "" } else { "s" }
            ),
            BUILD_PROBLEM,
        )
    };
    ui.label(egui::RichText::new(big).size(26.0).strong().color(colour));
    ui.label(budget_breakdown(unit, rules, budget, cost));
}

/// Where the budget comes from (base and bonuses) and what is spent of it.
fn budget_breakdown(unit: &UnitSetup, rules: &Rules, budget: u32, cost: u32) -> String {
    let u = &rules.upgrades;
    if unit.kind == UnitKind::Tank {
        let mut breakdown = format!("{} base", u.budget);
        if unit.painted {
            breakdown.push_str(&format!(" + {} painted", u.painted_bonus));
        }
        if unit.named {
            breakdown.push_str(&format!(" + {} named", u.named_bonus));
        }
        if unit.earned > 0 {
            breakdown.push_str(&format!(" + {} earned in the campaign", unit.earned));
        }
        breakdown.push_str(&format!(" = {budget} available · {cost} spent"));
        breakdown
    } else {
        format!("{budget} for every APC, no bonuses · {cost} spent")
    }
}

/// The armor steps bought on each facing, each with its −/+ stepper.
fn armor_section(ui: &mut egui::Ui, unit: &mut UnitSetup, rules: &Rules) {
    let u = &rules.upgrades;
    ui.add_space(8.0);
    ui.heading("Armor");
    ui.label(
        egui::RichText::new(format!(
            "{} per step, at most {} steps a facing; side ≤ front, rear ≤ side",
            pts(u32::from(u.armor_per_point)),
            Build::armor_cap(unit.kind, rules)
        ))
        .weak(),
    );
    let base_armor = rules.stats(unit.kind).armor;
    egui::Grid::new("builder-armor")
        .num_columns(2)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            let facings: [(ArmorFacing, fn(&mut UnitSetup) -> &mut u8); 3] = [
                (ArmorFacing::Front, |unit| &mut unit.build.armor.front),
                (ArmorFacing::Side, |unit| &mut unit.build.armor.side),
                (ArmorFacing::Rear, |unit| &mut unit.build.armor.rear),
            ];
            for (facing, count) in facings {
                let steps = *count(&mut unit.clone());
                let value = unit.build.armor(base_armor).facing(facing);
                let name = match facing {
                    ArmorFacing::Front => "Front",
                    ArmorFacing::Side => "Side",
                    ArmorFacing::Rear => "Rear",
                };
                ui.label(egui::RichText::new(name).strong());
                ui.horizontal(|ui| {
                    stepper(ui, unit, rules, format!("{value:>2} (+{steps})"), count);
                });
                ui.end_row();
            }
        });
}

/// The on/off upgrades the unit may have, then the mines' stepper where it may carry
/// them.
fn upgrades_section(ui: &mut egui::Ui, unit: &mut UnitSetup, rules: &Rules) {
    let u = &rules.upgrades;
    ui.add_space(8.0);
    ui.heading("Upgrades");
    for upgrade in Upgrade::ALL {
        if !Build::allows(unit.kind, upgrade.field()) {
            continue;
        }
        upgrade_checkbox(ui, unit, rules, upgrade);
    }
    if unit.kind != UnitKind::Tank {
        ui.label(
            egui::RichText::new("Other upgrades are for tanks only.")
                .weak()
                .italics(),
        );
    }
    if Build::allows(unit.kind, "mines") {
        ui.horizontal(|ui| {
            ui.label(
                egui::RichText::new(format!(
                    "Anti-tank mines — {} each, at most {}",
                    pts(u32::from(u.mines)),
                    u.mines_max
                ))
                .italics(),
            )
            .on_hover_text(MINES_NOT_IN_PLAY);
            let mines = unit.build.mines.to_string();
            stepper(ui, unit, rules, mines, |unit| &mut unit.build.mines);
        });
    }
}

/// One upgrade's checkbox with its effect and cost, disabled with the rules' reason when
/// flipping it would break one (italic while it has no effect yet).
fn upgrade_checkbox(ui: &mut egui::Ui, unit: &mut UnitSetup, rules: &Rules, upgrade: Upgrade) {
    let text = format!(
        "{} ({}) — {}",
        upgrade.label(),
        upgrade.effect(rules),
        pts(u32::from(upgrade.cost(rules)))
    );
    let mut on = upgrade.is_on(unit.build);
    let reason = blocked_on(unit, |u| *upgrade.flag(&mut u.build) = !on, rules);
    let mut text = egui::RichText::new(text);
    if upgrade.not_in_play().is_some() {
        text = text.italics();
    }
    let response = ui.add_enabled(reason.is_none(), egui::Checkbox::new(&mut on, text));
    let response = match reason {
        Some(r) => refused(ui, response, unit.kind, r),
        None => response.on_hover_text(match upgrade.not_in_play() {
            Some(later) => format!("{}\n{later}", upgrade.help()),
            None => upgrade.help().to_string(),
        }),
    };
    if response.changed() {
        *upgrade.flag(&mut unit.build) = on;
    }
}

/// Every rule the unit breaks, or that it keeps them all.
fn problems_footer(ui: &mut egui::Ui, unit: &UnitSetup, rules: &Rules) {
    let tank = unit.kind == UnitKind::Tank;
    ui.add_space(8.0);
    let problems = unit_problems(unit, rules);
    if problems.is_empty() {
        ui.colored_label(
            BUILD_DONE,
            format!(
                "✔ This {} keeps every rule.",
                if tank { "tank" } else { "APC" }
            ),
        );
    } else {
        for (_, message) in problems {
            ui.colored_label(BUILD_PROBLEM, format!("⚠ {message}"));
        }
    }
}

/// Paint, name and crew: a tank's alone.
fn tank_crew_controls(ui: &mut egui::Ui, unit: &mut UnitSetup, rules: &Rules) {
    let u = &rules.upgrades;
    guarded_checkbox(
        ui,
        unit,
        rules,
        format!("Painted (+{})", pts(u32::from(u.painted_bonus))),
        "The model is painted: a bonus upgrade point.",
        |unit| &mut unit.painted,
    );
    guarded_checkbox(
        ui,
        unit,
        rules,
        format!("Named (+{})", pts(u32::from(u.named_bonus))),
        "An epic tank name and a name for every crew member it carries: a bonus upgrade point.",
        |unit| &mut unit.named,
    );

    ui.add_space(8.0);
    ui.heading("Crew");
    egui::Grid::new("builder-crew")
        .num_columns(2)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            let crew = &mut unit.crew;
            for (role, name) in [
                ("Commander", &mut crew.commander),
                ("Driver", &mut crew.driver),
                ("Gunner", &mut crew.gunner),
                ("Loader", &mut crew.loader),
            ] {
                ui.label(role);
                ui.add(
                    egui::TextEdit::singleline(name)
                        .hint_text("unnamed")
                        .desired_width(200.0),
                );
                ui.end_row();
            }
            // A named tank must name its lieutenant before buying him, so the field shows
            // for named tanks too.
            if unit.build.lieutenant || unit.named {
                ui.label("Lieutenant");
                ui.add(
                    egui::TextEdit::singleline(&mut crew.lieutenant)
                        .hint_text(if unit.build.lieutenant {
                            "unnamed"
                        } else {
                            "only with the upgrade"
                        })
                        .desired_width(200.0),
                );
                ui.end_row();
            }
        });
}

/// The round the tank starts with loaded (a scenario's tank only).
fn gun_controls(ui: &mut egui::Ui, unit: &mut UnitSetup, rules: &Rules) {
    ui.add_space(8.0);
    ui.heading("Gun");
    ui.horizontal(|ui| {
        ui.label("Loaded at the start with");
        let he = unit.loaded == Some(Round::He);
        if ui
            .add(egui::Button::selectable(!he, "AT"))
            .on_hover_text(format!(
                "Armor-piercing, strength {}",
                rules.firing.at_strength
            ))
            .clicked()
        {
            unit.loaded = None;
        }
        let reason = if he {
            None
        } else {
            blocked_on(unit, |u| u.loaded = Some(Round::He), rules)
        };
        let response = ui.add_enabled(reason.is_none(), egui::Button::selectable(he, "HE"));
        let response = match reason {
            Some(r) => refused(ui, response, unit.kind, r),
            None => response.on_hover_text(format!(
                "High explosive, strength {}",
                rules.firing.he_strength
            )),
        };
        if response.clicked() {
            unit.loaded = Some(Round::He);
        }
    });
}

/// The tank as it will fight.
pub(crate) fn summary_card(ui: &mut egui::Ui, unit: &UnitSetup, rules: &Rules) {
    let bought = bought_upgrades(unit.build);
    let crew = crew_names(unit);

    egui::Frame::group(ui.style())
        .inner_margin(14.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(egui::RichText::new(name_or(&unit.name)).size(24.0).strong());
            summary_tags(ui, unit);
            ui.separator();
            summary_grid(ui, unit, rules, &bought, &crew);
        });
}

/// What the build bought, in words: the armor steps, the upgrades, the mines.
fn bought_upgrades(b: Build) -> Vec<String> {
    let mut bought: Vec<String> = Vec::new();
    let steps: Vec<String> = [
        ("front", b.armor.front),
        ("side", b.armor.side),
        ("rear", b.armor.rear),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0)
    .map(|(facing, n)| format!("+{n} {facing}"))
    .collect();
    if !steps.is_empty() {
        bought.push(format!("armor {}", steps.join(", ")));
    }
    bought.extend(
        Upgrade::ALL
            .into_iter()
            .filter(|up| up.is_on(b))
            .map(|up| up.label().to_lowercase()),
    );
    if b.mines > 0 {
        bought.push(format!(
            "{} mine{}",
            b.mines,
            if b.mines == 1 { "" } else { "s" }
        ));
    }
    bought
}

/// A name, or a dash where it is blank.
fn name_or(name: &str) -> String {
    if name.trim().is_empty() {
        "—".to_string()
    } else {
        name.to_string()
    }
}

/// Each crew member the tank carries, by role and name.
fn crew_names(unit: &UnitSetup) -> Vec<String> {
    let mut crew = vec![
        format!("Commander {}", name_or(&unit.crew.commander)),
        format!("Driver {}", name_or(&unit.crew.driver)),
        format!("Gunner {}", name_or(&unit.crew.gunner)),
        format!("Loader {}", name_or(&unit.crew.loader)),
    ];
    if unit.build.lieutenant {
        crew.push(format!("Lieutenant {}", name_or(&unit.crew.lieutenant)));
    }
    crew
}

/// The line under the name: the unit's side and place, painted, named.
fn summary_tags(ui: &mut egui::Ui, unit: &UnitSetup) {
    let mut tags = Vec::new();
    if !unit.side.is_empty() {
        tags.push(format!("{} at {}", unit.side, unit.at));
    }
    if unit.painted {
        tags.push("painted".into());
    }
    if unit.named {
        tags.push("named".into());
    }
    if !tags.is_empty() {
        ui.label(egui::RichText::new(tags.join(" · ")).weak());
    }
}

/// The unit's fighting profile, one row a stat, with its upgrades, crew and points.
fn summary_grid(
    ui: &mut egui::Ui,
    unit: &UnitSetup,
    rules: &Rules,
    bought: &[String],
    crew: &[String],
) {
    let u = &rules.upgrades;
    let b = unit.build;
    let tank = unit.kind == UnitKind::Tank;
    let base = rules.stats(unit.kind);
    let armor = b.armor(base.armor);
    let hits_on = if b.optics {
        base.accuracy.saturating_sub(u.optics_accuracy)
    } else {
        base.accuracy
    };
    let moves = base
        .move_cap
        .saturating_add(if b.engine { u.engine_moves } else { 0 });
    let range = base
        .gun_range
        .saturating_add(if b.barrel { u.barrel_range } else { 0 });
    egui::Grid::new("builder-summary")
        .num_columns(2)
        .spacing([16.0, 6.0])
        .show(ui, |ui| {
            let mut row = |key: &str, value: String| {
                ui.label(egui::RichText::new(key).strong());
                ui.add(egui::Label::new(value).wrap());
                ui.end_row();
            };
            row(
                "Armor",
                format!(
                    "front {} · side {} · rear {}",
                    armor.front, armor.side, armor.rear
                ),
            );
            row("Accuracy", format!("hits on {hits_on}+"));
            row("Hull", format!("{} points", base.hull));
            row("Actions", format!("{} per turn", base.actions));
            row("Moves", format!("{moves} spaces per turn"));
            if tank {
                row("Gun range", format!("{range} spaces"));
            } else {
                row(
                    "Weapon",
                    format!(
                        "anti-infantry, {} spaces all round",
                        rules.apc.anti_infantry_range
                    ),
                );
                row("Carries", format!("{} squads inside", rules.apc.capacity));
            }
            row(
                "Upgrades",
                if bought.is_empty() {
                    "none".into()
                } else {
                    bought.join("\n")
                },
            );
            if tank {
                row("Crew", crew.join("\n"));
            }
            row(
                "Points",
                format!("{} of {} spent", b.cost(u), unit.budget(rules)),
            );
        });
}

/// Save the tank's design, or apply a saved one to it.
pub(crate) fn designs_section(
    ui: &mut egui::Ui,
    unit: &mut UnitSetup,
    rules: &Rules,
    (dir, designs): (&Path, &mut Vec<PathBuf>),
    notice: &mut Option<Result<String, String>>,
    standalone: bool,
) {
    ui.heading("Designs");
    ui.label(egui::RichText::new(format!("in {}", dir.display())).weak());
    save_row(ui, unit, rules, (dir, &mut *designs), notice, standalone);
    match notice {
        Some(Ok(done)) => {
            ui.colored_label(BUILD_DONE, done.as_str());
        }
        Some(Err(error)) => {
            ui.colored_label(BUILD_PROBLEM, error.as_str());
        }
        None => {}
    }

    ui.add_space(10.0);
    let chosen = load_list(ui, dir, designs);
    if let Some(path) = chosen {
        *notice = Some(load_design(&path).map(|design| {
            design.apply_to(unit);
            match unit_problems(unit, rules).first() {
                None => format!("Loaded {}", path.display()),
                Some((_, why)) => format!(
                    "Loaded {}, but under these rules it breaks one: {why}",
                    path.display()
                ),
            }
        }));
    }
}

/// The button that saves the design (disabled while it breaks a rule) and, on the
/// builder screen, the one that starts over.
fn save_row(
    ui: &mut egui::Ui,
    unit: &mut UnitSetup,
    rules: &Rules,
    (dir, designs): (&Path, &mut Vec<PathBuf>),
    notice: &mut Option<Result<String, String>>,
    standalone: bool,
) {
    let design = TankDesign::of(unit);
    let file = design_path(dir, &design);
    let problems = unit_problems(unit, rules);
    ui.horizontal(|ui| {
        let label = if standalone {
            "Save to RON"
        } else {
            "Save design"
        };
        let save = ui.add_enabled(
            problems.is_empty(),
            egui::Button::new(egui::RichText::new(label).size(16.0)),
        );
        let save = match problems.first() {
            Some((_, why)) => save.on_disabled_hover_text(format!("It breaks a rule: {why}")),
            None => save.on_hover_text(format!("Write this design to {}", file.display())),
        };
        if save.clicked() {
            let replacing = file.is_file();
            *notice = Some(save_design(&design, dir).map(|path| {
                format!(
                    "Saved to {}{}",
                    path.display(),
                    if replacing {
                        " (replacing the design saved there)"
                    } else {
                        ""
                    }
                )
            }));
            *designs = design_files(dir);
        }
        if standalone
            && ui
                .button("Start over")
                .on_hover_text("A new tank with the basic profile")
                .clicked()
        {
            TankDesign::default().apply_to(unit);
            *notice = None;
        }
    });
}

/// The saved designs, each with a button that loads it; the one chosen, if any.
fn load_list(ui: &mut egui::Ui, dir: &Path, designs: &mut Vec<PathBuf>) -> Option<PathBuf> {
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Load design").strong());
        if ui
            .small_button("Refresh")
            .on_hover_text("Look for design files again")
            .clicked()
        {
            *designs = design_files(dir);
        }
    });
    ui.label(
        egui::RichText::new("Gives this tank the design's name, paint, crew and upgrades.").weak(),
    );
    let mut chosen = None;
    egui::ScrollArea::vertical()
        .id_salt("builder-designs")
        .max_height(200.0)
        .show(ui, |ui| {
            if designs.is_empty() {
                ui.label(egui::RichText::new("No saved designs yet.").weak());
            }
            for path in designs.iter() {
                ui.horizontal(|ui| {
                    if ui
                        .small_button("Load")
                        .on_hover_text(format!("Apply {}", path.display()))
                        .clicked()
                    {
                        chosen = Some(path.clone());
                    }
                    ui.label(
                        path.file_stem()
                            .map(|s| s.to_string_lossy().into_owned())
                            .unwrap_or_default(),
                    );
                });
            }
        });
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tank_commander::setup::CrewNames;

    /// The message of the problem `change` would add, if any.
    fn blocked(
        unit: &UnitSetup,
        change: impl FnOnce(&mut UnitSetup),
        rules: &Rules,
    ) -> Option<String> {
        blocked_on(unit, change, rules).map(|(_, message)| message)
    }

    fn tank() -> UnitSetup {
        TankDesign::default().unit()
    }

    #[test]
    fn raising_side_armor_above_front_is_blocked_with_the_rules_message() {
        let rules = Rules::builtin();
        let unit = tank();
        let mut build = unit.build;
        build.armor.side += 1;
        let expected = build
            .problems(UnitKind::Tank, &rules, false, false)
            .into_iter()
            .find(|p| p.field == "armor.side")
            .map(|p| p.message);
        assert!(expected.is_some());
        assert_eq!(
            blocked(&unit, |u| u.build.armor.side += 1, &rules),
            expected
        );
        assert_eq!(blocked(&unit, |u| u.build.armor.front += 1, &rules), None);
    }

    #[test]
    fn a_refused_change_names_the_build_rule_it_breaks() {
        use crate::rules::tank_commander::Build;
        let rules = Rules::builtin();
        let unit = tank();
        let rule = |change: fn(&mut UnitSetup)| {
            blocked_on(&unit, change, &rules).map(|(field, _)| Build::rule_of(unit.kind, &field))
        };
        assert_eq!(rule(|u| u.build.armor.side += 1), Some("tc.build.armor"));
        assert_eq!(rule(|u| u.build.mines = 9), Some("tc.build.mines"));
        assert_eq!(
            rule(|u| u.loaded = Some(Round::He)),
            Some("tc.build.he-rounds")
        );
        assert_eq!(rule(|u| u.build.engine = true), None);
    }

    #[test]
    fn lowering_front_below_side_is_blocked() {
        let rules = Rules::builtin();
        let mut unit = tank();
        unit.build.armor.front = 1;
        unit.build.armor.side = 1;
        let why = blocked(&unit, |u| u.build.armor.front -= 1, &rules);
        assert!(why.is_some_and(|m| m.contains("cannot exceed front armor")));
    }

    #[test]
    fn armor_beyond_the_facing_cap_is_blocked() {
        let rules = Rules::builtin();
        let mut unit = tank();
        unit.build.armor.front = rules.upgrades.armor_max_per_facing;
        let why = blocked(&unit, |u| u.build.armor.front += 1, &rules);
        assert!(why.is_some_and(|m| m.contains("at most")));
    }

    #[test]
    fn over_budget_is_blocked_and_bonuses_make_room() {
        let rules = Rules::builtin();
        let mut unit = tank();
        unit.build.armor.front = 3;
        unit.build.armor.side = 3;
        unit.build.armor.rear = 3;
        unit.build.engine = true;
        assert_eq!(
            unit.build.cost(&rules.upgrades),
            u32::from(rules.upgrades.budget)
        );
        let why = blocked(&unit, |u| u.build.barrel = true, &rules);
        assert!(why.is_some_and(|m| m.contains("costs 11 upgrade points but only 10")));
        unit.painted = true;
        assert_eq!(blocked(&unit, |u| u.build.barrel = true, &rules), None);
        unit.build.barrel = true;
        // Every point is spent again: the paint cannot come off.
        assert!(blocked(&unit, |u| u.painted = false, &rules).is_some());
    }

    #[test]
    fn a_tank_already_over_budget_can_still_shed_upgrades() {
        let rules = Rules::builtin();
        let mut unit = tank();
        unit.build.armor.front = 3;
        unit.build.armor.side = 3;
        unit.build.armor.rear = 3;
        unit.build.engine = true;
        unit.build.barrel = true;
        assert!(!unit_problems(&unit, &rules).is_empty());
        assert_eq!(blocked(&unit, |u| u.build.engine = false, &rules), None);
        assert_eq!(
            blocked(&unit, |u| u.crew.driver = "Ivan".into(), &rules),
            None
        );
    }

    #[test]
    fn named_needs_every_carried_crew_member_named() {
        let rules = Rules::builtin();
        let mut unit = tank();
        let why = blocked(&unit, |u| u.named = true, &rules);
        assert!(why.is_some_and(|m| m.contains("has no name")));
        unit.crew = CrewNames {
            commander: "Anna".into(),
            driver: "Boris".into(),
            gunner: "Clara".into(),
            loader: "Dmitri".into(),
            lieutenant: String::new(),
        };
        assert_eq!(blocked(&unit, |u| u.named = true, &rules), None);
        unit.named = true;
        let why = blocked(&unit, |u| u.build.lieutenant = true, &rules);
        assert!(why.is_some_and(|m| m.contains("lieutenant")));
    }

    #[test]
    fn he_rounds_cannot_go_while_he_is_loaded() {
        let rules = Rules::builtin();
        let mut unit = tank();
        assert!(blocked(&unit, |u| u.loaded = Some(Round::He), &rules).is_some());
        unit.build.he_rounds = true;
        unit.loaded = Some(Round::He);
        assert!(blocked(&unit, |u| u.build.he_rounds = false, &rules).is_some());
    }

    #[test]
    fn a_fresh_tank_keeps_every_rule() {
        let rules = Rules::builtin();
        assert!(unit_problems(&tank(), &rules).is_empty());
    }

    #[test]
    fn a_design_round_trips_through_ron() {
        let design = TankDesign {
            name: "Der Königstiger".into(),
            painted: true,
            named: true,
            crew: CrewNames {
                commander: "Anna".into(),
                driver: "Boris".into(),
                gunner: "Clara".into(),
                loader: "Dmitri".into(),
                lieutenant: "Eva".into(),
            },
            build: Build {
                engine: true,
                lieutenant: true,
                mines: 2,
                ..Build::default()
            },
        };
        let text = crate::data::to_ron_pretty(&design).expect("writes");
        assert!(text.starts_with("TankDesign("), "{text}");
        let (back, _) = crate::data::load_ron::<TankDesign>("design.ron", &text).expect("reads");
        assert_eq!(back, design);
    }

    #[test]
    fn designs_are_saved_under_their_slug_and_load_back() {
        let dir = std::env::temp_dir().join(format!("tanktable-builds-{}", std::process::id()));
        let design = TankDesign {
            name: "Old Faithful!".into(),
            ..TankDesign::default()
        };
        let path = save_design(&design, &dir).expect("saves");
        assert_eq!(path, dir.join("old-faithful.ron"));
        assert_eq!(design_files(&dir), vec![path.clone()]);
        assert_eq!(load_design(&path), Ok(design));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("Der Königstiger!"), "der-königstiger");
        assert_eq!(slug("  Tank  #2 "), "tank-2");
        assert_eq!(slug("?!"), "tank");
    }

    #[test]
    fn applying_a_design_keeps_the_placement() {
        let mut unit = tank();
        unit.side = "Red".into();
        unit.at = "C4".into();
        unit.loaded = Some(Round::He);
        let design = TankDesign {
            name: "Brute".into(),
            ..TankDesign::default()
        };
        design.apply_to(&mut unit);
        assert_eq!(unit.name, "Brute");
        assert_eq!(unit.at, "C4");
        assert_eq!(unit.side, "Red");
        assert_eq!(TankDesign::of(&unit), design);
    }
}
