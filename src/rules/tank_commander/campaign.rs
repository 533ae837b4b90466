//! Campaigns: Tank Commander battles played in a row, with one side's tanks and crews
//! carried from each battle to the next.
//!
//! A campaign file (`Campaign(…)`) names its battles (scenario files) and the side it
//! follows. The campaign's state (`CampaignState(…)`) is its roster: each tank with its
//! build and its crew, each crew member with the experience earned. Before a battle the
//! roster's tanks take the places of that side's plain tanks in the scenario (a place left
//! over is filled by the scenario's own tank, with crew from the reserve or fresh recruits);
//! after it, [`CampaignState::record`] applies the campaign rules (`campaign` in the rules
//! table): experience and promotion, repair or loss, the dead and the wounded.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::setup::{
    Build, CampaignRules, CrewNames, Mission, Rules, Scenario, ScenarioSetup, TankDesign, UnitKind,
    UnitSetup,
};
use super::state::{Role, Status, TankCommander, Unit, UnitId};
use crate::data::{self, Diagnostics, Problems};
use crate::framework::{BotsError, Game, PlayerId, SeatError};

/// Why a campaign cannot go on as asked. Each says so in the sentence a player reads.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// A build names something that is no equipment ([`parse_build`]).
    #[error(
        "`{word}` is no equipment: engine, barrel, optics, he_rounds, anti_infantry, \
         smoke_launcher, medkit, lieutenant, air_support, or front:N, side:N, rear:N, mines:N"
    )]
    NoEquipment { word: String },
    /// A build's points are not a number (`front:x`).
    #[error("`{word}`: the points after `:` are a number")]
    BadPoints { word: String },
    /// A refit names a tank the company does not have; `tanks` are the ones it has.
    #[error("{}", no_tank_words(.name, .tanks))]
    NoTank { name: String, tanks: Vec<String> },
    /// A refit's build breaks rules: every problem, with the id of its rule.
    #[error("{}", refit_lines(.problems).join("\n"))]
    RefitRefused {
        problems: Vec<(String, &'static str)>,
    },
    /// The state file does not read: its problems, placed in it.
    #[error(transparent)]
    State(Diagnostics),
    /// The state file holds another campaign.
    #[error(
        "{} holds the campaign `{found}`, not `{wanted}`: start this one over",
        .path.display()
    )]
    OtherCampaign {
        path: PathBuf,
        found: String,
        wanted: String,
    },
    /// The state cannot be written as RON.
    #[error("{0}")]
    Encode(String),
    /// The state's folder cannot be made.
    #[error("cannot make {}: {source}", .path.display())]
    MakeDir {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The state file cannot be written.
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Every battle of the campaign is fought.
    #[error("the campaign `{name}` is over: all {battles} battles are fought")]
    Over { name: String, battles: usize },
    /// The battle has no side of the name the campaign follows.
    #[error("the battle has no side `{side}`")]
    NoSide { side: String },
    /// A roster tank has the name of another unit in the battle.
    #[error("the campaign's tank `{name}` has the name of another unit in this battle")]
    NameTaken { name: String },
    /// The roster does not make a valid battle: the scenario's problems (the first is
    /// told).
    #[error("the campaign's tanks do not fit this battle: {}", first_problem(.problems))]
    DoesNotFit { problems: Problems },
    /// The bots named for a headless battle.
    #[error(transparent)]
    Bots(#[from] BotsError),
    /// A headless battle that cannot start or play on: its setup, a bot, or an action the
    /// rules refuse.
    #[error(transparent)]
    Seat(#[from] SeatError),
    /// A headless battle that did not end.
    #[error("the battle did not end within 20,000 actions")]
    Unfinished,
}

impl CampaignError {
    /// The error as lines for a list of refusals: a refused refit's every problem, each
    /// with its rule (`… (§ tc.build.budget)`), else the one sentence.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        match self {
            Self::RefitRefused { problems } => refit_lines(problems),
            other => vec![other.to_string()],
        }
    }
}

/// "The company has no tank `name`", with the tanks it has.
fn no_tank_words(name: &str, tanks: &[String]) -> String {
    if tanks.is_empty() {
        format!("the company has no tanks yet, so no `{name}`: they join in the first battle")
    } else {
        format!(
            "the company has no tank `{name}`; its tanks: {}",
            tanks.join(", ")
        )
    }
}

/// A refused refit's problems, one line each with its rule's id.
fn refit_lines(problems: &[(String, &'static str)]) -> Vec<String> {
    problems
        .iter()
        .map(|(message, rule)| format!("{message} (§ {rule})"))
        .collect()
}

/// The first of a scenario's problems, with its place (empty when there is none).
fn first_problem(problems: &Problems) -> String {
    problems
        .0
        .first()
        .map_or_else(String::new, |(at, m)| format!("{at}: {m}"))
}

/// A campaign file as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Campaign")]
pub struct CampaignSetup {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The side whose tanks and crews the campaign follows, as named in every battle.
    pub side: String,
    pub battles: Vec<CampaignBattle>,
    /// The upgrade points a tank earns for refits between battles.
    #[serde(default)]
    pub upgrades: Earnings,
}

/// The upgrade points a campaign's tank earns, spent on refits between battles (on top of
/// the budget every tank has).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Earnings {
    /// For every battle the tank comes through (not lost).
    pub per_battle: u8,
    /// For every enemy unit it knocks out.
    pub per_knock_out: u8,
}

impl Default for Earnings {
    fn default() -> Self {
        Self {
            per_battle: 1,
            per_knock_out: 0,
        }
    }
}

/// One battle of a campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignBattle {
    /// The scenario file, relative to the campaign file.
    pub scenario: String,
    /// What the player is told before the battle.
    #[serde(default)]
    pub briefing: String,
}

/// A validated campaign: its file and every battle's scenario.
#[derive(Clone, Debug)]
pub struct Campaign {
    pub setup: CampaignSetup,
    /// The campaign file.
    pub path: PathBuf,
    pub scenarios: Vec<Scenario>,
}

