//! Play across machines in the window: joining a host, its lobby, and a table whose
//! match is held by the host.
//!
//! A join ([`JoinHost`]) dials the host and learns its game, then waits in the lobby
//! ([`Joining`], drawn by the menu) with a [`Remote`] of that game. When the host starts,
//! the table opens on a [`Session`] whose match is the seat's mirror
//! ([`SeatedMatch::mirrored`]) and whose [`Link`] sends the seat's orders to the host;
//! every step the host sends replaces the state, and the table redraws from it. A game
//! hosted from the window ([`HostGame`]) runs on a thread of its own
//! ([`HostThread`]), and the window joins it over loopback like any other seat, so that
//! it sees exactly what a remote seat would.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use bevy::prelude::*;

use super::ClientSystems;
use super::session::{FactsPlayed, Order, SaveFolder, Session, insert_session};
use crate::dispatch_game;
use crate::framework::{LogLine, Playable, PlayerId, Seat, SeatedMatch};
use crate::net::session::{
    HostCommand, HostThread, Remote, keep_token, read_token, room_code, token_path,
};
use crate::net::transport::{ClientEvent, ClientTransport};
use crate::net::wire::{self, Line, SeatInfo};
use crate::net::{Heard, Mirror, Room, SeatPlan};
use crate::rules::{FileKind, GameKind, detect};

/// The port a game hosted from the window listens on, unless the player picks another.
pub const DEFAULT_PORT: u16 = 5252;

/// Seconds a join waits for the host's first answer.
const DIAL_SECONDS: f64 = 10.0;

/// Join a host: the menu's Join, `tanktable play --join`, and the window that hosts.
#[derive(Message, Clone, Debug, Default)]
pub struct JoinHost {
    /// `HOST:PORT`.
    pub address: String,
    pub code: String,
    pub name: String,
    /// Watch instead of taking a seat.
    pub watch: bool,
    /// The seat asked for (from 0), else the seat token's, else the first open one.
    pub seat: Option<u8>,
}

/// Host the setup `path` from the window: the first person's seat is this window's,
/// every other person's seat is for a player joining from another machine, and the bots
/// stay bots (they play on the host).
#[derive(Message, Clone, Debug)]
pub struct HostGame {
    pub path: PathBuf,
    pub seats: Vec<Seat>,
    pub port: u16,
    pub name: String,
}

/// What the lobby window asks.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum LobbyOrder {
    Ready(bool),
    /// The hosting window gives a seat to a bot.
    GiveToBot(PlayerId, String),
    /// The hosting window starts before every seat is ready.
    Start,
    /// Leave the lobby (and stop hosting).
    Leave,
}

/// Where a join stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum JoinStage {
    #[default]
    Idle,
    /// Waiting for the host's first answer.
    Dialing,
    /// Joined; waiting for the host to start.
    Lobby,
    /// Why the join ended.
    Failed(String),
}

/// The join in progress, as the lobby window shows it.
#[derive(Resource, Default)]
pub struct Joining {
    pub asked: JoinHost,
    pub stage: JoinStage,
    pub game: Option<GameKind>,
    /// Our seat, once welcomed (`None`: watching).
    pub seat: Option<u8>,
    pub setup: String,
    pub lobby: Vec<SeatInfo>,
    pub ready: bool,
    /// Notices and chat heard in the lobby, newest last.
    pub heard: Vec<String>,
    dialing: Option<(ClientTransport, f64)>,
}

/// A game this window hosts.
#[derive(Resource)]
pub struct Hosting {
    pub thread: HostThread,
    pub game: GameKind,
    /// How this window joins it (again, after going back to the menu).
    pub join: JoinHost,
}

/// A seat in the lobby of game `G`, waiting for the host to start.
#[derive(Resource)]
struct WaitingSeat<G: Playable> {
    remote: Remote<G>,
    token_file: PathBuf,
}

/// A line of the table's talk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Talk {
    /// Who said it; `None` for the host's notices.
    pub from: Option<String>,
    pub text: String,
}

/// The tie of a [`Session`] to the host that holds its match.
pub struct Link<G: Playable> {
    pub remote: Remote<G>,
    pub address: String,
    /// Chat and notices, newest last.
    pub talk: Vec<Talk>,
    /// Someone asks to take back their last action: their name.
    pub undo_asked: Option<String>,
    /// Why the connection ended, once it has.
    pub lost: Option<String>,
}

