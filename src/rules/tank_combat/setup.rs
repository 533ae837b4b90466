//! Tank Combat setups (`scenarios/tank-combat/*.ron`), read and validated.
//!
//! A setup names the players and their classes and may override any rules number in
//! [`CombatRules`], whose defaults are the rulebook's (the 100-card deck, the class
//! table, damage values) and our readings of its gaps. The mode follows the player count:
//! a Duel for 2, a Deathmatch for 3 or more.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::card::{Card, Class};
use crate::data::{self, Diagnostics, Problems};

/// The default setup, compiled in.
pub const BUILTIN_SETUP: &str = include_str!("../../../scenarios/tank-combat/default.ron");

/// How many copies of a card the deck holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckEntry {
    pub card: Card,
    pub count: u8,
}

/// One class's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassStats {
    pub hand_size: u8,
}

/// The class table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassTable {
    pub heavy: ClassStats,
    pub medium: ClassStats,
    pub light: ClassStats,
}

impl ClassTable {
    /// The numbers of `class`.
    #[must_use]
    pub fn get(&self, class: Class) -> ClassStats {
        match class {
            Class::Heavy => self.heavy,
            Class::Medium => self.medium,
            Class::Light => self.light,
        }
    }
}

/// The rulebook's numbers and our readings of its gaps. Every field has the rulebook's
/// value (or our reading) by default; a setup may override any of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CombatRules {
    /// Every card kind and its count: the rulebook's 100 cards.
    pub deck: Vec<DeckEntry>,
    /// The deck must hold exactly this many cards; validation refuses any other total, so
    /// a designer who changes the deck says so here too.
    pub deck_size: u16,
    pub classes: ClassTable,
    /// Every tank's starting (and largest) HP.
    pub max_hp: u16,
    /// Adrenaline activates at this HP or below.
    pub adrenaline_at: u16,
    pub high_explosive_damage: u16,
    pub anti_tank_damage: u16,
    pub armor_piercing_damage: u16,
    pub coaxial_mg_damage: u16,
    /// Damage one Ablative Armor absorbs.
    pub armor_absorbs: u16,
    /// The Heavy's passive reduction.
    pub heavy_reduction: u16,
    /// Kills that win a Deathmatch.
    pub kills_to_win: u8,
    /// Full rounds before the match is drawn.
    pub round_limit: u16,
    /// Loading over a loaded breech is allowed; the old munition goes to the discard pile.
    pub reload_over_loaded: bool,
    /// Equipping a Permanent Safety also removes the matching hazard already on the tank.
    pub safety_removes_hazard: bool,
    /// Players other than the target may smoke an attack (the rulebook's "any player").
    pub bystanders_smoke: bool,
}

impl Default for CombatRules {
    fn default() -> Self {
        Self {
            deck: Card::ALL
                .iter()
                .map(|&card| DeckEntry {
                    card,
                    count: card.rulebook_count(),
                })
                .collect(),
            deck_size: 100,
            classes: ClassTable {
                heavy: ClassStats { hand_size: 5 },
                medium: ClassStats { hand_size: 6 },
                light: ClassStats { hand_size: 10 },
            },
            max_hp: 100,
            adrenaline_at: 25,
            high_explosive_damage: 25,
            anti_tank_damage: 50,
            armor_piercing_damage: 75,
            coaxial_mg_damage: 10,
            armor_absorbs: 10,
            heavy_reduction: 5,
            kills_to_win: 3,
            round_limit: 100,
            reload_over_loaded: true,
            safety_removes_hazard: true,
            bystanders_smoke: true,
        }
    }
}

impl CombatRules {
    /// Base damage of an attack card (a munition or the Coaxial MG).
    #[must_use]
    pub fn base_damage(&self, card: Card) -> u16 {
        match card {
            Card::HighExplosive => self.high_explosive_damage,
            Card::AntiTank => self.anti_tank_damage,
            Card::ArmorPiercing => self.armor_piercing_damage,
            Card::CoaxialMg => self.coaxial_mg_damage,
            _ => 0,
        }
    }

    /// The deck's cards, in table order (before the shuffle).
    #[must_use]
    pub fn deck_cards(&self) -> Vec<Card> {
        self.deck
            .iter()
            .flat_map(|e| std::iter::repeat_n(e.card, usize::from(e.count)))
            .collect()
    }

    /// Cards in the deck.
    #[must_use]
    pub fn deck_total(&self) -> usize {
        self.deck.iter().map(|e| usize::from(e.count)).sum()
    }
}

/// One seat as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerEntry {
    pub name: String,
    pub class: Class,
}

/// A Tank Combat setup file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "TankCombatSetup")]
pub struct TankCombatSetup {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The seats in turn order; the first plays first.
    pub players: Vec<PlayerEntry>,
    #[serde(default)]
    pub rules: CombatRules,
}

/// Duel or Deathmatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// Two players: reduce the other to 0 HP.
    Duel,
    /// Three or more: first to the kill target, with respawns.
    Deathmatch,
}

/// A validated setup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatSetup {
    pub name: String,
    pub description: String,
    pub players: Vec<PlayerEntry>,
    pub mode: Mode,
    pub rules: CombatRules,
}

