//! Data files as Bevy assets, and hot reload for every game.
//!
//! Scenarios, setups and rules tables load through [`DataFileLoader`], which calls the
//! same read-and-validate code as `tanktable check`. Bevy's file watcher reports changes
//! to the open game's setup and to its game's rules tables; once the files have been
//! quiet for [`SETTLE`] seconds, the version on disk is read: a valid new version is
//! taken at once if nothing has been played yet, else the players are asked whether to
//! restart with it ([`ChangeAnswer`]); an invalid one shows every problem in a panel and
//! changes nothing. A file deleted, renamed away or replaced by a folder leaves the game
//! as it is, and says so.
//!
//! The watched folders are the project's `assets/` (the rules tables, as the default asset
//! source), `scenarios/` (the source `scenarios://`), and the folder of a file opened on
//! the command line (the source `opened://`). A file elsewhere opens, but is not watched.
//!
//! Bevy's asset server reloads nothing on a rename: a file renamed onto the name of the
//! open setup (an editor's backup put back, `mv new.ron setup.ron`) would go unnoticed.
//! The watchers here pass each rename on as the removal of the old name and the arrival
//! of the new one, and copy every event to [`Watch`], which reads the files on disk
//! itself once they are quiet.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::asset::io::{AssetSource, AssetSourceBuilder, AssetSourceEvent, AssetSourceId, Reader};
use bevy::asset::{AssetLoader, AssetPath, LoadContext};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::session::{AnySetup, GameClient, GameSource, OpenGame, Session};
use crate::client::table::theme::WARN;
use crate::dispatch_game;
use crate::framework::Playable;
use crate::rules::{FileKind, GameKind, detect};

/// Seconds the watched files must stay unchanged before their new version is read: an
/// editor that writes in steps, or a designer saving again and again, makes one change.
pub const SETTLE: f64 = 0.4;

/// How long the file watcher waits for more events on a file (Bevy's own default).
const DEBOUNCE: Duration = Duration::from_millis(300);

/// Reloads asked for in a row before a file that does not read back as it is on disk is
/// given up on.
const RELOADS: u32 = 3;

/// The asset plugin's settings: the project's `assets/` as the default source, watched.
pub(crate) fn asset_plugin() -> AssetPlugin {
    AssetPlugin {
        file_path: Roots::get().assets.display().to_string(),
        watch_for_changes_override: Some(true),
        ..default()
    }
}

/// The sources, registered before the asset plugin: the default one (`assets/`),
/// `scenarios://`, and `opened://` for the folder of a file opened on the command line.
pub(crate) fn sources(app: &mut App, opened: Option<&Path>) {
    let roots = Roots::get();
    let (copies, events) = async_channel::unbounded();
    app.insert_resource(SourceEvents(events));
    app.register_asset_source(
        AssetSourceId::Default,
        watched_source(&roots.assets, None, copies.clone()),
    );
    app.register_asset_source(
        "scenarios",
        watched_source(&roots.scenarios, Some("scenarios"), copies.clone()),
    );
    if let Some(dir) = opened
        .and_then(|p| p.canonicalize().ok())
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .filter(|d| !d.starts_with(&roots.assets) && !d.starts_with(&roots.scenarios))
    {
        app.register_asset_source("opened", watched_source(&dir, Some("opened"), copies));
        app.insert_resource(Opened(dir));
    }
}

