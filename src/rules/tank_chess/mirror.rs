//! A Tank Chess game as a mirror on another machine holds it: the rules tables and the
//! setup's name beside the state. Nothing in the state is secret (both sides see the
//! whole board, and there is no chance), so every seat's redaction is the state itself.

use std::sync::{Arc, LazyLock};

use serde::{Deserialize, Serialize};

use super::{Cell, Flag, Mode, PieceState, Rules, TankChess};
use crate::framework::MirrorError;
use crate::framework::PlayerId;
use crate::framework::mirror::{self, MirrorCheck};

/// The rules a state read from JSON holds until [`read`] puts the mirror's own in.
pub(super) fn unset_rules() -> Arc<Rules> {
    static UNSET: LazyLock<Arc<Rules>> = LazyLock::new(|| Arc::new(Rules::builtin()));
    Arc::clone(&UNSET)
}

/// What the state's skipped fields hold, as the mirror writes them.
#[derive(Serialize)]
struct PublicOut<'a> {
    rules: &'a Rules,
    name: &'a str,
}

/// [`PublicOut`] read back.
#[derive(Deserialize)]
struct PublicIn {
    rules: Rules,
    name: String,
}

/// The mirror's bytes: the rules and the setup's name, then the state.
pub(super) fn write(game: &TankChess) -> Vec<u8> {
    let public = PublicOut {
        rules: &game.rules,
        name: &game.name,
    };
    mirror::write_mirror(&public, game)
}

/// A game read back from [`write`]'s bytes: the rules checked as a record's are, the
/// board and pieces checked against each other.
pub(super) fn read(bytes: &[u8]) -> Result<TankChess, MirrorError> {
    let ((rules, name), mut game): ((Arc<Rules>, Arc<str>), TankChess) =
        mirror::read_mirror_cached::<TankChess, PublicIn, _, _>(bytes, |public| {
            MirrorCheck::no_problems("rules", public.rules.problems())?;
            Ok((Arc::new(public.rules), public.name.into()))
        })?;
    game.rules = rules;
    game.name = name;
    check(&game)?;
    Ok(game)
}

/// The board has its size's squares, every piece stands on the board where its square
/// says it does, and every seat, piece and flag named is there.
fn check(g: &TankChess) -> Result<(), MirrorError> {
    let (w, h) = (usize::from(g.width), usize::from(g.height));
    MirrorCheck::that((4..=20).contains(&w) && (4..=20).contains(&h), || {
        format!("a board is 4 to 20 squares a side, not {w}×{h}")
    })?;
    MirrorCheck::len("the board's squares", g.cells.len(), w * h)?;
    let four = matches!(g.mode, Mode::FourPlayers { .. });
    MirrorCheck::that(g.seats == if four { 4 } else { 2 }, || {
        format!("{:?} is not played by {} seats", g.mode, g.seats)
    })?;
    let seats = usize::from(g.seats);
    MirrorCheck::seat("the side to move", PlayerId(g.turn), seats)?;
    MirrorCheck::that(g.pieces.len() <= 256, || {
        format!("{} pieces cannot be numbered", g.pieces.len())
    })?;
    let square = |col: u8, row: u8| usize::from(row) * w + usize::from(col);
    for (i, p) in g.pieces.iter().enumerate() {
        MirrorCheck::seat("a piece's side", p.side(), seats)?;
        MirrorCheck::that(p.white == (p.side % 2 == 0), || {
            format!("piece {i} has the other side's colour")
        })?;
        MirrorCheck::that(
            usize::from(p.at.col) < w && usize::from(p.at.row) < h,
            || format!("piece {i} is off the board"),
        )?;
        if p.state != PieceState::Escaped {
            MirrorCheck::that(
                g.cells[square(p.at.col, p.at.row)] == Cell::Piece(index(i)),
                || format!("piece {i}'s square does not hold it"),
            )?;
        }
    }
    for (k, cell) in g.cells.iter().enumerate() {
        if let Cell::Piece(i) = *cell {
            let i = usize::from(i);
            MirrorCheck::index("a square's piece", i, g.pieces.len())?;
            let p = &g.pieces[i];
            MirrorCheck::that(
                p.state != PieceState::Escaped && square(p.at.col, p.at.row) == k,
                || format!("square {k} holds piece {i}, which is elsewhere"),
            )?;
        }
    }
    for flag in &g.flags {
        let placed = match *flag {
            Flag::Standing(sq) => MirrorCheck::that(
                usize::from(sq.col) + 1 < w && usize::from(sq.row) + 1 < h,
                || "a flag stands off the board".to_string(),
            ),
            Flag::Carried(i) => {
                MirrorCheck::index("a flag's carrier", usize::from(i), g.pieces.len())
            }
            Flag::Home(side) => MirrorCheck::seat("a flag's home", side, seats),
        };
        placed?;
    }
    if let Some(result) = &g.result {
        for &p in &result.winners {
            MirrorCheck::seat("a winner", p, seats)?;
        }
    }
    // Counters a game only adds to: far below where adding would overflow.
    MirrorCheck::that(
        g.plies < 1 << 30 && g.kills.iter().all(|&k| k < 1 << 14),
        || "the move and kill counters are beyond any game's reach".to_string(),
    )
}

/// A piece's index as its square holds it (at most 256 pieces, checked).
fn index(i: usize) -> u8 {
    u8::try_from(i).unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::framework::bot::Bot;
    use crate::framework::playable;
    use crate::framework::{Game, Playable};
    use crate::rules::mirror_tests::{check_mirrors, refuses_garbage, survives_mutations};

    #[test]
    fn bots_games_read_back_from_every_seats_mirror() {
        let rules = Rules::builtin();
        for (file, seed) in [
            ("basic-16.ron", 1),
            ("four-players.ron", 2),
            ("capture-the-flag.ron", 3),
            ("escape-of-three.ron", 4),
        ] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scenarios/tank-chess")
                .join(file);
            let setup = playable::load_setup::<TankChess>(&path, &rules).expect("a setup");
            let seats = TankChess::from_setup(&setup)
                .expect("starts")
                .player_count();
            let bots: Vec<Box<dyn Bot<TankChess>>> = (0..seats)
                .map(|i| TankChess::bot(if i == 0 { "cadet" } else { "random" }).expect("a bot"))
                .collect();
            let back = check_mirrors::<TankChess>(&setup, seed, bots, 120);
            assert_eq!(*back.rules, rules);
            assert_eq!(back.name(), setup.scenario.setup.name);
            if seed == 3 {
                survives_mutations::<TankChess>(&back.to_mirror(), 600, 3);
            }
        }
        refuses_garbage::<TankChess>();
    }
}
