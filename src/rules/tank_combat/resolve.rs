//! The rules: the deal, legal actions, and what each action does.

use super::action::{Action, ArmorStep, DamageSteps, DiscardReason, Fact};
use super::card::{Card, CardKind, Class};
use super::setup::Mode;
use super::{Attack, Phase, Tank, TankCombat};
use crate::framework::{Game, MatchRng, Outcome, PlayerId, Refusal};

fn seat(i: usize) -> PlayerId {
    PlayerId(u8::try_from(i).unwrap_or(u8::MAX))
}

/// Shuffles, deals every opening hand and starts the first turn.
pub(crate) fn begin(g: &mut TankCombat, rng: &mut MatchRng) -> Vec<Fact> {
    let mut facts = vec![Fact::Began {
        players: g.tanks.iter().map(|t| (t.name.clone(), t.class)).collect(),
        mode: g.setup.mode,
        kills_to_win: g.setup.rules.kills_to_win,
        deck: g.deck.len(),
    }];
    rng.shuffle(&mut g.deck);
    facts.push(Fact::Shuffled {
        cards: g.deck.len(),
    });
    for i in 0..g.tanks.len() {
        fill_hand(g, seat(i), rng, &mut facts);
    }
    start_turn(g, PlayerId(0), false, rng, &mut facts);
    facts
}

/// Draws one card for `player`, reshuffling the discard pile into an empty deck.
fn draw(g: &mut TankCombat, player: PlayerId, rng: &mut MatchRng, facts: &mut Vec<Fact>) -> bool {
    if g.deck.is_empty() {
        if g.discard.is_empty() {
            facts.push(Fact::NoCards { player });
            return false;
        }
        g.deck = std::mem::take(&mut g.discard);
        rng.shuffle(&mut g.deck);
        facts.push(Fact::Reshuffled {
            cards: g.deck.len(),
        });
    }
    let Some(card) = g.deck.pop() else {
        return false;
    };
    g.tanks[player.index()].hand.push(card);
    facts.push(Fact::Drew { player, card });
    true
}

fn fill_hand(g: &mut TankCombat, player: PlayerId, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
    while g.tanks[player.index()].hand.len() < g.hand_limit(player) {
        if !draw(g, player, rng, facts) {
            break;
        }
    }
}

fn start_turn(
    g: &mut TankCombat,
    player: PlayerId,
    bonus: bool,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) {
    g.turn += 1;
    g.current = player;
    g.bonus = bonus;
    if !bonus {
        g.seat = player;
    }
    facts.push(Fact::TurnStarted {
        player,
        turn: g.turn,
        round: g.regular_done / u32::try_from(g.tanks.len()).unwrap_or(1) + 1,
        bonus,
    });
    let tank = &mut g.tanks[player.index()];
    tank.swapped = false;
    if tank.spawn_shield {
        tank.spawn_shield = false;
        facts.push(Fact::ShieldDropped { player });
    }
    fill_hand(g, player, rng, facts);
    g.phase = Phase::Turn;
}

/// The turn's action is done: discard down, or pass the turn on.
fn finish_action(g: &mut TankCombat, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
    if g.outcome.is_some() {
        return;
    }
    if g.tanks[g.current.index()].hand.len() > g.hand_limit(g.current) {
        g.phase = Phase::DiscardDown;
    } else {
        next_turn(g, rng, facts);
    }
}

fn next_turn(g: &mut TankCombat, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
    if !g.bonus {
        g.regular_done += 1;
    }
    let n = g.tanks.len();
    if !g.bonus_queue.is_empty() {
        let p = g.bonus_queue.remove(0);
        start_turn(g, p, true, rng, facts);
        return;
    }
    let limit = u32::from(g.setup.rules.round_limit) * u32::try_from(n).unwrap_or(1);
    if g.regular_done >= limit {
        end(
            g,
            Outcome::draw(format!(
                "the round limit ({}) was reached",
                g.setup.rules.round_limit
            )),
            facts,
        );
        return;
    }
    let next = seat((g.seat.index() + 1) % n);
    start_turn(g, next, false, rng, facts);
}