impl Campaign {
    /// Reads and validates a campaign file and the scenario of each of its battles.
    ///
    /// # Errors
    /// Every problem, placed in the file; a scenario's own problems are summed up at its
    /// line (`tanktable check` on the scenario lists them).
    pub fn load(path: &Path, rules: &Rules) -> Result<Self, Diagnostics> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Diagnostics::whole_file(&name, format!("cannot read the file: {e}")))?;
        Self::parse(path, &text, rules)
    }

    /// Reads and validates campaign text; `path` places its scenarios.
    ///
    /// # Errors
    /// As [`Campaign::load`].
    pub fn parse(path: &Path, text: &str, rules: &Rules) -> Result<Self, Diagnostics> {
        let name = path.display().to_string();
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        data::parse_validated(&name, text, |setup: CampaignSetup| {
            Self::validate(setup, path, &dir, rules)
        })
    }

    /// Validates a campaign file, loading each of its battles' scenarios from `dir`.
    fn validate(
        setup: CampaignSetup,
        path: &Path,
        dir: &Path,
        rules: &Rules,
    ) -> Result<Self, Problems> {
        let mut p = Problems::default();
        Self::check_header(&setup, &mut p);
        let scenarios = Self::load_battles(&setup, dir, rules, &mut p);
        Self::check_brought_names(&setup, &scenarios, &mut p);
        if p.is_empty() {
            Ok(Self {
                setup,
                path: path.to_path_buf(),
                scenarios,
            })
        } else {
            Err(p)
        }
    }

    /// Checks the campaign's name, its upgrade points and that it has a battle.
    fn check_header(setup: &CampaignSetup, p: &mut Problems) {
        if setup.name.trim().is_empty() {
            p.push("name", "give the campaign a name");
        }
        p.range(
            "upgrades.per_battle",
            setup.upgrades.per_battle,
            0..=10,
            "upgrade points a battle",
        );
        p.range(
            "upgrades.per_knock_out",
            setup.upgrades.per_knock_out,
            0..=10,
            "upgrade points a knock-out",
        );
        if setup.battles.is_empty() {
            p.push(
                "battles",
                "a campaign needs at least one battle: `battles: [(scenario: \"../skirmish.ron\")]`",
            );
        }
    }

    /// Each battle's scenario that loads, in order; a problem for each that does not, or
    /// that has no place for the campaign's side and tanks.
    fn load_battles(
        setup: &CampaignSetup,
        dir: &Path,
        rules: &Rules,
        p: &mut Problems,
    ) -> Vec<Scenario> {
        let mut scenarios = Vec::new();
        for (i, b) in setup.battles.iter().enumerate() {
            let at = format!("battles[{i}].scenario");
            let file = dir.join(&b.scenario);
            match Scenario::load(&file, rules) {
                Ok(s) => {
                    let tanks = campaign_places(&s.setup, &setup.side).len();
                    if !s.setup.sides.iter().any(|side| side.name == setup.side) {
                        p.push(
                            &at,
                            format!(
                                "`{}` has no side `{}`, the side this campaign follows",
                                b.scenario, setup.side
                            ),
                        );
                    } else if tanks == 0 {
                        p.push(
                            &at,
                            format!(
                                "`{}` gives `{}` no plain tank for the campaign's tanks to take",
                                b.scenario, setup.side
                            ),
                        );
                    }
                    scenarios.push(s);
                }
                Err(d) => p.push(
                    &at,
                    format!(
                        "`{}` cannot be played ({} problem(s), the first: {})",
                        b.scenario,
                        d.0.len(),
                        d.0.first().map_or_else(String::new, ToString::to_string)
                    ),
                ),
            }
        }
        scenarios
    }

    /// Checks that no tank the campaign may bring (any battle's place) shares its name with
    /// a unit that stays the scenario's own in another battle.
    fn check_brought_names(setup: &CampaignSetup, scenarios: &[Scenario], p: &mut Problems) {
        let may_bring: Vec<(usize, String)> = scenarios
            .iter()
            .enumerate()
            .flat_map(|(i, s)| {
                campaign_places(&s.setup, &setup.side)
                    .into_iter()
                    .map(move |k| (i, s.setup.units[k].name.clone()))
            })
            .collect();
        for (i, s) in scenarios.iter().enumerate() {
            let places = campaign_places(&s.setup, &setup.side);
            for (k, u) in s.setup.units.iter().enumerate() {
                if places.contains(&k) {
                    continue;
                }
                if let Some((j, _)) = may_bring.iter().find(|(_, n)| same_name(n, &u.name)) {
                    p.push(
                        format!("battles[{i}].scenario"),
                        format!(
                            "`{}` has a unit called `{}`, the name of a tank the campaign \
                             brings from battle {}: rename one of them",
                            setup.battles[i].scenario,
                            u.name,
                            j + 1
                        ),
                    );
                }
            }
        }
    }

    /// The campaign's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.setup.name
    }
}

/// The places in a scenario that the campaign's tanks take: the indices of `side`'s plain
/// tanks (no unit type of the rules table), in file order; not a tank the mission names
/// (a Destroy Target's target keeps its name and its part).
#[must_use]
pub fn campaign_places(setup: &ScenarioSetup, side: &str) -> Vec<usize> {
    let named = match &setup.victory.mission {
        Mission::DestroyTarget { unit: Some(n), .. } => Some(n.as_str()),
        _ => None,
    };
    setup
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side == side && u.kind == UnitKind::Tank && u.unit_type.is_none())
        .filter(|(_, u)| named != Some(u.name.as_str()))
        .map(|(i, _)| i)
        .collect()
}

/// A refit in words: what was bought (+), taken off (−) and how the armor changed.
fn build_change(before: &Build, after: &Build) -> String {
    let mut out = Vec::new();
    for ((name, was), (_, is)) in before.flags().into_iter().zip(after.flags()) {
        match (was, is) {
            (false, true) => out.push(format!("+{}", name.replace('_', " "))),
            (true, false) => out.push(format!("−{}", name.replace('_', " "))),
            _ => {}
        }
    }
    for (facing, was, is) in [
        ("front", before.armor.front, after.armor.front),
        ("side", before.armor.side, after.armor.side),
        ("rear", before.armor.rear, after.armor.rear),
    ] {
        if was != is {
            out.push(format!("{facing} armor {was}→{is}"));
        }
    }
    if before.mines != after.mines {
        out.push(format!("mines {}→{}", before.mines, after.mines));
    }
    if out.is_empty() {
        "nothing changed".into()
    } else {
        out.join(", ")
    }
}

/// A build written as a list of its equipment: `engine, optics, he_rounds, front:2,
/// side:1, mines:2` (the names of the build's fields; `none` or nothing for a bare tank).
///
/// # Errors
/// [`CampaignError::NoEquipment`] for a word that names no equipment,
/// [`CampaignError::BadPoints`] for a number that does not read.
pub fn parse_build(text: &str) -> Result<Build, CampaignError> {
    let mut build = Build::default();
    for word in text
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty() && *w != "none")
    {
        let (name, points) = match word.split_once(':') {
            Some((n, v)) => {
                let v: u8 = v.trim().parse().map_err(|_| CampaignError::BadPoints {
                    word: word.to_string(),
                })?;
                (n.trim(), Some(v))
            }
            None => (word, None),
        };
        let name = name.replace([' ', '-'], "_").to_lowercase();
        match (name.as_str(), points) {
            ("front", Some(v)) => build.armor.front = v,
            ("side", Some(v)) => build.armor.side = v,
            ("rear", Some(v)) => build.armor.rear = v,
            ("mines", Some(v)) => build.mines = v,
            ("engine", None) => build.engine = true,
            ("barrel", None) => build.barrel = true,
            ("optics", None) => build.optics = true,
            ("he_rounds" | "he", None) => build.he_rounds = true,
            ("anti_infantry", None) => build.anti_infantry = true,
            ("smoke_launcher" | "smoke", None) => build.smoke_launcher = true,
            ("medkit", None) => build.medkit = true,
            ("lieutenant", None) => build.lieutenant = true,
            ("air_support", None) => build.air_support = true,
            _ => {
                return Err(CampaignError::NoEquipment {
                    word: word.to_string(),
                });
            }
        }
    }
    Ok(build)
}

/// Whether two unit names are the same to a player (and to the scenario's checks).
fn same_name(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// One crew member of the campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrewRecord {
    pub role: Role,
    pub name: String,
    /// Experience earned so far.
    pub xp: u32,
}

impl CrewRecord {
    /// Whether this member has the experience of a veteran.
    #[must_use]
    pub fn is_veteran(&self, rules: &CampaignRules) -> bool {
        self.xp >= u32::from(rules.veteran_at)
    }
}

/// One tank of the campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterTank {
    pub name: String,
    pub build: Build,
    #[serde(default)]
    pub painted: bool,
    #[serde(default)]
    pub named: bool,
    pub crew: Vec<CrewRecord>,
    /// Battles fought.
    pub battles: u32,
    /// Enemy units knocked out over the campaign.
    pub knock_outs: u32,
    /// Upgrade points earned in its battles, added to its budget for refits.
    #[serde(default)]
    pub earned: u32,
}