impl From<CombatSetup> for TankCombatSetup {
    /// The setup as a file would write it, to be validated again (the mode follows from
    /// the number of players).
    fn from(setup: CombatSetup) -> Self {
        Self {
            name: setup.name,
            description: setup.description,
            players: setup.players,
            rules: setup.rules,
        }
    }
}

impl CombatSetup {
    /// The default setup (a Duel, Heavy against Medium).
    ///
    /// # Panics
    /// Never in a release: a unit test checks the shipped file.
    #[must_use]
    pub fn builtin_default() -> Self {
        Self::parse(
            Path::new("scenarios/tank-combat/default.ron"),
            BUILTIN_SETUP,
        )
        .expect("the shipped default Tank Combat setup is valid")
    }

    /// Reads and validates a setup.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn parse(path: &Path, text: &str) -> Result<Self, Diagnostics> {
        data::parse_validated(&path.display().to_string(), text, Self::validate)
    }

    /// Validates a setup: 2 to 8 named players, a deck of the announced size with every
    /// count sane, and rules numbers that let a match run.
    ///
    /// # Errors
    /// Every problem found, by field.
    pub fn validate(setup: TankCombatSetup) -> Result<Self, Problems> {
        let mut p = Problems::default();
        if setup.name.trim().is_empty() {
            p.push("name", "a setup needs a name");
        }
        if !(2..=8).contains(&setup.players.len()) {
            p.push(
                "players",
                format!(
                    "Tank Combat is played by 2 to 8 players, not {}",
                    setup.players.len()
                ),
            );
        }
        crate::data::check_names(
            &mut p,
            ("a player", "players"),
            setup
                .players
                .iter()
                .enumerate()
                .map(|(i, player)| (format!("players[{i}].name"), player.name.as_str())),
        );
        deck_problems(&setup, &mut p);
        number_problems(&setup.rules, &mut p);
        if !p.is_empty() {
            return Err(p);
        }
        let mode = if setup.players.len() == 2 {
            Mode::Duel
        } else {
            Mode::Deathmatch
        };
        Ok(Self {
            name: setup.name,
            description: setup.description,
            players: setup.players,
            mode,
            rules: setup.rules,
        })
    }
}

/// The deck's problems: its size against its cards, cards listed twice, the opening
/// hands it must deal, and every count in range.
fn deck_problems(setup: &TankCombatSetup, p: &mut Problems) {
    let r = &setup.rules;
    let total = r.deck_total();
    if total != usize::from(r.deck_size) {
        p.push(
            "rules.deck",
            format!(
                "the deck holds {total} cards but `deck_size` says {}: change both to change the deck",
                r.deck_size
            ),
        );
    }
    for (i, entry) in r.deck.iter().enumerate() {
        if r.deck[..i].iter().any(|o| o.card == entry.card) {
            p.push(
                format!("rules.deck[{i}].card"),
                format!("{} is listed twice", entry.card.name()),
            );
        }
    }
    let hands: usize = setup
        .players
        .iter()
        .map(|pl| usize::from(r.classes.get(pl.class).hand_size))
        .sum();
    if hands > total {
        p.push(
            "rules.deck",
            format!("the deck ({total} cards) cannot deal the opening hands ({hands} cards)"),
        );
    }
    for (field, stats) in [
        ("rules.classes.heavy", r.classes.heavy),
        ("rules.classes.medium", r.classes.medium),
        ("rules.classes.light", r.classes.light),
    ] {
        p.range(
            format!("{field}.hand_size"),
            stats.hand_size,
            1..=20,
            "a hand size",
        );
    }
    // The rulebook's deck is 100 cards; ten times that is room for any variant.
    p.range("rules.deck_size", r.deck_size, 1..=1000, "the deck's size");
    for (i, entry) in r.deck.iter().enumerate() {
        p.range(
            format!("rules.deck[{i}].count"),
            entry.count,
            0..=200,
            "the copies of a card",
        );
    }
}

/// The rules numbers' problems: damage and reductions up to full HP, and HP, Adrenaline,
/// the kill target and the round limit that let a match run.
fn number_problems(r: &CombatRules, p: &mut Problems) {
    if r.max_hp > 0 {
        for (field, value) in [
            ("rules.high_explosive_damage", r.high_explosive_damage),
            ("rules.anti_tank_damage", r.anti_tank_damage),
            ("rules.armor_piercing_damage", r.armor_piercing_damage),
            ("rules.coaxial_mg_damage", r.coaxial_mg_damage),
        ] {
            p.range(
                field,
                value,
                1..=r.max_hp,
                "an attack's damage (up to full HP)",
            );
        }
        for (field, value) in [
            ("rules.armor_absorbs", r.armor_absorbs),
            ("rules.heavy_reduction", r.heavy_reduction),
        ] {
            p.range(
                field,
                value,
                0..=r.max_hp,
                "a damage reduction (up to full HP)",
            );
        }
    }
    if r.max_hp == 0 {
        p.push("rules.max_hp", "tanks need at least 1 HP");
    }
    if r.adrenaline_at >= r.max_hp {
        p.push(
            "rules.adrenaline_at",
            "Adrenaline must start below the tanks' full HP",
        );
    }
    if r.kills_to_win == 0 {
        p.push("rules.kills_to_win", "the kill target must be at least 1");
    }
    if r.round_limit == 0 {
        p.push("rules.round_limit", "the round limit must be at least 1");
    }
}
