//! Opaque byte messages between one host and many clients: `bevy_replicon`'s messages over
//! `bevy_replicon_renet`'s netcode (UDP), with no component replication.
//!
//! Each end is a small headless Bevy world (`MinimalPlugins`, states, replicon, renet) that
//! the caller drives by calling `update()` in a loop: [`HostTransport`] listens on
//! `0.0.0.0:port`, [`ClientTransport`] connects to it. Every message travels on one
//! reliable ordered channel each way and leaves during the next `update()` of its sender;
//! it is read during the next `update()` of its receiver.
//!
//! # The handshake
//! Netcode's protocol id is the same for every Tanktable (`"TANKTABL"`), so two versions
//! always reach each other and can say why they cannot play. A client's first message
//! is a hello with its protocol version (and replicon's hash of the registered messages);
//! the host answers with a welcome, or with its own version and then disconnects. Only
//! after the welcome is a client [`ClientEvent::Connected`] (and a
//! [`HostEvent::Connected`] for the host), and only then do payloads flow. A client that
//! hears nothing for [`CONNECT_TIMEOUT`] gives up with a sentence that says so.
//!
//! # Limits
//! A payload from a client larger than the host's `max_message` gets its sender kicked
//! (logged, with a [`HostEvent::Disconnected`] and a sentence for the client, who leaves
//! on reading it; the host drops the connection a second later in any case). renet
//! bounds what a connection may hold in memory (per channel: four times `max_message`, at
//! least 1 MiB, from a client; 32 MiB in flight to a client); a connection that goes over
//! is dropped by renet, never the host.
//!
//! ```
//! use std::net::{Ipv4Addr, SocketAddr};
//! use tanktable::net::transport::{ClientEvent, ClientTransport, HostEvent, HostTransport};
//!
//! let mut host = HostTransport::bind(0, 4, 1, 8 * 1024)?;
//! let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, host.local_addr().port()));
//! let mut client = ClientTransport::connect(addr, 1)?;
//! client.send(b"hello".to_vec());
//! let mut heard = Vec::new();
//! while heard.is_empty() {
//!     heard.extend(host.update().into_iter().filter(|e| matches!(e, HostEvent::Received(..))));
//!     let _ = client.update();
//! }
//! assert_eq!(heard, [HostEvent::Received(client.id(), b"hello".to_vec())]);
//! # Ok::<(), tanktable::net::transport::TransportError>(())
//! ```

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, RandomState};
use std::io;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bevy::ecs::schedule::{Schedules, SingleThreadedExecutor};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon::shared::backend::connected_client::{NetworkId, NetworkIdMap};
use bevy_replicon::shared::message::registry::RemoteMessageRegistry;
use bevy_replicon_renet::netcode::{
    ClientAuthentication, NetcodeClientTransport, NetcodeErrorEvent, NetcodeServerTransport,
    ServerAuthentication, ServerConfig,
};
use bevy_replicon_renet::renet::{ConnectionConfig, DisconnectReason, ServerEvent};
use bevy_replicon_renet::{
    RenetChannelsExt, RenetClient, RenetServer, RenetServerEvent, RepliconRenetPlugins,
};
use serde::{Deserialize, Serialize};
use words::{client_side_reason, host_side_reason, kicked, listen_failure, no_answer, refusal};

mod words;

/// A connection as the host numbers it: renet's client id, which the client draws at
/// random.
pub type ConnId = u64;

/// How long a client waits for the host's welcome before it gives up.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The most players one host may take.
pub const MAX_CLIENTS: usize = 256;

/// How long the host waits for a new connection's hello before it drops it.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the host keeps a refused or kicked connection open so that renet can deliver
/// the reason (resending it if a packet is lost); the client leaves as soon as it reads it.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// Netcode's protocol id, the same for every version: the version is checked in the
/// handshake, where a mismatch can be explained (netcode ignores a wrong id in silence).
const NETCODE_PROTOCOL: u64 = u64::from_be_bytes(*b"TANKTABL");

/// What renet may hold of the host's messages in flight on one connection: a whole
/// mirror (up to 8 MiB) and the patches behind it.
const DOWN_MEMORY: usize = 32 << 20;

/// What a client's renet may hold of its own messages in flight.
const UP_MEMORY_CLIENT: usize = 5 << 20;

