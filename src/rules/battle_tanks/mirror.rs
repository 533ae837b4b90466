//! A Battle Tanks state as a mirror on another machine holds it: the setup (names and
//! rules, all public) beside the state. Nothing in the state is secret, so every seat's
//! redaction is the state itself ([`crate::framework::Playable::redacted`]'s default).

use std::sync::{Arc, LazyLock};

use super::{BattleSetup, BattleTanks, Phase};
use crate::framework::MirrorError;
use crate::framework::PlayerId;
use crate::framework::mirror::{self, MirrorCheck};

/// The setup a state read from JSON holds until [`read`] puts the mirror's own in.
pub(super) fn unset_setup() -> Arc<BattleSetup> {
    static UNSET: LazyLock<Arc<BattleSetup>> =
        LazyLock::new(|| Arc::new(BattleSetup::with_players(2)));
    Arc::clone(&UNSET)
}

/// The mirror's bytes: the setup, then the state.
pub(super) fn write(game: &BattleTanks) -> Vec<u8> {
    mirror::write_mirror(&*game.setup, game)
}

/// A state read back from [`write`]'s bytes, its setup validated as a record's is and
/// the state checked against it.
pub(super) fn read(bytes: &[u8]) -> Result<BattleTanks, MirrorError> {
    let (setup, mut game): (Arc<BattleSetup>, BattleTanks) =
        mirror::read_mirror_cached::<BattleTanks, BattleSetup, _, _>(bytes, |setup| {
            MirrorCheck::valid("setup", BattleSetup::validate(setup.into())).map(Arc::new)
        })?;
    game.setup = setup;
    check(&game)?;
    Ok(game)
}

/// Everything the rules index or count is in range.
fn check(g: &BattleTanks) -> Result<(), MirrorError> {
    let n = g.setup.players.len();
    MirrorCheck::len("the commanders", g.players.len(), n)?;
    for (c, name) in g.players.iter().zip(&g.setup.players) {
        MirrorCheck::that(&c.name == name, || {
            format!("commander `{}` is not the setup's `{name}`", c.name)
        })?;
    }
    let seat = |what: &str, p: PlayerId| MirrorCheck::seat(what, p, n);
    seat("the first declarer", g.first)?;
    for &p in &g.contenders {
        seat("a contender", p)?;
    }
    for d in &g.battlefield {
        seat("a die's owner", d.owner)?;
    }
    for v in &g.final_battle {
        seat("a Final Battle volley", v.player)?;
    }
    match &g.phase {
        Phase::Declaring(round) => {
            for &p in round.rollers.iter().chain(&round.answering) {
                seat("a roller", p)?;
            }
            for d in &round.declarations {
                seat("a declaration", d.player)?;
            }
        }
        Phase::FinalBattle { players, launched } => {
            for &p in players.iter().chain(launched) {
                seat("a Final Battle commander", p)?;
            }
        }
        Phase::Over(
            super::Ending::FinalBattle { winner: p, .. } | super::Ending::LastStanding(p),
        ) => {
            seat("the winner", *p)?;
        }
        Phase::NotStarted | Phase::Over(_) => {}
    }
    census(g)?;
    // Counters a game only adds one to: far below where adding would overflow.
    let most = 1 << 30;
    MirrorCheck::that(
        g.battle <= g.setup.rules.battle_limit
            && g.rolls < most
            && g.roll_in_battle < most
            && g.next_die_id < most,
        || "the battle and roll counters are beyond any game's reach".to_string(),
    )
}

/// Every die of the game is somewhere, and no more: the total never changes.
fn census(g: &BattleTanks) -> Result<(), MirrorError> {
    let r = &g.setup.rules;
    let n = u64::try_from(g.players.len()).unwrap_or(0);
    let want = n * (u64::from(r.tanks) + u64::from(r.nukes)) + u64::from(r.bag);
    let arsenals: u64 = g
        .players
        .iter()
        .map(|c| u64::from(c.tanks) + u64::from(c.nukes))
        .sum();
    let got = arsenals
        + u64::try_from(g.battlefield.len()).unwrap_or(u64::MAX / 4)
        + u64::from(g.destroyed.tanks)
        + u64::from(g.destroyed.nukes)
        + u64::from(g.bag);
    MirrorCheck::that(got == want, || {
        format!("the state holds {got} dice, but the setup's game has {want}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::Playable;
    use crate::framework::bot::Bot;
    use crate::framework::playable;
    use crate::rules::mirror_tests::{check_mirrors, refuses_garbage, survives_mutations};

    #[test]
    fn bots_matches_read_back_from_every_seats_mirror() {
        for (players, seed, battles) in [(4, 3, false), (2, 5, false), (2, 6, true), (8, 11, false)]
        {
            let mut setup = BattleSetup::with_players(players);
            if battles {
                setup.rules.two_player_start = crate::rules::battle_tanks::TwoPlayerStart::Battles;
            }
            let bots: Vec<Box<dyn Bot<BattleTanks>>> = (0..players)
                .map(|i| {
                    BattleTanks::bot(if i % 2 == 0 { "heuristic" } else { "random" })
                        .expect("a bot")
                })
                .collect();
            let back = check_mirrors::<BattleTanks>(&setup, seed, bots, 400);
            assert_eq!(*back.setup, setup);
        }
        refuses_garbage::<BattleTanks>();
        let game = playable::start::<BattleTanks>(&BattleSetup::builtin_default(), 2, &[])
            .expect("starts");
        survives_mutations::<BattleTanks>(&game.state().to_mirror(), 600, 1);
    }

    #[test]
    fn a_mirror_with_dice_from_nowhere_is_refused() {
        let setup = BattleSetup::builtin_default();
        let game = playable::start::<BattleTanks>(&setup, 1, &[]).expect("starts");
        let mut state = game.state().clone();
        state.bag += 1;
        let err = BattleTanks::from_mirror(&state.to_mirror())
            .unwrap_err()
            .to_string();
        assert!(err.contains("dice"), "{err}");
        let mut state = game.state().clone();
        state.first = PlayerId(9);
        let err = BattleTanks::from_mirror(&state.to_mirror())
            .unwrap_err()
            .to_string();
        assert!(err.contains("seat 9"), "{err}");
    }
}