fn end(g: &mut TankCombat, outcome: Outcome, facts: &mut Vec<Fact>) {
    g.phase = Phase::Over;
    g.outcome = Some(outcome.clone());
    facts.push(Fact::Ended { outcome });
}

/// Distinct cards in a hand, in hand order.
fn distinct(hand: &[Card]) -> Vec<Card> {
    let mut out: Vec<Card> = Vec::new();
    for &c in hand {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Why `attacker` may not attack `target` now, if it may not.
fn target_problem(g: &TankCombat, attacker: PlayerId, target: PlayerId) -> Option<Refusal> {
    let Some(t) = g.tanks.get(target.index()) else {
        return Some(Refusal::new(
            "cmb.turn.one-action",
            format!("there is no {target}"),
        ));
    };
    if target == attacker {
        return Some(Refusal::new(
            "cmb.turn.one-action",
            "you cannot target your own tank",
        ));
    }
    if t.destroyed {
        return Some(Refusal::new(
            "cmb.damage.destroyed",
            format!("{} is destroyed", t.name),
        ));
    }
    if t.spawn_shield {
        return Some(Refusal::new(
            "cmb.death.spawn-shield",
            format!("{} is under its Spawn Shield", t.name),
        ));
    }
    None
}

/// Cards the attacker must keep beside the attack's own cards to pay a Light's toll.
fn toll_due(g: &TankCombat, target: PlayerId) -> bool {
    let t = g.tank(target);
    t.class == Class::Light && t.adrenaline
}

/// The refusal of a card the player does not hold.
fn not_held(card: Card) -> Refusal {
    Refusal::new(
        "cmb.turn.one-action",
        format!("you hold no {}", card.name()),
    )
}

/// Why `player`'s turn action is not legal, if it is not (not counting the "only when
/// nothing else is possible" rule of Discard, nor Pass).
fn turn_action_problem(g: &TankCombat, player: PlayerId, action: Action) -> Option<Refusal> {
    let me = g.tank(player);
    let holds = |c: Card| held(me, c);
    let can_load = |card: Card| load_problem(g, me, card);
    let can_attack =
        |target: PlayerId, cards_used: usize| attack_problem(g, player, me, target, cards_used);
    match action {
        Action::Load { card } => holds(card).or_else(|| can_load(card)),
        Action::Fire { target } => holds(Card::Fire)
            .or_else(|| match me.breech {
                None => Some(Refusal::new(
                    "cmb.turn.fire",
                    "your breech is empty: load a munition first",
                )),
                Some(_) if me.loaded_on >= g.turn => Some(Refusal::new(
                    "cmb.cards.later-turn",
                    "a munition fires on a later turn than it was loaded",
                )),
                Some(_) => None,
            })
            .or_else(|| can_attack(target, 1)),
        Action::CoaxialMg { target } => holds(Card::CoaxialMg).or_else(|| can_attack(target, 1)),
        Action::LoadAndFire { card, target } => {
            if !(me.class == Class::Medium && me.adrenaline) {
                return Some(Refusal::new(
                    "cmb.classes.medium-adrenaline",
                    "only a Medium under Adrenaline loads and fires at once",
                ));
            }
            holds(card)
                .or_else(|| holds(Card::Fire))
                .or_else(|| can_load(card))
                .or_else(|| can_attack(target, 2))
        }
        Action::Sabotage { hazard, target } => sabotage_problem(g, player, me, hazard, target),
        Action::Repair { remedy, target } => repair_problem(player, me, remedy, target),
        Action::Equip { card } => match card.kind() {
            CardKind::Armor => holds(card),
            CardKind::Safety => holds(card).or_else(|| {
                me.safeties.contains(&card).then(|| {
                    Refusal::new(
                        "cmb.cards.safeties",
                        format!("{} is already equipped", card.name()),
                    )
                })
            }),
            _ => Some(Refusal::new(
                "cmb.turn.equip",
                format!("{} cannot be equipped", card.name()),
            )),
        },
        Action::Discard { .. } | Action::Swap { .. } | Action::Smoke | Action::Pass => {
            Some(Refusal::new("cmb.turn.one-action", "not a turn action"))
        }
    }
}

/// The refusal of a card `me` does not hold, if it does not.
fn held(me: &Tank, card: Card) -> Option<Refusal> {
    if me.holds(card) {
        None
    } else {
        Some(not_held(card))
    }
}

/// Why `me` may not load `card`, if it may not.
fn load_problem(g: &TankCombat, me: &Tank, card: Card) -> Option<Refusal> {
    if card.kind() != CardKind::Munition {
        return Some(Refusal::new(
            "cmb.turn.one-action",
            format!("{} is not a munition", card.name()),
        ));
    }
    if me.has_hazard(Card::JammedBreech) {
        return Some(Refusal::new(
            "cmb.cards.jammed-breech",
            "your breech is jammed: you cannot load",
        ));
    }
    if me.breech.is_some() && !g.setup.rules.reload_over_loaded {
        return Some(Refusal::new(
            "cmb.cards.breech",
            "your breech is already loaded",
        ));
    }
    None
}

/// Why `player` (`me`) may not attack `target` with an action that spends `cards_used`
/// cards, if it may not.
fn attack_problem(
    g: &TankCombat,
    player: PlayerId,
    me: &Tank,
    target: PlayerId,
    cards_used: usize,
) -> Option<Refusal> {
    if me.has_hazard(Card::Tracked) {
        return Some(Refusal::new(
            "cmb.cards.tracked",
            "you are Tracked: you cannot attack",
        ));
    }
    if let Some(why) = target_problem(g, player, target) {
        return Some(why);
    }
    if toll_due(g, target) && me.hand.len() <= cards_used {
        return Some(Refusal::new(
            "cmb.classes.light-adrenaline",
            format!(
                "attacking {} (a Light under Adrenaline) costs a card you do not have",
                g.tank(target).name
            ),
        ));
    }
    None
}

/// Why `player` (`me`) may not play `hazard` on `target`, if it may not.
fn sabotage_problem(
    g: &TankCombat,
    player: PlayerId,
    me: &Tank,
    hazard: Card,
    target: PlayerId,
) -> Option<Refusal> {
    if hazard.kind() != CardKind::Hazard {
        return Some(Refusal::new(
            "cmb.turn.one-action",
            format!("{} is not a hazard", hazard.name()),
        ));
    }
    held(me, hazard).or_else(|| {
        if let Some(why) = target_problem(g, player, target) {
            return Some(why);
        }
        let t = g.tank(target);
        if t.has_hazard(hazard) {
            return Some(Refusal::new(
                "cmb.turn.sabotage",
                format!("{} is already {}", t.name, hazard.name()),
            ));
        }
        if hazard.safety().is_some_and(|s| t.safeties.contains(&s)) {
            return Some(Refusal::new(
                "cmb.cards.safeties",
                format!("{} is immune to {}", t.name, hazard.name()),
            ));
        }
        None
    })
}

/// Why `player` (`me`) may not repair `target` with `remedy`, if it may not.
fn repair_problem(player: PlayerId, me: &Tank, remedy: Card, target: PlayerId) -> Option<Refusal> {
    if remedy.kind() != CardKind::Remedy {
        return Some(Refusal::new(
            "cmb.turn.one-action",
            format!("{} is not a remedy", remedy.name()),
        ));
    }
    held(me, remedy).or_else(|| {
        if target != player {
            return Some(Refusal::new(
                "cmb.turn.repair",
                "with no allies, you may only repair your own tank",
            ));
        }
        let hazard = remedy.answers()?;
        if me.has_hazard(hazard) {
            None
        } else {
            Some(Refusal::new(
                "cmb.cards.hazards-remedies",
                format!("you are not {}", hazard.name()),
            ))
        }
    })
}

/// Every turn action of `player` but Discard and Pass, legal or not.
fn turn_candidates(g: &TankCombat, player: PlayerId) -> Vec<Action> {
    let me = g.tank(player);
    let others: Vec<PlayerId> = (0..g.tanks.len())
        .map(seat)
        .filter(|&p| p != player)
        .collect();
    let mut out = Vec::new();
    for card in distinct(&me.hand) {
        match card.kind() {
            CardKind::Munition => {
                out.push(Action::Load { card });
                out.extend(
                    others
                        .iter()
                        .map(|&target| Action::LoadAndFire { card, target }),
                );
            }
            CardKind::Fire => out.extend(others.iter().map(|&target| Action::Fire { target })),
            CardKind::CoaxialMg => {
                out.extend(others.iter().map(|&target| Action::CoaxialMg { target }));
            }
            CardKind::Hazard => out.extend(others.iter().map(|&target| Action::Sabotage {
                hazard: card,
                target,
            })),
            CardKind::Remedy => out.push(Action::Repair {
                remedy: card,
                target: player,
            }),
            CardKind::Armor | CardKind::Safety => out.push(Action::Equip { card }),
            CardKind::Smoke => {}
        }
    }
    out
}

fn main_actions(g: &TankCombat, player: PlayerId) -> Vec<Action> {
    turn_candidates(g, player)
        .into_iter()
        .filter(|&a| turn_action_problem(g, player, a).is_none())
        .collect()
}

/// Every legal action of `player` now.
pub(crate) fn legal_actions(g: &TankCombat, player: PlayerId) -> Vec<Action> {
    if !g.to_act().contains(&player) {
        return Vec::new();
    }
    let me = g.tank(player);
    match &g.phase {
        Phase::Turn => {
            let mut out = main_actions(g, player);
            if out.is_empty() {
                if me.hand.is_empty() {
                    out.push(Action::Pass);
                } else {
                    out.extend(
                        distinct(&me.hand)
                            .into_iter()
                            .map(|card| Action::Discard { card }),
                    );
                }
            }
            if swap_allowed(g, player) {
                out.extend(
                    distinct(&me.hand)
                        .into_iter()
                        .map(|card| Action::Swap { card }),
                );
            }
            out
        }
        Phase::Toll(_) | Phase::DiscardDown => distinct(&me.hand)
            .into_iter()
            .map(|card| Action::Discard { card })
            .collect(),
        Phase::Window(_) => {
            let mut out = Vec::new();
            if me.holds(Card::SmokeLaunchers) {
                out.push(Action::Smoke);
            }
            out.push(Action::Pass);
            out
        }
        Phase::NotStarted | Phase::Over => Vec::new(),
    }
}

fn swap_allowed(g: &TankCombat, player: PlayerId) -> bool {
    let me = g.tank(player);
    me.class == Class::Medium && !me.adrenaline && !me.swapped && !me.hand.is_empty()
}

/// Checks and plays an action.
///
/// # Errors
/// Why the action is refused, with the rule that refuses it; `g` is then unchanged.
pub(crate) fn apply(
    g: &mut TankCombat,
    player: PlayerId,
    action: Action,
    rng: &mut MatchRng,
) -> Result<Vec<Fact>, Refusal> {
    acting_problem(g, player)?;
    let mut facts = Vec::new();
    match g.phase.clone() {
        Phase::Turn => turn_action(g, player, action, rng, &mut facts)?,
        Phase::Toll(attack) => pay_toll(g, player, action, attack, rng, &mut facts)?,
        Phase::Window(attack) => answer_window(g, player, action, attack, rng, &mut facts)?,
        Phase::DiscardDown => discard_down(g, player, action, rng, &mut facts)?,
        Phase::NotStarted | Phase::Over => {
            return Err(Refusal::new("cmb.turn.one-action", "nobody may act now"));
        }
    }
    Ok(facts)
}

/// Why `player` may not act now, if it may not: the match is over or not begun, the
/// seat is not in it, or another player is to act.
fn acting_problem(g: &TankCombat, player: PlayerId) -> Result<(), Refusal> {
    if let Some(outcome) = &g.outcome {
        let rule = if outcome.is_draw() {
            "cmb.overview.round-limit"
        } else if g.player_count() == 2 {
            "cmb.overview.duel-win"
        } else {
            "cmb.overview.deathmatch-win"
        };
        return Err(Refusal::new(
            rule,
            format!("the match is over: {}", outcome.reason),
        ));
    }
    if matches!(g.phase, Phase::NotStarted) {
        return Err(Refusal::new(
            "cmb.turn.deal",
            "the match has not begun: the cards are not dealt",
        ));
    }
    if player.index() >= g.tanks.len() {
        return Err(Refusal::new(
            "cmb.turn.order",
            format!("{player} has no seat in this match"),
        ));
    }
    if !g.to_act().contains(&player) {
        let waiting: Vec<String> = g.to_act().iter().map(|&p| g.player_name(p)).collect();
        // In a Smoke window the players asked act, not the turn's player.
        let rule = if matches!(g.phase, Phase::Window(_)) {
            "cmb.interrupts.asking"
        } else {
            "cmb.turn.order"
        };
        return Err(Refusal::new(
            rule,
            format!(
                "it is not {}'s move: waiting for {}",
                g.player_name(player),
                waiting.join(", ")
            ),
        ));
    }
    Ok(())
}

/// The card a player discards to attack a Light under Adrenaline, before the attack's
/// Smoke window opens.
fn pay_toll(
    g: &mut TankCombat,
    player: PlayerId,
    action: Action,
    attack: Attack,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) -> Result<(), Refusal> {
    let Action::Discard { card } = action else {
        return Err(Refusal::new(
            "cmb.classes.light-adrenaline",
            format!(
                "you must first discard a card to attack {} (a Light under Adrenaline)",
                g.tank(attack.target).name
            ),
        ));
    };
    if !g.tanks[player.index()].take(card) {
        return Err(not_held(card));
    }
    g.discard.push(card);
    facts.push(Fact::Discarded {
        player,
        card,
        reason: DiscardReason::Toll,
    });
    open_window(g, attack, rng, facts);
    Ok(())
}

/// A player asked in a Smoke window answers the pending attack: Smoke cancels it; once
/// every player asked has passed, it hits.
fn answer_window(
    g: &mut TankCombat,
    player: PlayerId,
    action: Action,
    mut attack: Attack,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) -> Result<(), Refusal> {
    match action {
        Action::Smoke => {
            if g.tank(player).has_hazard(Card::CommsJammed) {
                return Err(Refusal::new(
                    "cmb.cards.comms-jammed",
                    "your comms are jammed: you cannot play Smoke",
                ));
            }
            if !g.tanks[player.index()].take(Card::SmokeLaunchers) {
                return Err(Refusal::new(
                    "cmb.interrupts.smoke",
                    "you hold no Smoke Launchers",
                ));
            }
            g.discard.push(Card::SmokeLaunchers);
            g.discard.push(attack.card);
            facts.push(Fact::Smoked { player });
            facts.push(Fact::Cancelled {
                attacker: attack.attacker,
                target: attack.target,
                card: attack.card,
            });
            g.phase = Phase::Turn;
            finish_action(g, rng, facts);
        }
        Action::Pass => {
            facts.push(Fact::Passed { player });
            attack.asked.remove(0);
            if attack.asked.is_empty() {
                hit(g, &attack, rng, facts);
                finish_action(g, rng, facts);
            } else {
                g.phase = Phase::Window(attack);
            }
        }
        _ => {
            return Err(Refusal::new(
                "cmb.interrupts.window",
                "an attack is pending: answer with Smoke or Pass before anything else",
            ));
        }
    }
    Ok(())
}

/// A card discarded down to the hand size; the next turn begins once the hand fits.
fn discard_down(
    g: &mut TankCombat,
    player: PlayerId,
    action: Action,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) -> Result<(), Refusal> {
    let Action::Discard { card } = action else {
        return Err(Refusal::new(
            "cmb.turn.discard-down",
            format!(
                "discard down to your hand size ({}) first",
                g.hand_limit(player)
            ),
        ));
    };
    if !g.tanks[player.index()].take(card) {
        return Err(not_held(card));
    }
    g.discard.push(card);
    facts.push(Fact::Discarded {
        player,
        card,
        reason: DiscardReason::HandSize,
    });
    if g.tanks[player.index()].hand.len() <= g.hand_limit(player) {
        next_turn(g, rng, facts);
    }
    Ok(())
}

fn turn_action(
    g: &mut TankCombat,
    player: PlayerId,
    action: Action,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) -> Result<(), Refusal> {
    match action {
        Action::Swap { card } => return swap(g, player, card, rng, facts),
        Action::Smoke => {
            return Err(Refusal::new(
                "cmb.interrupts.smoke",
                "Smoke is played only against a declared attack",
            ));
        }
        Action::Pass => {
            if !g.tank(player).hand.is_empty() {
                return Err(Refusal::new(
                    "cmb.turn.empty-hand",
                    "you may pass the turn only with an empty hand",
                ));
            }
            facts.push(Fact::PassedTurn { player });
        }
        Action::Discard { card } => discard_as_action(g, player, card, facts)?,
        _ => {
            if let Some(why) = turn_action_problem(g, player, action) {
                return Err(why);
            }
            play_turn_action(g, player, action, rng, facts);
            return Ok(());
        }
    }
    finish_action(g, rng, facts);
    Ok(())
}

/// The Medium's free discard-and-draw, once a turn and not under Adrenaline.
fn swap(
    g: &mut TankCombat,
    player: PlayerId,
    card: Card,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) -> Result<(), Refusal> {
    const SWAP: &str = "cmb.classes.medium-passive";
    let p = player.index();
    if g.tank(player).class != Class::Medium {
        return Err(Refusal::new(
            SWAP,
            "only a Medium has the free discard-and-draw",
        ));
    }
    if g.tank(player).adrenaline {
        return Err(Refusal::new(
            SWAP,
            "Adrenaline replaced the Medium's discard-and-draw",
        ));
    }
    if g.tank(player).swapped {
        return Err(Refusal::new(
            SWAP,
            "you have already used this turn's discard-and-draw",
        ));
    }
    if !g.tanks[p].take(card) {
        return Err(not_held(card));
    }
    g.tanks[p].swapped = true;
    g.discard.push(card);
    facts.push(Fact::Discarded {
        player,
        card,
        reason: DiscardReason::Swap,
    });
    draw(g, player, rng, facts);
    Ok(())
}

/// A card discarded as the turn's action, allowed only when nothing else is possible.
fn discard_as_action(
    g: &mut TankCombat,
    player: PlayerId,
    card: Card,
    facts: &mut Vec<Fact>,
) -> Result<(), Refusal> {
    let p = player.index();
    if !g.tank(player).holds(card) {
        return Err(not_held(card));
    }
    if let Some(other) = main_actions(g, player).first() {
        return Err(Refusal::new(
            "cmb.turn.discard",
            format!(
                "you may discard as your action only when nothing else is possible (you could: {})",
                super::notation::action_text(g, other)
            ),
        ));
    }
    g.tanks[p].take(card);
    g.discard.push(card);
    facts.push(Fact::Discarded {
        player,
        card,
        reason: DiscardReason::Action,
    });
    Ok(())
}

/// Plays a checked turn action.
fn play_turn_action(
    g: &mut TankCombat,
    player: PlayerId,
    action: Action,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) {
    let p = player.index();
    match action {
        Action::Load { card } => {
            load(g, player, card, facts);
            finish_action(g, rng, facts);
        }
        Action::Fire { target } => {
            g.tanks[p].take(Card::Fire);
            g.discard.push(Card::Fire);
            let card = g.tanks[p].breech.take().unwrap_or(Card::HighExplosive);
            declare(g, player, target, card, rng, facts);
        }
        Action::CoaxialMg { target } => {
            g.tanks[p].take(Card::CoaxialMg);
            declare(g, player, target, Card::CoaxialMg, rng, facts);
        }
        Action::LoadAndFire { card, target } => {
            load(g, player, card, facts);
            g.tanks[p].take(Card::Fire);
            g.discard.push(Card::Fire);
            let card = g.tanks[p].breech.take().unwrap_or(card);
            declare(g, player, target, card, rng, facts);
        }
        Action::Sabotage { hazard, target } => {
            g.tanks[p].take(hazard);
            sabotage(g, player, target, hazard, rng, facts);
            finish_action(g, rng, facts);
        }
        Action::Repair { remedy, target } => {
            g.tanks[p].take(remedy);
            g.discard.push(remedy);
            let hazard = remedy.answers().unwrap_or(Card::Tracked);
            let t = &mut g.tanks[target.index()];
            if let Some(i) = t.hazards.iter().position(|&h| h == hazard) {
                t.hazards.remove(i);
                g.discard.push(hazard);
            }
            facts.push(Fact::Repaired {
                player,
                target,
                remedy,
                hazard,
            });
            finish_action(g, rng, facts);
        }
        Action::Equip { card } => {
            g.tanks[p].take(card);
            let mut removed = None;
            if card == Card::AblativeArmor {
                g.tanks[p].armor += 1;
            } else {
                g.tanks[p].safeties.push(card);
                if g.setup.rules.safety_removes_hazard
                    && let Some(hazard) = card.answers()
                    && let Some(i) = g.tanks[p].hazards.iter().position(|&h| h == hazard)
                {
                    g.tanks[p].hazards.remove(i);
                    g.discard.push(hazard);
                    removed = Some(hazard);
                }
            }
            facts.push(Fact::Equipped {
                player,
                card,
                removed,
            });
            finish_action(g, rng, facts);
        }
        Action::Discard { .. } | Action::Swap { .. } | Action::Smoke | Action::Pass => {}
    }
}

fn load(g: &mut TankCombat, player: PlayerId, card: Card, facts: &mut Vec<Fact>) {
    let turn = g.turn;
    let t = &mut g.tanks[player.index()];
    t.take(card);
    let replaced = t.breech.replace(card);
    t.loaded_on = turn;
    if let Some(old) = replaced {
        g.discard.push(old);
    }
    facts.push(Fact::Loaded {
        player,
        card,
        replaced,
    });
}

/// Announces an attack, then takes the toll, opens the Smoke window, or resolves it.
fn declare(
    g: &mut TankCombat,
    attacker: PlayerId,
    target: PlayerId,
    card: Card,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) {
    let ignores_smoke = ignores_smoke(g, attacker);
    facts.push(Fact::Attacked {
        attacker,
        target,
        card,
        base: g.setup.rules.base_damage(card),
        spent_fire: card != Card::CoaxialMg,
        ignores_smoke,
    });
    let attack = Attack {
        attacker,
        target,
        card,
        asked: Vec::new(),
    };
    if toll_due(g, target) {
        g.phase = Phase::Toll(attack);
    } else {
        open_window(g, attack, rng, facts);
    }
}

fn ignores_smoke(g: &TankCombat, attacker: PlayerId) -> bool {
    let t = g.tank(attacker);
    t.class == Class::Heavy && t.adrenaline
}

/// Who is asked about Smoke: every other player still in, not Comms Jammed, in seat
/// order after the attacker, whatever they hold.
pub(crate) fn smoke_askees(g: &TankCombat, attacker: PlayerId, target: PlayerId) -> Vec<PlayerId> {
    if ignores_smoke(g, attacker) {
        return Vec::new();
    }
    let n = g.tanks.len();
    (1..n)
        .map(|k| seat((attacker.index() + k) % n))
        .filter(|&p| {
            let t = g.tank(p);
            !t.destroyed
                && !t.has_hazard(Card::CommsJammed)
                && (g.setup.rules.bystanders_smoke || p == target)
        })
        .collect()
}

fn open_window(g: &mut TankCombat, mut attack: Attack, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
    attack.asked = smoke_askees(g, attack.attacker, attack.target);
    if attack.asked.is_empty() {
        g.phase = Phase::Turn;
        hit(g, &attack, rng, facts);
        finish_action(g, rng, facts);
    } else {
        facts.push(Fact::WindowOpened {
            asked: attack.asked.clone(),
        });
        g.phase = Phase::Window(attack);
    }
}

/// The rulebook's damage steps, without changing anything.
pub(crate) fn damage_steps(
    g: &TankCombat,
    attacker: PlayerId,
    target: PlayerId,
    card: Card,
) -> DamageSteps {
    let r = &g.setup.rules;
    let t = g.tank(target);
    let base = r.base_damage(card);
    let mut damage = base;
    let armor = if t.armor == 0 {
        ArmorStep::None
    } else if ignores_smoke(g, attacker) {
        ArmorStep::Ignored
    } else if card == Card::AntiTank {
        ArmorStep::Destroyed
    } else {
        let absorbed = damage.min(r.armor_absorbs);
        damage -= absorbed;
        ArmorStep::Absorbed(absorbed)
    };
    let heavy = if t.class == Class::Heavy && !t.adrenaline {
        damage.min(r.heavy_reduction)
    } else {
        0
    };
    damage -= heavy;
    DamageSteps {
        base,
        armor,
        heavy,
        final_damage: damage,
        hp_before: t.hp,
        hp_after: t.hp.saturating_sub(damage),
    }
}

fn hit(g: &mut TankCombat, attack: &Attack, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
    g.phase = Phase::Turn;
    let steps = damage_steps(g, attack.attacker, attack.target, attack.card);
    g.discard.push(attack.card);
    let r = g.setup.rules.clone();
    let t = &mut g.tanks[attack.target.index()];
    if matches!(steps.armor, ArmorStep::Absorbed(_) | ArmorStep::Destroyed) {
        t.armor -= 1;
        g.discard.push(Card::AblativeArmor);
    }
    t.hp = steps.hp_after;
    facts.push(Fact::Damage {
        attacker: attack.attacker,
        target: attack.target,
        card: attack.card,
        steps,
    });
    if t.hp > 0 && t.hp <= r.adrenaline_at && !t.adrenaline {
        t.adrenaline = true;
        let cleared = std::mem::take(&mut t.hazards);
        let class = t.class;
        g.discard.extend(cleared.iter().copied());
        facts.push(Fact::Adrenaline {
            player: attack.target,
            class,
            cleared,
        });
    }
    if g.tanks[attack.target.index()].hp == 0 {
        destroyed(g, attack.attacker, attack.target, rng, facts);
    }
}

fn destroyed(
    g: &mut TankCombat,
    by: PlayerId,
    player: PlayerId,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) {
    facts.push(Fact::Destroyed { player, by });
    let winner_name = g.tank(by).name.clone();
    let loser_name = g.tank(player).name.clone();
    if g.setup.mode == Mode::Duel {
        g.tanks[player.index()].destroyed = true;
        end(
            g,
            Outcome::win(by, format!("{winner_name} destroyed {loser_name}")),
            facts,
        );
        return;
    }
    g.tanks[by.index()].kills += 1;
    let kills = g.tanks[by.index()].kills;
    facts.push(Fact::Kill { player: by, kills });
    if kills >= g.setup.rules.kills_to_win {
        end(
            g,
            Outcome::win(by, format!("{winner_name} scored {kills} kills")),
            facts,
        );
        return;
    }
    let max_hp = g.setup.rules.max_hp;
    let t = &mut g.tanks[player.index()];
    let mut discarded = std::mem::take(&mut t.hand);
    discarded.extend(t.breech.take());
    discarded.extend(std::iter::repeat_n(
        Card::AblativeArmor,
        usize::from(t.armor),
    ));
    discarded.append(&mut t.safeties);
    discarded.append(&mut t.hazards);
    t.armor = 0;
    t.hp = max_hp;
    t.adrenaline = false;
    t.spawn_shield = true;
    g.discard.extend(discarded.iter().copied());
    facts.push(Fact::Respawned {
        player,
        hp: max_hp,
        discarded,
    });
    fill_hand(g, player, rng, facts);
}

fn sabotage(
    g: &mut TankCombat,
    player: PlayerId,
    target: PlayerId,
    hazard: Card,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) {
    let safety = hazard.safety().unwrap_or(Card::ReinforcedTreads);
    facts.push(Fact::Hazard {
        player,
        target,
        hazard,
    });
    if g.tanks[target.index()].take(safety) {
        g.tanks[target.index()].safeties.push(safety);
        g.discard.push(hazard);
        let lost = if g.tanks[player.index()].hand.is_empty() {
            None
        } else {
            let i = rng.pick(g.tanks[player.index()].hand.len());
            let card = g.tanks[player.index()].hand.remove(i);
            g.discard.push(card);
            Some(card)
        };
        facts.push(Fact::Override {
            target,
            attacker: player,
            hazard,
            safety,
            lost,
        });
        draw(g, target, rng, facts);
        g.bonus_queue.push(target);
    } else {
        g.tanks[target.index()].hazards.push(hazard);
    }
}
