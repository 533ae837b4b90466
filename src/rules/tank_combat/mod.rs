//! Tank Combat: a card game of loading and firing munitions, for 2 or more players.
//!
//! Each turn the player draws up to their class's hand size, takes one action ([`Action`]:
//! load, fire, Coaxial MG, sabotage, repair, equip, or discard when nothing else is
//! possible) and discards down to the hand size. An attack opens an interrupt window in
//! which the other players, in seat order after the attacker, are each asked whether they
//! play Smoke (everyone eligible is asked, holding Smoke or not, so being asked reveals
//! nothing). A Duel (2 players) ends when a tank reaches 0 HP; a Deathmatch (3 or more)
//! when a player scores the kill target. Hands are secret: [`Game::view`] shows a player
//! only their own hand.
//!
//! ```
//! use tanktable::framework::{Game, MatchRng, PlayerId};
//! use tanktable::rules::tank_combat::{CombatSetup, TankCombat};
//! let mut game = TankCombat::new(&CombatSetup::builtin_default());
//! let mut rng = MatchRng::new(1);
//! game.begin(&mut rng);
//! assert_eq!(game.to_act(), vec![PlayerId(0)]);
//! let action = game.legal_actions(PlayerId(0))[0];
//! assert!(game.apply(PlayerId(0), &action, &mut rng).is_ok());
//! ```

pub mod action;
pub mod bot;
pub mod card;
mod mirror;
pub mod notation;
pub mod resolve;
pub mod search;
pub mod setup;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use action::{Action, ArmorStep, DamageSteps, DiscardReason, Fact};
pub use card::{Card, CardKind, Class};
pub use setup::{
    BUILTIN_SETUP, ClassStats, ClassTable, CombatRules, CombatSetup, DeckEntry, Mode, PlayerEntry,
    TankCombatSetup,
};

use crate::data::Diagnostics;
use crate::framework::bot::{Bot, RandomBot};
use crate::framework::{
    Game, InRecord, MatchRng, Outcome, Playable, PlayerId, Refusal, SetupError,
};
use crate::rules::GameKind;

/// One player's tank and hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tank {
    pub name: String,
    pub class: Class,
    pub hp: u16,
    /// Secret: only its owner sees it.
    pub hand: Vec<Card>,
    /// The loaded munition.
    pub breech: Option<Card>,
    /// The turn number on which the breech was loaded.
    pub loaded_on: u32,
    /// Ablative Armor cards equipped.
    pub armor: u8,
    pub safeties: Vec<Card>,
    pub hazards: Vec<Card>,
    pub kills: u8,
    pub adrenaline: bool,
    pub spawn_shield: bool,
    /// Out of a Duel at 0 HP (a Deathmatch tank respawns at once).
    pub destroyed: bool,
    /// The Medium's discard-and-draw has been used this turn.
    pub swapped: bool,
}

impl Tank {
    /// True when the tank has `hazard`.
    #[must_use]
    pub fn has_hazard(&self, hazard: Card) -> bool {
        self.hazards.contains(&hazard)
    }

    /// True when `card` is in the hand.
    #[must_use]
    pub fn holds(&self, card: Card) -> bool {
        self.hand.contains(&card)
    }

    /// Removes one `card` from the hand; false when there is none.
    pub(crate) fn take(&mut self, card: Card) -> bool {
        match self.hand.iter().position(|&c| c == card) {
            Some(i) => {
                self.hand.remove(i);
                true
            }
            None => false,
        }
    }
}

/// An attack waiting for its toll or its Smoke window.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub attacker: PlayerId,
    pub target: PlayerId,
    /// The munition fired or the Coaxial MG played: in flight until resolved.
    pub card: Card,
    /// Players still to answer, in order (the first is asked now).
    pub asked: Vec<PlayerId>,
}

