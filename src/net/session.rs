//! A [`Room`] or a [`Mirror`] driven by the transport: the host loop of `tanktable serve`
//! and a joined seat's loop, for the command line and the tests.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::room::{Outgoing, Room, SavedSeat};
use super::transport::{ClientEvent, ClientTransport, HostEvent, HostTransport, TransportError};
use super::wire::{self, MAX_TO_HOST, SeatInfo};
use super::{Heard, Mirror};
use crate::framework::bot::Bot;
use crate::framework::{MatchRng, Playable, PlayerId};

/// The seats and code a restarted host reads back beside its match record.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedRoom {
    pub code: String,
    pub seats: Vec<SavedSeat>,
}

/// The host: a room on a port.
pub struct Host<G: Playable> {
    pub room: Room<G>,
    pub transport: HostTransport,
    /// Where the match record and the room are written after every action.
    pub autosave: Option<PathBuf>,
    clock: std::time::Instant,
    saved_at: usize,
}

impl<G: Playable> Host<G> {
    /// Opens `room` on `port` (0: any free port).
    ///
    /// # Errors
    /// The port cannot be listened on.
    pub fn bind(room: Room<G>, port: u16, max_clients: usize) -> Result<Self, TransportError> {
        let transport =
            HostTransport::bind(port, max_clients, u64::from(wire::PROTOCOL), MAX_TO_HOST)?;
        Ok(Self {
            room,
            transport,
            autosave: None,
            clock: std::time::Instant::now(),
            saved_at: usize::MAX,
        })
    }

    /// The address the host listens on.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.transport.local_addr()
    }

    /// One turn of the loop: what arrived goes to the room, the host's bots play, and
    /// what the room says goes out. True when anything happened.
    pub fn tick(&mut self) -> bool {
        let now = self.clock.elapsed().as_secs_f64();
        let events = self.transport.update();
        let mut busy = !events.is_empty();
        for event in events {
            match event {
                HostEvent::Connected(id) => self.room.connected(id, now),
                HostEvent::Disconnected(id, why) => {
                    self.room
                        .log
                        .push(format!("client {id} disconnected: {why}"));
                    self.room.disconnected(id);
                }
                HostEvent::Received(id, bytes) => self.room.receive(id, &bytes, now),
            }
        }
        busy |= self.room.play_bots();
        busy |= self.flush();
        self.save();
        busy
    }

    /// Sends what the room queued; true if there was anything.
    pub fn flush(&mut self) -> bool {
        let out = self.room.drain();
        let any = !out.is_empty();
        for o in out {
            match o {
                Outgoing::Send(id, bytes) => self.transport.send(id, bytes),
                Outgoing::Kick(id, why) => self.transport.kick(id, &why),
            }
        }
        any
    }

    /// Writes the autosave when an action was played since the last.
    fn save(&mut self) {
        let Some(path) = &self.autosave else {
            return;
        };
        let n = self.room.seated.game.history().len();
        if n == self.saved_at {
            return;
        }
        self.saved_at = n;
        if let Err(e) = save_room(&self.room, path) {
            self.room.log.push(format!("the autosave failed: {e}"));
        }
    }
}

/// Writes the room's match record to `path` and its seats beside it (`.room.ron`), each
/// atomically.
///
/// # Errors
/// What the disk said.
pub fn save_room<G: Playable>(room: &Room<G>, path: &Path) -> Result<(), String> {
    let record = G::write_record(&room.seated.record()).map_err(|e| e.to_string())?;
    crate::data::write_atomic(path, &record).map_err(|e| e.to_string())?;
    let saved = SavedRoom {
        code: room.code().to_string(),
        seats: room.saved_seats(),
    };
    let text = ron::ser::to_string_pretty(&saved, ron::ser::PrettyConfig::default())
        .map_err(|e| e.to_string())?;
    crate::data::write_atomic(&room_path(path), &text).map_err(|e| e.to_string())
}

/// Where the seats of the autosave at `record` are written.
#[must_use]
pub fn room_path(record: &Path) -> PathBuf {
    record.with_extension("room.ron")
}

