//! A host and its clients in one process, with the transport replaced by queues: every
//! byte the room sends each connection is kept, so that tests can look for secrets in it.

use std::collections::BTreeMap;
use std::path::Path;

use super::wire::{self, Holder, ToHost};
use super::{ConnId, Heard, Mirror, Outgoing, Room, SeatPlan};
use crate::framework::playable::{self, Playable};
use crate::framework::{Game, MatchRng, PlayerId, Seat, SeatedMatch};
use crate::rules::battle_tanks::BattleTanks;
use crate::rules::range_duel::RangeDuel;
use crate::rules::tank_chess::TankChess;
use crate::rules::tank_combat::TankCombat;
use crate::rules::tank_commander::TankCommander;

mod copies;

/// A client in a [`Net`]: its mirror, what it heard, every byte it was sent.
pub(crate) struct Client<G: Playable> {
    pub mirror: Mirror<G>,
    pub heard: Vec<Heard>,
    pub bytes: Vec<Vec<u8>>,
    pub kicked: Option<String>,
    pub connected: bool,
    /// The bot that plays this seat on the client's machine, from its mirror.
    pub bot: Option<Box<dyn crate::framework::bot::Bot<G>>>,
    pub rng: MatchRng,
}

/// A room and its clients, joined by queues.
pub(crate) struct Net<G: Playable> {
    pub room: Room<G>,
    pub clients: BTreeMap<ConnId, Client<G>>,
    pub now: f64,
}

pub(crate) fn setup_of<G: Playable>() -> G::Setup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = G::load_rules(None).expect("the shipped rules read");
    playable::load_setup::<G>(&root.join(G::KIND.default_setup()), &rules)
        .expect("the default setup reads")
}

impl<G: Playable> Net<G> {
    pub fn new(setup: G::Setup, seed: u64, plans: Vec<SeatPlan>) -> Self {
        let seated =
            SeatedMatch::new(setup, "default".into(), seed, Vec::new()).expect("it starts");
        Self {
            room: Room::new(seated, "TANK42", plans),
            clients: BTreeMap::new(),
            now: 0.0,
        }
    }

    /// Connects a client that joins with `join` (made by [`Mirror::joining`]).
    pub fn connect(&mut self, id: ConnId, mirror: Mirror<G>) {
        self.room.connected(id, self.now);
        self.clients.insert(
            id,
            Client {
                mirror,
                heard: Vec::new(),
                bytes: Vec::new(),
                kicked: None,
                connected: true,
                bot: None,
                rng: MatchRng::new(id),
            },
        );
        self.pump();
    }

    /// A client that joins with code, taking the first open seat and playing it with the
    /// game's own bot.
    pub fn join_bot(&mut self, id: ConnId, name: &str) {
        let mut mirror = Mirror::joining("tank42", name, None, None, false);
        mirror.ready(true);
        self.connect(id, mirror);
        let c = self.clients.get_mut(&id).expect("just joined");
        c.bot = G::bot(G::bot_names()[0]);
    }

    /// Drops a client's connection.
    pub fn drop_client(&mut self, id: ConnId) {
        if let Some(c) = self.clients.get_mut(&id) {
            c.connected = false;
        }
        self.room.disconnected(id);
        self.pump();
    }

    /// Moves every queued message until nothing moves.
    pub fn pump(&mut self) {
        for _ in 0..10_000 {
            let mut moved = false;
            self.now += 0.001;
            let ids: Vec<ConnId> = self.clients.keys().copied().collect();
            for id in ids {
                let c = self.clients.get_mut(&id).expect("listed");
                if !c.connected {
                    continue;
                }
                for bytes in c.mirror.drain() {
                    moved = true;
                    self.room.receive(id, &bytes, self.now);
                }
            }
            for out in self.room.drain() {
                moved = true;
                match out {
                    Outgoing::Send(id, bytes) => {
                        let Some(c) = self.clients.get_mut(&id) else {
                            continue;
                        };
                        if !c.connected {
                            continue;
                        }
                        c.bytes.push(bytes.clone());
                        let heard = c.mirror.receive(&bytes).expect("the host's bytes read");
                        c.heard.push(heard);
                    }
                    Outgoing::Kick(id, why) => {
                        if let Some(c) = self.clients.get_mut(&id) {
                            c.connected = false;
                            c.kicked = Some(why);
                        }
                    }
                }
            }
            if !moved {
                return;
            }
        }
        panic!("messages kept moving");
    }

