//! What players do ([`Action`]) and what happens ([`Fact`]).

use serde::{Deserialize, Serialize};

use super::card::{Card, Class};
use super::setup::Mode;
use crate::framework::{Outcome, PlayerId};

/// Something a player does. Cards are named by kind: copies are interchangeable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Turn action: load a munition into the breech.
    Load { card: Card },
    /// Turn action: discard a Fire! card to fire the loaded munition at `target`.
    Fire { target: PlayerId },
    /// Turn action: attack `target` with a Coaxial MG.
    CoaxialMg { target: PlayerId },
    /// Turn action, Medium under Adrenaline: load `card` and fire it at once (uses a
    /// Fire! card too).
    LoadAndFire { card: Card, target: PlayerId },
    /// Turn action: play a hazard on an opponent.
    Sabotage { hazard: Card, target: PlayerId },
    /// Turn action: play a remedy to remove the matching hazard from `target` (yourself).
    Repair { remedy: Card, target: PlayerId },
    /// Turn action: equip Ablative Armor or a Permanent Safety.
    Equip { card: Card },
    /// Discard a card: the turn action when nothing else is possible, the discard down to
    /// the hand size, or the toll for attacking a Light under Adrenaline.
    Discard { card: Card },
    /// Medium passive, before the turn action: discard a card and draw one.
    Swap { card: Card },
    /// Interrupt: play Smoke Launchers to cancel the pending attack.
    Smoke,
    /// Interrupt: let the attack through. Also the turn action of a player with an
    /// empty hand.
    Pass,
}

/// What happened to the Ablative Armor step of a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArmorStep {
    /// The target had no Ablative Armor.
    None,
    /// One armor absorbed this much and was discarded.
    Absorbed(u16),
    /// Anti-Tank (HEAT) destroyed one armor without being reduced.
    Destroyed,
    /// A Heavy under Adrenaline ignores Ablative Armor.
    Ignored,
}

/// The steps of one hit, in the rulebook's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageSteps {
    pub base: u16,
    pub armor: ArmorStep,
    /// The Heavy's passive reduction applied (0 when none).
    pub heavy: u16,
    pub final_damage: u16,
    pub hp_before: u16,
    pub hp_after: u16,
}

/// Why a card went to the discard pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DiscardReason {
    /// The turn action, when nothing else was possible.
    Action,
    /// Down to the hand size at the end of the turn.
    HandSize,
    /// The toll for attacking a Light under Adrenaline.
    Toll,
    /// The Medium's discard-and-draw.
    Swap,
}

/// Something that happened, with its reasons.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Fact {
    /// The match starts.
    Began {
        players: Vec<(String, Class)>,
        mode: Mode,
        kills_to_win: u8,
        deck: usize,
    },
    /// The deck was shuffled (at the start).
    Shuffled { cards: usize },
    /// The discard pile was shuffled into a new deck.
    Reshuffled { cards: usize },
    /// `player` drew `card`: only its owner may read which.
    Drew { player: PlayerId, card: Card },
    /// Deck and discard pile are both empty: `player` could not draw.
    NoCards { player: PlayerId },
    /// A turn begins (`turn` counts from 1; `bonus` for a Tactical Override's turn).
    TurnStarted {
        player: PlayerId,
        turn: u32,
        round: u32,
        bonus: bool,
    },
    /// The Spawn Shield drops at the start of its owner's turn.
    ShieldDropped { player: PlayerId },
    /// A card went to the discard pile from `player`'s hand.
    Discarded {
        player: PlayerId,
        card: Card,
        reason: DiscardReason,
    },
    /// A munition went into the breech (`replaced` went to the discard pile).
    Loaded {
        player: PlayerId,
        card: Card,
        replaced: Option<Card>,
    },
    /// An attack is declared (`card` is the munition or the Coaxial MG).
    Attacked {
        attacker: PlayerId,
        target: PlayerId,
        card: Card,
        base: u16,
        /// A Fire! card went from the attacker's hand to the discard pile (and the
        /// munition left the breech); false for the Coaxial MG, played from the hand.
        spent_fire: bool,
        /// A Heavy under Adrenaline: no Smoke window.
        ignores_smoke: bool,
    },
    /// Players are asked, in this order, whether they play Smoke.
    WindowOpened { asked: Vec<PlayerId> },
    /// `player` let the attack through.
    Passed { player: PlayerId },
    /// `player` played Smoke Launchers.
    Smoked { player: PlayerId },
    /// The attack was cancelled; its card went to the discard pile.
    Cancelled {
        attacker: PlayerId,
        target: PlayerId,
        card: Card,
    },
    /// A hit, every step shown.
    Damage {
        attacker: PlayerId,
        target: PlayerId,
        card: Card,
        steps: DamageSteps,
    },
    /// Adrenaline activates: hazards cleared.
    Adrenaline {
        player: PlayerId,
        class: Class,
        cleared: Vec<Card>,
    },
    /// A tank reached 0 HP.
    Destroyed { player: PlayerId, by: PlayerId },
    /// `player` scores a kill mark.
    Kill { player: PlayerId, kills: u8 },
    /// A destroyed tank comes back with full HP and a Spawn Shield; its hand and tableau
    /// went to the discard pile.
    Respawned {
        player: PlayerId,
        hp: u16,
        discarded: Vec<Card>,
    },
    /// A hazard was played on `target`.
    Hazard {
        player: PlayerId,
        target: PlayerId,
        hazard: Card,
    },
    /// `target` revealed the matching safety: the hazard is cancelled, the safety
    /// equipped, the attacker loses a random card (`lost`, if it had one), the target
    /// draws and takes a bonus turn.
    Override {
        target: PlayerId,
        attacker: PlayerId,
        hazard: Card,
        safety: Card,
        lost: Option<Card>,
    },
    /// A remedy removed a hazard.
    Repaired {
        player: PlayerId,
        target: PlayerId,
        remedy: Card,
        hazard: Card,
    },
    /// Armor or a safety equipped (`removed`: the hazard the safety cleared).
    Equipped {
        player: PlayerId,
        card: Card,
        removed: Option<Card>,
    },
    /// A player with no cards passes the turn.
    PassedTurn { player: PlayerId },
    /// The match is over.
    Ended { outcome: Outcome },
}