/// The least the host's renet may hold of one connection's messages.
const UP_MEMORY_HOST_MIN: usize = 1 << 20;

/// What a client sends. `Hello`'s shape and place never change: it is how two versions
/// recognise each other.
#[derive(Message, Serialize, Deserialize, Debug)]
enum Up {
    Hello {
        protocol: u64,
        registrations: ProtocolHash,
    },
    Payload(Vec<u8>),
}

/// What the host sends. `Welcome` and `Refused` keep their shapes and places for the same
/// reason as [`Up::Hello`].
#[derive(Message, Serialize, Deserialize, Debug)]
enum Down {
    Welcome,
    Refused { host_protocol: u64 },
    Kicked(String),
    Payload(Vec<u8>),
}

/// What happened at the host since the last [`HostTransport::update`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostEvent {
    /// A client of this protocol version finished the handshake.
    Connected(ConnId),
    /// A connected client is gone, and why; every `Connected` gets exactly one, kicks
    /// included.
    Disconnected(ConnId, String),
    /// A payload from a connected client, at most `max_message` bytes.
    Received(ConnId, Vec<u8>),
}

/// What happened at a client since the last [`ClientTransport::update`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientEvent {
    /// The host welcomed this client: payloads flow from now on.
    Connected,
    /// The connection ended (or never began), with a sentence for the player. Nothing
    /// follows it.
    Disconnected(String),
    /// A payload from the host.
    Received(Vec<u8>),
}

/// Why a transport could not start.
#[derive(thiserror::Error, Debug)]
pub enum TransportError {
    /// The host's UDP port could not be opened.
    #[error("cannot listen on port {port}: {why}")]
    Listen { port: u16, why: String },
    /// A host was asked to take no players or too many.
    #[error("a host takes 1 to {max} players, not {asked}", max = MAX_CLIENTS)]
    Players { asked: usize },
    /// The client's UDP socket could not be opened.
    #[error("cannot open a network socket to reach {host}: {source}")]
    Socket { host: SocketAddr, source: io::Error },
    /// Netcode refused to start.
    #[error("cannot start the connection to {host}: {why}")]
    Netcode { host: SocketAddr, why: String },
    /// Netcode stamps its tokens with the time.
    #[error("the system clock is set before 1970, and the network layer needs the time")]
    Clock,
}

/// The host: listens on a UDP port and exchanges payloads with the clients it welcomed.
///
/// Holds a Bevy `World` (not an `App`, which cannot cross threads), so a host can live
/// in a resource of the desktop client.
pub struct HostTransport {
    world: World,
    addr: SocketAddr,
    protocol: u64,
    registrations: ProtocolHash,
    max_message: usize,
    /// Connections that have not said hello yet, and since when.
    greeting: HashMap<ConnId, Instant>,
    /// Connections that were welcomed and are not gone.
    players: HashSet<ConnId>,
    /// Refused or kicked connections, told why, to be dropped at the given time.
    closing: HashMap<ConnId, Instant>,
    /// Payload bytes handed to [`Self::send`], per connection.
    sent: HashMap<ConnId, u64>,
    /// Events of kicks made between updates, returned by the next one.
    queued: Vec<HostEvent>,
}

