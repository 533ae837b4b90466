//! The transport over loopback: connections, limits, the version check, latency.

use super::*;

/// A host and its clients, each updated in turn; what each heard is kept.
struct Rig {
    host: HostTransport,
    clients: Vec<ClientTransport>,
    host_heard: Vec<HostEvent>,
    heard: Vec<Vec<ClientEvent>>,
}

impl Rig {
    fn new(protocol: u64, max_message: usize) -> Self {
        let host = HostTransport::bind(0, 4, protocol, max_message).expect("a free port");
        Self {
            host,
            clients: Vec::new(),
            host_heard: Vec::new(),
            heard: Vec::new(),
        }
    }

    fn addr(&self) -> SocketAddr {
        SocketAddr::from((Ipv4Addr::LOCALHOST, self.host.local_addr().port()))
    }

    /// Connects one more client; returns its index.
    fn join(&mut self, protocol: u64) -> usize {
        let client = ClientTransport::connect(self.addr(), protocol).expect("a socket");
        self.clients.push(client);
        self.heard.push(Vec::new());
        self.clients.len() - 1
    }

    fn step(&mut self) {
        self.host_heard.extend(self.host.update());
        for (client, heard) in self.clients.iter_mut().zip(&mut self.heard) {
            heard.extend(client.update());
        }
    }

    /// Steps until `done` holds; fails after `secs` seconds.
    fn until(&mut self, what: &str, secs: u64, done: impl Fn(&Self) -> bool) {
        let start = Instant::now();
        while !done(self) {
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "timed out waiting for {what}; the host heard {:?}; the clients heard {:?}",
                brief_host(&self.host_heard),
                self.heard
                    .iter()
                    .map(|h| brief_client(h))
                    .collect::<Vec<_>>(),
            );
            self.step();
            std::thread::sleep(Duration::from_micros(100));
        }
    }

    fn host_got(&self, event: &HostEvent) -> bool {
        self.host_heard.contains(event)
    }

    fn client_got(&self, index: usize, event: &ClientEvent) -> bool {
        self.heard[index].contains(event)
    }

    fn ended(&self, index: usize) -> Option<&str> {
        self.heard[index].iter().find_map(|e| match e {
            ClientEvent::Disconnected(why) => Some(why.as_str()),
            _ => None,
        })
    }
}

fn brief_host(events: &[HostEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            HostEvent::Received(id, bytes) => format!("Received({id}, {} bytes)", bytes.len()),
            other => format!("{other:?}"),
        })
        .collect()
}

fn brief_client(events: &[ClientEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            ClientEvent::Received(bytes) => format!("Received({} bytes)", bytes.len()),
            other => format!("{other:?}"),
        })
        .collect()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

#[test]
fn transports_are_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<HostTransport>();
    both::<ClientTransport>();
}