/// Reopens a room from its autosave (after a crash or a restart).
///
/// # Errors
/// A record or room file that does not read or replay.
pub fn reopen_room<G: Playable>(path: &Path) -> Result<Room<G>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let rules = G::load_rules(None).map_err(|e| e.to_string())?;
    let record = G::read_record(path, &text, &rules).map_err(|e| e.to_string())?;
    let seated =
        crate::framework::SeatedMatch::from_record(record, path.display().to_string(), false, None)
            .map_err(|e| e.to_string())?;
    let room_file = room_path(path);
    let text =
        std::fs::read_to_string(&room_file).map_err(|e| format!("{}: {e}", room_file.display()))?;
    let saved: SavedRoom =
        ron::from_str(&text).map_err(|e| format!("{}: {e}", room_file.display()))?;
    Ok(Room::reopened(seated, &saved.code, &saved.seats))
}

/// A seat on another machine: a mirror on a connection, played by a bot or by the
/// caller.
pub struct Remote<G: Playable> {
    pub mirror: Mirror<G>,
    pub transport: ClientTransport,
    /// The bot that plays this seat from the mirror, if any (behind a lock only so that
    /// a seat can live in a shared resource; it is never contended).
    bot: Option<Mutex<Box<dyn Bot<G>>>>,
    rng: MatchRng,
    /// Why the connection ended, once it has.
    pub ended: Option<String>,
    /// Every byte the host sent, counted.
    pub received: u64,
    /// The bot's order not yet answered: this seat's action count when it was sent.
    in_flight: Option<u32>,
}

impl<G: Playable> Remote<G> {
    /// Connects to `addr` and sends the mirror's join.
    ///
    /// # Errors
    /// The socket cannot be opened.
    pub fn connect(
        addr: SocketAddr,
        mirror: Mirror<G>,
        bot: Option<Box<dyn Bot<G>>>,
        seed: u64,
    ) -> Result<Self, TransportError> {
        let transport = ClientTransport::connect(addr, u64::from(wire::PROTOCOL))?;
        Ok(Self::over(transport, mirror, bot, seed))
    }

    /// A seat on a connection already open (whose first messages were read to learn the
    /// game: pass them in `early`).
    #[must_use]
    pub fn over(
        transport: ClientTransport,
        mirror: Mirror<G>,
        bot: Option<Box<dyn Bot<G>>>,
        seed: u64,
    ) -> Self {
        Self {
            mirror,
            transport,
            bot: bot.map(Mutex::new),
            rng: MatchRng::new(seed),
            ended: None,
            received: 0,
            in_flight: None,
        }
    }

    /// One turn of the loop: what arrived is read, the bot orders when the seat must
    /// act, and the mirror's messages go out. Returns what was heard.
    pub fn tick(&mut self) -> Vec<Heard> {
        let mut heard = Vec::new();
        for event in self.transport.update() {
            match event {
                ClientEvent::Connected => {}
                ClientEvent::Disconnected(why) => self.ended = Some(why),
                ClientEvent::Received(bytes) => {
                    self.received += bytes.len() as u64;
                    match self.mirror.receive(&bytes) {
                        Ok(Heard::Refused(why)) => {
                            self.ended = Some(why.clone());
                            heard.push(Heard::Refused(why));
                        }
                        Ok(h) => heard.push(h),
                        Err(e) => self.ended = Some(format!("the host sent {e}")),
                    }
                }
            }
        }
        // An order in flight is answered by a step of this seat or a refusal; until
        // then another seat's step must not make the bot order twice.
        if heard.iter().any(|h| matches!(h, Heard::Refusal { .. }))
            || self.in_flight != Some(self.mirror.own_actions)
        {
            self.in_flight = None;
        }
        if self.mirror.to_act()
            && self.in_flight.is_none()
            && heard
                .iter()
                .any(|h| matches!(h, Heard::State | Heard::Refusal { .. }))
            && let (Some(bot), Some(state), Some(seat)) =
                (self.bot.as_mut(), self.mirror.state(), self.mirror.seat)
            && let Some(action) = bot
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner)
                .choose(state, seat, &mut self.rng)
        {
            self.mirror.order(&action);
            self.in_flight = Some(self.mirror.own_actions);
        }
        self.flush();
        heard
    }

    /// Sends what the mirror queued.
    pub fn flush(&mut self) {
        if self.transport.is_connected() {
            for bytes in self.mirror.drain() {
                self.transport.send(bytes);
            }
        }
    }
}

/// The address of a host, from `HOST:PORT`.
///
/// # Errors
/// One that does not resolve, with a sentence saying so.
pub fn resolve(address: &str) -> Result<SocketAddr, String> {
    address
        .to_socket_addrs()
        .map_err(|e| format!("cannot find the host {address}: {e} (write it as HOST:PORT)"))?
        .find(SocketAddr::is_ipv4)
        .ok_or_else(|| format!("cannot find an IPv4 address for {address}"))
}

