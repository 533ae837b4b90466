//! Play across machines through the windows' own path, headless: two apps join a host
//! running on a thread, wait in its lobby, and play a Range Duel through their sessions'
//! orders, as clicks would.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use tanktable::client::Session;
use tanktable::client::core::remote::{JoinHost, JoinStage, Joining, LobbyOrder};
use tanktable::client::core::session::{OpenGame, Order};
use tanktable::framework::{Game, Playable, SeatedMatch};
use tanktable::net::session::HostThread;
use tanktable::net::{Room, SeatPlan};
use tanktable::rules::range_duel::RangeDuel;

fn seat_app(dir: &std::path::Path, port: u16, name: &str) -> App {
    let mut app = tanktable::client::headless_app(None, dir.join(name));
    app.world_mut().write_message(JoinHost {
        address: format!("127.0.0.1:{port}"),
        code: "DUEL42".into(),
        name: name.into(),
        ..JoinHost::default()
    });
    app
}

/// What a person at one window does: ready in the lobby, then each time the seat
/// must act on a state not yet answered, the first legal action (through the
/// session's orders, as a click would). True once the game is over at this seat.
fn play_along(app: &mut App, answered: &mut Option<u32>) -> bool {
    app.update();
    let world = app.world_mut();
    if world.resource::<Joining>().stage == JoinStage::Lobby
        && !world.resource::<Joining>().ready
        && !world.resource::<Joining>().lobby.is_empty()
    {
        world.write_message(LobbyOrder::Ready(true));
    }
    let Some(session) = world.get_resource::<Session<RangeDuel>>() else {
        return false;
    };
    let link = session.link.as_ref().expect("the table is linked");
    assert!(link.lost.is_none(), "{:?}", link.lost);
    if session.state().outcome().is_some() {
        return true;
    }
    let seat = link.seat().expect("a seat");
    let seen = link.remote.mirror.actions;
    if session.state().to_act().contains(&seat) && *answered != Some(seen) {
        let action = session.state().legal_actions(seat)[0];
        *answered = Some(seen);
        world.write_message(Order::<RangeDuel>::Play(seat, action));
    }
    false
}

#[test]
fn two_windows_play_a_duel_hosted_by_a_third_and_see_only_their_own_orders() {
    let dir = std::env::temp_dir().join(format!("tanktable-windows-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let setup = tanktable::rules::range_duel::DuelSetup::builtin_default();
    // The setup names a file both machines have (the table reads its title there).
    let source = "scenarios/range-duel/default.ron".to_string();
    let seated = SeatedMatch::<RangeDuel>::new(setup, source, 9, Vec::new()).expect("starts");
    let room = Room::new(seated, "DUEL42", vec![SeatPlan::Remote, SeatPlan::Remote]);
    let host = HostThread::spawn(room, 0, 0, dir.join("host.ron")).expect("hosts");
    let mut apps = [
        seat_app(&dir, host.port, "Ann"),
        seat_app(&dir, host.port, "Bob"),
    ];
    let mut answered = [None, None];
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "stalled: {:?}",
            apps.iter()
                .map(|a| a.world().resource::<Joining>().stage.clone())
                .collect::<Vec<_>>()
        );
        let over: Vec<bool> = apps
            .iter_mut()
            .zip(answered.iter_mut())
            .map(|(app, a)| play_along(app, a))
            .collect();
        if over.iter().all(|o| *o) {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let hashes: Vec<u64> = apps
        .iter()
        .map(|app| {
            let s = app.world().resource::<Session<RangeDuel>>();
            s.state().redacted(None).state_hash()
        })
        .collect();
    assert_eq!(
        hashes[0], hashes[1],
        "both windows end on the same public state"
    );
    // Each window's log tells its own orders, and the other's only that one was
    // given: no line naming an order of one seat is in the other's log.
    let logs: Vec<(String, Vec<String>)> = apps
        .iter()
        .map(|app| {
            let s = app.world().resource::<Session<RangeDuel>>();
            let seat = s.link.as_ref().and_then(|l| l.seat()).expect("seated");
            // The actions' lines (a fact's line is public or told to both alike).
            let lines = s
                .log()
                .into_iter()
                .filter(|l| l.step.is_some() && l.fact.is_none())
                .map(|l| l.text)
                .collect();
            (format!("{}: ", s.state().player_name(seat)), lines)
        })
        .collect();
    for (i, (own, lines)) in logs.iter().enumerate() {
        let orders: Vec<&String> = lines.iter().filter(|l| l.starts_with(own)).collect();
        assert!(!orders.is_empty(), "{own} reads its own orders");
        let other = &logs[1 - i].1;
        for line in orders {
            assert!(!other.contains(line), "the other seat never reads {line}");
        }
    }
    // Ann keeps her seat's own copy and steps through it: every state she was shown, and
    // none of Bob's orders by name.
    let copy = dir.join("ann.seat.ron");
    let ann = &mut apps[0];
    let (ann_hash, ann_actions) = {
        let s = ann.world().resource::<Session<RangeDuel>>();
        let link = s.link.as_ref().expect("linked");
        (s.state().state_hash(), link.remote.mirror.actions as usize)
    };
    ann.world_mut()
        .write_message(Order::<RangeDuel>::Save(Some(copy.clone())));
    ann.update();
    let text = std::fs::read_to_string(&copy).expect("the seat's copy is written");
    for line in logs[1].1.iter().filter(|l| l.starts_with(&logs[1].0)) {
        assert!(
            !text.contains(line.as_str()),
            "Ann's copy never holds {line}"
        );
    }
    ann.world_mut().write_message(OpenGame {
        replay: true,
        ..OpenGame::file(copy)
    });
    ann.update();
    ann.update();
    let s = ann.world().resource::<Session<RangeDuel>>();
    assert!(s.link.is_none() && s.is_seat_copy(), "{:?}", s.notice);
    let replay = s.replay.as_ref().expect("stepped through");
    assert_eq!(replay.len(), ann_actions);
    assert_eq!(s.shown(), 0, "it opens at the start");
    ann.world_mut()
        .write_message(Order::<RangeDuel>::Seek(ann_actions));
    ann.update();
    let s = ann.world().resource::<Session<RangeDuel>>();
    assert_eq!(s.shown(), ann_actions);
    assert_eq!(
        s.state().state_hash(),
        ann_hash,
        "its end is Ann's last state"
    );
    drop(host);
    let _ = std::fs::remove_dir_all(dir);
}
