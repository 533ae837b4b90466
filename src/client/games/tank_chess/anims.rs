//! Tank Chess's facts as the table shows them, on the timeline every game shares
//! ([`queue_played`]): a move or a shot takes no time of its own, so the pieces the table
//! shows ([`Shown`]) become the position after each action as soon as it is played, and
//! at once after a jump (an undo, a step of a replay).

use bevy::prelude::*;

use crate::client::core::session::{FactsPlayed, Session, SkipAnimations};
use crate::client::table::effects::{Shown, Timeline, queue_played};
use crate::rules::tank_chess::TankChess;

/// What the table shows next: the position after an action.
pub(super) struct Anim(Box<TankChess>);

/// Puts the actions played on the timeline, and shows each position once its time has
/// come; a jump or a skip shows the position now.
pub(super) fn queue_anims(
    mut commands: Commands,
    mut played: MessageReader<FactsPlayed<TankChess>>,
    mut skips: MessageReader<SkipAnimations>,
    mut timeline: ResMut<Timeline<Anim>>,
    session: Res<Session<TankChess>>,
    shown: Option<Res<Shown<TankChess>>>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    let jumped = queue_played(
        &mut played,
        &mut skips,
        &mut timeline,
        session.state(),
        now,
        |_, _| None,
        |game| Anim(Box::new(game)),
    );
    if jumped || shown.is_none() {
        commands.insert_resource(Shown(session.state().clone()));
        return;
    }
    if let Some((_, Anim(game))) = timeline.due(now).pop() {
        commands.insert_resource(Shown(*game));
    }
}
