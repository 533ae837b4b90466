//! Data files as Bevy assets, and hot reload for every game.
//!
//! Scenarios, setups and rules tables load through [`DataFileLoader`], which calls the
//! same read-and-validate code as `tanktable check`; a setup depends on its game's rules
//! tables, so a change to either reloads it. Bevy's file watcher reports the change: a
//! valid new version of the open game's setup is taken at once if nothing has been played
//! yet, else the players are asked whether to restart with it; an invalid one shows every
//! problem in a panel and changes nothing.
//!
//! The watched folders are the project's `assets/` (the rules tables, as the default asset
//! source), `scenarios/` (the source `scenarios://`), and the folder of a file opened on
//! the command line (the source `opened://`). A file elsewhere opens, but is not watched.

use std::path::{Path, PathBuf};

use bevy::asset::io::{AssetSourceBuilder, Reader};
use bevy::asset::{AssetLoader, AssetPath, LoadContext};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::hud::WARN;
use super::session::{AnySetup, GameClient, GameSource, OpenGame, Session};
use crate::dispatch_game;
use crate::framework::{Playable, Seat};
use crate::rules::{FileKind, GameKind, detect};

/// The asset plugin's settings: the project's `assets/` as the default source, watched.
pub(super) fn asset_plugin() -> AssetPlugin {
    AssetPlugin {
        file_path: Roots::get().assets.display().to_string(),
        watch_for_changes_override: Some(true),
        ..default()
    }
}

/// The extra sources, registered before the asset plugin: `scenarios://`, and
/// `opened://` for the folder of a file opened on the command line.
pub(super) fn sources(app: &mut App, opened: Option<&Path>) {
    let roots = Roots::get();
    app.register_asset_source(
        "scenarios",
        AssetSourceBuilder::platform_default(&roots.scenarios.display().to_string(), None),
    );
    if let Some(dir) = opened
        .and_then(|p| p.canonicalize().ok())
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .filter(|d| !d.starts_with(&roots.assets) && !d.starts_with(&roots.scenarios))
    {
        app.register_asset_source(
            "opened",
            AssetSourceBuilder::platform_default(&dir.display().to_string(), None),
        );
        app.insert_resource(Opened(dir));
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_asset::<DataFile>()
        .register_asset_loader(DataFileLoader)
        .init_resource::<Watch>()
        .add_systems(EguiPrimaryContextPass, draw_reload)
        .add_systems(Update, take_changes);
    super::redraw::watch::<Watch>(app);
    for game in GameKind::ALL {
        dispatch_game!(game, watch_plugin(app));
    }
}

fn watch_plugin<G: GameClient>(app: &mut App) {
    app.add_systems(
        Update,
        (watch_session::<G>, offer_change::<G>)
            .chain()
            .after(take_changes)
            .run_if(resource_exists::<Session<G>>),
    );
}

/// The folders the asset sources stand for.
#[derive(Clone, Debug)]
struct Roots {
    assets: PathBuf,
    scenarios: PathBuf,
}

impl Roots {
    fn get() -> Self {
        let find = |name: &str| {
            crate::data::find_project_file(name)
                .and_then(|p| p.canonicalize().ok())
                .unwrap_or_else(|| PathBuf::from(name))
        };
        Self {
            assets: find("assets"),
            scenarios: find("scenarios"),
        }
    }
}

/// The folder behind `opened://`.
#[derive(Resource, Clone, Debug)]
struct Opened(PathBuf);

/// The asset path of a file on disk, if it lies in a watched folder.
fn asset_path_of(path: &Path, opened: Option<&Opened>) -> Option<AssetPath<'static>> {
    let full = path.canonicalize().ok()?;
    let roots = Roots::get();
    if let Ok(rel) = full.strip_prefix(&roots.assets) {
        return Some(AssetPath::from(rel.to_path_buf()));
    }
    if let Ok(rel) = full.strip_prefix(&roots.scenarios) {
        return Some(AssetPath::from(rel.to_path_buf()).with_source("scenarios"));
    }
    let o = opened?;
    let rel = full.strip_prefix(&o.0).ok()?;
    Some(AssetPath::from(rel.to_path_buf()).with_source("opened"))
}

/// A data file as read and validated.
#[derive(Asset, TypePath, Debug)]
pub struct DataFile {
    /// What the file holds, or every problem in it.
    pub read: Result<Read, String>,
}