impl<G: Playable> Link<G> {
    /// The seat this window plays (`None`: watching).
    #[must_use]
    pub fn seat(&self) -> Option<PlayerId> {
        self.remote.mirror.seat
    }

    /// The log as the host told it to this seat.
    #[must_use]
    pub fn log(&self) -> Vec<LogLine> {
        self.remote.mirror.log.iter().map(Line::log_line).collect()
    }

    /// The rule the `i`th line of the log applies, as a rule of the game's map.
    #[must_use]
    pub fn rule_of_line(&self, i: usize) -> Option<&'static str> {
        rule_of::<G>(self.remote.mirror.log.get(i)?.rule.as_deref()?)
    }
}

/// A rule the host named (or a seat's copy keeps), as a rule of `G`'s map: one this
/// machine's map lacks is not linked.
#[must_use]
pub fn rule_of<G: Playable>(id: &str) -> Option<&'static str> {
    crate::rules::map::cached(G::KIND)?
        .get(id)
        .map(|r| r.id.as_str())
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Joining>()
        .init_resource::<NetForm>()
        .add_message::<JoinHost>()
        .add_message::<HostGame>()
        .add_message::<LobbyOrder>()
        .add_systems(
            Update,
            (host_games, ask_joins, dial, lobby_orders)
                .chain()
                .in_set(ClientSystems::Session),
        );
}

/// The systems of game `G`'s seat: its lobby, and its table's link to the host.
pub(crate) fn game_plugin<G: super::session::GameClient>(app: &mut App) {
    app.add_systems(
        Update,
        (
            wait_in_lobby::<G>.run_if(resource_exists::<WaitingSeat<G>>),
            listen::<G>.run_if(resource_exists::<Session<G>>),
        )
            .chain()
            .in_set(ClientSystems::Session)
            .after(lobby_orders)
            .before(super::session::take_orders::<G>),
    );
}

/// Starts the host thread of each game asked to be hosted, and joins it.
fn host_games(world: &mut World) {
    let asked: Vec<HostGame> = world.resource_mut::<Messages<HostGame>>().drain().collect();
    for host in asked {
        if let Err(why) = host_game(world, &host) {
            let mut joining = world.resource_mut::<Joining>();
            joining.stage = JoinStage::Failed(why);
        }
    }
}

fn host_game(world: &mut World, host: &HostGame) -> Result<(), String> {
    let text = crate::framework::playable::read_text(&host.path).map_err(|d| d.to_string())?;
    let found = detect(&host.path, &text).map_err(|e| e.to_string())?;
    if found.kind != FileKind::Setup {
        return Err(format!(
            "{} is {}: host a scenario or a setup",
            host.path.display(),
            found.describe()
        ));
    }
    world.remove_resource::<Hosting>();
    let data = world.resource::<SaveFolder>().0.clone();
    let (thread, seat) = dispatch_game!(found.game, start_host(host, &text, &data))?;
    let address = format!("{}:{}", Ipv4Addr::LOCALHOST, thread.port);
    let code = thread.code.clone();
    let join = JoinHost {
        address,
        code,
        name: host.name.clone(),
        watch: false,
        seat: Some(seat),
    };
    world.insert_resource(Hosting {
        thread,
        game: found.game,
        join: join.clone(),
    });
    world.write_message(join);
    Ok(())
}

/// The room of `host` on a thread, and the seat this window takes in it.
fn start_host<G: Playable>(
    host: &HostGame,
    text: &str,
    data: &std::path::Path,
) -> Result<(HostThread, u8), String> {
    let rules = G::load_rules(None).map_err(|d| d.to_string())?;
    let setup = G::parse_setup(&host.path, text, &rules).map_err(|d| d.to_string())?;
    let seed = G::setup_seed(&setup).unwrap_or_else(super::session::clock_seed);
    let source = crate::data::portable_path(&host.path);
    let seated =
        SeatedMatch::<G>::new(setup, source, seed, Vec::new()).map_err(|e| e.to_string())?;
    let n = seated.state().player_count();
    let mut seats = host.seats.clone();
    seats.resize(n, Seat::Person);
    let ours = seats.iter().position(Seat::is_person).ok_or(
        "no seat is a person's: make one seat yours, or watch the bots at this computer instead",
    )?;
    let plans = seats
        .iter()
        .map(|s| match s {
            Seat::Bot(name) => SeatPlan::Bot(name.clone()),
            _ => SeatPlan::Remote,
        })
        .collect();
    let room = Room::new(seated, &room_code(seed), plans);
    let autosave = data
        .join("network")
        .join(format!("host-{}.{}", G::NAME, G::RECORD_EXTENSION));
    let thread = HostThread::spawn(room, host.port, 8, autosave)?;
    Ok((thread, u8::try_from(ours).unwrap_or(0)))
}