impl HostTransport {
    /// Listens on `0.0.0.0:port` (0: any free port) for at most `max_clients` players of
    /// protocol version `protocol`, who may send payloads of at most `max_message` bytes.
    ///
    /// # Errors
    /// The port cannot be opened (in use, or reserved), or `max_clients` is 0 or over
    /// [`MAX_CLIENTS`].
    pub fn bind(
        port: u16,
        max_clients: usize,
        protocol: u64,
        max_message: usize,
    ) -> Result<Self, TransportError> {
        if max_clients == 0 || max_clients > MAX_CLIENTS {
            return Err(TransportError::Players { asked: max_clients });
        }
        let listen = |e: &io::Error| TransportError::Listen {
            port,
            why: listen_failure(e),
        };
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, port)).map_err(|e| listen(&e))?;
        let addr = socket.local_addr().map_err(|e| listen(&e))?;
        let current_time = since_epoch()?;

        let mut world = headless_world(|app| {
            app.init_resource::<HostInbox>()
                .init_resource::<HostOutbox>()
                .add_observer(note_server_event)
                .add_observer(note_netcode_error)
                .add_systems(Update, flush_host_outbox);
        });
        let up_memory = max_message.saturating_mul(4).max(UP_MEMORY_HOST_MIN);
        let config = connection_config(&world, up_memory);
        let transport = NetcodeServerTransport::new(
            ServerConfig {
                current_time,
                max_clients,
                protocol_id: NETCODE_PROTOCOL,
                public_addresses: vec![addr],
                authentication: ServerAuthentication::Unsecure,
            },
            socket,
        )
        .map_err(|e| listen(&e))?;
        world.insert_resource(RenetServer::new(config));
        world.insert_resource(transport);
        let registrations = *world.resource::<ProtocolHash>();
        info!("listening for players on {addr} (network protocol version {protocol})");
        Ok(Self {
            world,
            addr,
            protocol,
            registrations,
            max_message,
            greeting: HashMap::new(),
            players: HashSet::new(),
            closing: HashMap::new(),
            sent: HashMap::new(),
            queued: Vec::new(),
        })
    }

    /// The address the host listens on: `0.0.0.0` and the port actually bound.
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Sends what was queued, reads what arrived, and answers handshakes; returns what
    /// happened, in order.
    pub fn update(&mut self) -> Vec<HostEvent> {
        self.world.run_schedule(Main);
        self.world.clear_trackers();
        let mut events = std::mem::take(&mut self.queued);
        self.read_links(&mut events);
        self.read_messages(&mut events);
        self.drop_stragglers();
        events
    }

    /// Connections opened and closed since the last update.
    fn read_links(&mut self, events: &mut Vec<HostEvent>) {
        let links = std::mem::take(&mut self.world.resource_mut::<HostInbox>().links);
        for link in links {
            match link {
                Link::Opened(id) => {
                    self.greeting.insert(id, Instant::now());
                }
                Link::Closed(id, reason) => {
                    self.greeting.remove(&id);
                    self.closing.remove(&id);
                    if self.players.remove(&id) {
                        let why = host_side_reason(reason);
                        info!("player {id} left: {why}");
                        events.push(HostEvent::Disconnected(id, why));
                    }
                }
            }
        }
    }

    /// Hellos answered, payloads passed on (or their oversized senders kicked).
    fn read_messages(&mut self, events: &mut Vec<HostEvent>) {
        let arrived: Vec<FromClient<Up>> = self
            .world
            .resource_mut::<Messages<FromClient<Up>>>()
            .drain()
            .collect();
        for FromClient { client_id, message } in arrived {
            // A connection despawned since (kicked in this update) has no id any more.
            let Some(id) = client_id
                .entity()
                .and_then(|entity| self.world.get::<NetworkId>(entity))
                .map(NetworkId::get)
            else {
                continue;
            };
            match message {
                Up::Hello {
                    protocol,
                    registrations,
                } => self.greet(id, protocol, registrations, events),
                Up::Payload(bytes) if self.players.contains(&id) => {
                    if bytes.len() > self.max_message {
                        let why = format!(
                            "a message of {} bytes is over the limit of {} bytes",
                            bytes.len(),
                            self.max_message
                        );
                        self.expel(id, &why);
                        events.push(HostEvent::Disconnected(id, kicked(&why)));
                    } else {
                        events.push(HostEvent::Received(id, bytes));
                    }
                }
                Up::Payload(_) => {
                    if self.greeting.remove(&id).is_some() {
                        warn!("dropped connection {id}: it sent data before its hello");
                        self.outbox().closes.push(id);
                    }
                }
            }
        }
    }

    /// Connections that never said hello, and refused ones whose grace is over.
    fn drop_stragglers(&mut self) {
        let late: Vec<ConnId> = self
            .greeting
            .iter()
            .filter(|(_, since)| since.elapsed() > HELLO_TIMEOUT)
            .map(|(&id, _)| id)
            .collect();
        for id in late {
            warn!("dropped connection {id}: no hello within {HELLO_TIMEOUT:?}");
            self.greeting.remove(&id);
            self.outbox().closes.push(id);
        }
        let now = Instant::now();
        let done: Vec<ConnId> = self
            .closing
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(&id, _)| id)
            .collect();
        for id in done {
            self.closing.remove(&id);
            self.outbox().closes.push(id);
        }
    }

    /// Queues `bytes` for the player `to` (reliable, ordered); it leaves during the next
    /// [`Self::update`]. Ignored when `to` is not a connected player.
    pub fn send(&mut self, to: ConnId, bytes: Vec<u8>) {
        if !self.players.contains(&to) {
            debug!(
                "not sending {} bytes to {to}: not a connected player",
                bytes.len()
            );
            return;
        }
        *self.sent.entry(to).or_default() += bytes.len() as u64;
        self.outbox().sends.push((to, Down::Payload(bytes)));
    }

    /// Disconnects `who`, telling them `reason` first; the next [`Self::update`] returns
    /// its [`HostEvent::Disconnected`]. Logged.
    pub fn kick(&mut self, who: ConnId, reason: &str) {
        if self.players.contains(&who) {
            self.expel(who, reason);
            self.queued
                .push(HostEvent::Disconnected(who, kicked(reason)));
        } else if self.greeting.remove(&who).is_some() {
            warn!("dropped connection {who} before its hello: {reason}");
            self.outbox().closes.push(who);
        }
    }

    /// Every payload byte handed to [`Self::send`] for `who` so far (0 for a stranger).
    #[must_use]
    pub fn bytes_sent_to(&self, who: ConnId) -> u64 {
        self.sent.get(&who).copied().unwrap_or(0)
    }

    fn outbox(&mut self) -> Mut<'_, HostOutbox> {
        self.world.resource_mut::<HostOutbox>()
    }

    /// Answers a hello: a welcome, or this host's version and a disconnect.
    fn greet(
        &mut self,
        id: ConnId,
        protocol: u64,
        registrations: ProtocolHash,
        events: &mut Vec<HostEvent>,
    ) {
        if self.greeting.remove(&id).is_none() {
            return; // a second hello, or a hello from a player already dropped
        }
        if protocol == self.protocol && registrations == self.registrations {
            self.players.insert(id);
            self.outbox().sends.push((id, Down::Welcome));
            info!("player {id} joined");
            events.push(HostEvent::Connected(id));
        } else {
            warn!(
                "refused connection {id}: it speaks network protocol version {protocol} \
                 ({registrations:?}), this host speaks version {} ({:?})",
                self.protocol, self.registrations
            );
            let host_protocol = self.protocol;
            self.outbox()
                .sends
                .push((id, Down::Refused { host_protocol }));
            self.closing.insert(id, Instant::now() + CLOSE_GRACE);
        }
    }

    /// Tells a player why, then disconnects them.
    fn expel(&mut self, who: ConnId, reason: &str) {
        warn!("kicked player {who}: {reason}");
        self.players.remove(&who);
        self.outbox()
            .sends
            .push((who, Down::Kicked(reason.to_string())));
        self.closing.insert(who, Instant::now() + CLOSE_GRACE);
    }
}

