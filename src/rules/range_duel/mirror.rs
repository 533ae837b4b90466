//! A Range Duel as a mirror on another machine holds it: the setup (both designs and
//! both tables, all public) beside the state, with the other driver's order, while it is
//! secret, replaced by a stand-in.

use std::sync::{Arc, LazyLock};

use super::{Action, DuelSetup, DuelTank, RangeDuel};
use crate::framework::MirrorError;
use crate::framework::PlayerId;
use crate::framework::mirror::{self, MirrorCheck};

/// What a mirror shows for an order given and not yet revealed: always the same, so
/// that it tells nothing of the real one (only that one was given).
pub(super) const STAND_IN: Action = Action::HullDown;

/// The setup a state read from JSON holds until [`read`] puts the mirror's own in.
pub(super) fn unset_setup() -> Arc<DuelSetup> {
    static UNSET: LazyLock<Arc<DuelSetup>> =
        LazyLock::new(|| Arc::new(DuelSetup::builtin_default()));
    Arc::clone(&UNSET)
}

/// `duel` as `viewer` may hold it. Orders are revealed (and cleared) as soon as both are
/// in, so an order in the state is always a secret from the other seat.
pub(super) fn redacted(duel: &RangeDuel, viewer: Option<PlayerId>) -> RangeDuel {
    let mut seen = duel.clone();
    for (i, order) in seen.orders.iter_mut().enumerate() {
        if order.is_some() && viewer.map(PlayerId::index) != Some(i) {
            *order = Some(STAND_IN);
        }
    }
    seen
}

/// The mirror's bytes: the setup, then the state.
pub(super) fn write(duel: &RangeDuel) -> Vec<u8> {
    mirror::write_mirror(&*duel.setup, duel)
}

/// A duel read back from [`write`]'s bytes: the setup validated as a record's is, the
/// tanks checked against its designs.
pub(super) fn read(bytes: &[u8]) -> Result<RangeDuel, MirrorError> {
    let (setup, mut duel): (Arc<DuelSetup>, RangeDuel) =
        mirror::read_mirror_cached::<RangeDuel, DuelSetup, _, _>(bytes, |setup| {
            // Designs travel inline, so nothing is read from files here.
            MirrorCheck::valid(
                "setup",
                DuelSetup::revalidate(setup, std::path::Path::new("")),
            )
            .map(Arc::new)
        })?;
    duel.setup = setup;
    check(&duel)?;
    Ok(duel)
}

/// Each tank is its design's (the same build, armor and crew), and the range, the turn
/// and the orders are ones the rules can reach.
fn check(duel: &RangeDuel) -> Result<(), MirrorError> {
    let setup = &duel.setup;
    for (tank, design) in duel.tanks.iter().zip(&setup.tanks) {
        let fresh = DuelTank::new(design, &setup.tank_rules);
        let same_crew = tank.crew.len() == fresh.crew.len()
            && tank
                .crew
                .iter()
                .zip(&fresh.crew)
                .all(|(m, f)| m.role == f.role && m.name == f.name && m.wounds <= 2);
        MirrorCheck::that(
            tank.name == fresh.name
                && tank.build == fresh.build
                && tank.armor == fresh.armor
                && tank.hull <= fresh.hull
                && same_crew,
            || format!("tank `{}` is not the setup's design", tank.name),
        )?;
    }
    MirrorCheck::that(duel.range <= setup.table.farthest(), || {
        format!("there is no range band {}", duel.range)
    })?;
    MirrorCheck::that(duel.turn <= setup.rules.turn_limit, || {
        format!("turn {} is past the turn limit", duel.turn)
    })?;
    for order in duel.orders.iter().flatten() {
        MirrorCheck::that(order.problem().is_none(), || {
            format!("the order {order:?} is not one a driver may give")
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::bot::Bot;
    use crate::framework::playable;
    use crate::framework::{Game, Playable};
    use crate::rules::mirror_tests::{check_mirrors, refuses_garbage, survives_mutations};

    #[test]
    fn bots_duels_read_back_from_every_seats_mirror() {
        let setup = DuelSetup::builtin_default();
        for (seed, names) in [(1, ["heuristic", "random"]), (7, ["random", "random"])] {
            let bots: Vec<Box<dyn Bot<RangeDuel>>> = names
                .iter()
                .map(|n| RangeDuel::bot(n).expect("a bot"))
                .collect();
            let back = check_mirrors::<RangeDuel>(&setup, seed, bots, 300);
            assert_eq!(*back.setup, setup);
        }
        refuses_garbage::<RangeDuel>();
        let duel = playable::start::<RangeDuel>(&setup, 3, &[]).expect("starts");
        survives_mutations::<RangeDuel>(&duel.state().to_mirror(), 600, 2);
    }

    #[test]
    fn an_order_not_yet_revealed_never_reaches_the_other_seat() {
        let setup = DuelSetup::builtin_default();
        let start = || playable::start::<RangeDuel>(&setup, 11, &[]).expect("starts");
        let (mut a, mut b) = (start(), start());
        let orders: Vec<Action> = a
            .state()
            .legal_actions(PlayerId(1))
            .into_iter()
            .filter(|o| *o != STAND_IN)
            .collect();
        assert!(orders.len() >= 2);
        let (first, second) = (orders[0], orders[orders.len() - 1]);
        a.play(PlayerId(1), &first).expect("legal");
        b.play(PlayerId(1), &second).expect("legal");
        for viewer in [Some(PlayerId(0)), None] {
            let (seen_a, seen_b) = (
                a.state().redacted(viewer).to_mirror(),
                b.state().redacted(viewer).to_mirror(),
            );
            assert_eq!(seen_a, seen_b, "{viewer:?} tells the orders apart");
            assert_ne!(seen_a, a.state().to_mirror(), "the real order is in");
            let back = RangeDuel::from_mirror(&seen_a).expect("reads");
            assert_eq!(back.to_act(), vec![PlayerId(0)]);
            assert!(back.has_chosen(PlayerId(1)));
        }
        // The seat that gave the order sees its own.
        assert_ne!(
            a.state().redacted(Some(PlayerId(1))).to_mirror(),
            b.state().redacted(Some(PlayerId(1))).to_mirror()
        );
        assert_eq!(a.state().redacted(Some(PlayerId(1))).orders[1], Some(first));
        // Once both are in, the turn is played and the orders are public facts.
        a.play(PlayerId(0), &STAND_IN).expect("legal");
        assert_eq!(a.state().orders, [None, None]);
        assert_eq!(
            a.state().redacted(Some(PlayerId(0))).to_mirror(),
            a.state().to_mirror()
        );
    }
}