/// Dials each host asked for.
fn ask_joins(
    mut asked: MessageReader<JoinHost>,
    mut joining: ResMut<Joining>,
    mut form: ResMut<NetForm>,
    time: Res<Time>,
) {
    for join in asked.read() {
        // The form keeps them, to join again after leaving the table.
        form.address.clone_from(&join.address);
        form.code.clone_from(&join.code);
        form.name.clone_from(&join.name);
        let dialed = crate::net::session::resolve(&join.address).and_then(|addr| {
            ClientTransport::connect(addr, u64::from(wire::PROTOCOL)).map_err(|e| e.to_string())
        });
        *joining = Joining {
            asked: join.clone(),
            ..Joining::default()
        };
        match dialed {
            Ok(transport) => {
                joining.stage = JoinStage::Dialing;
                joining.dialing = Some((transport, time.elapsed_secs_f64()));
            }
            Err(why) => joining.stage = JoinStage::Failed(why),
        }
    }
}

/// Waits for the host's hello, which names its game; then the seat of that game joins.
fn dial(world: &mut World) {
    if world.resource::<Joining>().dialing.is_none() {
        // Nothing to do, and nothing marked changed (the panels follow the resource).
        return;
    }
    let now = world.resource::<Time>().elapsed_secs_f64();
    let mut joining = world.resource_mut::<Joining>();
    let Some((mut transport, since)) = joining.dialing.take() else {
        return;
    };
    let mut heard = None;
    for event in transport.update() {
        match event {
            ClientEvent::Received(bytes) => {
                heard = Some(wire::hello_game(&bytes));
                break;
            }
            ClientEvent::Disconnected(why) => heard = Some(Err(why)),
            ClientEvent::Connected => {}
        }
    }
    let game = match heard {
        Some(Ok(game)) => game,
        Some(Err(why)) => {
            joining.stage = JoinStage::Failed(why);
            return;
        }
        None if now - since > DIAL_SECONDS => {
            let port = joining
                .asked
                .address
                .rsplit(':')
                .next()
                .unwrap_or("")
                .to_string();
            joining.stage = JoinStage::Failed(format!(
                "No answer from {} in {DIAL_SECONDS} seconds: is the game hosted there, and is UDP port {port} open in its firewall?",
                joining.asked.address
            ));
            return;
        }
        None => {
            joining.dialing = Some((transport, since));
            return;
        }
    };
    joining.game = Some(game);
    joining.stage = JoinStage::Lobby;
    let asked = joining.asked.clone();
    dispatch_game!(game, take_seat(world, transport, &asked));
}

fn take_seat<G: Playable>(world: &mut World, transport: ClientTransport, asked: &JoinHost) {
    let data = world.resource::<SaveFolder>().0.clone();
    let token_file = token_path(&data, &asked.address, G::NAME, &asked.name);
    let token = read_token(&token_file);
    let mirror = Mirror::<G>::joining(&asked.code, &asked.name, token, asked.seat, asked.watch);
    let mut remote = Remote::over(transport, mirror, None, 0);
    remote.flush();
    world.insert_resource(WaitingSeat { remote, token_file });
}

/// The lobby window's orders: to the seat waiting, and to the host this window runs.
fn lobby_orders(world: &mut World) {
    let orders: Vec<LobbyOrder> = world
        .resource_mut::<Messages<LobbyOrder>>()
        .drain()
        .collect();
    for order in orders {
        match &order {
            LobbyOrder::GiveToBot(seat, bot) => {
                if let Some(h) = world.get_resource::<Hosting>() {
                    h.thread.ask(HostCommand::GiveToBot(*seat, bot.clone()));
                }
            }
            LobbyOrder::Start => {
                if let Some(h) = world.get_resource::<Hosting>() {
                    h.thread.ask(HostCommand::Start);
                }
            }
            LobbyOrder::Leave => {
                for game in GameKind::ALL {
                    dispatch_game!(game, leave_lobby(world));
                }
                world.remove_resource::<Hosting>();
                *world.resource_mut::<Joining>() = Joining::default();
            }
            LobbyOrder::Ready(ready) => {
                let Some(game) = world.resource::<Joining>().game else {
                    continue;
                };
                dispatch_game!(game, tell_ready(world, *ready));
            }
        }
    }
}

