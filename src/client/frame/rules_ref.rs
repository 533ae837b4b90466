//! The rules reference: a game's rules map ([`crate::rules::map`]) in a window, searchable,
//! opened from the menu, with F1, and from the log's and the refusals' links, which open
//! it at the rule they applied. Beside each rule stand the switches that change it, with
//! the values of the game in play, a variant's marked.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::Screen;
use crate::client::table::theme;
use crate::rules::GameKind;
use crate::rules::map;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<RulesReference>()
        .init_resource::<SwitchesInForce>()
        .init_resource::<RuleUnderPointer>()
        .add_systems(
            EguiPrimaryContextPass,
            (toggle_with_f1, draw_reference)
                .chain()
                .after(crate::client::core::HudSystems::Frame)
                .after(crate::client::core::HudSystems::Game),
        );
}

/// The reference window: open or not, on which game, the search, the rule to show.
#[derive(Resource, Default)]
pub struct RulesReference {
    pub open: bool,
    pub game: Option<GameKind>,
    pub query: String,
    /// The rule to show picked out (and scrolled to once).
    pub focus: Option<String>,
    /// Frames left to scroll the focused rule into view (the window's first frames lay
    /// it out before it can scroll).
    scroll: u8,
}

impl RulesReference {
    /// Opens the reference on `game`, at the rule `id` if given (the search is cleared so
    /// that the rule shows).
    pub fn show(&mut self, game: GameKind, id: Option<&str>) {
        self.open = true;
        self.game = Some(game);
        if let Some(id) = id {
            self.query.clear();
            self.focus = Some(id.to_string());
            self.scroll = 4;
        }
    }
}

/// The rule of what the pointer is over (an odds label, a greyed-out action): the panels
/// set it as they draw, and F1 (read in the same pass, after them) opens the reference
/// there.
#[derive(Resource, Default)]
pub struct RuleUnderPointer(pub Option<(GameKind, &'static str)>);

/// The switches of the game in play, with their values, and whether each differs from
/// the game's default setup (a variant).
#[derive(Resource, Default)]
pub struct SwitchesInForce {
    pub game: Option<GameKind>,
    /// The session's generation they were read at.
    pub generation: u64,
    pub values: Vec<(String, String, bool)>,
}

impl SwitchesInForce {
    /// The values of the game `G` opened from `setup`.
    pub fn of<G: crate::framework::Playable>(setup: &G::Setup) -> Self {
        let now = map::switch_values::<G>(setup).unwrap_or_default();
        let default = map::default_switch_values(G::KIND).unwrap_or_default();
        let values = now
            .into_iter()
            .map(|(path, value)| {
                let variant = default
                    .iter()
                    .find(|(p, _)| *p == path)
                    .is_some_and(|(_, d)| *d != value);
                (path, short(&value), variant)
            })
            .collect();
        Self {
            game: Some(G::KIND),
            generation: 0,
            values,
        }
    }
}

fn short(value: &serde_json::Value) -> String {
    let text = match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(39).collect::<String>())
    } else {
        text
    }
}

/// The game the screen shows, if it shows one.
fn game_on_screen(
    screen: &Screen,
    game: Option<&State<crate::client::core::GameScreen>>,
) -> Option<GameKind> {
    if *screen != Screen::Playing {
        return None;
    }
    let shown = game?.get();
    GameKind::ALL
        .into_iter()
        .find(|g| crate::client::core::GameScreen::from(*g) == *shown)
}