/// What a valid data file holds.
#[derive(Debug)]
pub enum Read {
    /// A setup: a new game can start from it.
    Setup(Box<AnySetup>),
    /// A valid rules table (or any other file), checked.
    Checked,
}

/// Reads scenarios, setups and rules tables of every game with the same code as `check`.
#[derive(Default, TypePath)]
pub struct DataFileLoader;

impl AssetLoader for DataFileLoader {
    type Asset = DataFile;
    type Settings = ();
    type Error = std::io::Error;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        ctx: &mut LoadContext<'_>,
    ) -> Result<DataFile, std::io::Error> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let path = real_path(ctx.path());
        let read = match String::from_utf8(bytes) {
            Err(_) => Err(format!("{}: not a text file", path.display())),
            Ok(text) => match detect(&path, &text) {
                Err(e) => Err(e),
                Ok(found) => {
                    // A setup depends on its game's rules tables: a change to one of them
                    // reloads it.
                    if found.kind == FileKind::Setup {
                        for table in found.game.rules_tables() {
                            let rel = table.strip_prefix("assets/").unwrap_or(table);
                            let _ = ctx.read_asset_bytes(rel.to_string()).await;
                        }
                    }
                    dispatch_game!(found.game, validate(&path, &text, found.kind))
                }
            },
        };
        Ok(DataFile { read })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// The file on disk behind an asset path.
fn real_path(asset: &AssetPath<'_>) -> PathBuf {
    let roots = Roots::get();
    let base = match asset.source().as_str() {
        Some("scenarios") => roots.scenarios,
        Some(_) => PathBuf::new(),
        None => roots.assets,
    };
    base.join(asset.path())
}

fn validate<G: Playable>(path: &Path, text: &str, kind: FileKind) -> Result<Read, String> {
    match kind {
        FileKind::Setup => {
            let rules = G::load_rules(None).map_err(|d| d.to_string())?;
            let setup = G::parse_setup(path, text, &rules).map_err(|d| d.to_string())?;
            Ok(Read::Setup(Box::new(any_setup::<G>(setup))))
        }
        FileKind::Rules => G::load_rules(Some(path))
            .map(|_| Read::Checked)
            .map_err(|d| d.to_string()),
        FileKind::Record
        | FileKind::Design
        | FileKind::Campaign
        | FileKind::CampaignState
        | FileKind::Variant => Ok(Read::Checked),
    }
}

/// A setup of game `G` as one of the five.
pub(super) fn any_setup<G: Playable>(setup: G::Setup) -> AnySetup {
    let boxed: Box<dyn std::any::Any> = Box::new(setup);
    match G::KIND {
        GameKind::TankCommander => AnySetup::TankCommander(*unbox(boxed)),
        GameKind::TankChess => AnySetup::TankChess(*unbox(boxed)),
        GameKind::BattleTanks => AnySetup::BattleTanks(*unbox(boxed)),
        GameKind::TankCombat => AnySetup::TankCombat(*unbox(boxed)),
        GameKind::RangeDuel => AnySetup::RangeDuel(*unbox(boxed)),
    }
}

fn unbox<T: 'static>(b: Box<dyn std::any::Any>) -> Box<T> {
    b.downcast::<T>()
        .unwrap_or_else(|_| unreachable!("G::KIND names G's own setup type"))
}

/// What is watched, and what the watching found.
#[derive(Resource, Default)]
struct Watch {
    /// The open game's setup file, as an asset.
    handle: Option<Handle<DataFile>>,
    /// The generation of the session it was loaded for.
    generation: u64,
    /// A valid new version reported, not yet taken up.
    changed: Option<Box<AnySetup>>,
    /// Problems in a changed file.
    problems: Vec<String>,
    /// A new version waiting for the players' yes.
    pending: Option<Box<AnySetup>>,
}

/// Loads the open game's setup file as an asset, so that its changes are reported.
fn watch_session<G: GameClient>(
    session: Res<Session<G>>,
    server: Res<AssetServer>,
    opened: Option<Res<Opened>>,
    mut watch: ResMut<Watch>,
) {
    if watch.generation == session.generation {
        return;
    }
    watch.generation = session.generation;
    watch.pending = None;
    watch.changed = None;
    watch.handle = session
        .path
        .as_deref()
        .and_then(|p| asset_path_of(p, opened.as_deref()))
        .map(|p| server.load::<DataFile>(p));
}

