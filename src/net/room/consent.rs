//! What the players of a room agree on together: taking back an action, and a rematch.

use super::{ConnId, Outgoing, Room, SeatPlan};
use crate::framework::{Playable, PlayerId};
use crate::net::wire::{self, ToClient};

impl<G: Playable> Room<G> {
    pub(super) fn ask_undo(&mut self, conn: ConnId) {
        let Some(player) = self.seat_of(conn) else {
            return;
        };
        let last = self.seated.game.history().last().map(|s| s.player);
        if last != Some(player) {
            return self.refuse_order(
                conn,
                "undo",
                "your own action must be the last one to take it back",
                None,
            );
        }
        if self
            .seated
            .game
            .draws_since(self.seated.game.history().len() - 1)
            > 0
        {
            return self.refuse_order(
                conn,
                "undo",
                "dice were rolled (or cards drawn) since: what was seen cannot be taken back",
                None,
            );
        }
        self.undo = Some((player, Vec::new()));
        let by = self.seated.state().player_name(player);
        // Asked of the other seated players only: the asker and the spectators have no
        // say.
        let bytes = wire::encode(&ToClient::UndoAsked { by });
        for (id, c) in &self.conns {
            if c.joined && c.seat.is_some_and(|s| s != player) {
                self.out.push(Outgoing::Send(*id, bytes.clone()));
            }
        }
        self.settle_undo();
    }

    pub(super) fn answer_undo(&mut self, conn: ConnId, yes: bool) {
        let Some(player) = self.seat_of(conn) else {
            return;
        };
        let Some((_, agreed)) = &mut self.undo else {
            return;
        };
        if !yes {
            self.undo = None;
            let name = self.seated.state().player_name(player);
            self.notice(&format!("{name} does not agree to take it back"));
            return;
        }
        if !agreed.contains(&player) {
            agreed.push(player);
        }
        self.settle_undo();
    }

    /// A seated player asks to play again once the game is over: the same setup and seats
    /// with new dice (drawn from the last game's seed, so that a host's rematches are
    /// reproducible from its record, and never sent).
    pub(super) fn rematch(&mut self, conn: ConnId) {
        let Some(player) = self.seat_of(conn) else {
            return;
        };
        if !self.over() {
            return self.refuse_order(
                conn,
                "rematch",
                "a rematch starts once the game is over",
                None,
            );
        }
        let seed = self.seated.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        match self.seated.rematch(seed) {
            Ok(fresh) => {
                self.seated = fresh;
                self.undo = None;
                let name = self.seated.state().player_name(player);
                self.log.push(format!("{name} started a rematch"));
                self.notice(&format!("{name} starts a rematch: a new game, new dice"));
                self.send_state_to_all();
            }
            Err(e) => self.log.push(format!("the rematch failed: {e}")),
        }
    }

    /// Takes the action back once every other remote person has agreed.
    fn settle_undo(&mut self) {
        let Some((asker, agreed)) = &self.undo else {
            return;
        };
        let waiting = self.slots.iter().enumerate().any(|(i, s)| {
            let p = PlayerId(u8::try_from(i).unwrap_or(u8::MAX));
            p != *asker && s.plan == SeatPlan::Remote && !agreed.contains(&p)
        });
        if waiting {
            return;
        }
        self.undo = None;
        let len = self.seated.game.history().len();
        self.seated.game.undo_to(len.saturating_sub(1));
        self.notice("The last action was taken back");
        self.send_state_to_all();
    }
}
