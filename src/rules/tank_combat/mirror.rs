//! A Tank Combat match as a mirror on another machine holds it: the setup (players,
//! classes and rules, all public) beside the state, with the cards the viewer cannot see
//! dealt again in a fixed order.
//!
//! What is secret ([`super::notation::fact_text`] hides no more): the cards in the other
//! players' hands and the order of the draw pile. Everything else is face up: breeches,
//! equipped armor, safeties and hazards, the discard pile, the card of an attack in
//! flight, and how many cards each hand and the pile hold.

use std::sync::{Arc, LazyLock};

use super::{Card, CombatSetup, Phase, TankCombat};
use crate::framework::MirrorError;
use crate::framework::PlayerId;
use crate::framework::mirror::{self, MirrorCheck};

/// The setup a state read from JSON holds until [`read`] puts the mirror's own in.
pub(super) fn unset_setup() -> Arc<CombatSetup> {
    static UNSET: LazyLock<Arc<CombatSetup>> = LazyLock::new(|| {
        Arc::new(CombatSetup {
            name: String::new(),
            description: String::new(),
            players: Vec::new(),
            mode: super::Mode::Duel,
            rules: super::CombatRules::default(),
        })
    });
    Arc::clone(&UNSET)
}

/// `g` as `viewer` may hold it: the draw pile and every hand but the viewer's gathered
/// (the whole truth of which cards they are follows from what the viewer sees: the deck's
/// make-up less every card in view), sorted, and dealt back hand by hand in seat order,
/// then to the pile. Two matches that differ only in those cards' places redact alike.
pub(super) fn redacted(g: &TankCombat, viewer: Option<PlayerId>) -> TankCombat {
    let mut seen = g.clone();
    let hidden = |seat: usize| viewer.map(PlayerId::index) != Some(seat);
    let mut unseen = seen.deck.clone();
    for (i, tank) in seen.tanks.iter().enumerate() {
        if hidden(i) {
            unseen.extend_from_slice(&tank.hand);
        }
    }
    unseen.sort_unstable();
    let mut cards = unseen.into_iter();
    for (i, tank) in seen.tanks.iter_mut().enumerate() {
        if hidden(i) {
            for card in &mut tank.hand {
                *card = cards.next().unwrap_or(*card);
            }
        }
    }
    for card in &mut seen.deck {
        *card = cards.next().unwrap_or(*card);
    }
    seen
}

/// The mirror's bytes: the setup, then the state.
pub(super) fn write(g: &TankCombat) -> Vec<u8> {
    mirror::write_mirror(&*g.setup, g)
}

/// A match read back from [`write`]'s bytes: the setup validated as a record's is, the
/// state checked against it.
pub(super) fn read(bytes: &[u8]) -> Result<TankCombat, MirrorError> {
    let (setup, mut g): (Arc<CombatSetup>, TankCombat) =
        mirror::read_mirror_cached::<TankCombat, CombatSetup, _, _>(bytes, |setup| {
            let written = setup.mode;
            let setup = MirrorCheck::valid("setup", CombatSetup::validate(setup.into()))?;
            MirrorCheck::that(setup.mode == written, || {
                format!(
                    "the mirror says {written:?}, but {} players play a {:?}",
                    setup.players.len(),
                    setup.mode
                )
            })?;
            Ok(Arc::new(setup))
        })?;
    g.setup = setup;
    check(&g)?;
    Ok(g)
}

/// Every seat named is at the table, each tank is its seat's, and every card of the deck
/// is somewhere, once.
fn check(g: &TankCombat) -> Result<(), MirrorError> {
    let setup = &g.setup;
    let n = setup.players.len();
    MirrorCheck::len("the tanks", g.tanks.len(), n)?;
    for (tank, player) in g.tanks.iter().zip(&setup.players) {
        MirrorCheck::that(
            tank.name == player.name && tank.class == player.class,
            || format!("tank `{}` is not the setup's `{}`", tank.name, player.name),
        )?;
        MirrorCheck::that(
            tank.hp <= setup.rules.max_hp && tank.kills <= setup.rules.kills_to_win,
            || format!("{} has more HP or kills than the rules allow", tank.name),
        )?;
    }
    let seat = |what: &str, p: PlayerId| MirrorCheck::seat(what, p, n);
    seat("the current player", g.current)?;
    seat("the last regular turn's seat", g.seat)?;
    for &p in &g.bonus_queue {
        seat("a bonus turn", p)?;
    }
    if let Phase::Toll(a) | Phase::Window(a) = &g.phase {
        seat("the attacker", a.attacker)?;
        seat("the target", a.target)?;
        for &p in &a.asked {
            seat("a player asked about Smoke", p)?;
        }
    }
    if let Some(outcome) = &g.outcome {
        for &p in &outcome.winners {
            seat("a winner", p)?;
        }
    }
    MirrorCheck::that(g.turn < 1 << 30 && g.regular_done < 1 << 30, || {
        "the turn counters are beyond any match's reach".to_string()
    })?;
    cards_conserved(g)
}