/// F1 opens the reference at the rule under the pointer, else on the game in play, and
/// closes it when open. It runs in the panels' pass, after them, because the panels are
/// laid out only on frames that need it (a key press is one).
fn toggle_with_f1(
    mut contexts: EguiContexts,
    screen: Res<State<Screen>>,
    game: Option<Res<State<crate::client::core::GameScreen>>>,
    mut reference: ResMut<RulesReference>,
    mut under: ResMut<RuleUnderPointer>,
) -> Result {
    // Set again by the panels in every pass while the pointer stays over it.
    let ctx = contexts.ctx_mut()?;
    let (left, clicked) = ctx.data_mut(|d| {
        (
            d.remove_temp::<Option<(GameKind, &'static str)>>(egui::Id::new(UNDER_IN_MEMORY))
                .flatten(),
            d.remove_temp::<Option<(GameKind, &'static str)>>(egui::Id::new(CLICKED_IN_MEMORY))
                .flatten(),
        )
    });
    if let Some((game, id)) = clicked {
        reference.show(game, Some(id));
    }
    let hovered = under.0.take().or(left);
    if !ctx.input(|i| i.key_pressed(egui::Key::F1)) {
        return Ok(());
    }
    if let Some((game, id)) = hovered {
        reference.show(game, Some(id));
        return Ok(());
    }
    if reference.open {
        reference.open = false;
        return Ok(());
    }
    let game = game_on_screen(screen.get(), game.as_deref())
        .or(reference.game)
        .unwrap_or(GameKind::TankCommander);
    reference.show(game, None);
    Ok(())
}

fn draw_reference(
    mut contexts: EguiContexts,
    mut reference: ResMut<RulesReference>,
    in_force: Res<SwitchesInForce>,
    screen: Res<State<Screen>>,
    game_screen: Option<Res<State<crate::client::core::GameScreen>>>,
) -> Result {
    if !reference.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let playing = game_on_screen(screen.get(), game_screen.as_deref());
    let mut game = reference
        .game
        .or(playing)
        .unwrap_or(GameKind::TankCommander);
    let mut open = true;
    egui::Window::new(format!("Rules reference: {}", game.title()))
        .id(egui::Id::new("rules reference"))
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .default_size([560.0, 620.0])
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                for g in GameKind::ALL {
                    ui.selectable_value(&mut game, g, g.title());
                }
            });
            search_field(ui, &mut reference);
            reference_body(ui, game, playing, &mut reference, &in_force);
        });
    reference.game = Some(game);
    if !open {
        reference.open = false;
    }
    Ok(())
}

/// The search field and its Clear button.
fn search_field(ui: &mut egui::Ui, reference: &mut RulesReference) {
    ui.horizontal(|ui| {
        ui.label("Search:");
        let field = ui.add(
            egui::TextEdit::singleline(&mut reference.query)
                .hint_text("words of a rule, a reading, a switch or an id")
                .desired_width(300.0),
        );
        if field.changed() {
            reference.focus = None;
        }
        if ui.button("Clear").clicked() {
            reference.query.clear();
        }
    });
}

/// The game's rows that match the search: their counts, the variant's warning, the rows.
fn reference_body(
    ui: &mut egui::Ui,
    game: GameKind,
    playing: Option<GameKind>,
    reference: &mut RulesReference,
    in_force: &SwitchesInForce,
) {
    let query = reference.query.clone();
    let focus = reference.focus.clone();
    let scroll = reference.scroll > 0;
    reference.scroll = reference.scroll.saturating_sub(1);
    let Some(map) = map::cached(game) else {
        ui.colored_label(
            theme::WARN,
            "This game's rules map does not read (see `cargo test`).",
        );
        return;
    };
    let rows = map.search(&query);
    ui.label(
        egui::RichText::new(format!(
            "{} · {} of {} rows · F1 closes · `tanktable rules {}` prints it",
            map.counts(),
            rows.len(),
            map.rows.len(),
            game.name()
        ))
        .weak()
        .small(),
    );
    let in_play = in_force.game == Some(game) && playing == Some(game);
    let variants = in_play && in_force.values.iter().any(|(_, _, v)| *v);
    if variants {
        ui.colored_label(
            theme::WARN,
            "This game plays a variant: the switches marked ≠ differ from the rulebook's defaults.",
        );
    }
    ui.separator();
    rule_rows(
        ui,
        rows,
        focus.as_deref(),
        scroll,
        in_play.then_some(in_force),
    );
}

/// The rows under their sections' headings, the focused one marked (and scrolled to).
fn rule_rows(
    ui: &mut egui::Ui,
    rows: Vec<&map::RuleRow>,
    focus: Option<&str>,
    scroll: bool,
    in_force: Option<&SwitchesInForce>,
) {
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let mut section = "";
            for row in rows {
                if row.section != section {
                    section = &row.section;
                    ui.add_space(6.0);
                    ui.label(egui::RichText::new(section).strong().size(15.0));
                }
                let focused = focus == Some(row.id.as_str());
                let frame = egui::Frame::group(ui.style()).fill(if focused {
                    theme::FOCUSED_RULE
                } else {
                    egui::Color32::TRANSPARENT
                });
                let response = frame
                    .show(ui, |ui| {
                        ui.set_width(ui.available_width());
                        row_body(ui, row, in_force);
                    })
                    .response;
                if focused && scroll {
                    response.scroll_to_me(Some(egui::Align::Center));
                }
            }
        });
}

