//! `tanktable serve` (a host with no window) and `tanktable play --join … --bot` (a seat
//! played from another machine by a bot).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::commands::Input;
use crate::dispatch_game;
use crate::framework::SeatedMatch;
use crate::framework::playable::Playable;
use crate::net::session::{
    Host, Remote, clock_seed, keep_token, read_token, reopen_room, resolve, room_code, save_room,
    token_path,
};
use crate::net::transport::{ClientEvent, ClientTransport};
use crate::net::{Heard, Mirror, Room, SeatPlan};
use crate::rules::FileKind;

/// What `serve` was asked.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub setup: PathBuf,
    pub port: u16,
    pub seats: Vec<String>,
    pub code: Option<String>,
    pub seed: Option<u64>,
    /// Reopen the autosave instead of starting a new game.
    pub resume: bool,
    /// Where the autosave goes (default: the data folder).
    pub autosave: Option<PathBuf>,
    /// Spectators the host takes besides the seats.
    pub watchers: usize,
}

/// What `play --join` was asked.
#[derive(Clone, Debug)]
pub struct JoinOptions {
    pub address: String,
    pub code: String,
    pub name: String,
    pub bot: String,
    pub watch: bool,
    pub seat: Option<u8>,
}

/// Hosts a game until it ends.
///
/// # Errors
/// A setup that does not read, a port that cannot be listened on.
pub fn serve(options: &ServeOptions) -> Result<ExitCode, String> {
    let input = Input::read(&options.setup, &[FileKind::Setup], "serve")?;
    dispatch_game!(input.found.game, serve_game(&input, options))
}

