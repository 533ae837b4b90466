//! The network window over the menu: the form to join a game hosted elsewhere or to
//! host the setup picked in the menu, then the lobby: the room code and where others
//! join, each seat with who holds it and whether they are ready, and for the window
//! that hosts, a bot for any seat and Start.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::Screen;
use crate::client::core::remote::{
    DEFAULT_PORT, HostGame, Hosting, JoinHost, JoinStage, Joining, LobbyOrder, NetForm, own_address,
};
use crate::client::table::theme::{self, WARN};
use crate::dispatch_game;
use crate::framework::{Playable, PlayerId};
use crate::net::wire::{Holder, SeatInfo};
use crate::rules::GameKind;

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_network_window.run_if(in_state(Screen::Menu)),
    );
    crate::client::frame::redraw::watch::<Joining>(app);
    crate::client::frame::redraw::watch::<NetForm>(app);
}

/// What the window can ask for, besides the lobby's orders.
#[derive(SystemParam)]
struct Asks<'w> {
    joins: MessageWriter<'w, JoinHost>,
    hosts: MessageWriter<'w, HostGame>,
    lobby: MessageWriter<'w, LobbyOrder>,
}

fn draw_network_window(
    mut contexts: EguiContexts,
    mut form: ResMut<NetForm>,
    joining: Res<Joining>,
    hosting: Option<Res<Hosting>>,
    mut asks: Asks,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !form.open && joining.stage == JoinStage::Idle {
        if let Some(h) = hosting.as_deref() {
            still_hosting(ctx, h, &mut asks);
        }
        return Ok(());
    }
    let title = match (&joining.stage, hosting.is_some()) {
        (JoinStage::Idle, _) if form.host.is_some() => "Host a game across machines",
        (JoinStage::Idle, _) => "Join a game across machines",
        (_, true) => "Hosting: the lobby",
        _ => "The lobby",
    };
    let mut open = true;
    egui::Window::new(title)
        .id(egui::Id::new("network window"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .min_width(520.0)
        .show(ctx, |ui| match &joining.stage {
            JoinStage::Idle => join_or_host_form(ui, &mut form, &mut asks),
            stage => lobby_view(ui, stage, &joining, hosting.as_deref(), &mut asks),
        });
    if !open {
        form.open = false;
        form.host = None;
        if joining.stage != JoinStage::Idle {
            asks.lobby.write(LobbyOrder::Leave);
        }
    }
    Ok(())
}

/// The form: your name, then where to join, or the port to host on.
fn join_or_host_form(ui: &mut egui::Ui, form: &mut NetForm, asks: &mut Asks<'_>) {
    form_fields(ui, form);
    ui.add_space(6.0);
    if let Some((path, seats)) = form.host.clone() {
        host_button(ui, form, path, seats, asks);
    } else {
        join_button(ui, form, asks);
    }
}

/// The form's fields: the name, and the port to host on or where to join.
fn form_fields(ui: &mut egui::Ui, form: &mut NetForm) {
    egui::Grid::new("network form")
        .num_columns(2)
        .spacing([10.0, 6.0])
        .show(ui, |ui| {
            ui.label("Your name");
            ui.add(egui::TextEdit::singleline(&mut form.name).char_limit(24))
                .on_hover_text("What the other players see beside your seat and your chat");
            ui.end_row();
            if form.host.is_some() {
                ui.label("UDP port");
                ui.add(egui::TextEdit::singleline(&mut form.port).desired_width(80.0))
                    .on_hover_text(format!(
                        "The port the others join on (default {DEFAULT_PORT}): open it for UDP in this machine's firewall"
                    ));
                ui.end_row();
            } else {
                ui.label("Host");
                ui.add(
                    egui::TextEdit::singleline(&mut form.address)
                        .hint_text(format!("192.168.1.20:{DEFAULT_PORT}")),
                )
                .on_hover_text("The address and port the host's lobby shows, as HOST:PORT");
                ui.end_row();
                ui.label("Room code");
                ui.add(egui::TextEdit::singleline(&mut form.code).char_limit(16))
                    .on_hover_text("The six letters the host's lobby shows");
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut form.watch, "watch only")
                    .on_hover_text("Watch the game without a seat: you see only what everyone may see");
                ui.end_row();
            }
        });
}

/// Host: what the seats will be, and the button.
fn host_button(
    ui: &mut egui::Ui,
    form: &NetForm,
    path: std::path::PathBuf,
    seats: Vec<crate::framework::Seat>,
    asks: &mut Asks<'_>,
) {
    ui.label(
            egui::RichText::new(format!(
                "{}: the first person's seat is yours; every other person's seat is for a player joining from another machine; bots play on this machine.",
                path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
            ))
            .weak(),
        );
    let port = form.port.trim().parse::<u16>();
    if ui
        .add_enabled(
            port.is_ok(),
            egui::Button::new(egui::RichText::new("Host").size(18.0)),
        )
        .on_disabled_hover_text("The port is a number from 1 to 65535")
        .clicked()
    {
        asks.hosts.write(HostGame {
            path,
            seats,
            port: port.unwrap_or(DEFAULT_PORT),
            name: form.name.trim().to_string(),
        });
    }
}

/// Join: the button, once the address and code are given.
fn join_button(ui: &mut egui::Ui, form: &NetForm, asks: &mut Asks<'_>) {
    let ready = !form.address.trim().is_empty() && (form.watch || !form.code.trim().is_empty());
    if ui
        .add_enabled(
            ready,
            egui::Button::new(egui::RichText::new("Join").size(18.0)),
        )
        .on_disabled_hover_text("Give the host's address and the room code first")
        .clicked()
    {
        let address = if form.address.contains(':') {
            form.address.trim().to_string()
        } else {
            format!("{}:{DEFAULT_PORT}", form.address.trim())
        };
        asks.joins.write(JoinHost {
            address,
            code: form.code.trim().to_string(),
            name: form.name.trim().to_string(),
            watch: form.watch,
            seat: None,
        });
    }
}

/// The lobby: the room, the seats, Ready, and the host's own buttons.
fn lobby_view(
    ui: &mut egui::Ui,
    stage: &JoinStage,
    joining: &Joining,
    hosting: Option<&Hosting>,
    asks: &mut Asks<'_>,
) {
    if let Some(h) = hosting {
        host_header(ui, h);
    }
    match stage {
        JoinStage::Dialing => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("Calling {}…", joining.asked.address));
            });
            return;
        }
        JoinStage::Failed(why) => {
            ui.colored_label(WARN, why);
            if ui.button("Back").clicked() {
                asks.lobby.write(LobbyOrder::Leave);
            }
            return;
        }
        _ => {}
    }
    let game = joining.game.map_or("", GameKind::title);
    let setup = std::path::Path::new(&joining.setup)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    ui.label(format!(
        "{game}, {setup}: {}",
        joining.seat.map_or_else(
            || "you are watching".to_string(),
            |s| format!("you play seat {}", s + 1)
        )
    ));
    ui.add_space(4.0);
    egui::Grid::new("lobby seats")
        .num_columns(4)
        .striped(true)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            for seat in &joining.lobby {
                seat_row(ui, seat, joining, hosting.is_some(), asks);
                ui.end_row();
            }
        });
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        if joining.seat.is_some() {
            let mut ready = joining.ready;
            if ui
                .checkbox(&mut ready, "I'm ready")
                .on_hover_text("The game starts when every remote seat is taken and ready")
                .changed()
            {
                asks.lobby.write(LobbyOrder::Ready(ready));
            }
        }
        if hosting.is_some()
            && ui
                .button("Start now")
                .on_hover_text("Start without waiting: refused while a remote seat is open or not ready (give it to a bot first)")
                .clicked()
        {
            asks.lobby.write(LobbyOrder::Start);
        }
        if ui.button("Leave").clicked() {
            asks.lobby.write(LobbyOrder::Leave);
        }
    });
    for line in joining.heard.iter().rev().take(4).rev() {
        ui.label(egui::RichText::new(line).weak());
    }
}