/// The watcher's events of one source, as [`Watch`] reads them.
type Copied = (Option<&'static str>, AssetSourceEvent);

/// A source reading `dir`, whose watcher's events pass through [`pass_on`].
fn watched_source(
    dir: &Path,
    name: Option<&'static str>,
    copies: async_channel::Sender<Copied>,
) -> AssetSourceBuilder {
    let dir = dir.display().to_string();
    let mut watcher = AssetSource::get_default_watcher(dir.clone(), DEBOUNCE);
    AssetSourceBuilder::new(AssetSource::get_default_reader(dir))
        .with_watcher(move |server| {
            let (to_us, from_watcher) = async_channel::unbounded();
            let inner = watcher(to_us)?;
            let copies = copies.clone();
            std::thread::Builder::new()
                .name("tanktable-watch".into())
                .spawn(move || pass_on(&from_watcher, &server, &copies, name))
                .ok()?;
            Some(inner)
        })
        .with_watch_warning(AssetSource::get_default_watch_warning())
}

/// Hands the watcher's events to the asset server, a rename as a removal and an arrival
/// (Bevy's server ignores renames), and copies each to [`Watch`]. Ends with the watcher.
fn pass_on(
    from_watcher: &async_channel::Receiver<AssetSourceEvent>,
    server: &async_channel::Sender<AssetSourceEvent>,
    copies: &async_channel::Sender<Copied>,
    name: Option<&'static str>,
) {
    while let Ok(event) = from_watcher.recv_blocking() {
        let _ = copies.try_send((name, event.clone()));
        let passed = match event {
            AssetSourceEvent::RenamedAsset { old, new } => vec![
                AssetSourceEvent::RemovedAsset(old),
                AssetSourceEvent::AddedAsset(new),
            ],
            event => vec![event],
        };
        for event in passed {
            if server.send_blocking(event).is_err() {
                return;
            }
        }
    }
}

/// The copies of the watchers' events.
#[derive(Resource)]
struct SourceEvents(async_channel::Receiver<Copied>);

/// Hot reload without its panels: the watch, the reading of changes and the answers
/// (headless tests). Needs the asset plugin, with [`sources`] registered before it.
pub fn logic(app: &mut App) {
    app.init_asset::<DataFile>()
        .register_asset_loader(DataFileLoader)
        .init_resource::<Watch>()
        .add_message::<ChangeAnswer>()
        .add_systems(Update, (notice_changes, read_settled).chain());
    crate::client::frame::redraw::watch::<Watch>(app);
    for game in GameKind::ALL {
        dispatch_game!(game, watch_plugin(app));
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(logic)
        .add_systems(EguiPrimaryContextPass, draw_reload);
}

fn watch_plugin<G: GameClient>(app: &mut App) {
    app.add_systems(
        Update,
        (watch_session::<G>, offer_change::<G>, answer_change::<G>)
            .chain()
            .after(read_settled)
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
    /// The bytes it was read from, and those of the rules tables a setup was checked
    /// against (see [`fingerprint`]): tells whether this is the version on disk.
    pub fingerprint: u64,
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
        let mut parts = vec![Some(bytes.clone())];
        let read = match String::from_utf8(bytes) {
            Err(_) => Err(format!("{}: not a text file", path.display())),
            Ok(text) => match detect(&path, &text) {
                Err(e) => Err(e.to_string()),
                Ok(found) => {
                    // A setup depends on its game's rules tables: a change to one of them
                    // reloads it.
                    if found.kind == FileKind::Setup {
                        for table in found.game.rules_tables() {
                            let rel = table.strip_prefix("assets/").unwrap_or(table);
                            parts.push(ctx.read_asset_bytes(rel.to_string()).await.ok());
                        }
                    }
                    dispatch_game!(found.game, validate(&path, &text, found.kind))
                }
            },
        };
        Ok(DataFile {
            read,
            fingerprint: fingerprint(&parts),
        })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// One number for the bytes of a setup and of its game's rules tables, each part `None`
/// where it could not be read. Compared within one run only.
fn fingerprint(parts: &[Option<Vec<u8>>]) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    parts.hash(&mut hasher);
    hasher.finish()
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
        | FileKind::Variant
        | FileKind::SeatCopy => Ok(Read::Checked),
    }
}

/// A setup of game `G` as one of the five.
pub(crate) fn any_setup<G: Playable>(setup: G::Setup) -> AnySetup {
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

/// The players' answer to a changed setup ([`Watch::asking`]).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeAnswer {
    /// A new game on the new version, with the same seats and seed.
    Restart,
    /// Go on with the game on the table; this version is not offered again.
    Keep,
}

/// A file the open game is read from, as the watcher names it and on disk.
#[derive(Clone, Debug)]
struct Watched {
    source: Option<String>,
    relative: PathBuf,
    disk: PathBuf,
}

impl Watched {
    fn is(&self, source: Option<&str>, relative: &Path) -> bool {
        self.source.as_deref() == source && self.relative == relative
    }
}

/// What the panel over the table says about the open game's file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Trouble {
    /// Nothing to say.
    #[default]
    None,
    /// The new version has problems; the game goes on with the last good one.
    Problems,
    /// The file is not there any more (deleted, renamed, a folder in its place).
    Gone,
}

/// The open game's files, and what watching them found.
#[derive(Resource, Default)]
pub struct Watch {
    /// The open game's setup file, as an asset.
    handle: Option<Handle<DataFile>>,
    /// The generation of the session it was loaded for.
    generation: u64,
    /// The setup first, then its game's rules tables.
    files: Vec<Watched>,
    /// When the watcher last reported one of them (seconds of real time), if not yet read.
    touched: Option<f64>,
    /// Reloads asked for since the files were last read.
    reloads: u32,
    /// The new name of a setup renamed away, for the panel.
    renamed_to: Option<PathBuf>,
    /// The fingerprint of the version on the table.
    playing: Option<u64>,
    /// The fingerprint of a version a restart from here is opening.
    opening: Option<u64>,
    /// A valid new version read, not yet offered.
    changed: Option<(Box<AnySetup>, u64)>,
    /// What the panel says, and its lines.
    trouble: Trouble,
    problems: Vec<String>,
    /// A new version waiting for the players' answer.
    pending: Option<(Box<AnySetup>, u64)>,
}

impl Watch {
    /// What the panel over the table is about.
    #[must_use]
    pub fn trouble(&self) -> Trouble {
        self.trouble
    }

    /// The panel's lines: every problem of the new version, each at `file:line:col`, or
    /// what became of the file.
    #[must_use]
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Whether the players are asked to restart with a new version.
    #[must_use]
    pub fn asking(&self) -> bool {
        self.pending.is_some()
    }

    /// Whether a change reported by the watcher is still to be read.
    #[must_use]
    pub fn settling(&self) -> bool {
        self.touched.is_some()
    }

    fn say(&mut self, trouble: Trouble, lines: Vec<String>) {
        self.trouble = trouble;
        self.problems = lines;
    }

    fn clear(&mut self) {
        self.say(Trouble::None, Vec::new());
    }
}

/// Loads the open game's setup file as an asset, and lists the files it is read from.
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
    watch.renamed_to = None;
    watch.reloads = 0;
    watch.clear();
    let asset = session
        .path
        .as_deref()
        .and_then(|p| Some((p.canonicalize().ok()?, asset_path_of(p, opened.as_deref())?)));
    let Some((disk, asset)) = asset else {
        watch.handle = None;
        watch.files.clear();
        watch.touched = None;
        return;
    };
    let roots = Roots::get();
    watch.files = std::iter::once(Watched {
        source: asset.source().as_str().map(str::to_string),
        relative: asset.path().to_path_buf(),
        disk,
    })
    .chain(G::KIND.rules_tables().iter().map(|table| {
        let relative = PathBuf::from(table.strip_prefix("assets/").unwrap_or(table));
        Watched {
            source: None,
            disk: roots.assets.join(&relative),
            relative,
        }
    }))
    .collect();
    let on_disk = fingerprint_on_disk(&watch.files);
    watch.playing = watch.opening.take().or(on_disk);
    watch.handle = Some(server.load::<DataFile>(asset));
}