fn row_body(ui: &mut egui::Ui, row: &map::RuleRow, in_force: Option<&SwitchesInForce>) {
    let colour = theme::rule_kind_color(row.kind);
    ui.horizontal(|ui| {
        ui.label(
            egui::RichText::new(row.kind.to_string())
                .color(colour)
                .small(),
        );
        ui.label(egui::RichText::new(&row.id).monospace().weak().small());
    });
    ui.label(&row.rule);
    if !row.reading.is_empty() && row.reading != "as written" && row.reading != "as written." {
        ui.label(
            egui::RichText::new(format!("Reading: {}", row.reading))
                .italics()
                .color(theme::READING_TEXT),
        );
    }
    for switch in &row.switches {
        let values: Vec<&(String, String, bool)> = in_force
            .map(|f| {
                f.values
                    .iter()
                    .filter(|(path, _, _)| map::covers(switch, path))
                    .collect()
            })
            .unwrap_or_default();
        let text = match values.as_slice() {
            [] => format!("Switch: {switch}"),
            [(path, value, variant)] if path == switch => format!(
                "Switch: {switch} = {value}{}",
                if *variant {
                    "  ≠ default (a variant)"
                } else {
                    ""
                }
            ),
            many => {
                let changed = many.iter().filter(|(_, _, v)| *v).count();
                if changed == 0 {
                    format!(
                        "Switches: {switch}.* ({} values, all the defaults)",
                        many.len()
                    )
                } else {
                    format!(
                        "Switches: {switch}.* ({} values, {changed} ≠ default: a variant)",
                        many.len()
                    )
                }
            }
        };
        let variant = values.iter().any(|(_, _, v)| *v);
        ui.label(
            egui::RichText::new(text)
                .monospace()
                .small()
                .color(if variant {
                    theme::WARN
                } else {
                    theme::SWITCH_TEXT
                }),
        );
    }
}

/// A small link to a rule of the map, for the log and the refusals: clicking opens the
/// reference there.
pub fn rule_link(
    ui: &mut egui::Ui,
    reference: &mut RulesReference,
    game: GameKind,
    id: &'static str,
) {
    let rule = map::cached(game)
        .and_then(|m| m.get(id))
        .map_or("", |r| r.rule.as_str());
    let link = ui.add(egui::Button::new(egui::RichText::new("§").small()).small());
    // Read out by a screen reader as what it opens, not as a bare "§".
    link.widget_info(|| {
        egui::WidgetInfo::labeled(egui::WidgetType::Link, true, format!("Rule {id}: {rule}"))
    });
    if link
        .on_hover_text(format!(
            "The rule applied ({id}): {rule}\nClick to open it in the rules reference (F1)."
        ))
        .clicked()
    {
        reference.show(game, Some(id));
    }
}

/// Where [`refusal_link`] leaves, in egui's memory, the rule under the pointer and the
/// rule clicked, for F1's system to pick up: any panel can link a refusal without holding
/// the reference's resources.
const UNDER_IN_MEMORY: &str = "rules reference: rule under the pointer";
const CLICKED_IN_MEMORY: &str = "rules reference: rule clicked";

/// Links a greyed-out action to the rule that refuses it: a click on it (a disabled
/// button takes none, so it is read off the pointer), or F1 while the pointer is over it,
/// opens the reference there. Returns the tooltip's line that says so.
pub fn refusal_link(
    ui: &egui::Ui,
    button: &egui::Response,
    game: GameKind,
    id: &'static str,
) -> String {
    if button.contains_pointer() {
        let clicked = ui.input(|i| i.pointer.primary_clicked());
        ui.ctx().data_mut(|d| {
            d.insert_temp(egui::Id::new(UNDER_IN_MEMORY), Some((game, id)));
            if clicked {
                d.insert_temp(egui::Id::new(CLICKED_IN_MEMORY), Some((game, id)));
            }
        });
    }
    format!("§ {id}: click (or F1) for the rule")
}