impl RosterTank {
    /// Puts this tank in `unit`'s place in a battle: its name, paint, crew, build, the
    /// points it earned and its veterans; where the unit stands stays as it is.
    pub fn place_on(&self, unit: &mut UnitSetup, rules: &CampaignRules) {
        let mut crew = CrewNames::default();
        for m in &self.crew {
            crew.of_mut(m.role).clone_from(&m.name);
        }
        TankDesign {
            name: self.name.clone(),
            painted: self.painted,
            named: self.named,
            crew,
            build: self.build,
        }
        .apply_to(unit);
        unit.earned = self.earned;
        unit.veterans = self
            .crew
            .iter()
            .filter(|m| m.is_veteran(rules))
            .map(|m| m.role)
            .collect();
    }

    /// After a battle in which `unit` carried this tank's crew and knocked out `kills`
    /// enemy units: the living gain experience (saying who becomes a veteran), the dead
    /// leave the crew for the `fallen`.
    fn crew_after_battle(
        &mut self,
        unit: &Unit,
        kills: u32,
        rules: &CampaignRules,
        fallen: &mut Vec<String>,
        lines: &mut Vec<String>,
    ) {
        let mut dead = Vec::new();
        for m in &mut self.crew {
            let alive = unit
                .crew
                .iter()
                .find(|c| c.role == m.role)
                .is_none_or(|c| c.is_alive());
            if !alive {
                dead.push(m.role);
                continue;
            }
            let before = m.is_veteran(rules);
            m.xp = m.xp.saturating_add(
                u32::from(rules.xp_per_battle)
                    .saturating_add(kills.saturating_mul(u32::from(rules.xp_per_knock_out))),
            );
            if !before && m.is_veteran(rules) {
                let gain = ability_words(m.role).map_or_else(String::new, |a| {
                    format!(": {a} {} times a battle", rules.veteran_ability_uses)
                });
                lines.push(format!(
                    "{} {} ({}) is now a veteran{gain}",
                    m.role, m.name, self.name
                ));
            }
        }
        for role in dead {
            if let Some(i) = self.crew.iter().position(|m| m.role == role) {
                let m = self.crew.remove(i);
                lines.push(format!("{} {} of {} was killed", m.role, m.name, self.name));
                fallen.push(format!("{} ({}, {})", m.name, m.role, self.name));
            }
        }
    }

    /// Whether the tank is lost, left as `unit` at the end of a battle the campaign's side
    /// `result`; says what became of it.
    fn lost_after_battle(
        &self,
        unit: &Unit,
        result: BattleResult,
        rules: &CampaignRules,
        lines: &mut Vec<String>,
    ) -> bool {
        let repairable = unit.status == Status::Disabled
            && (result != BattleResult::Lost || rules.repair_after_loss);
        match unit.status {
            Status::Active => false,
            _ if repairable => {
                lines.push(format!("{} was recovered and repaired", self.name));
                false
            }
            Status::Destroyed => {
                lines.push(format!("{} burned out and is lost", self.name));
                true
            }
            _ => {
                lines.push(format!("{} was left on the field and is lost", self.name));
                true
            }
        }
    }

    /// The upgrade points its build may cost: every tank's budget, its bonuses, and what
    /// it has earned.
    #[must_use]
    pub fn budget(&self, rules: &Rules) -> u32 {
        Build::budget(&rules.upgrades, self.painted, self.named) + self.earned
    }

    /// Every rule `build` breaks on this tank, with its field and the rule's id.
    #[must_use]
    pub fn refit_problems(&self, build: &Build, rules: &Rules) -> Vec<(String, &'static str)> {
        build
            .problems_on(
                UnitKind::Tank,
                rules.tank.armor,
                rules,
                (self.painted, self.named, self.earned),
            )
            .into_iter()
            .map(|p| {
                let field = if p.field.is_empty() {
                    "build".to_string()
                } else {
                    format!("build.{}", p.field)
                };
                let rule = Build::rule_of(UnitKind::Tank, &field);
                (p.message, rule)
            })
            .collect()
    }
}

/// How a battle ended for the campaign's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BattleResult {
    Won,
    Drawn,
    Lost,
}

impl std::fmt::Display for BattleResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BattleResult::Won => "won",
            BattleResult::Drawn => "drawn",
            BattleResult::Lost => "lost",
        })
    }
}

/// What one battle of the campaign came to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleReport {
    /// The scenario's name.
    pub battle: String,
    pub result: BattleResult,
    /// Why the battle ended.
    pub reason: String,
    /// One line per thing that happened to the roster: promotions, losses, repairs,
    /// recruits.
    pub lines: Vec<String>,
}

/// A campaign in progress: written atomically after every battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "CampaignState")]
pub struct CampaignState {
    /// The campaign's name, as in its file.
    pub campaign: String,
    /// The next battle to fight (0 first); the number of battles once it is over.
    pub next: usize,
    pub roster: Vec<RosterTank>,
    /// Crew members who lived but lost their tank: they take the places of the dead
    /// (same role first) before any recruit.
    #[serde(default)]
    pub reserve: Vec<CrewRecord>,
    /// The crew members killed in the campaign, with their tank.
    #[serde(default)]
    pub fallen: Vec<String>,
    /// Recruits named so far (to name the next one).
    #[serde(default)]
    pub recruits: u32,
    #[serde(default)]
    pub reports: Vec<BattleReport>,
}

/// Names given to recruits, in turn (a number follows once they are all used).
const RECRUITS: [&str; 24] = [
    "Abel", "Brook", "Cole", "Dane", "Ezra", "Finn", "Gale", "Hale", "Ives", "Jory", "Knox",
    "Lane", "Moss", "Nash", "Oren", "Penn", "Quill", "Reed", "Sage", "Tate", "Vale", "Wren",
    "Yates", "Zane",
];

/// A battle of the campaign made ready: the scenario with the roster in its places.
#[derive(Clone, Debug)]
pub struct PreparedBattle {
    /// The battle to play: the scenario with the roster in its places, validated.
    pub battle: super::Battle,
    /// The roster as it stands once the scenario's own tanks have filled the places left
    /// over (they join the campaign if they come through).
    pub state: CampaignState,
    /// For each place (the scenario's unit index), the roster tank in it.
    pub places: Vec<(usize, usize)>,
    /// The campaign side's index in the scenario.
    pub side: PlayerId,
    /// Who joined the company for this battle (new tanks, and the crew they took from
    /// the reserve).
    pub joined: Vec<String>,
    /// What the tanks earn for refits.
    pub earnings: Earnings,
}

impl CampaignState {
    /// A campaign not yet begun.
    #[must_use]
    pub fn new(campaign: &Campaign) -> Self {
        Self {
            campaign: campaign.setup.name.clone(),
            next: 0,
            roster: Vec::new(),
            reserve: Vec::new(),
            fallen: Vec::new(),
            recruits: 0,
            reports: Vec::new(),
        }
    }

    /// Whether every battle has been fought.
    #[must_use]
    pub fn is_over(&self, campaign: &Campaign) -> bool {
        self.next >= campaign.setup.battles.len()
    }

    /// Battles won so far.
    #[must_use]
    pub fn won(&self) -> usize {
        self.reports
            .iter()
            .filter(|r| r.result == BattleResult::Won)
            .count()
    }