/// Where the match stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Before [`Game::begin`] deals.
    NotStarted,
    /// The turn player's action (and the Medium's swap before it).
    Turn,
    /// The attacker must discard a card to target a Light under Adrenaline.
    Toll(Attack),
    /// The Smoke window: `asked[0]` answers.
    Window(Attack),
    /// The turn player discards down to the hand size.
    DiscardDown,
    Over,
}

/// A Tank Combat match in progress.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TankCombat {
    /// Carried beside the state in a mirror ([`Playable::to_mirror`]).
    #[serde(skip, default = "mirror::unset_setup")]
    pub(crate) setup: Arc<CombatSetup>,
    pub(crate) tanks: Vec<Tank>,
    /// The draw pile; the top card is the last.
    pub(crate) deck: Vec<Card>,
    /// The discard pile; the top card is the last.
    pub(crate) discard: Vec<Card>,
    pub(crate) phase: Phase,
    /// Whose turn it is.
    pub(crate) current: PlayerId,
    /// Whether the current turn is a Tactical Override's bonus turn.
    pub(crate) bonus: bool,
    /// The seat whose regular turn came last (bonus turns do not move it).
    pub(crate) seat: PlayerId,
    /// Bonus turns owed, in order.
    pub(crate) bonus_queue: Vec<PlayerId>,
    /// Turns started, bonus turns included.
    pub(crate) turn: u32,
    /// Regular turns finished.
    pub(crate) regular_done: u32,
    pub(crate) outcome: Option<Outcome>,
}

impl TankCombat {
    /// A match before the deal: [`Game::begin`] shuffles and deals.
    #[must_use]
    pub fn new(setup: &CombatSetup) -> Self {
        let tanks = setup
            .players
            .iter()
            .map(|p| Tank {
                name: p.name.clone(),
                class: p.class,
                hp: setup.rules.max_hp,
                hand: Vec::new(),
                breech: None,
                loaded_on: 0,
                armor: 0,
                safeties: Vec::new(),
                hazards: Vec::new(),
                kills: 0,
                adrenaline: false,
                spawn_shield: false,
                destroyed: false,
                swapped: false,
            })
            .collect();
        Self {
            deck: setup.rules.deck_cards(),
            setup: Arc::new(setup.clone()),
            tanks,
            discard: Vec::new(),
            phase: Phase::NotStarted,
            current: PlayerId(0),
            bonus: false,
            seat: PlayerId(0),
            bonus_queue: Vec::new(),
            turn: 0,
            regular_done: 0,
            outcome: None,
        }
    }

    /// The validated setup.
    #[must_use]
    pub fn setup(&self) -> &CombatSetup {
        &self.setup
    }

    /// The rules numbers.
    #[must_use]
    pub fn rules(&self) -> &CombatRules {
        &self.setup.rules
    }

    /// Duel or Deathmatch.
    #[must_use]
    pub fn mode(&self) -> Mode {
        self.setup.mode
    }

    /// Every tank, in seat order (hands included: use [`Game::view`] for a seat's view).
    #[must_use]
    pub fn tanks(&self) -> &[Tank] {
        &self.tanks
    }

    /// One tank.
    #[must_use]
    pub fn tank(&self, player: PlayerId) -> &Tank {
        &self.tanks[player.index().min(self.tanks.len() - 1)]
    }

    /// Whose turn it is.
    #[must_use]
    pub fn current(&self) -> PlayerId {
        self.current
    }

    /// Turns started so far (bonus turns included).
    #[must_use]
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// Cards in the draw pile.
    #[must_use]
    pub fn deck_size(&self) -> usize {
        self.deck.len()
    }

    /// The discard pile, bottom first.
    #[must_use]
    pub fn discard_pile(&self) -> &[Card] {
        &self.discard
    }

    /// The hand size of `player`'s class.
    #[must_use]
    pub fn hand_limit(&self, player: PlayerId) -> usize {
        usize::from(
            self.setup
                .rules
                .classes
                .get(self.tank(player).class)
                .hand_size,
        )
    }