/// The fingerprint [`DataFileLoader`] gives the files as they are on disk now; `None` if
/// the setup cannot be read.
fn fingerprint_on_disk(files: &[Watched]) -> Option<u64> {
    let mut parts = Vec::with_capacity(files.len());
    for (i, file) in files.iter().enumerate() {
        let bytes = std::fs::read(&file.disk).ok();
        if i == 0 && bytes.is_none() {
            return None;
        }
        parts.push(bytes);
    }
    Some(fingerprint(&parts))
}

/// Notes when the watcher reports a change to one of the open game's files.
fn notice_changes(
    events: Option<Res<SourceEvents>>,
    time: Res<Time<Real>>,
    mut watch: ResMut<Watch>,
) {
    let Some(events) = events else {
        return;
    };
    let now = time.elapsed_secs_f64();
    while let Ok((source, event)) = events.0.try_recv() {
        let Some(setup) = watch.files.first().cloned() else {
            continue;
        };
        let files = watch.files.clone();
        let touches = |path: &Path| files.iter().any(|f| f.is(source, path));
        let touched = match &event {
            AssetSourceEvent::AddedAsset(p)
            | AssetSourceEvent::ModifiedAsset(p)
            | AssetSourceEvent::RemovedAsset(p)
            | AssetSourceEvent::AddedFolder(p)
            | AssetSourceEvent::RemovedFolder(p) => touches(p),
            AssetSourceEvent::RemovedUnknown { path, .. } => touches(path),
            AssetSourceEvent::RenamedAsset { old, new }
            | AssetSourceEvent::RenamedFolder { old, new } => {
                if setup.is(source, old) {
                    watch.renamed_to = setup
                        .disk
                        .parent()
                        .zip(new.file_name())
                        .map(|(dir, name)| dir.join(name));
                }
                touches(old) || touches(new)
            }
            _ => false,
        };
        if touched {
            watch.touched = Some(now);
        }
    }
}

