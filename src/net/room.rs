//! The host's side of a game played across machines: the one place that holds the match
//! and its dice.
//!
//! A [`Room`] takes what its connections send ([`Room::receive`]) and answers with what
//! each may see ([`Room::drain`]). It checks every order against the seat that sent it
//! and plays it through the rules; each connection gets its seat's mirror
//! ([`Playable::redacted`]) and the facts as [`Playable::describe_fact_for`] tells them
//! to that seat, and nothing else: the seed and the dice to come stay in the match's
//! generator, which never leaves the room.
//!
//! The room has no clock and no sockets: the transport passes the time in, and sends
//! and disconnects as [`Outgoing`] tells it, so that tests drive it directly.

use std::collections::BTreeMap;

use super::mirror::{lines, mirror_text};
pub use super::plan::{ConnId, FloodLimit, Outgoing, SavedSeat, SeatPlan};
use super::wire::{
    self, Holder, Join, Patch, RefusalNote, SeatInfo, Snapshot, StepUpdate, ToClient, ToHost,
    Welcome,
};
use crate::framework::seated::{opening_log, step_log};
use crate::framework::{Playable, PlayerId, Seat, SeatedMatch};

mod consent;

/// One seat of the room.
#[derive(Clone, Debug)]
struct Slot {
    plan: SeatPlan,
    /// The token that takes the seat back, once someone has joined it.
    token: Option<String>,
    /// The person's name, once someone has joined it.
    player: Option<String>,
    conn: Option<ConnId>,
    ready: bool,
}

/// One connection.
#[derive(Clone, Debug, Default)]
struct Conn {
    joined: bool,
    seat: Option<PlayerId>,
    /// The mirror last sent, which the next patch is made from.
    mirror: String,
    /// Actions whose lines were sent.
    told: usize,
    /// Messages it may still send now.
    allowance: f64,
    last: f64,
}

/// The host's match and its connections. See the [module docs](self).
pub struct Room<G: Playable> {
    pub seated: SeatedMatch<G>,
    code: String,
    slots: Vec<Slot>,
    conns: BTreeMap<ConnId, Conn>,
    out: Vec<Outgoing>,
    /// What the host did and refused, one line each: a refused order, a disconnect.
    pub log: Vec<String>,
    started: bool,
    /// Start as soon as every remote seat is taken and ready (`tanktable serve`).
    pub auto_start: bool,
    /// Where new tokens come from (the room's own stream, never the match's).
    tokens: u64,
    /// Who asked to take back their last action, and who agreed so far.
    undo: Option<(PlayerId, Vec<PlayerId>)>,
    /// When a connection counts as flooding.
    pub flood: FloodLimit,
}

impl<G: Playable> Room<G> {
    /// A room around a match, with the host's plan for each seat and the code people
    /// join with. Bots' seats become the match's bots.
    #[must_use]
    pub fn new(mut seated: SeatedMatch<G>, code: &str, plans: Vec<SeatPlan>) -> Self {
        let n = seated.state().player_count();
        let mut plans = plans;
        plans.resize(n, SeatPlan::Remote);
        plans.truncate(n);
        seated.seats = plans
            .iter()
            .map(|p| match p {
                SeatPlan::Bot(name) => Seat::Bot(name.clone()),
                _ => Seat::Person,
            })
            .collect();
        let slots = plans
            .into_iter()
            .map(|plan| Slot {
                ready: !matches!(plan, SeatPlan::Remote),
                plan,
                token: None,
                player: None,
                conn: None,
            })
            .collect();
        let tokens = seated.seed.rotate_left(17) ^ crate::framework::stable_hash(code);
        Self {
            seated,
            code: code.to_string(),
            slots,
            conns: BTreeMap::new(),
            out: Vec::new(),
            log: Vec::new(),
            started: false,
            auto_start: true,
            tokens,
            undo: None,
            flood: FloodLimit::default(),
        }
    }