    /// Every card of the match, wherever it is (deck, discard, hands, breeches, armor,
    /// safeties, hazards, the attack in flight): always the deck's size.
    #[must_use]
    pub fn card_count(&self) -> usize {
        let in_flight = match &self.phase {
            Phase::Toll(_) | Phase::Window(_) => 1,
            _ => 0,
        };
        self.deck.len()
            + self.discard.len()
            + in_flight
            + self
                .tanks
                .iter()
                .map(|t| {
                    t.hand.len()
                        + usize::from(t.breech.is_some())
                        + usize::from(t.armor)
                        + t.safeties.len()
                        + t.hazards.len()
                })
                .sum::<usize>()
    }

    /// The damage `card` from `attacker` would do to `target` now, step by step. The
    /// resolver uses the same function.
    #[must_use]
    pub fn damage_steps(&self, attacker: PlayerId, target: PlayerId, card: Card) -> DamageSteps {
        resolve::damage_steps(self, attacker, target, card)
    }

    /// A world `seat` cannot tell from this one: the cards it cannot see (the other
    /// players' hands and the draw pile) gathered, put in a fixed order, shuffled with
    /// `rng` and dealt back, each hand keeping its size and the pile its size. Which cards
    /// those are follows from the view (the deck's make-up less every card the seat
    /// sees), so two matches that differ only in what the seat cannot see give the same
    /// world for the same `rng`.
    #[must_use]
    pub fn with_unseen_dealt(&self, seat: PlayerId, rng: &mut MatchRng) -> Self {
        let mut world = self.clone();
        let mut unseen = world.deck.clone();
        for (i, tank) in world.tanks.iter().enumerate() {
            if i != seat.index() {
                unseen.extend_from_slice(&tank.hand);
            }
        }
        unseen.sort_unstable();
        rng.shuffle(&mut unseen);
        let mut cards = unseen.into_iter();
        for (i, tank) in world.tanks.iter_mut().enumerate() {
            if i != seat.index() {
                for card in &mut tank.hand {
                    *card = cards.next().unwrap_or(*card);
                }
            }
        }
        for card in &mut world.deck {
            *card = cards.next().unwrap_or(*card);
        }
        world
    }

    /// The pending attack, if any.
    #[must_use]
    pub fn pending_attack(&self) -> Option<&Attack> {
        match &self.phase {
            Phase::Toll(a) | Phase::Window(a) => Some(a),
            _ => None,
        }
    }
}

/// One tank as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TankView {
    pub player: PlayerId,
    pub name: String,
    pub class: Class,
    pub hp: u16,
    pub max_hp: u16,
    /// Cards in hand (the cards themselves are secret).
    pub hand_count: usize,
    pub hand_limit: usize,
    pub breech: Option<Card>,
    /// The breech was loaded on an earlier turn, so Fire! may fire it.
    pub breech_ready: bool,
    pub armor: u8,
    pub safeties: Vec<Card>,
    pub hazards: Vec<Card>,
    pub kills: u8,
    pub adrenaline: bool,
    pub spawn_shield: bool,
    pub destroyed: bool,
}

/// The pending attack as everyone sees it: not who holds Smoke.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttackView {
    pub attacker: PlayerId,
    pub target: PlayerId,
    pub card: Card,
    /// What the hit would do now, step by step.
    pub preview: DamageSteps,
    /// The attacker still owes the Light's toll.
    pub awaiting_toll: bool,
    /// Who is being asked about Smoke now, if the window is open.
    pub asking: Option<PlayerId>,
}

/// What one player may see: their own hand, and everything public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CombatView {
    pub you: PlayerId,
    pub name: String,
    pub mode: Mode,
    pub kills_to_win: u8,
    /// Your hand.
    pub hand: Vec<Card>,
    pub tanks: Vec<TankView>,
    pub deck_size: usize,
    pub discard_top: Option<Card>,
    pub discard_count: usize,
    /// The whole discard pile, bottom first (it is face up).
    pub discard: Vec<Card>,
    pub current: PlayerId,
    pub turn: u32,
    /// Full rounds played (the current round is this plus one).
    pub rounds_played: u32,
    pub round_limit: u16,
    pub attack: Option<AttackView>,
    /// You must discard down to your hand size.
    pub discarding_down: bool,
    pub to_act: Vec<PlayerId>,
    pub outcome: Option<Outcome>,
}