/// Reads the open game's files once the watcher has been quiet for [`SETTLE`] seconds:
/// the version on disk, never one in between.
fn read_settled(
    server: Res<AssetServer>,
    files: Res<Assets<DataFile>>,
    time: Res<Time<Real>>,
    mut watch: ResMut<Watch>,
) {
    let now = time.elapsed_secs_f64();
    let (Some(at), Some(handle), Some(setup)) = (
        watch.touched,
        watch.handle.clone(),
        watch.files.first().cloned(),
    ) else {
        return;
    };
    if now - at < SETTLE {
        return;
    }
    let shown = setup.disk.display();
    if let Some(gone) = setup_gone(&setup, &mut watch) {
        watch.touched = None;
        watch.reloads = 0;
        watch.say(Trouble::Gone, vec![gone]);
        return;
    }
    let asset = files.get(&handle);
    let on_disk = fingerprint_on_disk(&watch.files);
    if on_disk.is_none() || asset.map(|a| a.fingerprint) != on_disk {
        // The asset server has not read this version yet (or read them out of order).
        read_again(&server, &handle, &mut watch, now, &shown);
        return;
    }
    watch.touched = None;
    watch.reloads = 0;
    let Some(DataFile { read, fingerprint }) = asset else {
        return;
    };
    take_read(&mut watch, read, *fingerprint, &shown);
}

/// Why the setup's file is no longer one (a folder now, renamed, deleted), if it is not.
fn setup_gone(setup: &Watched, watch: &mut ResMut<Watch>) -> Option<String> {
    let shown = setup.disk.display();
    match std::fs::metadata(&setup.disk) {
        Ok(meta) if meta.is_file() => None,
        Ok(_) => Some(format!("{shown} is a folder now.")),
        Err(_) => Some(match watch.renamed_to.take() {
            Some(new) if new.exists() => {
                format!("{shown} was renamed to {}.", new.display())
            }
            _ => format!("{shown} was deleted."),
        }),
    }
}

/// Asks the asset server to read the files again ([`RELOADS`] times at most, then says
/// the file could not be read).
fn read_again(
    server: &AssetServer,
    handle: &Handle<DataFile>,
    watch: &mut ResMut<Watch>,
    now: f64,
    shown: &std::path::Display<'_>,
) {
    if watch.reloads < RELOADS {
        watch.reloads += 1;
        watch.touched = Some(now);
        if let Some(path) = handle.path() {
            server.reload(path.clone());
        }
    } else {
        watch.touched = None;
        watch.reloads = 0;
        watch.say(
            Trouble::Problems,
            vec![format!("{shown}: the file could not be read")],
        );
    }
}

