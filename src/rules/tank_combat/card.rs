//! The cards and the tank classes.

use serde::{Deserialize, Serialize};

/// A card kind. The deck holds several copies of most kinds; cards of one kind are
/// interchangeable, so actions name a card by its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Card {
    HighExplosive,
    /// The rulebook's "HEAT" round in the damage steps.
    AntiTank,
    ArmorPiercing,
    Fire,
    CoaxialMg,
    Tracked,
    JammedBreech,
    CommsJammed,
    FieldRepair,
    ClearBreech,
    ReestablishComms,
    SmokeLaunchers,
    AblativeArmor,
    ReinforcedTreads,
    AdvancedTargeting,
    EncryptedComms,
}

/// What a card is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardKind {
    Munition,
    Fire,
    CoaxialMg,
    Hazard,
    Remedy,
    Smoke,
    Armor,
    Safety,
}

impl Card {
    /// Every card kind, in the rulebook's order.
    pub const ALL: [Card; 16] = [
        Card::HighExplosive,
        Card::AntiTank,
        Card::ArmorPiercing,
        Card::Fire,
        Card::CoaxialMg,
        Card::Tracked,
        Card::JammedBreech,
        Card::CommsJammed,
        Card::FieldRepair,
        Card::ClearBreech,
        Card::ReestablishComms,
        Card::SmokeLaunchers,
        Card::AblativeArmor,
        Card::ReinforcedTreads,
        Card::AdvancedTargeting,
        Card::EncryptedComms,
    ];

    /// The card's name as printed.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Card::HighExplosive => "High Explosive",
            Card::AntiTank => "Anti-Tank",
            Card::ArmorPiercing => "Armor Piercing",
            Card::Fire => "Fire!",
            Card::CoaxialMg => "Coaxial MG",
            Card::Tracked => "Tracked",
            Card::JammedBreech => "Jammed Breech",
            Card::CommsJammed => "Comms Jammed",
            Card::FieldRepair => "Field Repair",
            Card::ClearBreech => "Clear Breech",
            Card::ReestablishComms => "Re-establish Comms",
            Card::SmokeLaunchers => "Smoke Launchers",
            Card::AblativeArmor => "Ablative Armor",
            Card::ReinforcedTreads => "Reinforced Treads",
            Card::AdvancedTargeting => "Advanced Targeting",
            Card::EncryptedComms => "Encrypted Comms",
        }
    }

    /// One line for the card face (with the rulebook's damage numbers).
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            Card::HighExplosive => "Munition: load, fire on a later turn. 25 damage.",
            Card::AntiTank => {
                "Munition: 50 damage; destroys 1 Ablative Armor instead of being reduced."
            }
            Card::ArmorPiercing => "Munition: load, fire on a later turn. 75 damage.",
            Card::Fire => "Fire your loaded munition at a target.",
            Card::CoaxialMg => "Attack a target for 10 damage; no breech needed.",
            Card::Tracked => "Hazard: the target can't attack.",
            Card::JammedBreech => "Hazard: the target can't load.",
            Card::CommsJammed => "Hazard: the target can't play Smoke.",
            Card::FieldRepair => "Remedy: removes Tracked.",
            Card::ClearBreech => "Remedy: removes Jammed Breech.",
            Card::ReestablishComms => "Remedy: removes Comms Jammed.",
            Card::SmokeLaunchers => "Play on any turn to cancel an attack.",
            Card::AblativeArmor => "Equip: absorbs 10 damage from one hit, then discarded.",
            Card::ReinforcedTreads => "Safety: immune to Tracked.",
            Card::AdvancedTargeting => "Safety: immune to Jammed Breech.",
            Card::EncryptedComms => "Safety: immune to Comms Jammed.",
        }
    }

    /// What the card is for.
    #[must_use]
    pub const fn kind(self) -> CardKind {
        match self {
            Card::HighExplosive | Card::AntiTank | Card::ArmorPiercing => CardKind::Munition,
            Card::Fire => CardKind::Fire,
            Card::CoaxialMg => CardKind::CoaxialMg,
            Card::Tracked | Card::JammedBreech | Card::CommsJammed => CardKind::Hazard,
            Card::FieldRepair | Card::ClearBreech | Card::ReestablishComms => CardKind::Remedy,
            Card::SmokeLaunchers => CardKind::Smoke,
            Card::AblativeArmor => CardKind::Armor,
            Card::ReinforcedTreads | Card::AdvancedTargeting | Card::EncryptedComms => {
                CardKind::Safety
            }
        }
    }

    /// The hazard a remedy or safety answers.
    #[must_use]
    pub const fn answers(self) -> Option<Card> {
        match self {
            Card::FieldRepair | Card::ReinforcedTreads => Some(Card::Tracked),
            Card::ClearBreech | Card::AdvancedTargeting => Some(Card::JammedBreech),
            Card::ReestablishComms | Card::EncryptedComms => Some(Card::CommsJammed),
            _ => None,
        }
    }

    /// The Permanent Safety that makes a tank immune to this hazard.
    #[must_use]
    pub const fn safety(self) -> Option<Card> {
        match self {
            Card::Tracked => Some(Card::ReinforcedTreads),
            Card::JammedBreech => Some(Card::AdvancedTargeting),
            Card::CommsJammed => Some(Card::EncryptedComms),
            _ => None,
        }
    }

    /// Copies in the rulebook's 100-card deck.
    #[must_use]
    pub const fn rulebook_count(self) -> u8 {
        match self {
            Card::HighExplosive => 12,
            Card::AntiTank => 6,
            Card::ArmorPiercing => 2,
            Card::Fire => 15,
            Card::CoaxialMg | Card::SmokeLaunchers => 10,
            Card::Tracked
            | Card::JammedBreech
            | Card::CommsJammed
            | Card::FieldRepair
            | Card::ClearBreech
            | Card::ReestablishComms
            | Card::AblativeArmor => 6,
            Card::ReinforcedTreads | Card::AdvancedTargeting | Card::EncryptedComms => 1,
        }
    }
}

/// A tank class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Class {
    Heavy,
    Medium,
    Light,
}

impl Class {
    /// The class's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Class::Heavy => "Heavy",
            Class::Medium => "Medium",
            Class::Light => "Light",
        }
    }

    /// The passive, in one line.
    #[must_use]
    pub const fn passive(self) -> &'static str {
        match self {
            Class::Heavy => "-5 incoming damage",
            Class::Medium => "a free discard-and-draw once per turn",
            Class::Light => "a 10-card hand",
        }
    }

    /// The Adrenaline ability, in one line.
    #[must_use]
    pub const fn adrenaline(self) -> &'static str {
        match self {
            Class::Heavy => "attacks ignore Ablative Armor and Smoke",
            Class::Medium => "load and fire in one action",
            Class::Light => "attackers must discard a card to target it",
        }
    }
}
