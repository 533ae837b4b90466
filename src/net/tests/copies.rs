//! What reaches a spectator, and what a seat keeps of the game: its own copy.

use std::path::Path;

use super::{Net, game_on, setup_of};
use crate::framework::{Game, Playable, PlayerId};
use crate::net::{Mirror, SeatPlan, wire};
use crate::rules::range_duel::RangeDuel;
use crate::rules::tank_combat::TankCombat;

#[test]
fn a_spectator_reads_only_what_every_seat_may_read() {
    use crate::rules::tank_combat::Fact;
    // Tank Combat: no card drawn is named to a spectator.
    let mut net = Net::<TankCombat>::new(
        setup_of::<TankCombat>(),
        11,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    net.join_bot(1, "Ann");
    net.connect(3, Mirror::joining("TANK42", "Eve", None, None, true));
    net.join_bot(2, "Bob");
    net.play_out(5_000);
    assert!(net.room.over());
    let sent = String::from_utf8_lossy(&net.sent_to(3)).into_owned();
    let game = &net.room.seated.game;
    let mut drawn = 0;
    for step in game.history() {
        for fact in &step.facts {
            if let Fact::Drew { .. } = fact {
                let whole = game.state().describe_fact_for(fact, None).expect("told");
                let public = game
                    .state()
                    .describe_fact_for(fact, Some(PlayerId::NOBODY))
                    .expect("told");
                assert_ne!(whole, public);
                assert!(!sent.contains(&whole), "a spectator read {whole}");
                drawn += 1;
            }
        }
    }
    assert!(drawn > 10, "cards were drawn");
    assert!(sent.contains("draws a card"));
    // The Range Duel: a spectator reads that an order was given, never which.
    let mut net = Net::<RangeDuel>::new(
        setup_of::<RangeDuel>(),
        4,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    net.join_bot(1, "Ann");
    net.connect(3, Mirror::joining("TANK42", "Eve", None, None, true));
    net.join_bot(2, "Bob");
    net.play_out(5_000);
    assert!(net.room.over());
    let log = &net.clients[&3].mirror.log;
    let actions: Vec<&str> = log
        .iter()
        .filter(|l| l.step.is_some() && l.fact.is_none())
        .map(|l| l.text.as_str())
        .collect();
    assert!(!actions.is_empty());
    for line in actions {
        assert!(line.ends_with(" acts"), "a spectator read the order {line}");
    }
}

#[test]
fn a_seat_copy_holds_each_state_its_seat_was_shown_and_reads_back() {
    use crate::net::copy::{Frame, SeatCopy};
    let net = game_on::<TankCombat>(11);
    assert!(net.room.over());
    let mirror = &net.clients[&1].mirror;
    let copy = mirror.copy("192.0.2.1:5252", "Default");
    assert_eq!(copy.seat, Some(0));
    assert_eq!(copy.holders, ["Ann", "Bob"]);
    assert!(
        copy.frames
            .iter()
            .skip(1)
            .all(|f| matches!(f, Frame::Step { .. })),
        "after the first state, each action keeps only its patch"
    );
    let path = Path::new("saves/tank-combat-default-1.seat.ron");
    let text = copy.to_text("Tank Combat").expect("writes");
    let read = SeatCopy::read::<TankCombat>(path, &text).expect("reads back");
    assert_eq!(read, copy);
    let states = read.states::<TankCombat>(path).expect("every state reads");
    let played = net.room.seated.game.history().len();
    assert_eq!(
        states.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        (0..=played).collect::<Vec<_>>(),
        "a state after every action"
    );
    for (n, state) in &states {
        let mut host = net.room.seated.game.clone();
        host.undo_to(*n);
        assert_eq!(
            state.state_hash(),
            host.state().redacted(Some(PlayerId(0))).state_hash(),
            "the state after action {n} is the host's, as seat 1 may see it"
        );
    }
    // Another game's copy, or a copy whose patch does not fit, is refused with a reason.
    let other = SeatCopy::read::<RangeDuel>(path, &text).expect_err("not a duel");
    assert!(other.to_string().contains("tank-combat"), "{other}");
    let mut broken = copy.clone();
    broken.frames[1] = Frame::Step {
        actions: 1,
        patch: wire::Patch {
            edits: vec![wire::Edit {
                keep: u32::MAX,
                drop: 0,
                insert: String::new(),
            }],
        },
    };
    let why = broken
        .states::<TankCombat>(path)
        .expect_err("a patch that does not fit");
    assert!(why.to_string().contains("after action 1"), "{why}");
}