/// Takes what the files read as: a setup not known yet is a change, anything else a
/// problem to say.
fn take_read(
    watch: &mut ResMut<Watch>,
    read: &Result<Read, String>,
    fingerprint: u64,
    shown: &std::path::Display<'_>,
) {
    match read {
        Ok(Read::Setup(new)) => {
            watch.clear();
            let known = watch.playing == Some(fingerprint)
                || watch.pending.as_ref().is_some_and(|p| p.1 == fingerprint);
            if !known {
                info!("the open game's setup changed on disk");
                watch.changed = Some((new.clone(), fingerprint));
            }
        }
        Ok(Read::Checked) => watch.say(
            Trouble::Problems,
            vec![format!(
                "{shown}: this is no longer a setup; the game goes on with the last one"
            )],
        ),
        Err(problems) => watch.say(
            Trouble::Problems,
            problems.lines().map(str::to_string).collect(),
        ),
    }
}

/// A valid change: taken at once before anything was played, else offered.
fn offer_change<G: GameClient>(
    session: Res<Session<G>>,
    mut watch: ResMut<Watch>,
    mut opens: MessageWriter<OpenGame>,
) {
    // Looked at first: taking would mark the watch changed every frame (and lay the
    // panels out again).
    if watch.changed.is_none() {
        return;
    }
    let Some((setup, fingerprint)) = watch.changed.take() else {
        return;
    };
    if session.replay.is_some() {
        return;
    }
    if session.game.history().is_empty() {
        watch.opening = Some(fingerprint);
        opens.write(reopen(&session, setup));
    } else {
        watch.pending = Some((setup, fingerprint));
    }
}

/// The players' answer to the offered version.
fn answer_change<G: GameClient>(
    session: Res<Session<G>>,
    mut answers: MessageReader<ChangeAnswer>,
    mut watch: ResMut<Watch>,
    mut opens: MessageWriter<OpenGame>,
) {
    for answer in answers.read() {
        let Some((setup, fingerprint)) = watch.pending.take() else {
            continue;
        };
        match answer {
            ChangeAnswer::Restart => {
                watch.opening = Some(fingerprint);
                opens.write(reopen(&session, setup));
            }
            ChangeAnswer::Keep => watch.playing = Some(fingerprint),
        }
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
        title: session.title.clone(),
    }
}

fn draw_reload(
    mut contexts: EguiContexts,
    mut watch: ResMut<Watch>,
    mut answers: MessageWriter<ChangeAnswer>,
) {
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    if watch.trouble != Trouble::None {
        let (title, about): (_, Option<&str>) = match watch.trouble {
            Trouble::Gone => (
                "The game's file is gone",
                Some(
                    "The game goes on with the version it has; save the file under its name again to follow its changes.",
                ),
            ),
            _ => (
                "Problems in a changed file",
                Some(
                    "The file was not taken up; the game goes on with the last good version. Fix it and save again.",
                ),
            ),
        };
        let mut dismiss = false;
        egui::Window::new(title)
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -110.0])
            .default_width(640.0)
            .show(ctx, |ui| {
                if let Some(about) = about {
                    ui.label(about);
                }
                egui::ScrollArea::vertical()
                    .max_height(200.0)
                    .show(ui, |ui| {
                        for e in &watch.problems {
                            ui.label(egui::RichText::new(e).monospace().color(WARN));
                        }
                    });
                dismiss = ui.button("Dismiss").clicked();
            });
        if dismiss {
            watch.clear();
        }
    }
    if watch.pending.is_some() {
        egui::Window::new("A file changed on disk")
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label("The setup of this game changed. Restart the game with the new version? The actions played so far will be lost (the autosave keeps them until the next action).");
                ui.horizontal(|ui| {
                    if ui.button("Restart with the change").clicked() {
                        answers.write(ChangeAnswer::Restart);
                    }
                    if ui.button("Keep playing").clicked() {
                        answers.write(ChangeAnswer::Keep);
                    }
                });
            });
    }
}