impl Game for TankCombat {
    type Action = Action;
    type Fact = Fact;
    type View = CombatView;

    const NAME: &'static str = "tank-combat";

    fn player_count(&self) -> usize {
        self.tanks.len()
    }

    fn player_name(&self, player: PlayerId) -> String {
        self.tanks
            .get(player.index())
            .map_or_else(|| player.to_string(), |t| t.name.clone())
    }

    fn begin(&mut self, rng: &mut MatchRng) -> Vec<Fact> {
        resolve::begin(self, rng)
    }

    fn to_act(&self) -> Vec<PlayerId> {
        match &self.phase {
            Phase::Turn | Phase::DiscardDown => vec![self.current],
            Phase::Toll(a) => vec![a.attacker],
            Phase::Window(a) => a.asked.first().copied().into_iter().collect(),
            Phase::NotStarted | Phase::Over => Vec::new(),
        }
    }

    fn legal_actions(&self, player: PlayerId) -> Vec<Action> {
        resolve::legal_actions(self, player)
    }

    fn apply(
        &mut self,
        player: PlayerId,
        action: &Action,
        rng: &mut MatchRng,
    ) -> Result<Vec<Fact>, Refusal> {
        resolve::apply(self, player, *action, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, player: PlayerId) -> CombatView {
        let r = &self.setup.rules;
        let tanks = self
            .tanks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let p = PlayerId(u8::try_from(i).unwrap_or(u8::MAX));
                TankView {
                    player: p,
                    name: t.name.clone(),
                    class: t.class,
                    hp: t.hp,
                    max_hp: r.max_hp,
                    hand_count: t.hand.len(),
                    hand_limit: self.hand_limit(p),
                    breech: t.breech,
                    breech_ready: t.breech.is_some() && t.loaded_on < self.turn,
                    armor: t.armor,
                    safeties: t.safeties.clone(),
                    hazards: t.hazards.clone(),
                    kills: t.kills,
                    adrenaline: t.adrenaline,
                    spawn_shield: t.spawn_shield,
                    destroyed: t.destroyed,
                }
            })
            .collect();
        let attack = self.pending_attack().map(|a| AttackView {
            attacker: a.attacker,
            target: a.target,
            card: a.card,
            preview: self.damage_steps(a.attacker, a.target, a.card),
            awaiting_toll: matches!(self.phase, Phase::Toll(_)),
            asking: match &self.phase {
                Phase::Window(w) => w.asked.first().copied(),
                _ => None,
            },
        });
        CombatView {
            you: player,
            name: self.setup.name.clone(),
            mode: self.setup.mode,
            kills_to_win: r.kills_to_win,
            hand: self
                .tanks
                .get(player.index())
                .map(|t| t.hand.clone())
                .unwrap_or_default(),
            tanks,
            deck_size: self.deck.len(),
            discard_top: self.discard.last().copied(),
            discard_count: self.discard.len(),
            discard: self.discard.clone(),
            current: self.current,
            turn: self.turn,
            rounds_played: self.rounds(),
            round_limit: r.round_limit,
            attack,
            discarding_down: self.phase == Phase::DiscardDown && self.current == player,
            to_act: self.to_act(),
            outcome: self.outcome.clone(),
        }
    }

    fn describe_action(&self, action: &Action) -> String {
        notation::action_text(self, action)
    }

    fn describe_fact(&self, fact: &Fact) -> String {
        notation::fact_text(self, fact, None)
    }
}

