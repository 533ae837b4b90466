//! The sentences the transport says: why a connection ended, why a host cannot listen,
//! why two versions cannot play.

use std::io;
use std::net::SocketAddr;

use super::CONNECT_TIMEOUT;

use bevy_replicon_renet::netcode::NetcodeDisconnectReason;
use bevy_replicon_renet::renet::DisconnectReason;

pub(super) fn listen_failure(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::AddrInUse => {
            "address in use (another program, perhaps another Tanktable host, listens there)"
                .to_string()
        }
        io::ErrorKind::PermissionDenied => {
            "permission denied (ports below 1024 need administrator rights)".to_string()
        }
        _ => e.to_string(),
    }
}

pub(super) fn kicked(reason: &str) -> String {
    format!("kicked by the host: {reason}")
}

pub(super) fn host_side_reason(reason: DisconnectReason) -> String {
    match reason {
        DisconnectReason::Transport | DisconnectReason::DisconnectedByClient => {
            "the player left, or nothing was heard from them for 15 seconds".to_string()
        }
        DisconnectReason::DisconnectedByServer => "the host closed the connection".to_string(),
        DisconnectReason::ReceiveChannelError { .. } => {
            format!("the player sent more than the host holds at once ({reason})")
        }
        other => format!("the connection broke: {other}"),
    }
}

pub(super) fn client_side_reason(reason: NetcodeDisconnectReason, host: SocketAddr) -> String {
    match reason {
        NetcodeDisconnectReason::ConnectionDenied => {
            format!("the host at {host} is full")
        }
        NetcodeDisconnectReason::DisconnectedByServer => {
            "the host closed the connection".to_string()
        }
        NetcodeDisconnectReason::DisconnectedByClient => {
            "this side closed the connection".to_string()
        }
        NetcodeDisconnectReason::ConnectionTimedOut => {
            "the host stopped answering (nothing heard for 15 seconds)".to_string()
        }
        NetcodeDisconnectReason::ConnectTokenExpired
        | NetcodeDisconnectReason::ConnectionRequestTimedOut
        | NetcodeDisconnectReason::ConnectionResponseTimedOut => no_answer(host),
    }
}

pub(super) fn no_answer(host: SocketAddr) -> String {
    format!(
        "no answer from a Tanktable host at {host} within {} seconds: check the address and \
         the port, that the host is running, and that no firewall blocks UDP",
        CONNECT_TIMEOUT.as_secs()
    )
}

pub(super) fn refusal(host_protocol: u64, ours: u64) -> String {
    if host_protocol == ours {
        format!(
            "the host runs another build of Tanktable's network protocol (both say version \
             {ours}, but their messages differ): both players need the same Tanktable release"
        )
    } else {
        format!(
            "the host runs another version of Tanktable's network protocol (the host speaks \
             version {host_protocol}, this copy speaks version {ours}): both players need the \
             same Tanktable release"
        )
    }
}
