//! Who has the keyboard: a text field, the panels (F6 or Tab), or the table. Every layer
//! that reads keys asks here first.

use bevy::prelude::*;

use super::GameScreen;

/// Whether a text field has the keyboard, a popup is open, or the keyboard was taken into
/// the panels (F6 or Tab): no keys are shortcuts then. (A focus
/// egui keeps after a click does not count: only a focus asked for with the keyboard.)
pub fn typing(
    focus: Option<Res<TextFocus>>,
    wants: Option<Res<bevy_egui::input::EguiWantsInput>>,
    panels: Option<Res<PanelKeyboard>>,
) -> bool {
    focus.is_some_and(|f| f.0)
        || wants.is_some_and(|w| w.is_popup_open())
        || panels.is_some_and(|p| p.on)
}

/// Whether a text field had the keyboard in the last frame's panels.
#[derive(Resource, Default, Debug)]
pub struct TextFocus(pub bool);

/// Whether the keyboard is in the panels: a panel's widget has egui's focus, reached with
/// F6 or Tab. The table's keys are off meanwhile ([`typing`]).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PanelKeyboard {
    /// The keyboard is in the panels now.
    pub on: bool,
    /// A focus key went to egui since the pointer last pressed: a focus egui gives from
    /// now on was asked for with the keyboard.
    pub(crate) armed: bool,
}

/// Whether the arrow keys step a board's cursor (a board game on the table) rather than
/// pan the camera.
#[must_use]
pub fn arrows_move_a_cursor(screen: Option<Res<State<GameScreen>>>) -> bool {
    screen.is_some_and(|s| matches!(s.get(), GameScreen::TankCommander | GameScreen::TankChess))
}