fn leave_lobby<G: Playable>(world: &mut World) {
    world.remove_resource::<WaitingSeat<G>>();
}

fn tell_ready<G: Playable>(world: &mut World, ready: bool) {
    if let Some(mut waiting) = world.get_resource_mut::<WaitingSeat<G>>() {
        waiting.remote.mirror.ready(ready);
        waiting.remote.flush();
    }
    world.resource_mut::<Joining>().ready = ready;
}

/// The seat in the lobby hears the host; when the game starts, the table opens.
fn wait_in_lobby<G: super::session::GameClient>(world: &mut World) {
    let Some(mut waiting) = world.remove_resource::<WaitingSeat<G>>() else {
        return;
    };
    let heard = waiting.remote.tick();
    let mut joining = world.resource_mut::<Joining>();
    for h in &heard {
        match h {
            Heard::Welcomed => {
                joining.seat = waiting.remote.mirror.seat.map(|p| p.0);
                joining.setup.clone_from(&waiting.remote.mirror.setup);
                if let Some(token) = &waiting.remote.mirror.token
                    && let Err(e) = keep_token(&waiting.token_file, token)
                {
                    joining.heard.push(format!(
                        "Your seat's token could not be kept at {} ({e}): after a drop, rejoin by seat",
                        waiting.token_file.display()
                    ));
                }
            }
            Heard::Lobby => joining.lobby.clone_from(&waiting.remote.mirror.lobby),
            Heard::Notice(text) => joining.heard.push(text.clone()),
            Heard::Chat { from, text } => joining.heard.push(format!("{from}: {text}")),
            Heard::Refused(why) => joining.heard.push(why.clone()),
            _ => {}
        }
    }
    if let Some(why) = &waiting.remote.ended {
        joining.stage = JoinStage::Failed(format!("The host ended the connection: {why}"));
        return;
    }
    if !(waiting.remote.mirror.started && waiting.remote.mirror.state().is_some()) {
        world.insert_resource(waiting);
        return;
    }
    let address = joining.asked.address.clone();
    let heard_before = std::mem::take(&mut joining.heard);
    *joining = Joining::default();
    match table_of(waiting.remote, address, heard_before) {
        Ok(session) => {
            let mut form = world.resource_mut::<NetForm>();
            form.open = false;
            form.host = None;
            insert_session(world, session);
        }
        Err(why) => world.resource_mut::<Joining>().stage = JoinStage::Failed(why),
    }
}

/// The table of a seat whose game has started.
fn table_of<G: super::session::GameClient>(
    remote: Remote<G>,
    address: String,
    heard: Vec<String>,
) -> Result<Session<G>, String> {
    let state = remote
        .mirror
        .state()
        .cloned()
        .ok_or("the host sent no state")?;
    let setup = local_setup::<G>(&remote.mirror.setup)?;
    let seats = (0..state.player_count())
        .map(|i| {
            let p = PlayerId(u8::try_from(i).unwrap_or(u8::MAX));
            if remote.mirror.seat == Some(p) {
                Seat::Person
            } else {
                Seat::Remote(wire::holder_name(&remote.mirror.lobby, p.0))
            }
        })
        .collect();
    let source = remote.mirror.setup.clone();
    let mut session = Session::new(SeatedMatch::mirrored(state, setup, source, seats), None);
    session.link = Some(Box::new(Link {
        remote,
        address,
        talk: heard
            .into_iter()
            .map(|text| Talk { from: None, text })
            .collect(),
        undo_asked: None,
        lost: None,
    }));
    Ok(session)
}