impl Drop for HostTransport {
    /// Tells every client the host is gone, rather than letting them time out.
    fn drop(&mut self) {
        if let Some(mut transport) = self.world.remove_resource::<NetcodeServerTransport>()
            && let Some(mut server) = self.world.get_resource_mut::<RenetServer>()
        {
            transport.disconnect_all(&mut server);
        }
    }
}

/// A client: connects to a host and exchanges payloads with it.
pub struct ClientTransport {
    world: World,
    host: SocketAddr,
    id: ConnId,
    protocol: u64,
    registrations: ProtocolHash,
    started: Instant,
    said_hello: bool,
    welcomed: bool,
    ended: bool,
    /// Payloads waiting for the welcome or the next update.
    outgoing: Vec<Vec<u8>>,
}

impl ClientTransport {
    /// Starts connecting to the host at `addr` as protocol version `protocol`; the
    /// outcome comes from [`Self::update`] ([`ClientEvent::Connected`] or
    /// [`ClientEvent::Disconnected`], within [`CONNECT_TIMEOUT`]).
    ///
    /// # Errors
    /// The local UDP socket cannot be opened, or the clock is before 1970.
    pub fn connect(addr: SocketAddr, protocol: u64) -> Result<Self, TransportError> {
        let local = if addr.is_ipv4() {
            SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0))
        } else {
            SocketAddr::from((Ipv6Addr::UNSPECIFIED, 0))
        };
        let socket = UdpSocket::bind(local)
            .map_err(|source| TransportError::Socket { host: addr, source })?;
        let id = fresh_id();
        let transport = NetcodeClientTransport::new(
            since_epoch()?,
            ClientAuthentication::Unsecure {
                protocol_id: NETCODE_PROTOCOL,
                client_id: id,
                server_addr: addr,
                user_data: None,
            },
            socket,
        )
        .map_err(|e| TransportError::Netcode {
            host: addr,
            why: e.to_string(),
        })?;

        let mut world = headless_world(|_| {});
        let config = connection_config(&world, UP_MEMORY_CLIENT);
        world.insert_resource(RenetClient::new(config));
        world.insert_resource(transport);
        let registrations = *world.resource::<ProtocolHash>();
        Ok(Self {
            world,
            host: addr,
            id,
            protocol,
            registrations,
            started: Instant::now(),
            said_hello: false,
            welcomed: false,
            ended: false,
            outgoing: Vec::new(),
        })
    }

    /// This client's id, as the host numbers it.
    #[must_use]
    pub fn id(&self) -> ConnId {
        self.id
    }

    /// Sends what was queued, reads what arrived; returns what happened, in order.
    pub fn update(&mut self) -> Vec<ClientEvent> {
        let mut events = Vec::new();
        if self.ended {
            return events;
        }
        self.write_outgoing();
        self.world.run_schedule(Main);
        self.world.clear_trackers();

        let arrived: Vec<Down> = self
            .world
            .resource_mut::<Messages<Down>>()
            .drain()
            .collect();
        for down in arrived {
            match down {
                Down::Welcome if !self.welcomed => {
                    self.welcomed = true;
                    info!("joined the host at {}", self.host);
                    events.push(ClientEvent::Connected);
                }
                Down::Welcome => {}
                Down::Payload(bytes) if self.welcomed => events.push(ClientEvent::Received(bytes)),
                Down::Payload(_) => {}
                Down::Refused { host_protocol } => {
                    let why = refusal(host_protocol, self.protocol);
                    self.end(why, &mut events);
                    return events;
                }
                Down::Kicked(reason) => {
                    self.end(
                        format!("the host closed the connection: {reason}"),
                        &mut events,
                    );
                    return events;
                }
            }
        }

        if let Some(why) = self.link_lost() {
            self.end(why, &mut events);
        } else if !self.welcomed && self.started.elapsed() > CONNECT_TIMEOUT {
            self.end(no_answer(self.host), &mut events);
        }
        events
    }

    /// Queues `bytes` for the host (reliable, ordered); it leaves during the next
    /// [`Self::update`] after the welcome. Ignored once disconnected.
    pub fn send(&mut self, bytes: Vec<u8>) {
        if !self.ended {
            self.outgoing.push(bytes);
        }
    }

    /// Whether the host welcomed this client and the connection still holds.
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.welcomed && !self.ended
    }

    /// Hands the hello and the queued payloads to replicon, which sends them in this
    /// update. Only while replicon is connected: otherwise it would drop them.
    fn write_outgoing(&mut self) {
        if *self.world.resource::<State<ClientState>>().get() != ClientState::Connected {
            return;
        }
        let mut up = self.world.resource_mut::<Messages<Up>>();
        if !self.said_hello {
            self.said_hello = true;
            up.write(Up::Hello {
                protocol: self.protocol,
                registrations: self.registrations,
            });
        }
        if self.welcomed {
            for bytes in self.outgoing.drain(..) {
                up.write(Up::Payload(bytes));
            }
        }
    }

    /// Why the connection broke, if it did.
    fn link_lost(&self) -> Option<String> {
        if let Some(reason) = self
            .world
            .get_resource::<NetcodeClientTransport>()
            .and_then(|transport| transport.disconnect_reason())
        {
            return Some(client_side_reason(reason, self.host));
        }
        self.world
            .get_resource::<RenetClient>()
            .and_then(|client| client.disconnect_reason())
            .map(|reason| format!("the connection broke: {reason}"))
    }

    fn end(&mut self, why: String, events: &mut Vec<ClientEvent>) {
        self.ended = true;
        self.outgoing.clear();
        if let Some(mut transport) = self.world.get_resource_mut::<NetcodeClientTransport>() {
            transport.disconnect();
        }
        info!("left the host at {}: {why}", self.host);
        events.push(ClientEvent::Disconnected(why));
    }
}