    /// Veterans in the roster.
    #[must_use]
    pub fn veterans(&self, rules: &CampaignRules) -> usize {
        self.roster
            .iter()
            .flat_map(|t| &t.crew)
            .filter(|m| m.is_veteran(rules))
            .count()
    }

    /// The campaign's state kept at `path`: a fresh one (saved there) when starting over,
    /// a fresh one (not yet saved) when there is none, else the one read back.
    ///
    /// # Errors
    /// [`CampaignError::State`] for the file's problems, [`CampaignError::OtherCampaign`]
    /// for a state of another campaign, or a failed write as [`CampaignState::save`].
    pub fn open(campaign: &Campaign, path: &Path, start_over: bool) -> Result<Self, CampaignError> {
        if start_over || !path.exists() {
            let fresh = Self::new(campaign);
            if start_over {
                fresh.save(path)?;
            }
            return Ok(fresh);
        }
        let state = Self::load(path).map_err(CampaignError::State)?;
        if state.campaign != campaign.name() {
            return Err(CampaignError::OtherCampaign {
                path: path.to_path_buf(),
                found: state.campaign,
                wanted: campaign.name().to_string(),
            });
        }
        Ok(state)
    }

    /// Refits the tank named `name` with `build` between battles: any equipment bought
    /// or taken off, as long as the whole build fits the tank's budget (its points,
    /// bonuses and what it has earned). A lieutenant bought joins from the reserve (else
    /// as a recruit); one taken off joins the reserve. The refit is written into the last
    /// battle's report. Says what changed.
    ///
    /// # Errors
    /// [`CampaignError::NoTank`] for no such tank, [`CampaignError::RefitRefused`] with
    /// every rule the build breaks, each with its rule's id.
    pub fn refit(
        &mut self,
        name: &str,
        build: Build,
        rules: &Rules,
    ) -> Result<String, CampaignError> {
        let Some(k) = self.roster.iter().position(|t| same_name(&t.name, name)) else {
            return Err(CampaignError::NoTank {
                name: name.to_string(),
                tanks: self.roster.iter().map(|t| t.name.clone()).collect(),
            });
        };
        let problems = self.roster[k].refit_problems(&build, rules);
        if !problems.is_empty() {
            return Err(CampaignError::RefitRefused { problems });
        }
        let before = self.roster[k].build;
        let tank_name = self.roster[k].name.clone();
        let mut lines = vec![format!(
            "{tank_name} refitted: {} ({} of {} upgrade points)",
            build_change(&before, &build),
            build.cost(&rules.upgrades),
            self.roster[k].budget(rules)
        )];
        if build.lieutenant && !before.lieutenant {
            let (m, recruited) = self.fill(Role::Lieutenant);
            lines.push(if recruited {
                format!(
                    "Recruit {} joins {tank_name} as {}",
                    m.name,
                    Role::Lieutenant
                )
            } else {
                format!(
                    "{} joins {tank_name} as {} from the reserve",
                    m.name,
                    Role::Lieutenant
                )
            });
            self.roster[k].crew.push(m);
            self.roster[k].crew.sort_by_key(|m| role_order(m.role));
        }
        if !build.lieutenant
            && before.lieutenant
            && let Some(i) = self.roster[k]
                .crew
                .iter()
                .position(|m| m.role == Role::Lieutenant)
        {
            let m = self.roster[k].crew.remove(i);
            lines.push(format!("{} leaves {tank_name} for the reserve", m.name));
            self.reserve.push(m);
        }
        self.roster[k].build = build;
        if let Some(report) = self.reports.last_mut() {
            report.lines.extend(lines.iter().cloned());
        }
        Ok(lines.join("; "))
    }

    /// Every rule a state file breaks (one edited by hand): each tank's build within its
    /// budget, by field.
    #[must_use]
    pub fn problems(&self, rules: &Rules) -> Problems {
        let mut p = Problems::default();
        for (i, tank) in self.roster.iter().enumerate() {
            for (message, _) in tank.refit_problems(&tank.build, rules) {
                p.push(
                    format!("roster[{i}].build"),
                    format!("`{}`: {message}", tank.name),
                );
            }
        }
        p
    }