fn serve_game<G: Playable>(input: &Input, options: &ServeOptions) -> Result<ExitCode, String> {
    let autosave = options.autosave.clone().unwrap_or_else(|| {
        crate::data::data_dir().join("network").join(format!(
            "host-{}.{}",
            G::NAME,
            G::RECORD_EXTENSION
        ))
    });
    let room = if options.resume {
        let room = reopen_room::<G>(&autosave)?;
        say!(
            "Reopened {} from {} after {} actions.",
            G::NAME,
            autosave.display(),
            room.seated.game.history().len()
        );
        room
    } else {
        new_room::<G>(input, options)?
    };
    if let Some(dir) = autosave.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let seats = room.seated.state().player_count();
    let mut host =
        Host::bind(room, options.port, seats + options.watchers).map_err(|e| e.to_string())?;
    host.autosave = Some(autosave.clone());
    say!(
        "Hosting {} on port {} (UDP). Room code: {}",
        G::NAME,
        host.local_addr().port(),
        host.room.code()
    );
    for seat in host.room.lobby() {
        say!(
            "  seat {}: {} — {:?}",
            seat.seat + 1,
            seat.name,
            seat.holder
        );
    }
    say!(
        "Players join with: tanktable play --join HOST:{} --code {}",
        host.local_addr().port(),
        host.room.code()
    );
    let mut told = 0;
    let mut ended: Option<Instant> = None;
    loop {
        if !host.tick() {
            std::thread::sleep(Duration::from_millis(2));
        }
        for line in &host.room.log[told..] {
            say!("{line}");
        }
        told = host.room.log.len();
        if host.room.over() {
            // Give the last messages time to arrive before the host goes.
            let since = *ended.get_or_insert_with(Instant::now);
            if since.elapsed() > Duration::from_secs(2) {
                break;
            }
        }
    }
    if let Err(e) = save_room(&host.room, &autosave) {
        eprintln!("the autosave failed: {e}");
    }
    say!(
        "The game is over: {}. Final state {}. Record: {}",
        host.room
            .seated
            .state()
            .outcome()
            .map(|o| o.reason)
            .unwrap_or_default(),
        host.room.seated.hash_text(),
        autosave.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn new_room<G: Playable>(input: &Input, options: &ServeOptions) -> Result<Room<G>, String> {
    let rules = G::load_rules(None).map_err(|d| d.to_string())?;
    let setup = G::parse_setup(&input.path, &input.text, &rules).map_err(|d| d.to_string())?;
    let seed = options
        .seed
        .or_else(|| G::setup_seed(&setup))
        .unwrap_or_else(clock_seed);
    let seated =
        SeatedMatch::<G>::new(setup, input.name(), seed, Vec::new()).map_err(|e| e.to_string())?;
    let plans: Vec<SeatPlan> = options.seats.iter().map(|s| SeatPlan::parse(s)).collect();
    for plan in &plans {
        if let SeatPlan::Bot(name) = plan
            && G::bot(name).is_none()
        {
            return Err(format!(
                "{} has no bot named {name}: a seat is `remote`, or one of {}",
                G::NAME,
                G::bot_names().join(", ")
            ));
        }
    }
    if plans.contains(&SeatPlan::Host) {
        return Err("`serve` has no window: a seat is `remote` or a bot".into());
    }
    let code = options.code.clone().unwrap_or_else(|| room_code(seed));
    if code.is_empty() || code.len() > crate::net::wire::MAX_CODE {
        return Err(format!(
            "a room code has 1 to {} characters",
            crate::net::wire::MAX_CODE
        ));
    }
    Ok(Room::new(seated, &code, plans))
}

/// Joins a host and lets a bot play the seat there, printing the seat's log.
///
/// # Errors
/// An address that does not resolve, a refused join, a lost host.
pub fn join(options: &JoinOptions) -> Result<ExitCode, String> {
    let addr = resolve(&options.address)?;
    let (transport, game) = open_connection(addr)?;
    dispatch_game!(game, join_game(options, transport))
}

/// Connects to a host and reads which game it plays.
///
/// # Errors
/// No answer within ten seconds, another version, a refused connection.
pub fn open_connection(
    addr: SocketAddr,
) -> Result<(ClientTransport, crate::rules::GameKind), String> {
    let mut transport = ClientTransport::connect(addr, u64::from(crate::net::wire::PROTOCOL))
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        for event in transport.update() {
            match event {
                ClientEvent::Received(bytes) => {
                    return crate::net::wire::hello_game(&bytes).map(|g| (transport, g));
                }
                ClientEvent::Disconnected(why) => return Err(why),
                ClientEvent::Connected => {}
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    Err(format!(
        "no answer from {addr} in 10 seconds: is `tanktable serve` running there, and is UDP port {} open in its firewall?",
        addr.port()
    ))
}

fn join_game<G: Playable>(
    options: &JoinOptions,
    transport: ClientTransport,
) -> Result<ExitCode, String> {
    let token_file = token_path(
        &crate::data::data_dir(),
        &options.address,
        G::NAME,
        &options.name,
    );
    let token = read_token(&token_file);
    let mirror = Mirror::<G>::joining(
        &options.code,
        &options.name,
        token,
        options.seat,
        options.watch,
    );
    let bot = G::bot(&options.bot).ok_or_else(|| {
        format!(
            "{} has no bot named {}: one of {}",
            G::NAME,
            options.bot,
            G::bot_names().join(", ")
        )
    })?;
    let mut remote = Remote::over(transport, mirror, Some(bot), clock_seed());
    remote.mirror.ready(true);
    let mut printed = 0;
    loop {
        let heard = remote.tick();
        for h in &heard {
            match h {
                Heard::Welcomed => {
                    if let Some(t) = &remote.mirror.token
                        && let Err(e) = keep_token(&token_file, t)
                    {
                        eprintln!(
                            "cannot keep the seat token at {} (a rejoin will need the seat by number): {e}",
                            token_file.display()
                        );
                    }
                    say!(
                        "Joined {} as {}.",
                        options.address,
                        remote.mirror.seat.map_or_else(
                            || "a spectator".to_string(),
                            |s| format!("seat {}", s.0 + 1)
                        )
                    );
                }
                Heard::Notice(n) => say!("* {n}"),
                Heard::Chat { from, text } => say!("<{from}> {text}"),
                Heard::Refusal { reason, .. } => say!("refused: {reason}"),
                _ => {}
            }
        }
        for line in &remote.mirror.log[printed.min(remote.mirror.log.len())..] {
            say!("{}", line.text);
        }
        printed = remote.mirror.log.len();
        if let Some(why) = &remote.ended {
            return Err(format!("the connection ended: {why}"));
        }
        if let Some(outcome) = remote
            .mirror
            .state()
            .and_then(crate::framework::Game::outcome)
        {
            say!("The game is over: {}", outcome.reason);
            return Ok(ExitCode::SUCCESS);
        }
        if heard.is_empty() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}