/// Where the seat token for a host, game and player name is kept, under the data folder
/// `data` (by name too: two players may join from one machine and one account).
#[must_use]
pub fn token_path(data: &Path, address: &str, game: &str, name: &str) -> PathBuf {
    let safe = |text: &str| -> String {
        text.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect()
    };
    data.join("network").join(format!(
        "seat-{game}-{}-{}.token",
        safe(address),
        safe(name)
    ))
}

/// A seed from the clock (the host's dice when the setup names none).
#[must_use]
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| {
            u64::try_from(d.as_nanos() & u128::from(u64::MAX)).unwrap_or(0)
        })
}

/// A room code of six letters and digits that are hard to confuse, drawn from the clock
/// and the seed (never the seed itself: the code is shown to everyone).
#[must_use]
pub fn room_code(seed: u64) -> String {
    const LETTERS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut x = crate::framework::stable_hash(&(seed.rotate_left(23) ^ clock_seed()));
    (0..6)
        .map(|_| {
            let c = LETTERS[usize::try_from(x % 32).unwrap_or(0)];
            x /= 32;
            char::from(c)
        })
        .collect()
}

/// The seat token kept at `path` by an earlier join, if any.
#[must_use]
pub fn read_token(path: &Path) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

/// Keeps `token` at `path` (atomically), so that a later join takes the seat back.
///
/// # Errors
/// What the disk said.
pub fn keep_token(path: &Path, token: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::data::write_atomic(path, token)
}

/// What the window that hosts asks of its host thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostCommand {
    /// A bot takes the seat (also in the middle of a game, for a player who left).
    GiveToBot(PlayerId, String),
    /// Start before every remote seat is ready (refused with the reason otherwise).
    Start,
    /// Save and stop.
    Stop,
}

/// What a host thread shows the window that started it.
#[derive(Clone, Debug, Default)]
pub struct HostNews {
    pub lobby: Vec<SeatInfo>,
    pub started: bool,
    /// The host's log (joins, drops, refusals), newest last.
    pub log: Vec<String>,
}