    /// Reads a saved campaign state.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn load(path: &Path) -> Result<Self, Diagnostics> {
        data::load_ron_file::<Self>(path).map(|(s, _, _)| s)
    }

    /// Writes the state atomically (a crash never leaves half a file).
    ///
    /// # Errors
    /// [`CampaignError::MakeDir`] or [`CampaignError::Write`], with the path and the I/O
    /// error; [`CampaignError::Encode`] if the state cannot be written as RON.
    pub fn save(&self, path: &Path) -> Result<(), CampaignError> {
        let text = data::to_ron_pretty(self).map_err(CampaignError::Encode)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| CampaignError::MakeDir {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        data::write_atomic(path, &text).map_err(|source| CampaignError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    fn recruit(&mut self, role: Role) -> CrewRecord {
        let k = self.recruits as usize;
        self.recruits = self.recruits.saturating_add(1);
        let name = match RECRUITS.get(k) {
            Some(n) => (*n).to_string(),
            None => format!(
                "{} {}",
                RECRUITS[k % RECRUITS.len()],
                k / RECRUITS.len() + 1
            ),
        };
        CrewRecord { role, name, xp: 0 }
    }

    /// A crew member for `role`: from the reserve (that role first, the most experienced
    /// first), else a recruit.
    fn fill(&mut self, role: Role) -> (CrewRecord, bool) {
        let pick = self
            .reserve
            .iter()
            .enumerate()
            .filter(|(_, m)| m.role == role)
            .max_by_key(|(i, m)| (m.xp, std::cmp::Reverse(*i)))
            .or_else(|| {
                self.reserve
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| m.role != Role::Lieutenant)
                    .max_by_key(|(i, m)| (m.xp, std::cmp::Reverse(*i)))
            })
            .map(|(i, _)| i);
        match pick {
            Some(i) if role != Role::Lieutenant || self.reserve[i].role == Role::Lieutenant => {
                let mut m = self.reserve.remove(i);
                m.role = role;
                (m, false)
            }
            _ => (self.recruit(role), true),
        }
    }

    /// The next battle with the roster in its places.
    ///
    /// # Errors
    /// [`CampaignError::Over`] when the campaign is over, [`CampaignError::NoSide`],
    /// [`CampaignError::NameTaken`] or [`CampaignError::DoesNotFit`] when the roster's
    /// tanks do not fit the scenario (a build the rules no longer allow, a name taken by
    /// another unit).
    pub fn prepare(
        &self,
        campaign: &Campaign,
        rules: &Rules,
    ) -> Result<PreparedBattle, CampaignError> {
        let Some(scenario) = campaign.scenarios.get(self.next) else {
            return Err(CampaignError::Over {
                name: campaign.name().to_string(),
                battles: campaign.setup.battles.len(),
            });
        };
        let side_name = &campaign.setup.side;
        let side = scenario
            .setup
            .sides
            .iter()
            .position(|s| &s.name == side_name)
            .ok_or_else(|| CampaignError::NoSide {
                side: side_name.clone(),
            })?;
        let mut state = self.clone();
        let mut setup = scenario.setup.clone();
        let mut joined = Vec::new();
        state.complete_crews(&mut joined);
        let places = state.take_places(&mut setup, side_name, rules, &mut joined)?;
        // The roster must make a valid battle.
        let scenario = Scenario::validate(setup, rules)
            .map_err(|problems| CampaignError::DoesNotFit { problems })?;
        #[allow(clippy::cast_possible_truncation, reason = "a scenario has two sides")]
        Ok(PreparedBattle {
            battle: super::Battle {
                scenario,
                rules: rules.clone(),
            },
            state,
            places,
            side: PlayerId(side as u8),
            joined,
            earnings: campaign.setup.upgrades,
        })
    }

    /// Gives every roster tank one crew member for each of its roles (a state file edited
    /// by hand may lack one, or name a role twice), saying in `joined` who joins.
    fn complete_crews(&mut self, joined: &mut Vec<String>) {
        for k in 0..self.roster.len() {
            let mut roles: Vec<Role> = Role::CORE.to_vec();
            if self.roster[k].build.lieutenant {
                roles.push(Role::Lieutenant);
            }
            let crew = std::mem::take(&mut self.roster[k].crew);
            for m in crew {
                if roles.contains(&m.role) && !self.roster[k].crew.iter().any(|c| c.role == m.role)
                {
                    self.roster[k].crew.push(m);
                } else {
                    self.reserve.push(m);
                }
            }
            for role in roles {
                if !self.roster[k].crew.iter().any(|m| m.role == role) {
                    let (m, _) = self.fill(role);
                    joined.push(format!(
                        "{} joins {} as {role}",
                        m.name, self.roster[k].name
                    ));
                    self.roster[k].crew.push(m);
                }
            }
            self.roster[k].crew.sort_by_key(|m| role_order(m.role));
        }
    }

    /// Replaces the dead from the reserve, or by recruits, saying who joins.
    fn replace_fallen(&mut self, rules: &CampaignRules, lines: &mut Vec<String>) {
        for k in 0..self.roster.len() {
            let mut roles: Vec<Role> = Role::CORE.to_vec();
            if self.roster[k].build.lieutenant {
                roles.push(Role::Lieutenant);
            }
            for role in roles {
                if self.roster[k].crew.iter().any(|m| m.role == role) {
                    continue;
                }
                let (m, recruited) = self.fill(role);
                lines.push(if recruited {
                    format!("Recruit {} joins {} as {role}", m.name, self.roster[k].name)
                } else {
                    let (open, rest) = veteran_words(&m, rules);
                    format!(
                        "{} {open}from the reserve, {rest} joins {} as {role}",
                        m.name, self.roster[k].name
                    )
                });
                self.roster[k].crew.push(m);
                self.roster[k].crew.sort_by_key(|m| role_order(m.role));
            }
        }
    }

    /// Puts the roster's tanks in the campaign's places of `setup`, the scenario's own
    /// tanks in the places left over, saying in `joined` who joins; the places taken, as
    /// (unit index, roster index).
    fn take_places(
        &mut self,
        setup: &mut ScenarioSetup,
        side_name: &str,
        rules: &Rules,
        joined: &mut Vec<String>,
    ) -> Result<Vec<(usize, usize)>, CampaignError> {
        let mut places = Vec::new();
        let at_places = campaign_places(setup, side_name);
        let others: Vec<String> = setup
            .units
            .iter()
            .enumerate()
            .filter(|(i, _)| !at_places.contains(i))
            .map(|(_, u)| u.name.clone())
            .collect();
        for (k, at) in at_places.into_iter().enumerate() {
            let taken = |name: &str, state: &CampaignState| {
                others.iter().any(|o| same_name(o, name))
                    || state.roster.iter().any(|t| same_name(&t.name, name))
            };
            if let Some(t) = self.roster.get(k)
                && others.iter().any(|o| same_name(o, &t.name))
            {
                return Err(CampaignError::NameTaken {
                    name: t.name.clone(),
                });
            }
            if k >= self.roster.len() && taken(&setup.units[at].name, self) {
                // A new tank is renamed rather than take a name the company already has.
                let base = setup.units[at].name.clone();
                let mut n = 2;
                while taken(&format!("{base} {n}"), self) {
                    n += 1;
                }
                setup.units[at].name = format!("{base} {n}");
            }
            let unit = &mut setup.units[at];
            if k >= self.roster.len() {
                // A tank new to the campaign: the scenario's own, with its crew drawn
                // from the reserve or recruited.
                self.enlist(unit, rules, joined);
            }
            self.roster[k].place_on(unit, &rules.campaign);
            places.push((at, k));
        }
        Ok(places)
    }

    /// Adds `unit`, a scenario's own tank new to the campaign, to the roster, with the
    /// crew the scenario names and the rest drawn from the reserve or recruited.
    fn enlist(&mut self, unit: &UnitSetup, rules: &Rules, joined: &mut Vec<String>) {
        let mut crew = Vec::new();
        let mut who = Vec::new();
        let roles = Role::CORE
            .into_iter()
            .chain(unit.build.lieutenant.then_some(Role::Lieutenant));
        for role in roles {
            let given = unit.crew.of(role);
            let member = if given.is_empty() {
                let (m, recruited) = self.fill(role);
                who.push(if recruited {
                    format!("{role} {} (recruit)", m.name)
                } else {
                    let (open, rest) = veteran_words(&m, &rules.campaign);
                    format!("{role} {} {open}from the reserve, {rest}", m.name)
                });
                m
            } else {
                who.push(format!("{role} {given}"));
                CrewRecord {
                    role,
                    name: given.to_string(),
                    xp: 0,
                }
            };
            crew.push(member);
        }
        joined.push(format!(
            "{} joins the company: {}",
            unit.name,
            who.join(", ")
        ));
        self.roster.push(RosterTank {
            name: unit.name.clone(),
            build: unit.build,
            painted: unit.painted,
            named: unit.named,
            crew,
            battles: 0,
            knock_outs: 0,
            earned: 0,
        });
    }
}

impl PreparedBattle {
    /// The campaign's state after the battle `game`, played from this preparation and
    /// over, with `knock_outs[i]` enemy units knocked out by unit `i`
    /// ([`knock_outs`]). Applies the campaign rules and says what happened.
    ///
    /// # Panics
    /// If `game` is not over.
    #[must_use]
    pub fn record(&self, game: &TankCommander, knock_outs: &[u32]) -> CampaignState {
        let outcome = game.outcome().expect("the battle is over");
        let rules = &game.rules().campaign;
        let result = if outcome.winners.contains(&self.side) {
            BattleResult::Won
        } else if outcome.winners.is_empty() {
            BattleResult::Drawn
        } else {
            BattleResult::Lost
        };
        let mut state = self.state.clone();
        let mut lines = self.joined.clone();
        let mut lost = Vec::new();
        for &(at, k) in &self.places {
            let unit = game.unit(UnitId(u8::try_from(at).unwrap_or(u8::MAX)));
            let kills = knock_outs.get(at).copied().unwrap_or(0);
            let tank = &mut state.roster[k];
            tank.battles = tank.battles.saturating_add(1);
            tank.knock_outs = tank.knock_outs.saturating_add(kills);
            if kills > 0 {
                lines.push(format!("{} knocked out {kills} enemy unit(s)", tank.name));
            }
            tank.crew_after_battle(unit, kills, rules, &mut state.fallen, &mut lines);
            if tank.lost_after_battle(unit, result, rules, &mut lines) {
                lost.push(k);
            }
        }
        self.pay_earnings(&mut state, knock_outs, &lost, &mut lines);
        // Lost tanks go; their living crew join the reserve.
        for k in lost.into_iter().rev() {
            let tank = state.roster.remove(k);
            state.reserve.extend(tank.crew);
        }
        state.replace_fallen(rules, &mut lines);
        state.reports.push(BattleReport {
            battle: self.scenario().name.clone(),
            result,
            reason: outcome.reason.clone(),
            lines,
        });
        state.next += 1;
        state
    }

    /// The tanks that came through (not in `lost`) earn upgrade points for refits.
    fn pay_earnings(
        &self,
        state: &mut CampaignState,
        knock_outs: &[u32],
        lost: &[usize],
        lines: &mut Vec<String>,
    ) {
        let earnings = self.earnings;
        for &(at, k) in &self.places {
            if lost.contains(&k) {
                continue;
            }
            let kills = knock_outs.get(at).copied().unwrap_or(0);
            let points = u32::from(earnings.per_battle)
                .saturating_add(kills.saturating_mul(u32::from(earnings.per_knock_out)));
            if points > 0 {
                let tank = &mut state.roster[k];
                tank.earned = tank.earned.saturating_add(points);
                lines.push(format!(
                    "{} earns {points} upgrade point{} for a refit ({} earned in all)",
                    tank.name,
                    if points == 1 { "" } else { "s" },
                    tank.earned
                ));
            }
        }
    }
}

/// The enemy units each unit knocked out in a played battle, by unit index: a knock-out
/// (a vehicle disabled, a squad wiped out) counts for the unit whose activation it
/// happened in (its shot, its ram, a mine it drove an enemy onto is not one) or for the
/// caller of the air strike that did it, when that unit is on the other side.
#[must_use]
pub fn knock_outs<'a>(
    units: usize,
    steps: impl IntoIterator<Item = (&'a TankCommander, &'a [super::Fact])>,
) -> Vec<u32> {
    use super::Fact;
    let mut out = vec![0; units];
    for (before, facts) in steps {
        // Whose doing the facts are, as they come: the active unit until its activation
        // ends (fires and cook-offs at the turn's end are nobody's), then each strike's
        // caller as it lands.
        let mut credit = before.activation().map(|a| a.unit);
        for f in facts {
            match f {
                Fact::ActivationEnded { .. }
                | Fact::AirStrikeRolled { .. }
                | Fact::AntiAircraftFired { .. } => credit = None,
                Fact::AirStrikeLanded { side, hex, .. } => {
                    credit = before
                        .air_strikes()
                        .iter()
                        .find(|s| s.side == *side && s.at == *hex)
                        .map(|s| s.caller);
                }
                Fact::UnitDisabled { unit, .. } | Fact::UnitDestroyed { unit, .. } => {
                    if let Some(c) = credit
                        && before.unit(*unit).side != before.unit(c).side
                        && let Some(n) = out.get_mut(c.index())
                    {
                        *n += 1;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The words round a reserve member's experience: ("(", "veteran, 5 xp)") or
/// ("(", "2 xp)").
fn veteran_words(m: &CrewRecord, rules: &CampaignRules) -> (&'static str, String) {
    if m.is_veteran(rules) {
        ("(", format!("a veteran with {} xp)", m.xp))
    } else {
        ("(", format!("{} xp)", m.xp))
    }
}

fn role_order(role: Role) -> usize {
    match role {
        Role::Commander => 0,
        Role::Driver => 1,
        Role::Gunner => 2,
        Role::Loader => 3,
        Role::Lieutenant => 4,
    }
}

/// The ability a veteran of `role` may use more often; the Lieutenant Commander has none.
fn ability_words(role: Role) -> Option<&'static str> {
    super::action::Ability::of_role(role).map(super::action::Ability::title)
}

/// The enemy units each unit knocked out in the match `m` ([`knock_outs`]).
#[must_use]
pub fn knock_outs_in(m: &crate::framework::Match<TankCommander>) -> Vec<u32> {
    knock_outs(
        m.state().units().len(),
        m.history()
            .iter()
            .map(|s| (s.state_before(), s.facts.as_slice())),
    )
}

impl PreparedBattle {
    /// The scenario as prepared.
    #[must_use]
    pub fn scenario(&self) -> &ScenarioSetup {
        &self.battle.scenario.setup
    }

    /// Plays the battle headless with `bots` (by side, as `sim` takes them) and the dice
    /// of `seed`, as the client's bot seats would; returns the finished match.
    ///
    /// # Errors
    /// [`CampaignError::Bots`] for an unknown bot, [`CampaignError::Seat`] for a battle
    /// that cannot start or play on, [`CampaignError::Unfinished`] for one that does not
    /// end within 20,000 actions.
    pub fn play_with_bots(
        &self,
        bots: &[String],
        seed: u64,
    ) -> Result<crate::framework::Match<TankCommander>, CampaignError> {
        use crate::framework::{Seat, SeatedMatch, playable};
        let players = playable::bots_for::<TankCommander>(bots, 2)?;
        let seats = players
            .iter()
            .map(|b| Seat::Bot(b.name().to_string()))
            .collect();
        let mut seated =
            SeatedMatch::<TankCommander>::new(self.battle.clone(), "campaign".into(), seed, seats)?;
        seated.autoplay(20_000)?;
        if seated.state().outcome().is_none() {
            return Err(CampaignError::Unfinished);
        }
        Ok(seated.game)
    }
}

/// Where a campaign's state is kept unless told otherwise: the user's data folder,
/// `campaigns/`, under the campaign file's name.
#[must_use]
pub fn default_state_path(campaign_file: &Path) -> PathBuf {
    let stem = campaign_file
        .file_stem()
        .map_or_else(|| "campaign".into(), |s| s.to_string_lossy().into_owned());
    crate::data::data_dir()
        .join("campaigns")
        .join(format!("{stem}.ron"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLUE: PlayerId = PlayerId(0);

    fn iron_road() -> (Campaign, Rules) {
        let rules = Rules::builtin();
        let path = crate::data::find_project_file("scenarios/campaigns/iron-road.ron").unwrap();
        (Campaign::load(&path, &rules).unwrap(), rules)
    }

    /// The first battle, prepared, and its game after the opening roll.
    fn first_battle() -> (Campaign, Rules, PreparedBattle, TankCommander) {
        let (c, rules) = iron_road();
        let prepared = CampaignState::new(&c).prepare(&c, &rules).unwrap();
        let battle = prepared.battle.clone();
        let m = crate::framework::playable::start::<TankCommander>(&battle, 1, &[]).unwrap();
        let game = m.state().clone();
        (c, rules, prepared, game)
    }

    fn named(game: &TankCommander, name: &str) -> usize {
        game.unit_named(name).unwrap().id.index()
    }

    /// Upgrades between battles: a tank that came through earns its points, a refit
    /// within the budget and those points is made (a lieutenant bought is crewed, one
    /// taken off joins the reserve), one beyond it is refused with the rule, and the next
    /// battle plays the refitted tank.
    #[test]
    fn tanks_earn_upgrade_points_and_are_refitted_between_battles_within_their_budget() {
        let (c, rules, prepared, mut game) = first_battle();
        assert_eq!(c.setup.upgrades, Earnings::default());
        for u in game.units.iter_mut().filter(|u| u.side != BLUE) {
            u.status = Status::Disabled;
        }
        let mut after = prepared.record(&game, &vec![0; game.units().len()]);
        let lancer = &after.roster[0];
        assert_eq!((lancer.name.as_str(), lancer.earned), ("Lancer", 1));
        assert!(
            after
                .reports
                .last()
                .unwrap()
                .lines
                .contains(&"Lancer earns 1 upgrade point for a refit (1 earned in all)".into())
        );
        let budget = lancer.budget(&rules);
        assert_eq!(budget, u32::from(rules.upgrades.budget) + 1);
        // Beyond the budget: refused with the rule, nothing changed.
        let before = after.clone();
        let greedy =
            parse_build("engine, optics, barrel, he, smoke, medkit, front:3, side:2, rear:1")
                .unwrap();
        assert!(greedy.cost(&rules.upgrades) > budget);
        let refused = after.refit("lancer", greedy, &rules).unwrap_err();
        let CampaignError::RefitRefused { problems } = &refused else {
            panic!("refused for the wrong reason: {refused}");
        };
        assert!(
            problems
                .iter()
                .any(|(r, rule)| r.contains("upgrade points but only")
                    && r.contains("+1 earned in the campaign")
                    && *rule == "tc.build.budget"),
            "{problems:?}"
        );
        assert!(
            refused
                .lines()
                .iter()
                .any(|r| r.ends_with("(§ tc.build.budget)")),
            "{refused}"
        );
        assert_eq!(after, before);
        assert!(matches!(
            after.refit("Tiger", Build::default(), &rules),
            Err(CampaignError::NoTank { .. })
        ));
        // Within it: the earned point buys a lieutenant, who is recruited.
        let mut build = after.roster[0].build;
        build.lieutenant = true;
        if build.cost(&rules.upgrades) > budget {
            build.medkit = false;
        }
        let said = after.refit("Lancer", build, &rules).unwrap();
        assert!(said.contains("+lieutenant"), "{said}");
        assert_eq!(after.roster[0].build, build);
        assert!(
            after.roster[0]
                .crew
                .iter()
                .any(|m| m.role == Role::Lieutenant)
        );
        assert!(
            after
                .reports
                .last()
                .unwrap()
                .lines
                .iter()
                .any(|l| l.contains("refitted"))
        );
        assert!(after.problems(&rules).is_empty());
        // The next battle plays the refitted tank, its earned point counted.
        let next = after.prepare(&c, &rules).unwrap();
        let unit = next
            .scenario()
            .units
            .iter()
            .find(|u| u.name == "Lancer")
            .unwrap();
        assert_eq!((unit.build, unit.earned), (build, 1));
        // Taken off again: the lieutenant joins the reserve.
        build.lieutenant = false;
        after.refit("Lancer", build, &rules).unwrap();
        assert!(after.reserve.iter().any(|m| m.role == Role::Lieutenant));
        // A state file edited past the budget is refused at the tank's build.
        after.roster[0].build.armor.front = 9;
        let p = after.problems(&rules);
        assert!(p.0.iter().any(|(at, _)| at == "roster[0].build"), "{p:?}");
    }

    #[test]
    fn a_build_is_written_as_its_equipment() {
        let b = parse_build("engine, he_rounds, Smoke Launcher, front:2, mines:1").unwrap();
        assert!(b.engine && b.he_rounds && b.smoke_launcher && !b.optics);
        assert_eq!((b.armor.front, b.mines), (2, 1));
        assert_eq!(parse_build("none").unwrap(), Build::default());
        let unknown = parse_build("warp drive").unwrap_err();
        assert!(matches!(unknown, CampaignError::NoEquipment { .. }));
        assert!(unknown.to_string().contains("is no equipment"), "{unknown}");
        let bad = parse_build("front:x").unwrap_err();
        assert!(matches!(bad, CampaignError::BadPoints { .. }));
        assert!(bad.to_string().contains("a number"), "{bad}");
    }

    #[test]
    fn the_first_battle_starts_the_roster_with_the_scenarios_tanks_and_recruits() {
        let (_, _, prepared, game) = first_battle();
        assert_eq!(prepared.places.len(), 2);
        let names: Vec<&str> = prepared
            .state
            .roster
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(names, ["Lancer", "Rapier"]);
        // Breakthrough names no crew: recruits take every place, in turn.
        let lancer = game.unit(UnitId(u8::try_from(named(&game, "Lancer")).unwrap()));
        let crew: Vec<&str> = lancer.crew.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(crew, ["Abel", "Brook", "Cole", "Dane"]);
        assert!(lancer.crew.iter().all(|m| !m.veteran));
        assert_eq!(
            prepared.joined[0],
            "Lancer joins the company: Commander Abel (recruit), Driver Brook (recruit), \
             Gunner Cole (recruit), Loader Dane (recruit)"
        );
    }

    #[test]
    fn crews_earn_experience_and_veterans_get_a_second_use_of_their_ability() {
        let (c, rules, prepared, mut game) = first_battle();
        let mut prepared = prepared;
        // The gunner of Lancer is one battle short of a veteran.
        prepared.state.roster[0].crew[2].xp = 2;
        for u in game.units.iter_mut().filter(|u| u.side != BLUE) {
            u.status = Status::Disabled;
        }
        let lancer = named(&game, "Lancer");
        let mut kos = vec![0; game.units().len()];
        kos[lancer] = 1;
        let after = prepared.record(&game, &kos);
        let report = after.reports.last().unwrap();
        assert_eq!(report.result, BattleResult::Won);
        let gunner = &after.roster[0].crew[2];
        assert_eq!(gunner.xp, 2 + 1 + 1, "a battle and a knock-out");
        assert!(gunner.is_veteran(&rules.campaign));
        assert!(
            report.lines.contains(
                &"Gunner Cole (Lancer) is now a veteran: Bring it down! 2 times a battle"
                    .to_string()
            ),
            "{:?}",
            report.lines
        );
        assert_eq!(
            after.roster[1].crew[0].xp, 1,
            "Rapier's commander: one battle"
        );
        assert_eq!(after.next, 1);
        // In the next battle the veteran may call Bring it down! twice.
        let next = after.prepare(&c, &rules).unwrap();
        let lancer_unit = next
            .scenario()
            .units
            .iter()
            .find(|u| u.name == "Lancer")
            .unwrap();
        assert_eq!(lancer_unit.veterans, [Role::Gunner]);
    }

    #[test]
    fn the_dead_are_replaced_and_a_tank_knocked_out_in_a_lost_battle_is_lost() {
        let (_, rules, prepared, mut game) = first_battle();
        let (lancer, rapier) = (named(&game, "Lancer"), named(&game, "Rapier"));
        // Lancer's gunner is killed; Rapier is knocked out with its loader wounded.
        game.units[lancer].crew[2].wounds = 2;
        game.units[rapier].status = Status::Disabled;
        game.units[rapier].crew[3].wounds = 1;
        let kos = vec![0; game.units().len()];
        // Won: Rapier is recovered, the wounded loader heals, the dead gunner is replaced.
        let mut won = game.clone();
        for u in won.units.iter_mut().filter(|u| u.side != BLUE) {
            u.status = Status::Disabled;
        }
        let after = prepared.record(&won, &kos);
        assert_eq!(after.roster.len(), 2);
        assert_eq!(after.fallen, ["Cole (Gunner, Lancer)"]);
        let gunner = &after.roster[0].crew[2];
        assert_eq!(
            (gunner.role, gunner.name.as_str(), gunner.xp),
            (Role::Gunner, "Ives", 0)
        );
        assert!(
            after.reports[0]
                .lines
                .contains(&"Rapier was recovered and repaired".to_string())
        );
        // Lost: Rapier is left on the field; its crew join the reserve and the first of
        // them, its gunner, takes the dead gunner's place.
        let mut lost = game;
        lost.conceded = Some(BLUE);
        let after = prepared.record(&lost, &kos);
        assert_eq!(after.reports[0].result, BattleResult::Lost);
        assert_eq!(after.roster.len(), 1);
        let gunner = &after.roster[0].crew[2];
        assert_eq!((gunner.name.as_str(), gunner.xp), ("Gale", 1));
        let reserve: Vec<&str> = after.reserve.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(reserve, ["Ezra", "Finn", "Hale"]);
        // With `repair_after_loss` Rapier is recovered after a loss too.
        let mut kind = rules.clone();
        kind.campaign.repair_after_loss = true;
        let mut battle = prepared.battle.clone();
        battle.rules = kind;
        let m = crate::framework::playable::start::<TankCommander>(&battle, 1, &[]).unwrap();
        let mut g = m.state().clone();
        g.units[rapier].status = Status::Disabled;
        g.conceded = Some(BLUE);
        assert_eq!(prepared.record(&g, &kos).roster.len(), 2);
    }

    #[test]
    fn a_campaign_is_saved_atomically_and_read_back_and_ends_after_its_last_battle() {
        let (c, rules) = iron_road();
        let dir = std::env::temp_dir().join(format!("tanktable-campaign-{}", std::process::id()));
        let path = dir.join("iron-road.ron");
        let mut state = CampaignState::new(&c);
        let prepared = state.prepare(&c, &rules).unwrap();
        let m = prepared.play_with_bots(&["greedy".into()], 4).unwrap();
        state = prepared.record(m.state(), &knock_outs_in(&m));
        state.save(&path).unwrap();
        assert_eq!(CampaignState::load(&path).unwrap(), state);
        state.next = c.setup.battles.len();
        assert!(state.is_over(&c));
        let err = state.prepare(&c, &rules).unwrap_err();
        assert!(matches!(err, CampaignError::Over { battles: 4, .. }));
        assert_eq!(
            err.to_string(),
            "the campaign `The Iron Road` is over: all 4 battles are fought"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_campaign_file_names_real_scenarios_and_a_side_with_tanks_in_each() {
        let rules = Rules::builtin();
        let dir = crate::data::find_project_file("scenarios/campaigns").unwrap();
        let text = "Campaign(\n    name: \"Bad\",\n    side: \"Green\",\n    battles: [\n        (scenario: \"../skirmish.ron\"),\n        (scenario: \"../nowhere.ron\"),\n    ],\n)\n";
        let err = Campaign::parse(&dir.join("bad.ron"), text, &rules).unwrap_err();
        let lines: Vec<String> = err.0.iter().map(ToString::to_string).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].contains("bad.ron:5:")
                && lines[0].contains("`../skirmish.ron` has no side `Green`"),
            "{lines:?}"
        );
        assert!(
            lines[1].contains("bad.ron:6:")
                && lines[1].contains("`../nowhere.ron` cannot be played"),
            "{lines:?}"
        );
    }

    #[test]
    fn knock_outs_go_to_the_shooter_and_the_strikes_caller_but_not_to_the_turns_end() {
        use super::super::Fact;
        use super::super::state::AirStrike;
        let (_, _, _, mut game) = first_battle();
        let lancer = UnitId(u8::try_from(named(&game, "Lancer")).unwrap());
        let rapier = UnitId(u8::try_from(named(&game, "Rapier")).unwrap());
        let enemy = game.units().iter().find(|u| u.side != BLUE).unwrap().id;
        let mine = game.units().iter().find(|u| u.side == BLUE).unwrap().id;
        let hex = game.unit(enemy).at;
        game.strikes.push(AirStrike {
            at: hex,
            side: BLUE,
            caller: rapier,
            called_on: 1,
        });
        // Lancer's own shot, then the turn's end (a fire: nobody's), then Rapier's strike.
        let mut before = game.clone();
        before.active = Some(super::super::state::Activation::begin(lancer, 0));
        let check = super::super::action::DieCheck {
            roll: 6,
            need: 2,
            success: true,
        };
        let disabled = |unit| Fact::UnitDisabled {
            unit,
            reason: String::new(),
        };
        let facts = vec![
            disabled(enemy),
            Fact::ActivationEnded {
                unit: lancer,
                unused: 0,
            },
            disabled(enemy),
            Fact::AirStrikeRolled {
                side: BLUE,
                hex,
                waited: 1,
                check,
            },
            Fact::AirStrikeLanded {
                side: BLUE,
                hex,
                scatter: None,
                hexes: vec![hex],
            },
            disabled(enemy),
            disabled(mine),
        ];
        let kos = knock_outs(game.units().len(), [(&before, facts.as_slice())]);
        assert_eq!(kos[lancer.index()], 1, "the shooter: {kos:?}");
        assert_eq!(kos[rapier.index()], 1, "the strike's caller: {kos:?}");
        assert_eq!(
            kos.iter().sum::<u32>(),
            2,
            "a friend and the fire count for nobody"
        );
    }

    #[test]
    fn a_lieutenant_of_the_reserve_crews_a_tank_with_the_upgrade() {
        let (c, _) = iron_road();
        let mut state = CampaignState::new(&c);
        state.reserve.push(CrewRecord {
            role: Role::Lieutenant,
            name: "Lex".into(),
            xp: 2,
        });
        assert_eq!(
            state.fill(Role::Lieutenant),
            (
                CrewRecord {
                    role: Role::Lieutenant,
                    name: "Lex".into(),
                    xp: 2
                },
                false
            )
        );
        assert!(
            state.fill(Role::Gunner).1,
            "no gunner in the reserve: a recruit"
        );
    }

    #[test]
    fn names_never_clash_and_a_missions_named_tank_is_not_a_place() {
        let (c, rules) = iron_road();
        // A roster tank called like the second battle's third tank: the new tank there
        // takes another name.
        let mut state = CampaignState::new(&c);
        let prepared = state.prepare(&c, &rules).unwrap();
        state = prepared.state.clone();
        state.roster[1].name = "Furrow".into();
        state.next = 1;
        let second = state.prepare(&c, &rules).unwrap();
        let names: Vec<&str> = second
            .places
            .iter()
            .map(|(at, _)| second.scenario().units[*at].name.as_str())
            .collect();
        assert_eq!(names, ["Lancer", "Furrow", "Furrow 2"]);
        // The Command Tank's target stays the scenario's own when the campaign follows Red.
        let path = crate::data::find_project_file("scenarios/command-tank.ron").unwrap();
        let scenario = Scenario::load(&path, &rules).unwrap();
        let red: Vec<&str> = campaign_places(&scenario.setup, "Red")
            .into_iter()
            .map(|k| scenario.setup.units[k].name.as_str())
            .collect();
        assert_eq!(red, ["Warden"]);
    }

    #[test]
    fn a_knock_out_counts_for_the_unit_whose_activation_it_came_in() {
        let (_, _, prepared, _) = first_battle();
        let m = prepared.play_with_bots(&["greedy".into()], 2).unwrap();
        let kos = knock_outs_in(&m);
        let knocked_out = m
            .state()
            .units()
            .iter()
            .filter(|u| !u.is_active() && u.kind != UnitKind::Infantry)
            .count();
        let total: u32 = kos.iter().sum();
        assert!(total >= 1 && total as usize <= knocked_out, "{kos:?}");
        for (i, n) in kos.iter().enumerate() {
            if *n > 0 {
                let side = m.state().units()[i].side;
                assert!(
                    m.state()
                        .units()
                        .iter()
                        .filter(|u| u.side != side && !u.is_active())
                        .count()
                        >= *n as usize
                );
            }
        }
    }
}