/// A seat of the lobby: its name, who holds it, ready, and the host's bot picker.
fn seat_row(
    ui: &mut egui::Ui,
    seat: &SeatInfo,
    joining: &Joining,
    host: bool,
    asks: &mut Asks<'_>,
) {
    let p = PlayerId(seat.seat);
    let you = joining.seat == Some(seat.seat);
    ui.label(
        egui::RichText::new(format!("{} {}", seat.seat + 1, seat.name))
            .strong()
            .color(theme::seat_color(p)),
    );
    let holder = match &seat.holder {
        Holder::Host => "a person at the host".to_string(),
        Holder::Remote { player, connected } => match (you, connected) {
            (true, _) => format!("{player} (you)"),
            (false, true) => player.clone(),
            (false, false) => format!("{player} (away)"),
        },
        Holder::Open => "open: waiting for a player".to_string(),
        Holder::Bot(name) => format!("{name} bot"),
    };
    ui.label(holder);
    ui.label(if seat.ready { "ready" } else { "not ready" });
    if host && !you && !matches!(seat.holder, Holder::Bot(_)) {
        let bots = joining.game.map_or(&[][..], bot_names);
        egui::ComboBox::from_id_salt(("lobby bot", seat.seat))
            .selected_text("give to a bot")
            .show_ui(ui, |ui| {
                for name in bots {
                    if ui.selectable_label(false, format!("{name} bot")).clicked() {
                        asks.lobby
                            .write(LobbyOrder::GiveToBot(p, (*name).to_string()));
                    }
                }
            });
    } else {
        ui.label("");
    }
}

fn bot_names(game: GameKind) -> &'static [&'static str] {
    dispatch_game!(game, names_of())
}

fn names_of<G: Playable>() -> &'static [&'static str] {
    G::bot_names()
}

/// The window that hosts: the room code, where the others join, and the firewall.
fn host_header(ui: &mut egui::Ui, h: &Hosting) {
    ui.label(
        egui::RichText::new(format!(
            "Room code {}   ·   others join at {}:{}",
            h.thread.code,
            own_address(),
            h.thread.port
        ))
        .size(18.0)
        .strong()
        .color(theme::TITLE),
    );
    ui.label(
            egui::RichText::new(format!(
                "Open UDP port {} in this machine's firewall for players outside it. They join from their menu (Join a game…) or with: tanktable play --join {}:{} --code {}",
                h.thread.port,
                own_address(),
                h.thread.port,
                h.thread.code
            ))
            .weak(),
        );
    ui.separator();
}

/// Back at the menu while this window hosts a game: the room goes on (the bots play, the
/// others wait); join it again, or stop hosting.
fn still_hosting(ctx: &egui::Context, h: &Hosting, asks: &mut Asks<'_>) {
    egui::Window::new("Hosting")
        .id(egui::Id::new("still hosting"))
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label(format!(
                    "You host {}: room code {}, port {}.",
                    h.game.title(),
                    h.thread.code,
                    h.thread.port
                ));
                if ui
                    .button("Back to the game")
                    .on_hover_text("Take your seat again")
                    .clicked()
                {
                    asks.joins.write(h.join.clone());
                }
                if ui
                    .button("Stop hosting")
                    .on_hover_text("The game is saved in the data folder's network/ and the others are disconnected")
                    .clicked()
                {
                    asks.lobby.write(LobbyOrder::Leave);
                }
            });
        });
}