impl Playable for TankCombat {
    fn counted_rules() -> &'static [&'static str] {
        &[
            "cmb.cards.deck",
            "cmb.classes.adrenaline",
            "cmb.damage.base",
            "cmb.damage.destroyed",
            "cmb.death.kill",
            "cmb.death.respawn",
            "cmb.death.spawn-shield",
            "cmb.deck.both-empty",
            "cmb.deck.recycle",
            "cmb.interrupts.override",
            "cmb.interrupts.smoke",
            "cmb.interrupts.window",
            "cmb.overview.deathmatch-win",
            "cmb.overview.duel-win",
            "cmb.turn.deal",
            "cmb.turn.discard-down",
            "cmb.turn.draw",
            "cmb.turn.empty-hand",
            "cmb.turn.equip",
            "cmb.turn.fire",
            "cmb.turn.load",
            "cmb.turn.order",
            "cmb.turn.repair",
            "cmb.turn.sabotage",
        ]
    }

    fn action_kind(action: &Action) -> &'static str {
        match action {
            Action::Load { .. } => "load",
            Action::Fire { .. } => "fire",
            Action::CoaxialMg { .. } => "coaxial MG",
            Action::LoadAndFire { .. } => "load and fire",
            Action::Sabotage { .. } => "sabotage",
            Action::Repair { .. } => "repair",
            Action::Equip { .. } => "equip",
            Action::Discard { .. } => "discard",
            Action::Swap { .. } => "swap (Medium)",
            Action::Smoke => "smoke (interrupt)",
            Action::Pass => "pass",
        }
    }

    fn action_kinds() -> &'static [&'static str] {
        &[
            "load",
            "fire",
            "coaxial MG",
            "load and fire",
            "sabotage",
            "repair",
            "equip",
            "discard",
            "swap (Medium)",
            "smoke (interrupt)",
            "pass",
        ]
    }

    fn fact_rule(&self, fact: &Fact) -> Option<&'static str> {
        Some(match fact {
            Fact::Began { .. } => "cmb.turn.deal",
            Fact::Shuffled { .. } => "cmb.cards.deck",
            Fact::Reshuffled { .. } => "cmb.deck.recycle",
            Fact::Drew { .. } => "cmb.turn.draw",
            Fact::NoCards { .. } => "cmb.deck.both-empty",
            Fact::TurnStarted { .. } => "cmb.turn.order",
            Fact::ShieldDropped { .. } => "cmb.death.spawn-shield",
            Fact::Discarded { .. } => "cmb.turn.discard-down",
            Fact::Loaded { .. } => "cmb.turn.load",
            Fact::Attacked { .. } => "cmb.turn.fire",
            Fact::WindowOpened { .. } | Fact::Passed { .. } => "cmb.interrupts.window",
            Fact::Smoked { .. } | Fact::Cancelled { .. } => "cmb.interrupts.smoke",
            Fact::Damage { .. } => "cmb.damage.base",
            Fact::Adrenaline { .. } => "cmb.classes.adrenaline",
            Fact::Destroyed { .. } => "cmb.damage.destroyed",
            Fact::Kill { .. } => "cmb.death.kill",
            Fact::Respawned { .. } => "cmb.death.respawn",
            Fact::Hazard { .. } => "cmb.turn.sabotage",
            Fact::Override { .. } => "cmb.interrupts.override",
            Fact::Repaired { .. } => "cmb.turn.repair",
            Fact::Equipped { .. } => "cmb.turn.equip",
            Fact::PassedTurn { .. } => "cmb.turn.empty-hand",
            Fact::Ended { .. } if self.player_count() == 2 => "cmb.overview.duel-win",
            Fact::Ended { .. } => "cmb.overview.deathmatch-win",
        })
    }

    /// Every number lives in the setup's `rules` section.
    type Rules = ();
    type Setup = CombatSetup;
    type SavedSetup = CombatSetup;

    type Tuning = CombatRules;

    const KIND: GameKind = GameKind::TankCombat;
    /// Hands are secret.
    const SECRETS: bool = true;

    fn load_rules(path: Option<&Path>) -> Result<(), Diagnostics> {
        crate::rules::battle_tanks::no_rules_table(path, "Tank Combat")
    }

    fn parse_setup(path: &Path, text: &str, _rules: &()) -> Result<CombatSetup, Diagnostics> {
        CombatSetup::parse(path, text)
    }

    fn save_setup(setup: &CombatSetup) -> CombatSetup {
        setup.clone()
    }

    fn restore_setup(
        saved: CombatSetup,
        record: &InRecord<'_>,
        _: &(),
    ) -> Result<CombatSetup, Diagnostics> {
        let written = saved.mode;
        let setup = CombatSetup::validate(saved.into()).map_err(|p| record.locate(p))?;
        // The mode follows from the players; a record that says otherwise was edited, and
        // is not read as the other mode without a word.
        if setup.mode != written {
            let mut p = crate::data::Problems::default();
            p.push(
                "mode",
                format!(
                    "the record says {written:?}, but {} players play a {:?} (a Duel is 2 players, a Deathmatch 3 or more)",
                    setup.players.len(),
                    setup.mode
                ),
            );
            return Err(record.locate(p));
        }
        Ok(setup)
    }

    fn from_setup(setup: &CombatSetup) -> Result<Self, SetupError> {
        Ok(Self::new(setup))
    }

    fn setup_title(setup: &CombatSetup) -> (String, String) {
        (setup.name.clone(), setup.description.clone())
    }

    fn bot(name: &str) -> Option<Box<dyn Bot<Self>>> {
        match name {
            "heuristic" | "greedy" => Some(Box::new(bot::HeuristicBot)),
            "planner" => Some(Box::new(search::PlannerBot::default())),
            "random" => Some(Box::new(RandomBot)),
            _ => None,
        }
    }

    fn bot_names() -> &'static [&'static str] {
        &["heuristic", "planner", "random"]
    }

    fn bot_about(name: &str) -> &'static str {
        match name {
            "random" => "Plays any legal action at random: for testing, not for a game",
            "planner" => {
                "Plans: deals the cards it cannot see (the other hands, the pile's order) at random \
                 many times, plays the match out from each of its actions in every deal, and \
                 takes what wins most. It never peeks. Won 66% of 1,600 games against the \
                 heuristic bot; about 0.03 s a decision, a third of a second at worst"
            }
            _ => {
                "Plays by sense, one action ahead: smokes big shots at itself, fires when \
                 loaded at the tank it can hurt most, loads its biggest round, repairs what \
                 blocks it, equips and sabotages. It sees only its own hand"
            }
        }
    }

    fn tuning(setup: &CombatSetup) -> CombatRules {
        setup.rules.clone()
    }

    fn retune(
        setup: &CombatSetup,
        rules: CombatRules,
    ) -> Result<CombatSetup, crate::data::Problems> {
        let mut file: setup::TankCombatSetup = setup.clone().into();
        file.rules = rules;
        CombatSetup::validate(file).map_err(crate::data::Problems::outside_rules)
    }

    fn tuning_notes() -> Vec<(&'static str, &'static str)> {
        vec![("", include_str!("../../../assets/lab/tank-combat.ron"))]
    }

    fn rounds(&self) -> u32 {
        self.regular_done / u32::try_from(self.tanks.len().max(1)).unwrap_or(1)
    }

    fn describe_fact_for(&self, fact: &Fact, viewer: Option<PlayerId>) -> Option<String> {
        Some(notation::fact_text(self, fact, viewer))
    }

    /// The cards `viewer` cannot see (the other hands and the draw pile's order; every
    /// hand for a spectator) gathered, sorted and dealt back: each hand keeps its size
    /// and the pile its size, and nothing of which card is where remains.
    fn redacted(&self, viewer: Option<PlayerId>) -> Self {
        mirror::redacted(self, viewer)
    }

    fn to_mirror(&self) -> Vec<u8> {
        mirror::write(self)
    }

    fn from_mirror(bytes: &[u8]) -> Result<Self, crate::framework::MirrorError> {
        mirror::read(bytes)
    }

    fn seat_label(&self, player: PlayerId) -> String {
        self.tank(player).class.name().to_string()
    }
}