impl Drop for ClientTransport {
    /// Tells the host this client left, rather than letting it time out.
    fn drop(&mut self) {
        if let Some(mut transport) = self.world.get_resource_mut::<NetcodeClientTransport>() {
            transport.disconnect();
        }
    }
}

/// Connections opened and closed at the host during an update, as renet reported them.
#[derive(Resource, Default)]
struct HostInbox {
    links: Vec<Link>,
}

enum Link {
    Opened(ConnId),
    Closed(ConnId, DisconnectReason),
}

/// What the host queued between updates; written to replicon in `Update`, after renet
/// has reported this update's disconnects, so nothing is sent to a despawned client.
#[derive(Resource, Default)]
struct HostOutbox {
    sends: Vec<(ConnId, Down)>,
    closes: Vec<ConnId>,
}

fn note_server_event(event: On<RenetServerEvent>, mut inbox: ResMut<HostInbox>) {
    let link = match **event {
        ServerEvent::ClientConnected { client_id } => Link::Opened(client_id),
        ServerEvent::ClientDisconnected { client_id, reason } => Link::Closed(client_id, reason),
    };
    inbox.links.push(link);
}

fn note_netcode_error(error: On<NetcodeErrorEvent>) {
    warn!("network error at the host: {}", *error);
}

fn flush_host_outbox(
    mut outbox: ResMut<HostOutbox>,
    ids: Res<NetworkIdMap>,
    clients: Query<(), With<ConnectedClient>>,
    mut to_clients: MessageWriter<ToClients<Down>>,
    mut disconnects: MessageWriter<DisconnectRequest>,
) {
    let outbox = &mut *outbox;
    let live = |id: ConnId| {
        ids.get(&NetworkId::new(id))
            .copied()
            .filter(|&entity| clients.contains(entity))
    };
    for (id, message) in outbox.sends.drain(..) {
        if let Some(entity) = live(id) {
            to_clients.write(ToClients {
                targets: SendTargets::Single(ClientId::Client(entity)),
                message,
            });
        }
    }
    outbox.closes.sort_unstable();
    outbox.closes.dedup();
    for id in outbox.closes.drain(..) {
        if let Some(client) = live(id) {
            disconnects.write(DisconnectRequest { client });
        }
    }
}