    /// One round: the clients' bots that must act order, and the host's bots play.
    /// False when nothing could move.
    pub fn round(&mut self) -> bool {
        // A person (or a bot on a slow machine) takes a moment to order.
        self.now += 0.05;
        let mut moved = false;
        let ids: Vec<ConnId> = self.clients.keys().copied().collect();
        for id in ids {
            let c = self.clients.get_mut(&id).expect("listed");
            if !c.connected || !c.mirror.to_act() {
                continue;
            }
            let (Some(bot), Some(state), Some(seat)) =
                (c.bot.as_mut(), c.mirror.state(), c.mirror.seat)
            else {
                continue;
            };
            if let Some(action) = bot.choose(state, seat, &mut c.rng) {
                c.mirror.order(&action);
                moved = true;
            }
        }
        self.pump();
        while self.room.play_bots() {
            moved = true;
            self.pump();
        }
        moved
    }

    /// Plays until the match ends (or `most` rounds pass).
    pub fn play_out(&mut self, most: usize) {
        for _ in 0..most {
            if self.room.over() || !self.round() {
                break;
            }
        }
    }

    /// Checks that every connected seat's mirror equals the host's state redacted for it.
    pub fn assert_mirrors_agree(&self) {
        let host = self.room.seated.state();
        for (id, c) in &self.clients {
            if !c.connected {
                continue;
            }
            let state = c.mirror.state().expect("a state arrived");
            let want = host.redacted(c.mirror.seat);
            assert_eq!(
                state.state_hash(),
                want.state_hash(),
                "client {id} (seat {:?}) disagrees with the host",
                c.mirror.seat
            );
        }
    }

    /// Every byte the room sent client `id`, as one buffer.
    pub fn sent_to(&self, id: ConnId) -> Vec<u8> {
        self.clients[&id].bytes.concat()
    }
}

/// Host with two remote seats (the rest bots on the host), two client bots, to the end.
fn game_across_the_network<G: Playable>(seed: u64) -> Net<G> {
    let setup = setup_of::<G>();
    let n = G::from_setup(&setup).expect("starts").player_count();
    let bot = G::bot_names()[0].to_string();
    let mut plans = vec![SeatPlan::Remote, SeatPlan::Remote];
    plans.resize(n, SeatPlan::Bot(bot));
    let mut net = Net::<G>::new(setup, seed, plans);
    net.join_bot(1, "Ann");
    assert!(!net.room.started(), "one remote seat is still open");
    net.join_bot(2, "Bob");
    assert!(net.room.started(), "every remote seat is taken and ready");
    net.play_out(5_000);
    assert!(
        net.room.over(),
        "{} ended: {} actions, host log {:?}",
        G::NAME,
        net.room.seated.game.history().len(),
        net.room.log.iter().rev().take(5).collect::<Vec<_>>()
    );
    net.assert_mirrors_agree();
    // The host's record replays to its final state.
    let record = net.room.seated.record();
    let again = playable::replay(&record).expect("the host's record replays");
    assert_eq!(again.state_hash(), net.room.seated.game.state_hash());
    // Each seat's log came across whole: it is the host's log for that seat.
    for c in net.clients.values() {
        let host_log = net.room.seated.clone();
        let mut viewer = host_log;
        viewer.viewer = c.mirror.seat;
        let texts: Vec<&str> = c.mirror.log.iter().map(|l| l.text.as_str()).collect();
        let want: Vec<String> = viewer.log().into_iter().map(|l| l.text).collect();
        assert_eq!(texts, want, "the log of seat {:?}", c.mirror.seat);
    }
    net
}

