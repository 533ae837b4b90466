//! The framework on what Tank Commander does not exercise: three players, simultaneous
//! secret choices with per-player views, and an interrupt window answered out of turn.

use serde::{Deserialize, Serialize};

use super::bot::{Bot, RandomBot, play_out};
use super::{Game, Match, MatchRng, Outcome, PlayError, PlayerId, Refusal};

/// "Secret bids": every round all players bid 1–3 in secret; the reveal gives the highest
/// single bidder a d6 roll added to their score. After each reveal, any player other than
/// the round's winner may play their one Veto card to cancel the roll (an interrupt).
#[derive(Clone, Debug, Serialize)]
struct Bids {
    players: usize,
    bids: Vec<Option<u8>>,
    scores: Vec<u32>,
    vetoes: Vec<bool>,
    /// The interrupt window: the round's winner, and who has yet to answer.
    window: Option<(PlayerId, Vec<PlayerId>)>,
    round: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum BidAction {
    Bid(u8),
    Veto,
    Pass,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
enum BidFact {
    Revealed { bids: Vec<u8> },
    Scored { player: PlayerId, roll: u32 },
    Vetoed { by: PlayerId },
}

/// What one player sees: their own bid, and only whether the others have bid.
#[derive(Debug, Serialize, PartialEq)]
struct BidView {
    mine: Option<u8>,
    others_ready: Vec<bool>,
    vetoes_left: Vec<bool>,
}

impl Bids {
    fn new(players: usize) -> Self {
        Self {
            players,
            bids: vec![None; players],
            scores: vec![0; players],
            vetoes: vec![true; players],
            window: None,
            round: 0,
        }
    }

    fn resolve(&mut self, rng: &mut MatchRng, vetoed: bool) -> Vec<BidFact> {
        let (winner, _) = self.window.take().expect("a window was open");
        if vetoed {
            return Vec::new();
        }
        let roll = rng.roll(6);
        self.scores[winner.index()] += roll;
        vec![BidFact::Scored {
            player: winner,
            roll,
        }]
    }
}

impl Game for Bids {
    type Action = BidAction;
    type Fact = BidFact;
    type View = BidView;
    const NAME: &'static str = "bids";

    fn player_count(&self) -> usize {
        self.players
    }

    fn to_act(&self) -> Vec<PlayerId> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        if let Some((_, waiting)) = &self.window {
            return waiting.clone();
        }
        (0..self.players)
            .filter(|&i| self.bids[i].is_none())
            .map(|i| PlayerId(i as u8))
            .collect()
    }

    fn legal_actions(&self, player: PlayerId) -> Vec<BidAction> {
        if !self.to_act().contains(&player) {
            return Vec::new();
        }
        if self.window.is_some() {
            let mut v = vec![BidAction::Pass];
            if self.vetoes[player.index()] {
                v.push(BidAction::Veto);
            }
            return v;
        }
        (1..=3).map(BidAction::Bid).collect()
    }

    fn apply(
        &mut self,
        player: PlayerId,
        action: &BidAction,
        rng: &mut MatchRng,
    ) -> Result<Vec<BidFact>, Refusal> {
        if !self.legal_actions(player).contains(action) {
            return Err(Refusal::new(
                "bids.turn",
                format!("{action:?} is not legal for {player}"),
            ));
        }
        match action {
            BidAction::Bid(b) => {
                self.bids[player.index()] = Some(*b);
                if self.bids.iter().any(Option::is_none) {
                    return Ok(Vec::new());
                }
                let bids: Vec<u8> = self.bids.iter().map(|b| b.unwrap_or(0)).collect();
                self.bids = vec![None; self.players];
                self.round += 1;
                let mut facts = vec![BidFact::Revealed { bids: bids.clone() }];
                let best = *bids.iter().max().unwrap_or(&0);
                let top: Vec<usize> = (0..bids.len()).filter(|&i| bids[i] == best).collect();
                if let [w] = top[..] {
                    let winner = PlayerId(w as u8);
                    let answer: Vec<PlayerId> = (0..self.players)
                        .filter(|&i| i != w && self.vetoes[i])
                        .map(|i| PlayerId(i as u8))
                        .collect();
                    self.window = Some((winner, answer));
                    if self.window.as_ref().is_some_and(|(_, a)| a.is_empty()) {
                        facts.extend(self.resolve(rng, false));
                    }
                }
                Ok(facts)
            }
            BidAction::Veto => {
                self.vetoes[player.index()] = false;
                let mut facts = vec![BidFact::Vetoed { by: player }];
                facts.extend(self.resolve(rng, true));
                Ok(facts)
            }
            BidAction::Pass => {
                let mut done = false;
                if let Some((_, waiting)) = self.window.as_mut() {
                    waiting.retain(|p| *p != player);
                    done = waiting.is_empty();
                }
                Ok(if done {
                    self.resolve(rng, false)
                } else {
                    Vec::new()
                })
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.round >= 5 && self.window.is_none()).then(|| {
            let best = *self.scores.iter().max().unwrap_or(&0);
            let winners: Vec<PlayerId> = (0..self.players)
                .filter(|&i| self.scores[i] == best)
                .map(|i| PlayerId(i as u8))
                .collect();
            Outcome {
                winners,
                reason: "five rounds played".into(),
            }
        })
    }

    fn view(&self, player: PlayerId) -> BidView {
        BidView {
            mine: self.bids[player.index()],
            others_ready: self.bids.iter().map(Option::is_some).collect(),
            vetoes_left: self.vetoes.clone(),
        }
    }

    fn describe_action(&self, action: &BidAction) -> String {
        format!("{action:?}")
    }

    fn describe_fact(&self, fact: &BidFact) -> String {
        format!("{fact:?}")
    }
}

#[test]
fn simultaneous_secret_choices_are_hidden_until_the_reveal() {
    let mut m = Match::new(Bids::new(3), 1);
    assert_eq!(
        m.state().to_act(),
        vec![PlayerId(0), PlayerId(1), PlayerId(2)]
    );
    // Any order: the third player bids first.
    assert!(m.play(PlayerId(2), &BidAction::Bid(3)).unwrap().is_empty());
    assert_eq!(m.state().view(PlayerId(2)).mine, Some(3));
    // The others see that player 3 is ready, not what they bid.
    let seen = m.state().view(PlayerId(0));
    assert_eq!(seen.mine, None);
    assert_eq!(seen.others_ready, vec![false, false, true]);
    assert!(!serde_json::to_string(&seen).unwrap().contains('3'));
    assert!(
        m.play(PlayerId(2), &BidAction::Bid(1)).is_err(),
        "a player bids once"
    );
    m.play(PlayerId(0), &BidAction::Bid(1)).unwrap();
    let facts = m.play(PlayerId(1), &BidAction::Bid(2)).unwrap().to_vec();
    assert_eq!(
        facts,
        vec![BidFact::Revealed {
            bids: vec![1, 2, 3]
        }]
    );
}

#[test]
fn an_interrupt_window_asks_every_eligible_player_out_of_turn() {
    let mut m = Match::with_rng(Bids::new(3), MatchRng::scripted(0, [5]));
    for (p, b) in [(0, 3), (1, 1), (2, 2)] {
        m.play(PlayerId(p), &BidAction::Bid(b)).unwrap();
    }
    // Player 1 won the bid; players 2 and 3 may veto, in either order.
    assert_eq!(m.state().to_act(), vec![PlayerId(1), PlayerId(2)]);
    assert!(m.play(PlayerId(0), &BidAction::Pass).is_err());
    m.play(PlayerId(2), &BidAction::Pass).unwrap();
    let before = m.history().len();
    let facts = m.play(PlayerId(1), &BidAction::Pass).unwrap().to_vec();
    assert_eq!(
        facts,
        vec![BidFact::Scored {
            player: PlayerId(0),
            roll: 5
        }]
    );
    // Undo the last pass and veto instead: the roll never happens.
    m.undo_to(before);
    let facts = m.play(PlayerId(1), &BidAction::Veto).unwrap().to_vec();
    assert_eq!(facts, vec![BidFact::Vetoed { by: PlayerId(1) }]);
    assert_eq!(m.state().scores, vec![0, 0, 0]);
}

#[test]
fn bots_play_a_three_player_game_to_the_end_deterministically() {
    let run = |seed| {
        let mut bots: Vec<Box<dyn Bot<Bids>>> = vec![
            Box::new(RandomBot),
            Box::new(RandomBot),
            Box::new(RandomBot),
        ];
        let played = play_out(
            Bids::new(3),
            &mut bots,
            &mut MatchRng::new(seed),
            &mut MatchRng::new(seed + 1),
            1000,
            |_, _| {},
        )
        .unwrap();
        (played.outcome.unwrap().winners, played.state.state_hash())
    };
    assert_eq!(run(9), run(9));
    assert!(!run(9).0.is_empty());
}

/// A scripted die outside its faces is an error naming its place in the script, never a
/// value quietly clamped into range: the match refuses the action that drew it and stays
/// as it was.
#[test]
fn a_scripted_die_outside_its_faces_is_refused() {
    let mut m = Match::with_rng(Bids::new(3), MatchRng::scripted(5, [7]));
    for (p, b) in [(0, 3), (1, 1), (2, 2)] {
        m.play(PlayerId(p), &BidAction::Bid(b)).unwrap();
    }
    // Player 1 won the bid; the last pass rolls their d6, which the script says is 7.
    m.play(PlayerId(2), &BidAction::Pass).unwrap();
    let (before, played) = (m.state_hash(), m.history().len());
    let refused = m
        .play(PlayerId(1), &BidAction::Pass)
        .map(<[BidFact]>::to_vec);
    assert_eq!(m.state_hash(), before, "the match is unchanged");
    assert_eq!(m.history().len(), played);
    let Err(PlayError::Dice(bad)) = refused else {
        panic!("the 7 was never refused: {refused:?}");
    };
    assert_eq!((bad.position, bad.value, bad.sides), (0, 7, 6));
    assert_eq!(
        bad.to_string(),
        "scripted die dice[0] is 7, but it was drawn for a roll of 1 to 6"
    );

    let mut rng = MatchRng::scripted(1, [3, 0]);
    assert_eq!(rng.roll(6), 3);
    assert!(rng.misscript().is_none());
    rng.roll(6);
    assert_eq!(rng.misscript().map(|b| b.position), Some(1));
}

/// A refusal carries the rule that refuses, and the match says so through
/// [`PlayError::rule`].
#[test]
fn a_refusal_carries_its_rule() {
    let mut m = Match::new(Bids::new(2), 1);
    m.play(PlayerId(0), &BidAction::Bid(2)).unwrap();
    let refused = m.refusal(PlayerId(1), &BidAction::Veto);
    assert_eq!(
        refused.as_ref().and_then(PlayError::rule),
        Some("bids.turn")
    );
    assert_eq!(
        refused.map(|e| e.to_string()).as_deref(),
        Some("Veto is not legal for player 2")
    );
    assert_eq!(
        m.play(PlayerId(1), &BidAction::Veto).map(|_| ()),
        Err(PlayError::Illegal(Refusal::new(
            "bids.turn",
            "Veto is not legal for player 2"
        )))
    );
}