/// The cards of the state, kind by kind, are the deck's.
fn cards_conserved(g: &TankCombat) -> Result<(), MirrorError> {
    let slot = |card: Card| Card::ALL.iter().position(|&c| c == card).unwrap_or(0);
    let mut want = [0usize; Card::ALL.len()];
    for entry in &g.setup.rules.deck {
        want[slot(entry.card)] += usize::from(entry.count);
    }
    let mut got = [0usize; Card::ALL.len()];
    let mut count = |cards: &[Card]| {
        for &c in cards {
            got[slot(c)] += 1;
        }
    };
    count(&g.deck);
    count(&g.discard);
    if let Phase::Toll(a) | Phase::Window(a) = &g.phase {
        count(&[a.card]);
    }
    for tank in &g.tanks {
        count(&tank.hand);
        count(&tank.safeties);
        count(&tank.hazards);
        count(tank.breech.as_slice());
    }
    for tank in &g.tanks {
        got[slot(Card::AblativeArmor)] += usize::from(tank.armor);
    }
    MirrorCheck::that(got == want, || {
        "the state's cards are not the deck's: a card is missing or extra".to_string()
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::framework::Playable;
    use crate::framework::bot::Bot;
    use crate::framework::playable;
    use crate::rules::mirror_tests::{check_mirrors, refuses_garbage, survives_mutations};

    fn setup(file: &str) -> CombatSetup {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/tank-combat")
            .join(file);
        playable::load_setup::<TankCombat>(&path, &()).expect("a setup")
    }

    #[test]
    fn bots_matches_read_back_from_every_seats_mirror() {
        for (file, seed) in [
            ("default.ron", 1),
            ("deathmatch-4.ron", 2),
            ("duel-medium-light.ron", 3),
        ] {
            let setup = setup(file);
            let bots: Vec<Box<dyn Bot<TankCombat>>> = (0..setup.players.len())
                .map(|i| {
                    TankCombat::bot(if i == 0 { "heuristic" } else { "random" }).expect("a bot")
                })
                .collect();
            let back = check_mirrors::<TankCombat>(&setup, seed, bots, 250);
            assert_eq!(*back.setup, setup);
        }
        refuses_garbage::<TankCombat>();
        let game =
            playable::start::<TankCombat>(&setup("deathmatch-4.ron"), 4, &[]).expect("starts");
        survives_mutations::<TankCombat>(&game.state().to_mirror(), 600, 4);
    }

    /// `g` with card `in_hand` of `seat`'s hand and card `in_deck` of the pile swapped.
    fn swapped(g: &TankCombat, seat: usize, in_hand: usize, in_deck: usize) -> TankCombat {
        let mut other = g.clone();
        std::mem::swap(
            &mut other.tanks[seat].hand[in_hand],
            &mut other.deck[in_deck],
        );
        other
    }

    /// A place in `seat`'s hand and one in the pile that hold different cards.
    fn differing(g: &TankCombat, seat: usize) -> (usize, usize) {
        for (i, &c) in g.tanks[seat].hand.iter().enumerate() {
            if let Some(k) = g.deck.iter().position(|&d| d != c) {
                return (i, k);
            }
        }
        panic!("every card is the same");
    }

    #[test]
    fn the_other_hands_and_the_pile_never_reach_a_seat() {
        let game = playable::start::<TankCombat>(&setup("default.ron"), 9, &[]).expect("starts");
        let g = game.state();
        let (i, k) = differing(g, 1);
        let other = swapped(g, 1, i, k);
        assert_ne!(g.to_mirror(), other.to_mirror());
        let seen = g.redacted(Some(PlayerId(0))).to_mirror();
        assert_eq!(seen, other.redacted(Some(PlayerId(0))).to_mirror());
        assert_eq!(
            seen,
            g.redacted(Some(PlayerId(0)))
                .redacted(Some(PlayerId(0)))
                .to_mirror()
        );
        // Seat 1 sees its own hand change; a spectator sees nothing change.
        assert_ne!(
            g.redacted(Some(PlayerId(1))).to_mirror(),
            other.redacted(Some(PlayerId(1))).to_mirror()
        );
        assert_eq!(
            g.redacted(None).to_mirror(),
            other.redacted(None).to_mirror()
        );
        let (i0, k0) = differing(g, 0);
        assert_eq!(
            g.redacted(None).to_mirror(),
            swapped(g, 0, i0, k0).redacted(None).to_mirror()
        );
        // Seat 0 keeps its own hand; seat 1's real hand is not in seat 0's bytes unless
        // the stand-in happens to be the same.
        let r = TankCombat::from_mirror(&seen).expect("reads");
        assert_eq!(r.tanks[0].hand, g.tanks[0].hand);
        assert_eq!(r.tanks[1].hand.len(), g.tanks[1].hand.len());
        assert_eq!(r.deck.len(), g.deck.len());
        let real = serde_json::to_string(&g.tanks[1].hand).expect("writes");
        assert_ne!(
            r.tanks[1].hand, g.tanks[1].hand,
            "this seed's stand-in differs"
        );
        assert!(!String::from_utf8_lossy(&seen).contains(&real));
        let pile = serde_json::to_string(&g.deck).expect("writes");
        assert!(!String::from_utf8_lossy(&seen).contains(&pile));
        // The hand drawn and the pile dealt again are what seat 0 may know: the cards it
        // cannot see, as a whole.
        let mut unseen: Vec<Card> = g.deck.iter().chain(&g.tanks[1].hand).copied().collect();
        let mut stand_ins: Vec<Card> = r.deck.iter().chain(&r.tanks[1].hand).copied().collect();
        unseen.sort_unstable();
        stand_ins.sort_unstable();
        assert_eq!(unseen, stand_ins);
    }

    #[test]
    fn a_mirror_with_a_card_too_many_is_refused() {
        let game = playable::start::<TankCombat>(&setup("default.ron"), 1, &[]).expect("starts");
        let mut g = game.state().clone();
        g.tanks[0].hand.push(Card::ArmorPiercing);
        let err = TankCombat::from_mirror(&g.to_mirror())
            .unwrap_err()
            .to_string();
        assert!(err.contains("not the deck's"), "{err}");
        let mut g = game.state().clone();
        g.current = PlayerId(5);
        let err = TankCombat::from_mirror(&g.to_mirror())
            .unwrap_err()
            .to_string();
        assert!(err.contains("seat 5"), "{err}");
    }
}