    /// A restarted room: the match from its autosave and the seats as they were, so that
    /// everyone can take their seat back with their token. It is already started.
    #[must_use]
    pub fn reopened(seated: SeatedMatch<G>, code: &str, saved: &[SavedSeat]) -> Self {
        let plans = saved.iter().map(|s| SeatPlan::parse(&s.plan)).collect();
        let mut room = Self::new(seated, code, plans);
        for (slot, s) in room.slots.iter_mut().zip(saved) {
            slot.token.clone_from(&s.token);
            slot.player.clone_from(&s.player);
            slot.ready = true;
        }
        room.started = true;
        room.tokens ^= 0x9E37_79B9_7F4A_7C15;
        room
    }

    /// The seats as a restarted host needs them.
    #[must_use]
    pub fn saved_seats(&self) -> Vec<SavedSeat> {
        self.slots
            .iter()
            .map(|s| SavedSeat {
                plan: match &s.plan {
                    SeatPlan::Host => "host".into(),
                    SeatPlan::Remote => "remote".into(),
                    SeatPlan::Bot(name) => name.clone(),
                },
                token: s.token.clone(),
                player: s.player.clone(),
            })
            .collect()
    }

    /// The room code people join with.
    #[must_use]
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Whether play has started.
    #[must_use]
    pub fn started(&self) -> bool {
        self.started
    }

    /// Whether the match is over.
    #[must_use]
    pub fn over(&self) -> bool {
        self.seated.state().outcome().is_some()
    }