#[test]
fn tank_commander_is_played_across_the_network_to_its_end() {
    game_across_the_network::<TankCommander>(3);
}

#[test]
fn tank_chess_is_played_across_the_network_to_its_end() {
    game_across_the_network::<TankChess>(3);
}

#[test]
fn battle_tanks_is_played_across_the_network_to_its_end() {
    game_across_the_network::<BattleTanks>(3);
}

#[test]
fn tank_combat_is_played_across_the_network_to_its_end() {
    game_across_the_network::<TankCombat>(3);
}

#[test]
fn range_duel_is_played_across_the_network_to_its_end() {
    let mut net = game_across_the_network::<RangeDuel>(3);
    // Once it is over, a seated player asks for a rematch: the same seats play a new
    // game with new dice to its end, and a rematch before the end is refused.
    let first = net.room.seated.game.state_hash();
    net.clients.get_mut(&1).expect("joined").mirror.rematch();
    net.pump();
    assert_ne!(net.room.seated.game.state_hash(), first, "a new game");
    net.assert_mirrors_agree();
    net.play_out(5_000);
    assert!(net.room.over(), "the rematch is played to its end");
    net.assert_mirrors_agree();
    net.clients.get_mut(&2).expect("joined").mirror.rematch();
    net.pump();
    assert!(!net.room.over(), "a second rematch");
    net.clients.get_mut(&2).expect("joined").mirror.rematch();
    net.pump();
    assert!(
        matches!(net.clients[&2].heard.last(), Some(Heard::Refusal { .. })),
        "no rematch before the end: {:?}",
        net.clients[&2].heard.last()
    );
}

#[test]
fn the_seed_never_leaves_the_host() {
    // A seed with a shape no game data has, looked for in every form it could take.
    let seed: u64 = 0x5EC2_E7D1_CE0F_F00D;
    let mut forms: Vec<Vec<u8>> = vec![
        seed.to_string().into_bytes(),
        format!("{seed:x}").into_bytes(),
        format!("{seed:X}").into_bytes(),
        seed.to_le_bytes().to_vec(),
        seed.to_be_bytes().to_vec(),
    ];
    forms.push(format!("{}", seed.rotate_left(17)).into_bytes());
    let net = game_on::<TankCombat>(seed);
    for id in [1, 2] {
        let sent = net.sent_to(id);
        assert!(!sent.is_empty());
        for form in &forms {
            assert!(
                !sent.windows(form.len()).any(|w| w == &form[..]),
                "the seed reached client {id}"
            );
        }
    }
}