#[test]
fn host_and_two_clients_over_loopback() {
    let mut rig = Rig::new(7, 64 * 1024);
    let a = rig.join(7);
    let b = rig.join(7);
    let (a_id, b_id) = (rig.clients[a].id(), rig.clients[b].id());
    rig.until("both clients to connect", 5, |r| {
        r.host_got(&HostEvent::Connected(a_id))
            && r.host_got(&HostEvent::Connected(b_id))
            && r.client_got(a, &ClientEvent::Connected)
            && r.client_got(b, &ClientEvent::Connected)
    });
    assert!(rig.clients[a].is_connected() && rig.clients[b].is_connected());

    // A second host cannot take the same port.
    let taken = HostTransport::bind(rig.host.local_addr().port(), 4, 7, 1024);
    let taken = taken.err().expect("the port is taken").to_string();
    assert!(taken.contains("address in use"), "{taken}");

    // Each client's message reaches the host under its own id.
    rig.clients[a].send(b"from a".to_vec());
    rig.clients[b].send(b"from b".to_vec());
    rig.until("both messages", 5, |r| {
        r.host_got(&HostEvent::Received(a_id, b"from a".to_vec()))
            && r.host_got(&HostEvent::Received(b_id, b"from b".to_vec()))
    });

    // A message to one client reaches that client only.
    rig.host.send(a_id, b"only a".to_vec());
    rig.until("a's message", 5, |r| {
        r.client_got(a, &ClientEvent::Received(b"only a".to_vec()))
    });
    for _ in 0..20 {
        rig.step();
    }
    assert!(
        !rig.heard[b]
            .iter()
            .any(|e| matches!(e, ClientEvent::Received(_))),
        "b heard {:?}",
        brief_client(&rig.heard[b])
    );
    assert_eq!(rig.host.bytes_sent_to(a_id), 6);
    assert_eq!(rig.host.bytes_sent_to(b_id), 0);

    // Round trips with no sleep: the host's update sends, the client's update reads.
    let mut down = Vec::new();
    let mut up = Vec::new();
    for i in 0u32..200 {
        let message = i.to_le_bytes().to_vec();
        rig.host.send(a_id, message.clone());
        let start = Instant::now();
        'wait: loop {
            let _ = rig.host.update();
            for event in rig.clients[a].update() {
                if event == ClientEvent::Received(message.clone()) {
                    break 'wait;
                }
            }
            assert!(start.elapsed() < Duration::from_secs(2), "message {i} lost");
        }
        down.push(start.elapsed());

        rig.clients[a].send(message.clone());
        let start = Instant::now();
        'wait: loop {
            let _ = rig.clients[a].update();
            for event in rig.host.update() {
                if event == HostEvent::Received(a_id, message.clone()) {
                    break 'wait;
                }
            }
            assert!(start.elapsed() < Duration::from_secs(2), "message {i} lost");
        }
        up.push(start.elapsed());
    }
    let idle = Instant::now();
    for _ in 0..200 {
        let _ = rig.host.update();
    }
    println!(
        "loopback latency, host→client: median {:?}, worst {:?}; client→host: median {:?}, \
         worst {:?}; an idle host update: {:?}",
        median(down.clone()),
        down.iter().max().copied().unwrap_or_default(),
        median(up.clone()),
        up.iter().max().copied().unwrap_or_default(),
        idle.elapsed() / 200,
    );
    assert!(median(down) < Duration::from_millis(20));
    assert_eq!(rig.host.bytes_sent_to(a_id), 6 + 200 * 4);

    // A flood of a thousand 1 KB messages arrives whole and in order.
    for i in 0u32..1000 {
        let mut message = i.to_le_bytes().to_vec();
        message.resize(1000, 0);
        rig.clients[a].send(message);
    }
    let flood = Instant::now();
    let before = rig.host_heard.len();
    rig.until("the flood", 5, |r| r.host_heard.len() >= before + 1000);
    let order: Vec<u32> = rig.host_heard[before..]
        .iter()
        .filter_map(|e| match e {
            HostEvent::Received(id, bytes) if *id == a_id => {
                Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
            }
            _ => None,
        })
        .collect();
    assert_eq!(order, (0..1000).collect::<Vec<_>>());
    println!("a thousand 1 KB messages took {:?}", flood.elapsed());

    // A client of another version is refused with a sentence, quickly.
    let c = rig.join(8);
    let c_id = rig.clients[c].id();
    let refused = Instant::now();
    rig.until("the refusal", 3, |r| r.ended(c).is_some());
    let why = rig.ended(c).unwrap_or_default().to_string();
    assert!(
        why.contains("another version") && why.contains("version 7") && why.contains("version 8"),
        "{why}"
    );
    assert!(!rig.clients[c].is_connected());
    assert!(!rig.host_got(&HostEvent::Connected(c_id)));
    println!("refused in {:?}: {why}", refused.elapsed());

    // A 200 KiB message gets its sender kicked; the host and the other client go on.
    rig.clients[b].send(vec![7; 200 * 1024]);
    rig.until("b's kick", 5, |r| {
        r.ended(b).is_some()
            && r.host_heard
                .iter()
                .any(|e| matches!(e, HostEvent::Disconnected(id, _) if *id == b_id))
    });
    let why = rig.ended(b).unwrap_or_default().to_string();
    assert!(why.contains("over the limit of 65536 bytes"), "{why}");
    assert!(
        !rig.host_heard.iter().any(
            |e| matches!(e, HostEvent::Received(id, bytes) if *id == b_id && bytes.len() > 1000)
        )
    );
    println!("kicked: {why}");

    rig.clients[a].send(b"still here".to_vec());
    rig.host.send(a_id, b"so am I".to_vec());
    rig.host.send(b_id, b"gone".to_vec());
    rig.until("a's exchange after the kick", 5, |r| {
        r.host_got(&HostEvent::Received(a_id, b"still here".to_vec()))
            && r.client_got(a, &ClientEvent::Received(b"so am I".to_vec()))
    });
    assert_eq!(rig.host.bytes_sent_to(b_id), 0);
    assert!(rig.clients[a].is_connected());

    // A kick by the host reaches the client with its reason, and the host hears of it.
    rig.host.kick(a_id, "the room closed");
    rig.until("a's kick", 5, |r| r.ended(a).is_some());
    assert_eq!(
        rig.ended(a),
        Some("the host closed the connection: the room closed")
    );
    assert!(rig.host_got(&HostEvent::Disconnected(
        a_id,
        "kicked by the host: the room closed".to_string()
    )));
}

#[test]
fn a_silent_host_times_out_with_a_sentence() {
    let silent = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a socket");
    let addr = silent.local_addr().expect("its address");
    let mut client = ClientTransport::connect(addr, 1).expect("a socket");
    let start = Instant::now();
    let why = loop {
        if let Some(ClientEvent::Disconnected(why)) = client.update().into_iter().next() {
            break why;
        }
        assert!(start.elapsed() < Duration::from_secs(8), "no timeout");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(
        why.starts_with("no answer from a Tanktable host at"),
        "{why}"
    );
    assert!(start.elapsed() >= CONNECT_TIMEOUT);
    assert!(client.update().is_empty());
}