/// The setup the host names, read from this machine's copy: its title and switches
/// show on the table (the state itself comes from the host).
pub(crate) fn local_setup<G: Playable>(named: &str) -> Result<G::Setup, String> {
    let path = std::path::Path::new(named);
    let candidates = [
        path.to_path_buf(),
        crate::rules::catalogue::resolve(path).unwrap_or_default(),
        path.file_stem()
            .and_then(|stem| {
                crate::rules::catalogue::resolve(&PathBuf::from(format!(
                    "{}/{}",
                    G::NAME,
                    stem.to_string_lossy()
                )))
                .ok()
            })
            .unwrap_or_default(),
    ];
    let rules = G::load_rules(None).map_err(|d| d.to_string())?;
    let file = candidates
        .iter()
        .find(|p| p.is_file())
        .ok_or_else(|| format!("the host plays {named}, which this machine does not have: copy that file here, at the same path"))?;
    crate::framework::playable::load_setup::<G>(file, &rules).map_err(|d| d.to_string())
}

/// A table linked to a host hears it: each new state replaces the table's, the talk
/// and the refusals show, and a lost connection is told.
fn listen<G: super::session::GameClient>(
    mut session: ResMut<Session<G>>,
    mut played: MessageWriter<FactsPlayed<G>>,
) {
    if hear::<G>(session.bypass_change_detection(), &mut played) {
        session.changed();
    }
}

/// What the host said to a linked table; true when anything changed.
fn hear<G: super::session::GameClient>(
    session: &mut Session<G>,
    played: &mut MessageWriter<FactsPlayed<G>>,
) -> bool {
    let Some(link) = session.link.as_mut() else {
        return false;
    };
    let heard = link.remote.tick();
    if heard.is_empty() && link.lost.is_some() == link.remote.ended.is_some() {
        return false;
    }
    let mut notice = None;
    let mut state = None;
    for h in heard {
        match h {
            Heard::State => state = link.remote.mirror.state().cloned(),
            Heard::Refusal { reason, .. } => notice = Some(format!("The host refused: {reason}")),
            Heard::Chat { from, text } => link.talk.push(Talk {
                from: Some(from),
                text,
            }),
            Heard::Notice(text) => {
                notice = Some(text.clone());
                link.talk.push(Talk { from: None, text });
            }
            Heard::UndoAsked(by) => link.undo_asked = Some(by),
            Heard::Lobby => {
                let lobby = &link.remote.mirror.lobby;
                for (i, seat) in session.seated.seats.iter_mut().enumerate() {
                    if let Seat::Remote(name) = seat {
                        *name = wire::holder_name(lobby, u8::try_from(i).unwrap_or(u8::MAX));
                    }
                }
            }
            Heard::Refused(why) => notice = Some(why),
            Heard::Welcomed | Heard::OutOfStep => {}
        }
    }
    if let Some(why) = &link.remote.ended
        && link.lost.is_none()
    {
        link.lost = Some(why.clone());
        notice = Some(format!(
            "The connection to the host ended ({why}). Your seat is kept: join again from the menu with the same name."
        ));
    }
    if let Some(state) = state {
        session.seated.mirror_to(state);
        session.queued.clear();
        played.write(FactsPlayed {
            facts: Vec::new(),
            step: None,
            jumped: true,
        });
    }
    if notice.is_some() {
        session.notice = notice;
    }
    true
}

/// The address others join this machine at, for the lobby: the first IPv4 address of a
/// network this machine is on (found by asking the system which it would use to reach
/// an outside address; nothing is sent), else loopback.
#[must_use]
pub fn own_address() -> Ipv4Addr {
    std::net::UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|s| {
            s.connect(SocketAddr::from((Ipv4Addr::new(192, 0, 2, 1), 9)))?;
            s.local_addr()
        })
        .ok()
        .and_then(|a| match a.ip() {
            std::net::IpAddr::V4(ip) if !ip.is_unspecified() => Some(ip),
            _ => None,
        })
        .unwrap_or(Ipv4Addr::LOCALHOST)
}

