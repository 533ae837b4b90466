//! Checks shared by every game's mirror tests: a state redacted for a seat (or a
//! spectator), written as a mirror and read back, is the redacted state (the same hash,
//! the same seats to act) and leaves the seat's legal actions as they were; bytes that
//! are not a mirror are refused, never a panic.

use crate::framework::bot::Bot;
use crate::framework::playable::{self, Playable};
use crate::framework::{Game, MatchRng, PlayerId};

/// Every viewer of `state`: each seat, then a spectator.
pub(crate) fn viewers<G: Game>(state: &G) -> Vec<Option<PlayerId>> {
    (0..state.player_count())
        .map(|i| Some(PlayerId(u8::try_from(i).expect("at most 255 seats"))))
        .chain([None])
        .collect()
}

/// Redacts `state` for every viewer, writes each redaction as a mirror and reads it back,
/// checking what the mirror must keep. The spectator's state read back.
pub(crate) fn check_state<G: Playable>(state: &G) -> G {
    let mut spectator = None;
    for viewer in viewers(state) {
        let r = state.redacted(viewer);
        let bytes = r.to_mirror();
        let back = G::from_mirror(&bytes).unwrap_or_else(|e| {
            panic!(
                "{viewer:?}'s mirror does not read back: {e}\n{}",
                String::from_utf8_lossy(&bytes)
            )
        });
        assert_eq!(back.state_hash(), r.state_hash(), "{viewer:?}: hash");
        assert_eq!(back.to_act(), r.to_act(), "{viewer:?}: to act");
        assert_eq!(r.to_act(), state.to_act(), "{viewer:?}: redaction's to act");
        assert_eq!(back.outcome(), state.outcome(), "{viewer:?}: outcome");
        assert_eq!(back.to_mirror(), bytes, "{viewer:?}: written again");
        assert_eq!(
            r.redacted(viewer).to_mirror(),
            bytes,
            "{viewer:?}: a redaction redacted again"
        );
        if let Some(seat) = viewer {
            assert_eq!(
                back.legal_actions(seat),
                state.legal_actions(seat),
                "{viewer:?}: legal actions"
            );
        }
        spectator = Some(back);
    }
    spectator.expect("a spectator")
}

/// Plays a match of bots (one a seat) on `setup` from `seed`, at most `max_actions`
/// actions, checking every state on the way ([`check_state`]). The last state's
/// spectator mirror, read back.
pub(crate) fn check_mirrors<G: Playable>(
    setup: &G::Setup,
    seed: u64,
    mut bots: Vec<Box<dyn Bot<G>>>,
    max_actions: usize,
) -> G {
    let mut game = playable::start::<G>(setup, seed, &[]).expect("the setup starts a match");
    let mut bot_rng = MatchRng::new(seed ^ 0x6d69_7272_6f72);
    let mut last = check_state(game.state());
    for _ in 0..max_actions {
        if game.state().outcome().is_some() {
            break;
        }
        let player = *game
            .state()
            .to_act()
            .first()
            .expect("a match not over has a seat to act");
        let action = bots[player.index()]
            .choose(game.state(), player, &mut bot_rng)
            .expect("the bot acts");
        game.play(player, &action)
            .expect("the bot's action is legal");
        last = check_state(game.state());
    }
    last
}

/// Bytes that are not a mirror of `G` are refused with a reason: words, empty bytes,
/// other JSON, another game's mirror, random bytes.
pub(crate) fn refuses_garbage<G: Playable>() {
    let other = br#"{"game":"not-a-game","public":null,"state":null}"#;
    for bytes in [
        b"garbage".as_slice(),
        b"",
        b"{}",
        b"null",
        b"[1,2,3]",
        other.as_slice(),
    ] {
        let err = G::from_mirror(bytes).expect_err("garbage is refused");
        assert!(!err.to_string().is_empty());
    }
    assert!(
        G::from_mirror(other)
            .unwrap_err()
            .to_string()
            .contains("not of")
    );
    let mut rng = MatchRng::new(52);
    for len in 0..300 {
        let bytes: Vec<u8> = (0..len)
            .map(|_| u8::try_from(rng.pick(256)).expect("a byte"))
            .collect();
        assert!(G::from_mirror(&bytes).is_err());
    }
}

/// `mirror` with `count` random changes to its digits and brackets (each giving JSON
/// that often still reads), truncations and splices: each is refused or read into a
/// state whose rules answer without panicking.
pub(crate) fn survives_mutations<G: Playable>(mirror: &[u8], count: usize, seed: u64) {
    let mut rng = MatchRng::new(seed);
    let digits: Vec<usize> = (0..mirror.len())
        .filter(|&i| mirror[i].is_ascii_digit())
        .collect();
    let mut read = 0;
    for k in 0..count {
        let mut bytes = mirror.to_vec();
        match k % 4 {
            0 | 1 if !digits.is_empty() => {
                // A number changed: a seat, an index, a count, a length's worth.
                let at = digits[rng.pick(digits.len())];
                bytes[at] = b"0123456789"[rng.pick(10)];
                if k % 4 == 1 {
                    bytes.insert(at, b"9876543210"[rng.pick(10)]);
                }
            }
            2 => bytes.truncate(rng.pick(bytes.len().max(1))),
            _ => {
                // A stretch copied over another: lists of the wrong length.
                let from = rng.pick(bytes.len().max(1));
                let to = rng.pick(bytes.len().max(1));
                let len = rng.pick(40).min(bytes.len() - from.max(to));
                let piece = bytes[from..from + len].to_vec();
                bytes.splice(to..to + len, piece);
            }
        }
        if let Ok(g) = G::from_mirror(&bytes) {
            read += 1;
            let _ = (g.state_hash(), g.outcome(), g.to_act());
            for seat in 0..g.player_count() {
                let seat = PlayerId(u8::try_from(seat).expect("at most 255 seats"));
                let _ = g.legal_actions(seat);
                let _ = g.redacted(Some(seat)).to_mirror();
            }
            let _ = g.redacted(None).to_mirror();
        }
    }
    assert!(read > 0, "some changed mirrors should still read");
}