    /// The seats as the lobby shows them.
    #[must_use]
    pub fn lobby(&self) -> Vec<SeatInfo> {
        let state = self.seated.state();
        self.slots
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let seat = u8::try_from(i).unwrap_or(u8::MAX);
                SeatInfo {
                    seat,
                    name: state.player_name(PlayerId(seat)),
                    holder: match (&s.plan, &s.player) {
                        (SeatPlan::Host, _) => Holder::Host,
                        (SeatPlan::Bot(name), _) => Holder::Bot(name.clone()),
                        (SeatPlan::Remote, Some(player)) => Holder::Remote {
                            player: player.clone(),
                            connected: s.conn.is_some(),
                        },
                        (SeatPlan::Remote, None) => Holder::Open,
                    },
                    ready: s.ready,
                }
            })
            .collect()
    }

    /// What the transport must send and whom it must disconnect, in order.
    pub fn drain(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.out)
    }

    /// A new connection: it must [`ToHost::Join`] first.
    pub fn connected(&mut self, conn: ConnId, now: f64) {
        self.conns.insert(
            conn,
            Conn {
                allowance: self.flood.burst,
                last: now,
                ..Conn::default()
            },
        );
        self.send(
            conn,
            &ToClient::Hello {
                protocol: wire::PROTOCOL,
                game: G::NAME.to_string(),
            },
        );
    }

    /// A connection closed (or dropped): its seat waits for its person to come back.
    pub fn disconnected(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else {
            return;
        };
        let Some(seat) = c.seat else {
            return;
        };
        let Some(slot) = self.slots.get_mut(seat.index()) else {
            return;
        };
        if slot.conn != Some(conn) {
            return;
        }
        slot.conn = None;
        let name = slot.player.clone().unwrap_or_default();
        self.log.push(format!("{name} left seat {}", seat.0 + 1));
        if self.started && !self.over() {
            self.notice(&format!("Waiting for {name} to reconnect"));
        }
        self.send_lobby();
    }

    /// Hands `seat` to a bot (any time: a seat whose person is away, or one nobody
    /// took). The person may take it back by rejoining with their token.
    ///
    /// # Errors
    /// An unknown bot's name.
    pub fn give_to_bot(&mut self, seat: PlayerId, bot: &str) -> Result<(), String> {
        if G::bot(bot).is_none() {
            return Err(format!("{} has no bot named {bot}", G::NAME));
        }
        let Some(slot) = self.slots.get_mut(seat.index()) else {
            return Err(format!("there is no seat {}", seat.0 + 1));
        };
        slot.plan = SeatPlan::Bot(bot.to_string());
        slot.ready = true;
        if let Some(s) = self.seated.seats.get_mut(seat.index()) {
            *s = Seat::Bot(bot.to_string());
        }
        let name = self.seated.state().player_name(seat);
        self.notice(&format!("A {bot} bot plays {name} now"));
        self.send_lobby();
        self.try_start();
        Ok(())
    }

    /// Takes what `conn` sent. A message that is too large, malformed or one too many
    /// disconnects the sender with the reason in [`Room::log`]; nothing it sends makes
    /// the room panic or wait.
    pub fn receive(&mut self, conn: ConnId, bytes: &[u8], now: f64) {
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        c.allowance =
            (c.allowance + (now - c.last).max(0.0) * self.flood.per_second).min(self.flood.burst);
        c.last = now;
        if c.allowance < 1.0 {
            self.kick(conn, "flooding: too many messages".into());
            return;
        }
        c.allowance -= 1.0;
        let message = match wire::decode_to_host(bytes) {
            Ok(m) => m,
            Err(e) => {
                self.kick(conn, e.to_string());
                return;
            }
        };
        let joined = c.joined;
        match message {
            ToHost::Join(join) => self.join(conn, join),
            _ if !joined => self.kick(conn, "sent an order before joining".into()),
            ToHost::Ready(ready) => self.ready(conn, ready),
            ToHost::Order { seen, action } => self.order(conn, seen, &action),
            ToHost::Chat(text) => self.chat(conn, text),
            ToHost::Resync => self.send_state(conn),
            ToHost::AskUndo => self.ask_undo(conn),
            ToHost::AnswerUndo(yes) => self.answer_undo(conn, yes),
            ToHost::Rematch => self.rematch(conn),
        }
    }

    /// Lets the bots whose seat must act play one action each; true if one did.
    pub fn play_bots(&mut self) -> bool {
        if !self.started {
            return false;
        }
        match self.seated.bot_choice() {
            Some(Ok((player, action))) => match self.seated.play(player, &action) {
                Ok(_) => {
                    self.after_action();
                    true
                }
                Err(e) => {
                    self.log
                        .push(format!("the bot of seat {} erred: {e}", player.0 + 1));
                    false
                }
            },
            Some(Err(e)) => {
                self.log.push(e.to_string());
                false
            }
            None => false,
        }
    }

    /// Plays an order of the host's own person (a seat planned as [`SeatPlan::Host`]).
    ///
    /// # Errors
    /// Why the rules refuse it.
    pub fn play_local(&mut self, player: PlayerId, action: &G::Action) -> Result<(), String> {
        if !matches!(
            self.slots.get(player.index()).map(|s| &s.plan),
            Some(SeatPlan::Host)
        ) {
            return Err(format!("seat {} is not played here", player.0 + 1));
        }
        self.seated
            .play(player, action)
            .map_err(|e| e.to_string())?;
        self.after_action();
        Ok(())
    }

    /// Starts the game (the host's button; `serve` starts by itself).
    ///
    /// # Errors
    /// Which remote seat is still open or not ready.
    pub fn start(&mut self) -> Result<(), String> {
        if let Some((i, _)) = self
            .slots
            .iter()
            .enumerate()
            .find(|(_, s)| s.plan == SeatPlan::Remote && (s.conn.is_none() || !s.ready))
        {
            let name = self
                .seated
                .state()
                .player_name(PlayerId(u8::try_from(i).unwrap_or(u8::MAX)));
            return Err(format!("{name}'s seat is not taken and ready yet"));
        }
        if !self.started {
            self.started = true;
            self.log.push("the game started".into());
            self.notice("The game starts");
            self.send_state_to_all();
        }
        Ok(())
    }

    fn try_start(&mut self) {
        if self.auto_start && !self.started {
            let _ = self.start();
        }
    }

    fn join(&mut self, conn: ConnId, join: Join) {
        if join.protocol != wire::PROTOCOL {
            return self.refuse(
                conn,
                format!(
                    "this host speaks version {} of Tanktable's network protocol and your program version {}: use the same version of Tanktable",
                    wire::PROTOCOL,
                    join.protocol
                ),
            );
        }
        if join.game != G::NAME {
            return self.refuse(
                conn,
                format!("this host plays {}, not {}", G::NAME, join.game),
            );
        }
        if !join.code.trim().eq_ignore_ascii_case(&self.code) {
            return self.refuse(conn, "wrong room code".into());
        }
        if self.conns.get(&conn).is_some_and(|c| c.joined) {
            return self.kick(conn, "joined twice".into());
        }
        let name: String = join
            .name
            .trim()
            .chars()
            .filter(|c| !c.is_control())
            .collect();
        let name = if name.is_empty() {
            "Guest".to_string()
        } else {
            name
        };
        let seat = if join.watch {
            None
        } else {
            match self.pick_seat(&join) {
                Ok(seat) => seat,
                Err(why) => return self.refuse(conn, why),
            }
        };
        let token = match seat {
            Some(seat) => self.take_seat(conn, seat, name.clone()),
            None => String::new(),
        };
        if let Some(c) = self.conns.get_mut(&conn) {
            c.joined = true;
            c.seat = seat;
        }
        let who = seat.map_or_else(
            || "watches".to_string(),
            |s| format!("takes {}", self.seated.state().player_name(s)),
        );
        self.log.push(format!("{name} {who}"));
        self.send(
            conn,
            &ToClient::Welcome(Welcome {
                game: G::NAME.to_string(),
                setup: self.seated.source.clone(),
                seat: seat.map(|s| s.0),
                token,
                code: self.code.clone(),
            }),
        );
        self.send_lobby();
        if self.started {
            self.notice(&format!("{name} {who}"));
            self.send_state(conn);
        } else {
            self.try_start();
        }
    }

    /// The seat a join takes: its token's, the one it asks for, or the first open one.
    fn pick_seat(&self, join: &Join) -> Result<Option<PlayerId>, String> {
        if let Some(token) = &join.token
            && let Some(i) = self
                .slots
                .iter()
                .position(|s| s.token.as_deref() == Some(token.as_str()))
        {
            return Ok(Some(PlayerId(u8::try_from(i).unwrap_or(u8::MAX))));
        }
        let open = |s: &Slot| s.plan == SeatPlan::Remote && s.player.is_none();
        if let Some(wish) = join.seat {
            return match self.slots.get(usize::from(wish)) {
                Some(s) if open(s) => Ok(Some(PlayerId(wish))),
                Some(_) => Err(format!("seat {} is taken", wish + 1)),
                None => Err(format!("there is no seat {}", wish + 1)),
            };
        }
        self.slots
            .iter()
            .position(open)
            .map(|i| Some(PlayerId(u8::try_from(i).unwrap_or(u8::MAX))))
            .ok_or_else(|| "every seat is taken: join to watch instead".to_string())
    }

    /// Seats `conn` at `seat`, returning the seat's token (a new one for a new person).
    fn take_seat(&mut self, conn: ConnId, seat: PlayerId, name: String) -> String {
        self.tokens = self
            .tokens
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let fresh = format!("{:016x}{:016x}", self.tokens, self.tokens.rotate_left(29));
        let Some(slot) = self.slots.get_mut(seat.index()) else {
            return String::new();
        };
        if let Some(old) = slot.conn.replace(conn)
            && old != conn
        {
            self.conns.remove(&old);
            self.out
                .push(Outgoing::Kick(old, "the seat was taken back".into()));
        }
        if slot.player.is_none() {
            slot.player = Some(name);
        }
        if matches!(slot.plan, SeatPlan::Bot(_)) && slot.token.is_some() {
            // Its person is back: the seat is theirs again.
            slot.plan = SeatPlan::Remote;
            if let Some(s) = self.seated.seats.get_mut(seat.index()) {
                *s = Seat::Person;
            }
        }
        slot.token.get_or_insert(fresh).clone()
    }

    fn ready(&mut self, conn: ConnId, ready: bool) {
        if let Some(seat) = self.seat_of(conn)
            && let Some(slot) = self.slots.get_mut(seat.index())
        {
            slot.ready = ready;
            self.send_lobby();
            self.try_start();
        }
    }

    fn seat_of(&self, conn: ConnId) -> Option<PlayerId> {
        self.conns.get(&conn).and_then(|c| c.seat)
    }

    fn order(&mut self, conn: ConnId, seen: u32, text: &str) {
        let action: G::Action = match serde_json::from_str(text) {
            Ok(a) => a,
            Err(e) => return self.kick(conn, format!("malformed order: {e}")),
        };
        let Some(player) = self.seat_of(conn) else {
            return self.refuse_order(conn, text, "you watch this game: you hold no seat", None);
        };
        if !self.started {
            return self.refuse_order(conn, text, "the game has not started yet", None);
        }
        // An order made on a table the host has not reached is nonsense; one made on an
        // older table is judged by the rules as the table stands now (in simultaneous
        // choices the other side's order moves the table without changing yours).
        if usize::try_from(seen).map_or(true, |s| s > self.seated.game.history().len()) {
            return self.refuse_order(
                conn,
                text,
                "an order for a table that does not exist yet",
                None,
            );
        }
        match self.seated.play(player, &action) {
            Ok(_) => {
                self.undo = None;
                self.after_action();
            }
            Err(e) => {
                let rule = e.rule().map(str::to_string);
                self.refuse_order(conn, text, &e.to_string(), rule);
            }
        }
    }

    fn refuse_order(&mut self, conn: ConnId, action: &str, reason: &str, rule: Option<String>) {
        let seat = self.seat_of(conn).map_or_else(
            || "a spectator".to_string(),
            |s| format!("seat {}", s.0 + 1),
        );
        self.log.push(format!(
            "refused {action} from {seat}: {reason}{}",
            rule.as_deref()
                .map(|r| format!(" (§{r})"))
                .unwrap_or_default()
        ));
        self.send(
            conn,
            &ToClient::Refusal(RefusalNote {
                action: action.to_string(),
                reason: reason.to_string(),
                rule,
            }),
        );
    }

    fn chat(&mut self, conn: ConnId, text: String) {
        let from = self
            .seat_of(conn)
            .and_then(|s| self.slots.get(s.index()))
            .and_then(|s| s.player.clone())
            .unwrap_or_else(|| "a spectator".to_string());
        let text: String = text.chars().filter(|c| !c.is_control()).collect();
        if text.trim().is_empty() {
            return;
        }
        self.broadcast(&ToClient::Chat { from, text });
    }

    /// Tells every joined connection what the last action changed.
    fn after_action(&mut self) {
        let mut cache: BTreeMap<Option<PlayerId>, (String, u64)> = BTreeMap::new();
        let mut patches: BTreeMap<Option<PlayerId>, (String, Patch)> = BTreeMap::new();
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        let n = self.seated.game.history().len();
        let Some(by) = self.seated.game.history().last().map(|s| s.player) else {
            return;
        };
        for id in ids {
            let Some(c) = self.conns.get(&id) else {
                continue;
            };
            if !c.joined || !self.started {
                continue;
            }
            let viewer = c.seat;
            let (mirror, hash) = cache
                .entry(viewer)
                .or_insert_with(|| {
                    let text = mirror_text(self.seated.state(), viewer);
                    let hash = wire::mirror_hash(&text);
                    (text, hash)
                })
                .clone();
            // Every spectator (and a seat's rejoined copies) had the same mirror: one
            // diff serves them all.
            let patch = match patches.get(&viewer) {
                Some((old, patch)) if *old == c.mirror => patch.clone(),
                _ => {
                    let patch = Patch::between(&c.mirror, &mirror);
                    patches.insert(viewer, (c.mirror.clone(), patch.clone()));
                    patch
                }
            };
            let mut log = Vec::new();
            for i in c.told..n {
                log.extend(lines(
                    &self.seated.game,
                    &step_log(&self.seated.game, i, reader(viewer)),
                ));
            }
            let update = ToClient::Step(StepUpdate {
                actions: u32::try_from(n).unwrap_or(u32::MAX),
                by: by.0,
                patch,
                hash,
                log,
            });
            if let Some(c) = self.conns.get_mut(&id) {
                c.mirror = mirror;
                c.told = n;
            }
            self.send(id, &update);
        }
        if let Some(outcome) = self.seated.state().outcome() {
            self.log.push(format!("the game ended: {}", outcome.reason));
        }
    }

    /// Sends `conn` its whole mirror and log.
    /// Every joined connection gets its whole mirror again (the game started, an action
    /// was taken back, a rematch began).
    fn send_state_to_all(&mut self) {
        let conns: Vec<ConnId> = self.conns.keys().copied().collect();
        for conn in conns {
            self.send_state(conn);
        }
    }

    fn send_state(&mut self, conn: ConnId) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if !c.joined {
            return;
        }
        let viewer = c.seat;
        let game = &self.seated.game;
        let mirror = mirror_text(game.state(), viewer);
        let mut log = lines(game, &opening_log(game, reader(viewer)));
        for i in 0..game.history().len() {
            log.extend(lines(game, &step_log(game, i, reader(viewer))));
        }
        let n = game.history().len();
        let message = ToClient::State(Snapshot {
            actions: u32::try_from(n).unwrap_or(u32::MAX),
            mirror: mirror.clone(),
            log,
            started: self.started,
            own_actions: u32::try_from(
                game.history()
                    .iter()
                    .filter(|s| Some(s.player) == viewer)
                    .count(),
            )
            .unwrap_or(u32::MAX),
        });
        if let Some(c) = self.conns.get_mut(&conn) {
            c.mirror = mirror;
            c.told = n;
        }
        self.send(conn, &message);
    }

    fn send_lobby(&mut self) {
        let lobby = ToClient::Lobby(self.lobby());
        self.broadcast(&lobby);
    }

    fn notice(&mut self, text: &str) {
        self.broadcast(&ToClient::Notice(text.to_string()));
    }

    fn broadcast(&mut self, message: &ToClient) {
        let bytes = wire::encode(message);
        for (id, c) in &self.conns {
            if c.joined {
                self.out.push(Outgoing::Send(*id, bytes.clone()));
            }
        }
    }

    fn send(&mut self, conn: ConnId, message: &ToClient) {
        self.out.push(Outgoing::Send(conn, wire::encode(message)));
    }

    fn refuse(&mut self, conn: ConnId, why: String) {
        self.log.push(format!("refused a join: {why}"));
        self.send(conn, &ToClient::Refused(why.clone()));
        self.conns.remove(&conn);
        self.out.push(Outgoing::Kick(conn, why));
    }

    fn kick(&mut self, conn: ConnId, why: String) {
        let seat = self
            .seat_of(conn)
            .map_or_else(String::new, |s| format!(" (seat {})", s.0 + 1));
        self.log
            .push(format!("disconnected client {conn}{seat}: {why}"));
        self.disconnected(conn);
        self.conns.remove(&conn);
        self.out.push(Outgoing::Kick(conn, why));
    }
}

/// Who a connection's log is told to: its seat, or for a spectator nobody's (what every
/// seat may read). A log told to `None` would be the whole truth: every hand, every order.
fn reader(seat: Option<PlayerId>) -> Option<PlayerId> {
    seat.or(Some(PlayerId::NOBODY))
}