/// An order at a linked table: the seat's actions, its chat and its requests go to the
/// host; what only the host may do is told so on the banner.
pub(crate) fn send_order<G: super::session::GameClient>(
    session: &mut Session<G>,
    order: &Order<G>,
    folder: &SaveFolder,
) {
    let Some(link) = session.link.as_mut() else {
        return;
    };
    let mirror = &mut link.remote.mirror;
    let mine = |player: &PlayerId| mirror.seat == Some(*player);
    let notice = match order {
        _ if link.lost.is_some() => Some(
            "Not connected to the host: join again from the menu to play on from your seat"
                .to_string(),
        ),
        Order::Play(player, action) if mine(player) => {
            mirror.order(action);
            None
        }
        Order::PlaySequence(player, actions) if mine(player) => {
            // The host plays them in order and refuses any that no longer fits.
            for action in actions {
                mirror.order(action);
            }
            None
        }
        Order::Play(..) | Order::PlaySequence(..) => {
            Some("That seat is played on another machine".to_string())
        }
        Order::Undo if mirror.own_actions == 0 => {
            Some("No action of yours to take back yet".to_string())
        }
        Order::Undo => {
            mirror.ask_undo();
            Some("Asked the others to let you take back your last action…".to_string())
        }
        Order::Say(text) => {
            mirror.chat(text);
            None
        }
        Order::AnswerUndo(yes) => {
            mirror.answer_undo(*yes);
            link.undo_asked = None;
            None
        }
        Order::Save(path) => Some(save_seat_copy(session, path.as_deref(), folder)),
        Order::Rematch if mirror.state().is_some_and(|s| s.outcome().is_some()) => {
            mirror.rematch();
            None
        }
        Order::Rematch => Some("A rematch starts once the game is over".to_string()),
        Order::Sit(..) => Some("The host seats the players and the bots".to_string()),
        _ => Some("Not in a game played across machines".to_string()),
    };
    if let Some(link) = session.link.as_mut() {
        link.remote.flush();
    }
    if notice.is_some() {
        session.notice = notice;
    }
    session.changed();
}

/// Writes this seat's own copy of the game (every state it was shown, and its log) to the
/// saves folder: a player's copy never holds more than their seat was shown, and it opens
/// from the menu's saved games to be stepped through. Returns the notice.
fn save_seat_copy<G: super::session::GameClient>(
    session: &Session<G>,
    path: Option<&std::path::Path>,
    folder: &SaveFolder,
) -> String {
    let Some(link) = &session.link else {
        return String::new();
    };
    let (title, _) = G::setup_title(&session.setup);
    let path = path.map_or_else(
        || super::session::save_path(session, folder).with_extension(SEAT_COPY_EXTENSION),
        std::path::Path::to_path_buf,
    );
    let seat = link.remote.mirror.seat.map_or_else(
        || "the spectators' seat".to_string(),
        |p| session.state().player_name(p),
    );
    let text = match link
        .remote
        .mirror
        .copy(&link.address, &title)
        .to_text(&format!(
            "{} — {title}, as seen from {seat}",
            G::KIND.title()
        )) {
        Ok(text) => text,
        Err(e) => return format!("Cannot save: {e}"),
    };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match crate::data::write_atomic(&path, &text) {
        Ok(()) => format!(
            "Your seat's own copy is saved to {}: replay it from the menu's saved games",
            path.display()
        ),
        Err(e) => format!("Cannot save: {e}"),
    }
}

/// How a seat's own copy is named: `<game>-<setup>-<time>.seat.ron`.
pub const SEAT_COPY_EXTENSION: &str = "seat.ron";

/// Whether `path` is named as a seat's own copy.
#[must_use]
pub fn is_seat_copy(path: &std::path::Path) -> bool {
    path.file_name().is_some_and(|n| {
        n.to_string_lossy()
            .ends_with(&format!(".{SEAT_COPY_EXTENSION}"))
    })
}

/// The network window's form, opened from the menu: where to join, or what to host.
#[derive(Resource)]
pub struct NetForm {
    pub open: bool,
    /// `HOST:PORT` to join.
    pub address: String,
    pub code: String,
    /// The name the others see.
    pub name: String,
    pub watch: bool,
    /// A setup to host (the menu's Host button), with the seats picked there.
    pub host: Option<(PathBuf, Vec<Seat>)>,
    /// The UDP port to host on.
    pub port: String,
}

impl Default for NetForm {
    fn default() -> Self {
        Self {
            open: false,
            address: String::new(),
            code: String::new(),
            name: std::env::var("USER")
                .ok()
                .filter(|u| !u.is_empty() && u != "root")
                .unwrap_or_else(|| "Player".into()),
            watch: false,
            host: None,
            port: DEFAULT_PORT.to_string(),
        }
    }
}