pub(crate) fn game_on<G: Playable>(seed: u64) -> Net<G> {
    let mut net = Net::<G>::new(
        setup_of::<G>(),
        seed,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    net.join_bot(1, "Ann");
    net.join_bot(2, "Bob");
    net.play_out(5_000);
    net
}

#[test]
fn a_tank_combat_hand_never_reaches_the_other_seat() {
    let mut net = Net::<TankCombat>::new(
        setup_of::<TankCombat>(),
        11,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    net.join_bot(1, "Ann");
    net.join_bot(2, "Bob");
    // Before every action: the hand of the second seat, as the host holds it, must not be
    // what the first seat's mirror holds (where they differ), and the first seat's bytes
    // must be those of a state whose second hand was anything else.
    for _ in 0..200 {
        if net.room.over() {
            break;
        }
        let host = net.room.seated.state();
        let theirs = host.tanks[1].hand.clone();
        let seen = net.clients[&1].mirror.state().expect("state").tanks[1]
            .hand
            .clone();
        assert_eq!(seen.len(), theirs.len(), "the size of a hand is public");
        let mut other = host.clone();
        let differs = match (
            other.tanks[1].hand.first().copied(),
            other.deck.first().copied(),
        ) {
            (Some(h), Some(d)) if h != d => {
                other.tanks[1].hand[0] = d;
                other.deck[0] = h;
                true
            }
            _ => false,
        };
        if differs {
            assert_eq!(
                other.redacted(Some(PlayerId(0))).to_mirror(),
                host.redacted(Some(PlayerId(0))).to_mirror(),
                "seat 1's mirror tells seat 2's hand apart from another"
            );
        }
        net.round();
    }
}

#[test]
fn a_range_duel_order_is_hidden_until_both_are_given() {
    // The second driver gives one order or another; until the first driver gives theirs,
    // every byte the first driver's machine got is the same either way.
    let bytes_after = |order: crate::rules::range_duel::Action| {
        let mut net = Net::<RangeDuel>::new(
            setup_of::<RangeDuel>(),
            5,
            vec![SeatPlan::Remote, SeatPlan::Remote],
        );
        let mut a = Mirror::joining("TANK42", "Ann", None, Some(0), false);
        a.ready(true);
        net.connect(1, a);
        let mut b = Mirror::joining("TANK42", "Bob", None, Some(1), false);
        b.ready(true);
        net.connect(2, b);
        let c = net.clients.get_mut(&2).expect("joined");
        c.mirror.order(&order);
        net.pump();
        assert_eq!(
            net.room.seated.game.history().len(),
            1,
            "the order was played"
        );
        net.sent_to(1)
    };
    let legal = RangeDuel::from_setup(&setup_of::<RangeDuel>())
        .expect("starts")
        .legal_actions(PlayerId(1));
    assert!(legal.len() >= 2);
    let first = bytes_after(legal[0]);
    for other in &legal[1..] {
        assert_eq!(bytes_after(*other), first, "the order {other:?} showed");
    }
}

#[test]
fn a_hidden_mine_is_never_sent_to_the_other_side() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = TankCommander::load_rules(None).expect("rules");
    let path = root.join("scenarios/cross-minefield.ron");
    let text = std::fs::read_to_string(&path)
        .expect("the minefield reads")
        .replacen("mines: (", "mines: (hidden: true, ", 1);
    let setup = TankCommander::parse_setup(&path, &text, &rules).expect("it validates");
    let mut net = Net::<TankCommander>::new(setup, 7, vec![SeatPlan::Remote, SeatPlan::Remote]);
    net.join_bot(1, "Ann");
    net.join_bot(2, "Bob");
    let mines_of =
        |g: &TankCommander, side: PlayerId| g.mines.iter().filter(|m| m.owner == side).count();
    assert!(
        mines_of(net.room.seated.state(), PlayerId(1)) > 0,
        "the second side has mines"
    );
    for _ in 0..40 {
        // Side 1's mirror never holds side 2's mines (unless one went off).
        let seen = mines_of(net.clients[&1].mirror.state().expect("state"), PlayerId(1));
        assert_eq!(seen, 0, "side 1 sees {seen} of side 2's mines");
        if net.room.over() || !net.round() {
            break;
        }
    }
    // And not one byte differs from a game whose hidden mines lie elsewhere: the mirror
    // of side 1 is the same with or without them.
    let host = net.room.seated.state();
    let mut moved = host.clone();
    for m in moved.mines.iter_mut().filter(|m| m.owner == PlayerId(1)) {
        m.at += hexx::Hex::new(1, 0);
    }
    assert_eq!(
        moved.redacted(Some(PlayerId(0))).to_mirror(),
        host.redacted(Some(PlayerId(0))).to_mirror()
    );
    assert_eq!(
        mines_of(&host.redacted(None), PlayerId(1)),
        0,
        "spectators see none"
    );
}

#[test]
fn hostile_clients_are_refused_or_disconnected_and_the_host_goes_on() {
    let mut net = Net::<RangeDuel>::new(
        setup_of::<RangeDuel>(),
        9,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    // A wrong room code.
    net.connect(9, Mirror::joining("WRONG", "Eve", None, None, false));
    assert_eq!(net.clients[&9].kicked.as_deref(), Some("wrong room code"));
    net.join_bot(1, "Ann");
    net.join_bot(2, "Bob");
    // A spectator cannot act for a seat.
    net.connect(3, Mirror::joining("TANK42", "Sue", None, None, true));
    let action = net.room.seated.state().legal_actions(PlayerId(0))[0];
    let c = net.clients.get_mut(&3).expect("joined");
    c.mirror.order(&action);
    net.pump();
    assert!(matches!(
        net.clients[&3].heard.last(),
        Some(Heard::Refusal { reason, .. }) if reason.contains("no seat")
    ));
    // Out of turn: Ann orders twice in one combat turn.
    let c = net.clients.get_mut(&1).expect("joined");
    c.mirror.order(&action);
    c.mirror.order(&action);
    net.pump();
    assert!(
        matches!(
            net.clients[&1].heard.last(),
            Some(Heard::Refusal { reason, .. }) if reason.contains("decision now")
        ),
        "{:?}",
        net.clients[&1].heard.last()
    );
    assert!(net.room.log.iter().any(|l| l.starts_with("refused")));
    // Malformed: disconnected with the reason logged; the host goes on.
    let c = net.clients.get_mut(&2).expect("joined");
    c.mirror.say(&ToHost::Order {
        seen: 0,
        action: "{not json".into(),
    });
    net.pump();
    assert!(
        net.clients[&2]
            .kicked
            .as_deref()
            .is_some_and(|k| k.starts_with("malformed order"))
    );
    assert!(net.room.log.iter().any(|l| l.contains("malformed order")));
    // The seat waits for its person.
    assert!(net.room.lobby().iter().any(|s| matches!(
        &s.holder,
        Holder::Remote {
            connected: false,
            ..
        }
    )));
    // Oversized and flooding.
    net.connect(4, Mirror::joining("TANK42", "Max", None, None, true));
    net.room
        .receive(4, &vec![b'{'; wire::MAX_TO_HOST + 1], net.now);
    net.pump();
    assert!(
        net.clients[&4]
            .kicked
            .as_deref()
            .is_some_and(|k| k.contains("larger"))
    );
    net.connect(5, Mirror::joining("TANK42", "Flo", None, None, true));
    for _ in 0..1_000 {
        net.room
            .receive(5, &wire::encode(&ToHost::Chat("hi".into())), net.now);
    }
    net.pump();
    assert_eq!(
        net.clients[&5].kicked.as_deref(),
        Some("flooding: too many messages")
    );
}

#[test]
fn an_order_the_rules_refuse_is_refused_with_its_rule() {
    use crate::rules::tank_commander::{Action, UnitId};
    let mut net = Net::<TankCommander>::new(
        setup_of::<TankCommander>(),
        9,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    net.join_bot(1, "Ann");
    net.join_bot(2, "Bob");
    let first = net.room.seated.state().to_act()[0];
    let id = 1 + u64::from(first.0);
    let units = u8::try_from(net.room.seated.state().units.len()).expect("few units");
    let (action, rule) = (0..units)
        .map(|u| Action::Activate(UnitId(u)))
        .find_map(|a| {
            let rule = net.room.seated.refusal(first, &a)?.rule()?;
            Some((a, rule))
        })
        .expect("activating an enemy unit is refused by a rule");
    net.clients
        .get_mut(&id)
        .expect("joined")
        .mirror
        .order(&action);
    net.pump();
    let heard = net.clients[&id].heard.last().cloned();
    assert!(
        matches!(&heard, Some(Heard::Refusal { rule: Some(r), .. }) if r == rule),
        "{heard:?}"
    );
    assert!(net.room.log.iter().any(|l| l.contains(&format!("§{rule}"))));
    assert_eq!(net.room.seated.game.history().len(), 0);
}

#[test]
fn a_dropped_tank_combat_player_rejoins_their_seat_and_the_game_ends() {
    let mut net = Net::<TankCombat>::new(
        setup_of::<TankCombat>(),
        21,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    net.join_bot(1, "Ann");
    net.join_bot(2, "Bob");
    for _ in 0..15 {
        net.round();
    }
    assert!(!net.room.over());
    let token = net.clients[&2].mirror.token.clone().expect("a seat token");
    net.drop_client(2);
    let waiting = |net: &Net<TankCombat>| {
        net.clients[&1]
            .heard
            .iter()
            .any(|h| matches!(h, Heard::Notice(n) if n == "Waiting for Bob to reconnect"))
    };
    assert!(waiting(&net));
    // The game waits: nobody plays for Bob.
    let before = net.room.seated.game.history().len();
    for _ in 0..5 {
        net.round();
    }
    let moved = net.room.seated.game.history().len() - before;
    assert!(moved < 40, "the game waits for Bob when it is his turn");
    // Bob's program starts again and rejoins with his token: the same seat, brought up
    // to date with his own log.
    net.join_with(
        3,
        Mirror::joining("TANK42", "Bob", Some(token), None, false),
    );
    let bob = &net.clients[&3];
    assert_eq!(bob.mirror.seat, Some(PlayerId(1)));
    net.assert_mirrors_agree();
    net.play_out(5_000);
    assert!(net.room.over());
    net.assert_mirrors_agree();
}

impl<G: Playable> Net<G> {
    fn join_with(&mut self, id: ConnId, mirror: Mirror<G>) {
        self.connect(id, mirror);
        let c = self.clients.get_mut(&id).expect("joined");
        c.bot = G::bot(G::bot_names()[0]);
    }
}

#[test]
fn a_restarted_host_reopens_tank_commander_and_the_players_rejoin() {
    let mut net = Net::<TankCommander>::new(
        setup_of::<TankCommander>(),
        4,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    net.join_bot(1, "Ann");
    net.join_bot(2, "Bob");
    for _ in 0..10 {
        net.round();
    }
    let played = net.room.seated.game.history().len();
    assert!(played > 5 && !net.room.over());
    // What the host writes as it plays: the record and the seats.
    let record = TankCommander::write_record(&net.room.seated.record()).expect("writes");
    let seats = ron::to_string(&net.room.saved_seats()).expect("writes");
    let tokens: Vec<String> = [1, 2]
        .iter()
        .map(|id| net.clients[id].mirror.token.clone().expect("token"))
        .collect();
    // The host dies; a new one reads its autosave.
    let rules = TankCommander::load_rules(None).expect("rules");
    let read = TankCommander::read_record(Path::new("autosave.ron"), &record, &rules)
        .expect("the autosave reads");
    let seated = SeatedMatch::from_record(read, "autosave".into(), false, None).expect("replays");
    let saved: Vec<super::SavedSeat> = ron::from_str(&seats).expect("reads");
    let mut again = Net::<TankCommander> {
        room: Room::reopened(seated, "TANK42", &saved),
        clients: BTreeMap::new(),
        now: 0.0,
    };
    assert_eq!(again.room.seated.game.history().len(), played);
    for (i, token) in tokens.into_iter().enumerate() {
        let id = 10 + i as u64;
        again.join_with(id, Mirror::joining("TANK42", "x", Some(token), None, false));
        assert_eq!(again.clients[&id].mirror.seat, Some(PlayerId(i as u8)));
    }
    again.assert_mirrors_agree();
    again.play_out(5_000);
    assert!(again.room.over());
    again.assert_mirrors_agree();
}

#[test]
fn undo_across_machines_needs_the_other_players_consent() {
    let mut net = Net::<TankChess>::new(
        setup_of::<TankChess>(),
        1,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    let mut a = Mirror::joining("TANK42", "Ann", None, Some(0), false);
    a.ready(true);
    net.connect(1, a);
    let mut b = Mirror::joining("TANK42", "Bob", None, Some(1), false);
    b.ready(true);
    net.connect(2, b);
    let first = net.room.seated.game.state().to_act()[0];
    let mover = if first == PlayerId(0) { 1 } else { 2 };
    let other = 3 - mover;
    let action = net.room.seated.state().legal_actions(first)[0];
    net.clients
        .get_mut(&mover)
        .expect("joined")
        .mirror
        .order(&action);
    net.pump();
    assert_eq!(net.room.seated.game.history().len(), 1);
    net.clients
        .get_mut(&mover)
        .expect("joined")
        .mirror
        .ask_undo();
    net.pump();
    assert!(matches!(
        net.clients[&other].heard.last(),
        Some(Heard::UndoAsked(_))
    ));
    assert!(
        !net.clients[&mover]
            .heard
            .iter()
            .any(|h| matches!(h, Heard::UndoAsked(_))),
        "the asker is not asked"
    );
    assert_eq!(
        net.room.seated.game.history().len(),
        1,
        "not before consent"
    );
    net.clients
        .get_mut(&other)
        .expect("joined")
        .mirror
        .answer_undo(true);
    net.pump();
    assert_eq!(net.room.seated.game.history().len(), 0, "taken back");
    net.assert_mirrors_agree();
    let kept = &net.clients[&mover].mirror.frames;
    assert_eq!(kept.len(), 1, "a seat's copy drops what was taken back");
}

#[test]
fn fuzzed_messages_never_panic_the_host() {
    let mut rng = MatchRng::new(52);
    let seeds: Vec<String> = [
        ToHost::Join(wire::Join {
            protocol: wire::PROTOCOL,
            game: "range-duel".into(),
            code: "TANK42".into(),
            name: "Ann".into(),
            token: Some("00ff".into()),
            seat: Some(1),
            watch: false,
        }),
        ToHost::Ready(true),
        ToHost::Order {
            seen: 0,
            action: "\"HullDown\"".into(),
        },
        ToHost::Chat("hello".into()),
        ToHost::Resync,
        ToHost::AskUndo,
        ToHost::AnswerUndo(true),
        ToHost::Rematch,
    ]
    .iter()
    .map(|m| String::from_utf8(wire::encode(m)).expect("json is text"))
    .collect();
    let mut net = Net::<RangeDuel>::new(
        setup_of::<RangeDuel>(),
        2,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    net.join_bot(1, "Ann");
    net.join_bot(2, "Bob");
    let mut id = 100;
    for n in 0..3_000 {
        let seed = &seeds[n % seeds.len()];
        let text = crate::fuzz::mutate(seed, &mut rng);
        id += 1;
        net.room.connected(id, net.now);
        // A join first (so that orders reach the game), then the mutated message.
        net.room.receive(id, seeds[0].as_bytes(), net.now);
        net.room.receive(id, text.as_bytes(), net.now);
        let _ = wire::decode_to_host(text.as_bytes());
        net.room.disconnected(id);
        net.room.drain();
    }
    // The real players play on to the end.
    net.play_out(5_000);
    assert!(net.room.over());
    net.assert_mirrors_agree();
}

#[test]
fn a_seat_handed_to_a_bot_plays_on_and_its_person_takes_it_back() {
    let mut net = Net::<TankCombat>::new(
        setup_of::<TankCombat>(),
        8,
        vec![SeatPlan::Remote, SeatPlan::Remote],
    );
    net.join_bot(1, "Ann");
    net.join_bot(2, "Bob");
    let token = net.clients[&2].mirror.token.clone().expect("token");
    net.drop_client(2);
    net.room
        .give_to_bot(PlayerId(1), TankCombat::bot_names()[0])
        .expect("the bot exists");
    assert_eq!(
        net.room.seated.seats[1],
        Seat::Bot(TankCombat::bot_names()[0].into())
    );
    for _ in 0..5 {
        net.round();
    }
    net.join_with(
        3,
        Mirror::joining("TANK42", "Bob", Some(token), None, false),
    );
    assert_eq!(net.room.seated.seats[1], Seat::Person);
    net.play_out(5_000);
    assert!(net.room.over());
    net.assert_mirrors_agree();
}