/// Reads the changes the file watcher reported.
fn take_changes(
    mut events: MessageReader<AssetEvent<DataFile>>,
    files: Res<Assets<DataFile>>,
    mut watch: ResMut<Watch>,
) {
    for event in events.read() {
        let AssetEvent::Modified { id } = event else {
            continue;
        };
        if watch.handle.as_ref().is_none_or(|h| h.id() != *id) {
            continue;
        }
        match files.get(*id).map(|f| &f.read) {
            Some(Ok(Read::Setup(setup))) => {
                watch.problems.clear();
                watch.changed = Some(setup.clone());
                info!("the open game's setup changed on disk");
            }
            Some(Err(problems)) => {
                watch.problems = problems.lines().map(str::to_string).collect();
            }
            _ => {}
        }
    }
}

/// A valid change: taken at once before anything was played, else offered.
fn offer_change<G: GameClient>(
    session: Res<Session<G>>,
    mut watch: ResMut<Watch>,
    mut opens: MessageWriter<OpenGame>,
) {
    if watch.changed.is_none() {
        return;
    }
    let Some(setup) = watch.changed.take() else {
        return;
    };
    if session.replay.is_some() {
        return;
    }
    if session.game.history().is_empty() {
        opens.write(reopen(&session, setup));
    } else {
        watch.pending = Some(setup);
    }
}

/// The same game, seats and seed on the new version of its setup.
fn reopen<G: GameClient>(session: &Session<G>, setup: Box<AnySetup>) -> OpenGame {
    OpenGame {
        source: GameSource::Setup(setup, session.source.clone()),
        replay: false,
        seats: Some(session.seats.clone()),
        seed: Some(session.seed),
        path: session.path.clone(),
        backup: None,
    }
}

/// The seats of whatever game is open, for a restart (the panel is not generic).
#[derive(Default)]
struct Restart {
    seats: Vec<Seat>,
    seed: u64,
    source: String,
    path: Option<PathBuf>,
}

fn restart_of<G: GameClient>(world: &World) -> Option<Restart> {
    let s = world.get_resource::<Session<G>>()?;
    Some(Restart {
        seats: s.seats.clone(),
        seed: s.seed,
        source: s.source.clone(),
        path: s.path.clone(),
    })
}

fn draw_reload(world: &mut World) {
    let restart = GameKind::ALL
        .into_iter()
        .find_map(|g| dispatch_game!(g, restart_of(world)));
    let mut contexts = bevy::ecs::system::SystemState::<EguiContexts>::new(world);
    let Ok(mut egui) = contexts.get_mut(world) else {
        return;
    };
    let Ok(ctx) = egui.ctx_mut() else {
        return;
    };
    let ctx = ctx.clone();
    let mut watch = world.resource_mut::<Watch>();
    if !watch.problems.is_empty() {
        let mut dismiss = false;
        egui::Window::new("Problems in a changed file")
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -110.0])
            .default_width(640.0)
            .show(&ctx, |ui| {
                ui.label("The file was not taken up; the game goes on with the last good version. Fix it and save again.");
                egui::ScrollArea::vertical().max_height(200.0).show(ui, |ui| {
                    for e in &watch.problems {
                        ui.label(egui::RichText::new(e).monospace().color(WARN));
                    }
                });
                dismiss = ui.button("Dismiss").clicked();
            });
        if dismiss {
            watch.problems.clear();
        }
    }
    let mut answer = None;
    if watch.pending.is_some() {
        egui::Window::new("A file changed on disk")
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .show(&ctx, |ui| {
                ui.label("The setup of this game changed. Restart the game with the new version? The actions played so far will be lost (the autosave keeps them until the next action).");
                ui.horizontal(|ui| {
                    if ui.button("Restart with the change").clicked() {
                        answer = Some(true);
                    }
                    if ui.button("Keep playing").clicked() {
                        answer = Some(false);
                    }
                });
            });
    }
    if let Some(yes) = answer {
        let pending = watch.pending.take();
        if let (true, Some(setup), Some(r)) = (yes, pending, restart) {
            world.write_message(OpenGame {
                source: GameSource::Setup(setup, r.source),
                replay: false,
                seats: Some(r.seats),
                seed: Some(r.seed),
                path: r.path,
                backup: None,
            });
        }
    }
}