/// A Bevy world with only what the transport needs, its schedules run on the calling
/// thread (a few systems each; a thread pool would cost more than it saves).
fn headless_world(configure: impl FnOnce(&mut App)) -> World {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        RepliconPlugins
            .set(RepliconSharedPlugin {
                auth_method: AuthMethod::Custom,
            })
            .set(ServerPlugin {
                // No replication: without a tick the server never builds updates.
                tick_schedule: None,
                ..default()
            }),
        RepliconRenetPlugins,
    ))
    .add_client_message::<Up>(Channel::Ordered)
    .add_server_message::<Down>(Channel::Ordered)
    // Sent at once, not held back for a replication tick.
    .make_message_independent::<Down>();
    configure(&mut app);
    app.finish();
    app.cleanup();

    let mut world = std::mem::take(app.world_mut());
    for (_, schedule) in world.resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::default());
        schedule.set_apply_final_deferred(true);
    }
    world
}

/// renet's channels for replicon's, with room for large messages to clients and
/// `up_memory` bytes of a client's messages.
fn connection_config(world: &World, up_memory: usize) -> ConnectionConfig {
    let channels = world.resource::<RepliconChannels>();
    let registry = world.resource::<RemoteMessageRegistry>();
    let mut server_channels_config = channels.server_configs();
    let mut client_channels_config = channels.client_configs();
    if let Some(down) = registry
        .server_message_channel::<Down>()
        .and_then(|index| server_channels_config.get_mut(index))
    {
        down.max_memory_usage_bytes = DOWN_MEMORY;
    }
    if let Some(up) = registry
        .client_message_channel::<Up>()
        .and_then(|index| client_channels_config.get_mut(index))
    {
        up.max_memory_usage_bytes = up_memory;
    }
    ConnectionConfig {
        server_channels_config,
        client_channels_config,
        ..default()
    }
}

fn since_epoch() -> Result<Duration, TransportError> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(|_| TransportError::Clock)
}

/// A client id no other client is likely to draw (netcode refuses a duplicate).
fn fresh_id() -> ConnId {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    RandomState::new().hash_one((nanos, std::process::id()))
}

#[cfg(test)]
mod tests;