/// A host run on a thread of its own, for a game hosted from the window: the window
/// joins it over loopback like any other machine, so that what its seat sees is exactly
/// what a remote seat would.
pub struct HostThread {
    pub port: u16,
    pub code: String,
    commands: mpsc::Sender<HostCommand>,
    news: Arc<Mutex<HostNews>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HostThread {
    /// Opens `room` on `port` and runs it until [`HostCommand::Stop`] or the handle is
    /// dropped, autosaving to `autosave` after every action.
    ///
    /// # Errors
    /// The port cannot be listened on.
    pub fn spawn<G: Playable>(
        room: Room<G>,
        port: u16,
        watchers: usize,
        autosave: PathBuf,
    ) -> Result<Self, String> {
        let seats = room.seated.state().player_count();
        let mut host = Host::bind(room, port, seats + watchers).map_err(|e| e.to_string())?;
        if let Some(dir) = autosave.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        host.autosave = Some(autosave);
        let (port, code) = (host.local_addr().port(), host.room.code().to_string());
        let (commands, inbox) = mpsc::channel();
        let news = Arc::new(Mutex::new(HostNews::default()));
        let told = news.clone();
        let thread = std::thread::Builder::new()
            .name("host".into())
            .spawn(move || host_loop(host, &inbox, &told))
            .map_err(|e| format!("cannot start the host: {e}"))?;
        Ok(Self {
            port,
            code,
            commands,
            news,
            thread: Some(thread),
        })
    }

    /// Asks the host something; it answers in its log.
    pub fn ask(&self, command: HostCommand) {
        let _ = self.commands.send(command);
    }

    /// The lobby and log as the host last told them.
    #[must_use]
    pub fn news(&self) -> HostNews {
        self.news
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for HostThread {
    fn drop(&mut self) {
        let _ = self.commands.send(HostCommand::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn host_loop<G: Playable>(
    mut host: Host<G>,
    inbox: &mpsc::Receiver<HostCommand>,
    news: &Mutex<HostNews>,
) {
    loop {
        let mut busy = host.tick();
        loop {
            let command = match inbox.try_recv() {
                Ok(c) => c,
                Err(mpsc::TryRecvError::Empty) => break,
                Err(mpsc::TryRecvError::Disconnected) => HostCommand::Stop,
            };
            busy = true;
            let done = match command {
                HostCommand::GiveToBot(seat, bot) => host.room.give_to_bot(seat, &bot),
                HostCommand::Start => host.room.start(),
                HostCommand::Stop => {
                    host.flush();
                    if let Some(path) = &host.autosave {
                        let _ = save_room(&host.room, path);
                    }
                    return;
                }
            };
            if let Err(why) = done {
                host.room.log.push(why);
            }
            host.flush();
        }
        if busy {
            let mut n = news.lock().unwrap_or_else(PoisonError::into_inner);
            n.lobby = host.room.lobby();
            n.started = host.room.started();
            n.log.clone_from(&host.room.log);
        } else {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::{Ipv4Addr, SocketAddr};
    use std::time::{Duration, Instant};

    use super::*;
    use crate::framework::{Game, SeatedMatch, playable};
    use crate::net::SeatPlan;
    use crate::net::tests::setup_of;
    use crate::rules::battle_tanks::BattleTanks;
    use crate::rules::range_duel::RangeDuel;
    use crate::rules::tank_chess::TankChess;
    use crate::rules::tank_combat::TankCombat;
    use crate::rules::tank_commander::TankCommander;

    /// A host and two clients over loopback UDP in one process, every seat's bot on the
    /// client's side (the rest of the seats the host's bots), to the end of the game.
    fn over_loopback<G: Playable>(seed: u64) {
        let setup = setup_of::<G>();
        let n = G::from_setup(&setup).expect("starts").player_count();
        let mut plans = vec![SeatPlan::Remote, SeatPlan::Remote];
        plans.resize(n, SeatPlan::Bot(G::bot_names()[0].into()));
        let seated =
            SeatedMatch::<G>::new(setup, "loopback".into(), seed, Vec::new()).expect("starts");
        let mut host = Host::bind(Room::new(seated, "LOOP", plans), 0, n).expect("binds");
        let dir = std::env::temp_dir().join(format!("tanktable-net-{}-{seed}", G::NAME));
        let _ = std::fs::create_dir_all(&dir);
        let save = dir.join(format!("host.{}", G::RECORD_EXTENSION));
        host.autosave = Some(save.clone());
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, host.local_addr().port()));
        let mut remotes: Vec<Remote<G>> = (0..2u8)
            .map(|i| {
                let mut m = Mirror::joining("loop", &format!("p{i}"), None, None, false);
                m.ready(true);
                Remote::connect(addr, m, G::bot(G::bot_names()[0]), u64::from(i)).expect("connects")
            })
            .collect();
        let start = Instant::now();
        while !(host.room.over()
            && remotes
                .iter()
                .all(|r| r.mirror.state().is_some_and(|s| s.outcome().is_some())))
        {
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "{} stalled after {} actions: {:?}",
                G::NAME,
                host.room.seated.game.history().len(),
                host.room.log
            );
            host.tick();
            for r in &mut remotes {
                r.tick();
                assert!(r.ended.is_none(), "{:?}", r.ended);
            }
        }
        for r in &remotes {
            let want = host.room.seated.state().redacted(r.mirror.seat);
            assert_eq!(
                r.mirror.state().map(Game::state_hash),
                Some(want.state_hash()),
                "{}: seat {:?} agrees with the host",
                G::NAME,
                r.mirror.seat
            );
        }
        // The host's record replays to its final state, and its autosave is that record.
        let record = host.room.seated.record();
        let again = playable::replay(&record).expect("replays");
        assert_eq!(again.state_hash(), host.room.seated.game.state_hash());
        let reopened = reopen_room::<G>(&save).expect("the autosave reopens");
        assert_eq!(
            reopened.seated.game.state_hash(),
            host.room.seated.game.state_hash()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn tank_commander_over_loopback() {
        over_loopback::<TankCommander>(5);
    }

    #[test]
    fn tank_chess_over_loopback() {
        over_loopback::<TankChess>(5);
    }

    #[test]
    fn battle_tanks_over_loopback() {
        over_loopback::<BattleTanks>(5);
    }

    #[test]
    fn tank_combat_over_loopback() {
        over_loopback::<TankCombat>(5);
    }

    #[test]
    fn range_duel_over_loopback() {
        over_loopback::<RangeDuel>(5);
    }
}
