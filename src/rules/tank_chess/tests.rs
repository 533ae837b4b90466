//! Tank Chess rules tests: the rulebook's worked examples, check and escape legality,
//! mates and near-mates, notation, setups.

use super::*;
use crate::framework::{Game, Match, MatchRng};

fn rules() -> Rules {
    Rules::builtin()
}

/// A position from a compact description: board size, obstacles, and pieces as
/// `"W CLT H1 N"` (colour, optional C + kind, square, facing).
fn position(w: u8, h: u8, obstacles: &[&str], pieces: &[&str]) -> TankChess {
    position_in(Mode::Standard, w, h, obstacles, pieces)
}

fn position_in(mode: Mode, w: u8, h: u8, obstacles: &[&str], pieces: &[&str]) -> TankChess {
    let mut placed = Vec::new();
    for p in pieces {
        let parts: Vec<&str> = p.split_whitespace().collect();
        let white = parts[0] == "W";
        let (command, kind) = match parts[1].strip_prefix('C') {
            Some(k) if k.len() == 2 => (true, k),
            _ => (false, parts[1]),
        };
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.to_string() == kind)
            .unwrap();
        placed.push(setup::Placed {
            white,
            side: u8::from(!white),
            kind,
            at: Square::parse(parts[2]).unwrap(),
            facing: parts[3].parse().unwrap(),
            command,
        });
    }
    let obstacles = obstacles
        .iter()
        .map(|o| Square::parse(o).unwrap())
        .collect();
    game_of(mode, w, h, obstacles, placed)
}

/// A position of `mode` on a `w` × `h` board with these obstacles and pieces, White to
/// move.
fn game_of(
    mode: Mode,
    w: u8,
    h: u8,
    obstacles: Vec<Square>,
    pieces: Vec<setup::Placed>,
) -> TankChess {
    let scenario = Scenario {
        setup: Setup {
            name: "test".into(),
            description: String::new(),
            board: setup::BoardSize {
                width: w,
                height: h,
            },
            obstacles: Vec::new(),
            white: Vec::new(),
            black: None,
            flag_white: Vec::new(),
            flag_black: Vec::new(),
            mode,
            announced: None,
            position: true,
            flags: Vec::new(),
        },
        width: w,
        height: h,
        obstacles,
        pieces,
        flags: Vec::new(),
    };
    TankChess::new(&scenario, &rules())
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

#[test]
fn the_shipped_files_are_valid() {
    let r = rules();
    let s = Scenario::builtin_default(&r);
    assert_eq!(s.pieces.len(), 32);
}

fn targets_from(game: &TankChess, at: &str) -> Vec<Square> {
    let p = *game.piece_at(sq(at)).unwrap();
    game.targets(&p, p.at, p.facing)
}

#[test]
fn a_heavy_tank_cannot_fire_at_an_adjacent_light_tank() {
    let g = position(
        8,
        8,
        &[],
        &["W HT E4 N", "B LT E5 S", "W CLT A1 N", "B CLT H8 S"],
    );
    assert!(targets_from(&g, "E4").is_empty());
    // With one empty square between, the same shot destroys it (III against front I).
    let g = position(
        8,
        8,
        &[],
        &["W HT E4 N", "B LT E6 S", "W CLT A1 N", "B CLT H8 S"],
    );
    assert_eq!(targets_from(&g, "E4"), vec![sq("E6")]);
}

#[test]
fn firepower_two_against_armor_two_destroys_nothing() {
    // The white MT faces a black MT head on (front II) and has a black HT on its
    // diagonal, hit on the side (II).
    let g = position(
        10,
        10,
        &[],
        &[
            "W MT E3 N",
            "B MT E7 S",
            "B HT H6 W",
            "W CLT A1 N",
            "B CLT J10 S",
        ],
    );
    assert!(targets_from(&g, "E3").is_empty());
}

#[test]
fn a_rear_hit_by_the_command_light_tank_destroys_a_medium_tank() {
    // The black CLT stands directly behind the white MT: rear armor 0 < firepower I.
    let g = position(10, 10, &[], &["B CLT E8 S", "W MT E5 S", "W CLT A1 N"]);
    let (armor, value) = g.armor_hit(g.piece_at(sq("E5")).unwrap(), sq("E8"));
    assert_eq!((armor, value), (ArmorSide::Rear, 0));
    assert_eq!(targets_from(&g, "E8"), vec![sq("E5")]);
}

#[test]
fn front_armor_counts_only_from_directly_ahead_on_a_diagonal_facing() {
    let g = position(10, 10, &[], &["B MT E5 NE", "W CLT A1 N"]);
    let t = *g.piece_at(sq("E5")).unwrap();
    assert_eq!(g.armor_hit(&t, sq("H8")).0, ArmorSide::Front);
    assert_eq!(g.armor_hit(&t, sq("B2")).0, ArmorSide::Rear);
    assert_eq!(g.armor_hit(&t, sq("E9")).0, ArmorSide::Side);
    assert_eq!(g.armor_hit(&t, sq("H7")).0, ArmorSide::Side);
}

#[test]
fn guns_need_a_clear_line_and_the_tank_destroyer_fires_ahead_only() {
    let g = position(
        10,
        10,
        &["E6"],
        &["W HT E3 N", "B LT E8 S", "W CLT A1 N", "B CLT J10 S"],
    );
    assert!(
        targets_from(&g, "E3").is_empty(),
        "the obstacle blocks the line"
    );
    let g = position(
        10,
        10,
        &[],
        &[
            "W TD E3 N",
            "B LT G5 S",
            "B MT E8 S",
            "W CLT A1 N",
            "B CLT J10 S",
        ],
    );
    assert_eq!(
        targets_from(&g, "E3"),
        vec![sq("E8")],
        "no diagonal shot for the TD"
    );
}

#[test]
fn the_heavy_mortar_fires_over_obstacles_at_three_to_five_squares() {
    let g = position(
        12,
        12,
        &["E4", "E5"],
        &["W HM E2 N", "B HT E6 S", "W CLT A1 N", "B CLT L12 S"],
    );
    // Distance 4, over two obstacles; V beats the HT's front III.
    assert_eq!(targets_from(&g, "E2"), vec![sq("E6")]);
    let g = position(
        12,
        12,
        &[],
        &["W HM E2 N", "B LT E4 S", "W CLT A1 N", "B CLT L12 S"],
    );
    assert!(
        targets_from(&g, "E2").is_empty(),
        "distance 2 is too close for the mortar"
    );
    let g = position(
        12,
        12,
        &[],
        &["W HM E2 N", "B LT E8 S", "W CLT A1 N", "B CLT L12 S"],
    );
    assert!(targets_from(&g, "E2").is_empty(), "distance 6 is too far");
}

#[test]
fn turning_back_is_not_a_move_and_reversing_is_one_square_without_turning() {
    let g = position(8, 8, &[], &["W LT D4 N", "W CLT A1 N", "B CLT H8 S"]);
    let idx = g.pieces().iter().position(|p| p.at == sq("D4")).unwrap();
    let (dests, _) = g.destinations(idx);
    assert!(
        !dests.contains(&(sq("D4"), Dir8::N)),
        "left then right again is no move"
    );
    assert!(
        dests.contains(&(sq("D3"), Dir8::N)),
        "one square in reverse"
    );
    assert!(
        !dests.contains(&(sq("D2"), Dir8::N)),
        "two squares in reverse"
    );
    assert!(
        dests.contains(&(sq("D4"), Dir8::S)),
        "four turns reach the opposite facing"
    );
    assert!(
        dests.contains(&(sq("D8"), Dir8::N)),
        "four squares ahead then one left over"
    );
    // Speed 5: ahead 4 then a turn.
    assert!(dests.contains(&(sq("D8"), Dir8::NE)));
}

#[test]
fn moves_pass_only_over_empty_squares() {
    let g = position(8, 8, &["D6"], &["W LT D4 N", "W CLT A1 N", "B CLT H8 S"]);
    let idx = g.pieces().iter().position(|p| p.at == sq("D4")).unwrap();
    let (dests, _) = g.destinations(idx);
    assert!(
        !dests.iter().any(|(s, _)| *s == sq("D7")),
        "cannot drive through D6"
    );
}

#[test]
fn the_command_tank_cannot_escape_through_a_corner() {
    let g = position(8, 8, &[], &["W CLT H8 NE", "B CLT A1 N"]);
    let idx = g.pieces().iter().position(|p| p.white).unwrap();
    // Facing NE on H8 the step leaves across both edges: the corner. It may turn to N
    // first (one step) and then drive off straight.
    let mut corner = g.clone();
    corner.rules = Arc::new(Rules { ..rules() });
    let p = corner.pieces[idx];
    assert!(matches!(corner.step(&p, p.at, Dir8::NE), Step::Blocked));
    assert!(matches!(corner.step(&p, p.at, Dir8::N), Step::Exit));
    // A diagonal step across the middle of the far edge is an escape.
    let g = position(8, 8, &[], &["W CLT D8 NE", "B CLT A1 N"]);
    let p = *g.piece_at(sq("D8")).unwrap();
    assert!(matches!(g.step(&p, p.at, Dir8::NE), Step::Exit));
    // Not across a side edge, and never for a piece that is not the Command tank.
    let g = position(8, 8, &[], &["W CLT H4 E", "W LT D8 N", "B CLT A1 N"]);
    let p = *g.piece_at(sq("H4")).unwrap();
    assert!(matches!(g.step(&p, p.at, Dir8::E), Step::Blocked));
    let lt = *g.piece_at(sq("D8")).unwrap();
    assert!(matches!(g.step(&lt, lt.at, Dir8::N), Step::Blocked));
}

#[test]
fn destroying_the_command_tank_wins() {
    let g = position(
        10,
        10,
        &[],
        &["B HT E9 W", "W CLT E2 E", "W LT J1 N", "B CLT A10 S"],
    );
    let mut m = Match::new(g, 1);
    // Black to move: rotate south and destroy the white CLT on its side armor.
    let mut g2 = m.state().clone();
    g2.turn = 1;
    m = Match::new(g2, 1);
    let shot = Action::Move {
        from: sq("E9"),
        to: sq("E9"),
        facing: Dir8::S,
        fire: Some(sq("E2")),
    };
    assert!(m.state().legal().contains(&shot), "{:?}", m.state().legal());
    let facts = m.play(BLACK, &shot).unwrap().to_vec();
    assert!(facts.iter().any(|f| matches!(f, Fact::Destroyed { .. })));
    assert_eq!(m.state().outcome().unwrap().winners, vec![BLACK]);
}

fn black_to_move(mut g: TankChess) -> TankChess {
    g.turn = 1;
    g
}

#[test]
fn checkmate_is_detected_and_ends_the_game() {
    // The white CLT sits in the corner behind obstacles; the black HT turns to face down
    // column A, and nothing White has can stop the shot.
    let g = black_to_move(position(
        10,
        16,
        &["B1", "B2"],
        &["W CLT A1 E", "B HT A13 E", "B CLT J16 S"],
    ));
    let mut m = Match::new(g, 1);
    let turn = Action::Move {
        from: sq("A13"),
        to: sq("A13"),
        facing: Dir8::S,
        fire: None,
    };
    let facts = m.play(BLACK, &turn).unwrap().to_vec();
    assert!(
        facts.contains(&Fact::Announced(Announcement::Checkmate)),
        "{facts:?}"
    );
    assert_eq!(m.state().outcome().unwrap().winners, vec![BLACK]);
}

/// Black's heavy tank turns down column A onto the white Command tank, which a light
/// tank can shield: the game after that move, and its facts.
fn blockable_check() -> (Match<TankChess>, Vec<Fact>) {
    let g = black_to_move(position(
        10,
        16,
        &["B1", "B2", "I15", "J15", "I16"],
        &["W CLT A1 E", "W LT B5 W", "B HT A13 E", "B CLT J16 S"],
    ));
    let mut m = Match::new(g, 1);
    let turn = Action::Move {
        from: sq("A13"),
        to: sq("A13"),
        facing: Dir8::S,
        fire: None,
    };
    let facts = m.play(BLACK, &turn).unwrap().to_vec();
    (m, facts)
}

#[test]
fn a_check_that_can_be_blocked_is_not_mate_and_must_be_answered() {
    let (mut m, facts) = blockable_check();
    assert!(
        facts.contains(&Fact::Announced(Announcement::Check)),
        "{facts:?}"
    );
    assert!(m.state().outcome().is_none());
    let legal = m.state().legal();
    assert!(!legal.is_empty());
    for a in &legal {
        let mut next = m.state().clone();
        next.play_unchecked(*a);
        assert!(next.threatens(BLACK).is_none(), "{a:?} leaves the CLT open");
    }
    // The light tank blocks column A.
    assert!(legal.contains(&Action::Move {
        from: sq("B5"),
        to: sq("A5"),
        facing: Dir8::W,
        fire: None
    }));
    // A move that ignores the check is refused with the reason.
    let ignore = Action::Move {
        from: sq("B5"),
        to: sq("B6"),
        facing: Dir8::N,
        fire: None,
    };
    let err = m.play(WHITE, &ignore).unwrap_err().to_string();
    assert!(err.contains("Command tank"), "{err}");
}

#[test]
fn escapemate_is_detected() {
    let g = position(
        8,
        16,
        &["B16", "B15", "A15"],
        &["W CLT H10 N", "B CLT A16 E"],
    );
    let mut m = Match::new(g, 1);
    let run = Action::Move {
        from: sq("H10"),
        to: sq("H14"),
        facing: Dir8::N,
        fire: None,
    };
    let facts = m.play(WHITE, &run).unwrap().to_vec();
    assert!(
        facts.contains(&Fact::Announced(Announcement::Escapemate)),
        "{facts:?}"
    );
    assert_eq!(m.state().outcome().unwrap().winners, vec![WHITE]);
}

#[test]
fn no_move_may_open_the_command_tank_to_a_shot() {
    // The white LT on A5 shields its CLT from the black HT; moving it away is illegal.
    let g = position(
        10,
        16,
        &["B1", "B2", "I15", "J15", "I16"],
        &["W CLT A1 E", "W LT A5 N", "B HT A13 S", "B CLT J16 S"],
    );
    let legal = g.legal();
    let bad: Vec<_> = legal
        .iter()
        .filter(|a| matches!(a, Action::Move { from, to, .. } if *from == sq("A5") && to.col != 0))
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
    // Without announced play it is allowed (and loses).
    let mut free = g.clone();
    free.announced = false;
    assert!(
        free.legal().iter().any(
            |a| matches!(a, Action::Move { from, to, .. } if *from == sq("A5") && to.col != 0)
        )
    );
}

/// With black left out, a mirrored piece's problem is placed at the white piece it
/// mirrors (not at the file's first line), and a white piece off the board is told once.
#[test]
fn a_mirrored_black_piece_is_placed_at_the_white_piece_it_mirrors() {
    let r = rules();
    let text = r#"TankChessSetup(
        name: "mirror", board: (width: 8, height: 8), obstacles: ["E8"],
        white: [
            (kind: MT, at: "D1"),
            (kind: LT, at: "A1", command: true),
            (kind: HT, at: "Z1"),
        ],
    )"#;
    let err = Scenario::parse("mirror.ron", text, &r)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("mirror.ron:4:24: black's mirror of this piece stands on E8, already taken by an obstacle"),
        "{err}"
    );
    assert!(
        err.contains("mirror.ron:6:24: Z1 is off the 8×8 board"),
        "{err}"
    );
    assert_eq!(err.matches("Z1").count(), 1, "{err}");
    assert!(!err.contains(":1:1:"), "{err}");
}

#[test]
fn the_validator_names_pieces_open_to_a_first_move_shot() {
    let r = rules();
    let text = r#"TankChessSetup(
        name: "open", board: (width: 8, height: 8),
        white: [(kind: MT, at: "D1"), (kind: LT, at: "A1", command: true)],
    )"#;
    let err = Scenario::parse("open.ron", text, &r)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("can be destroyed on White's first move"),
        "{err}"
    );
}

#[test]
fn notation_reads_and_writes_the_rulebook_form() {
    let a = Action::Move {
        from: sq("K1"),
        to: sq("N3"),
        facing: Dir8::NE,
        fire: None,
    };
    assert_eq!(notation::move_text(&a, None), "K1 > N3/NE");
    let turn = Action::Move {
        from: sq("N3"),
        to: sq("N3"),
        facing: Dir8::NW,
        fire: None,
    };
    assert_eq!(
        notation::move_text(&turn, Some(&[Fact::Announced(Announcement::Checkmate)])),
        "N3/NW (#)"
    );
    let shot = Action::Move {
        from: sq("K1"),
        to: sq("K3"),
        facing: Dir8::N,
        fire: Some(sq("O1")),
    };
    assert_eq!(
        notation::move_text(&shot, Some(&[Fact::Announced(Announcement::Check)])),
        "K1 > K3/N (O1 +)"
    );
    let parsed =
        notation::parse_record("[Setup \"x.ron\"]\n37. K1 > N3/NE , H7 > K7/SE (#)\n").unwrap();
    assert_eq!(parsed.setup, "x.ron");
    assert_eq!(
        parsed.moves,
        vec![
            (2, "K1 > N3/NE".to_string()),
            (2, "H7 > K7/SE (#)".to_string())
        ]
    );
}

#[test]
fn random_games_stay_legal_and_replay_from_their_notation() {
    use crate::framework::bot::{Bot, RandomBot};
    let r = rules();
    let scenario = Scenario::builtin_default(&r);
    for seed in 0..3 {
        let mut m = Match::new(TankChess::new(&scenario, &r), seed);
        let mut rng = MatchRng::new(seed);
        let mut played = Vec::new();
        for _ in 0..40 {
            let Some(&side) = m.state().to_act().first() else {
                break;
            };
            let a = RandomBot.choose(m.state(), side, &mut rng).unwrap();
            let facts = m.play(side, &a).unwrap().to_vec();
            played.push((a, facts));
        }
        let text = notation::record_text("basic-16.ron", "t", &[], &played);
        let parsed = notation::parse_record(&text).unwrap();
        let mut replay = TankChess::new(&scenario, &r);
        for (_, mv) in &parsed.moves {
            let a = notation::parse_move(&replay, mv).unwrap();
            let side = replay.to_move();
            replay.apply(side, &a, &mut MatchRng::new(0)).unwrap();
        }
        assert_eq!(replay.state_hash(), m.state().state_hash());
    }
}

#[test]
fn both_bot_strengths_take_a_winning_shot() {
    use crate::framework::bot::Bot;
    use bot::{ChessBot, Strength};
    // Black can destroy the white CLT by turning south: both strengths see it.
    let g = black_to_move(position(
        10,
        10,
        &[],
        &["B HT E9 W", "W CLT E2 E", "W LT J1 N", "B CLT A10 S"],
    ));
    for s in [Strength::Cadet, Strength::Commander] {
        let a = ChessBot(s)
            .choose(&g, BLACK, &mut MatchRng::new(1))
            .unwrap();
        assert!(
            matches!(a, Action::Move { fire: Some(t), .. } if t == sq("E2")),
            "{a:?}"
        );
    }
}

#[test]
fn in_four_players_the_commander_minds_every_team_that_moves_before_it_again() {
    use crate::framework::bot::Bot;
    use bot::{ChessBot, Strength};
    // White's light tank on E5 stands in the line of Flag Black's heavy tank on J5, which
    // can drive west along row 5 (walls hem it in) and fire from there. Black moves next
    // and has no shot at anything: every Command tank is walled in. The Commander once
    // weighed the next seat's replies alone, which left the last seat to move the only
    // one that minded every shot, and it won four games in five.
    let r = rules();
    let text = r#"TankChessSetup(
        name: "4p", board: (width: 10, height: 10), mode: FourPlayers(move_limit: 15), position: true,
        obstacles: ["A2", "B1", "B2", "A9", "B9", "B10", "I1", "I2", "J2", "I9", "I10", "J9", "I4", "I6", "J4", "J6"],
        white: [(kind: LT, at: "E5", facing: N), (kind: LT, at: "A1", command: true)],
        black: [(kind: LT, at: "A10", facing: S, command: true)],
        flag_white: [(kind: LT, at: "J1", facing: W, command: true)],
        flag_black: [(kind: HT, at: "J5", facing: W), (kind: LT, at: "J10", facing: S, command: true)],
    )"#;
    let s = Scenario::parse("4p.ron", text, &r).unwrap();
    let g = TankChess::new(&s, &r);
    let flag_black = PlayerId(3);
    let shots_at_white = |g: &TankChess| {
        g.pseudo_moves(flag_black)
            .into_iter()
            .filter(|m| {
                matches!(m, Action::Move { fire: Some(t), .. }
                    if matches!(g.cell(*t), Cell::Piece(i) if g.pieces()[usize::from(i)].side() == WHITE))
            })
            .count()
    };
    assert!(shots_at_white(&g) > 0, "the position must hold the danger");
    let safe = g
        .legal_actions(WHITE)
        .into_iter()
        .filter(|m| {
            let mut next = g.clone();
            next.play_unchecked(*m);
            shots_at_white(&next) == 0
        })
        .count();
    assert!(safe > 0, "some move must get out of the line");
    for seed in 0..8 {
        let a = ChessBot(Strength::Commander)
            .choose(&g, WHITE, &mut MatchRng::new(seed))
            .unwrap();
        let mut next = g.clone();
        next.play_unchecked(a);
        assert_eq!(
            shots_at_white(&next),
            0,
            "seed {seed}: {a:?} leaves a piece in Flag Black's line"
        );
    }
}

/// The Commander's move from `g` for `player`, over several seeds (it breaks ties at random).
fn commander_moves(g: &TankChess, player: PlayerId) -> Vec<Action> {
    use crate::framework::bot::Bot;
    use bot::{ChessBot, Strength};
    (0..8)
        .map(|seed| {
            ChessBot(Strength::Commander)
                .choose(g, player, &mut MatchRng::new(seed))
                .unwrap()
        })
        .collect()
}

#[test]
fn the_commander_sends_its_pieces_out_before_its_command_tank() {
    // With the Command tank alone gaining by a move, both sides drove it out from the
    // first move and White's, first into reach, was mated: Black won three games in four.
    let r = rules();
    let g = TankChess::new(&Scenario::builtin_default(&r), &r);
    for a in commander_moves(&g, WHITE) {
        let Action::Move { from, .. } = a else {
            panic!("{a:?}")
        };
        assert!(
            !g.piece_at(from).unwrap().command,
            "{a:?} drives the Command tank out"
        );
    }
}

#[test]
fn the_commander_drives_off_the_far_edge_in_escape_of_three() {
    let g = position_in(
        Mode::EscapeOfThree,
        8,
        8,
        &[],
        &["W LT D8 N", "W LT A1 N", "B HT H2 N"],
    );
    for a in commander_moves(&g, WHITE) {
        assert_eq!(a, Action::Escape { from: sq("D8") });
    }
}

#[test]
fn the_commander_brings_a_flag_home_though_the_game_goes_on() {
    // Three flags: one home of two wins. The carrier on C2 steps home to row 1; the
    // Commander once valued a carried flag but not one at home, and kept it on the road.
    let mut g = position_in(Mode::CaptureTheFlag, 8, 8, &[], &["W LT C2 S", "B LT H8 S"]);
    g.flags = vec![
        Flag::Carried(0),
        Flag::Standing(sq("D4")),
        Flag::Standing(sq("F6")),
    ];
    for a in commander_moves(&g, WHITE) {
        let mut next = g.clone();
        next.play_unchecked(a);
        assert_eq!(next.flags[0], Flag::Home(WHITE), "{a:?}");
    }
}

#[test]
fn the_commander_closes_in_on_the_enemy_in_last_tank_standing() {
    // No shot on either side (H8 blocks the diagonal), and only a move north-east brings
    // the heavy tank nearer: every move was worth the same, and the armies waited for the
    // move limit with as many pieces each.
    let g = position_in(
        Mode::LastTankStanding { move_limit: 40 },
        10,
        10,
        &["H8"],
        &["W HT E5 N", "B LT J10 S"],
    );
    let gap = |g: &TankChess| g.pieces()[0].at.king_distance(g.pieces()[1].at);
    for a in commander_moves(&g, WHITE) {
        let mut next = g.clone();
        next.play_unchecked(a);
        assert!(gap(&next) < gap(&g), "{a:?} keeps its distance");
    }
}

#[test]
fn bots_finish_games_on_the_default_board() {
    use crate::framework::bot::{Bot, play_out};
    use bot::{ChessBot, Strength};
    let r = rules();
    let scenario = Scenario::builtin_default(&r);
    let mut bots: Vec<Box<dyn Bot<TankChess>>> = vec![
        Box::new(ChessBot(Strength::Commander)),
        Box::new(ChessBot(Strength::Cadet)),
    ];
    let played = play_out(
        TankChess::new(&scenario, &r),
        &mut bots,
        &mut MatchRng::new(3),
        &mut MatchRng::new(4),
        400,
        |_, _| {},
    )
    .unwrap();
    assert!(played.outcome.is_some(), "the game ended within 400 moves");
}

#[test]
fn last_tank_standing_is_won_by_the_last_shot_and_escape_of_three_by_the_third_exit() {
    let g = position_in(
        Mode::LastTankStanding { move_limit: 25 },
        10,
        10,
        &[],
        &["W HT E2 N", "B LT E8 S"],
    );
    let mut m = Match::new(g, 1);
    let shot = Action::Move {
        from: sq("E2"),
        to: sq("E3"),
        facing: Dir8::N,
        fire: Some(sq("E8")),
    };
    m.play(WHITE, &shot).unwrap();
    assert_eq!(m.state().outcome().unwrap().winners, vec![WHITE]);

    // Two white pieces already out; a third on the last row drives off and wins.
    let mut g = position_in(Mode::EscapeOfThree, 8, 8, &[], &["W LT D8 N", "B LT A1 N"]);
    g.escaped = [2, 0];
    assert!(g.legal().contains(&Action::Escape { from: sq("D8") }));
    let mut m = Match::new(g, 1);
    m.play(WHITE, &Action::Escape { from: sq("D8") }).unwrap();
    assert_eq!(m.state().outcome().unwrap().winners, vec![WHITE]);
}

#[test]
fn last_tank_standing_counts_survivors_at_the_move_limit() {
    let g = position_in(
        Mode::LastTankStanding { move_limit: 1 },
        10,
        10,
        &["E5"],
        &["W HT E2 N", "W LT A2 N", "B LT E8 S"],
    );
    let mut m = Match::new(g, 1);
    m.play(
        WHITE,
        &Action::Move {
            from: sq("A2"),
            to: sq("A3"),
            facing: Dir8::N,
            fire: None,
        },
    )
    .unwrap();
    m.play(
        BLACK,
        &Action::Move {
            from: sq("E8"),
            to: sq("E8"),
            facing: Dir8::SW,
            fire: None,
        },
    )
    .unwrap();
    let o = m.state().outcome().unwrap();
    assert_eq!(o.winners, vec![WHITE], "{}", o.reason);
}

#[test]
fn running_out_of_time_loses() {
    let g = position(8, 8, &[], &["W CLT A1 N", "B CLT H8 S"]);
    let mut m = Match::new(g, 1);
    m.play(WHITE, &Action::OutOfTime).unwrap();
    let o = m.state().outcome().unwrap();
    assert_eq!(o.winners, vec![BLACK]);
    assert!(o.reason.contains("ran out of time"));
}

fn ctf(pieces: &[&str], flags: &[&str]) -> TankChess {
    let mut g = position_in(Mode::CaptureTheFlag, 8, 8, &[], pieces);
    g.flags = flags.iter().map(|f| Flag::Standing(sq(f))).collect();
    g
}

#[test]
fn capture_the_flag_take_at_the_centre_and_carry_it_home() {
    let g = ctf(&["W LT D7 S", "B LT A8 S"], &["D4"]);
    let take = Action::Take {
        from: sq("D7"),
        to: sq("D5"),
        facing: Dir8::S,
        flag: 0,
    };
    assert!(
        g.legal().contains(&take),
        "ending on one of the four central squares takes the flag"
    );
    assert!(
        !g.legal()
            .iter()
            .any(|a| matches!(a, Action::Take { to, .. } if *to == sq("D6")))
    );
    let mut m = Match::new(g, 1);
    let facts = m.play(WHITE, &take).unwrap().to_vec();
    assert!(facts.iter().any(|f| matches!(f, Fact::FlagTaken { .. })));
    m.play(
        BLACK,
        &Action::Move {
            from: sq("A8"),
            to: sq("A8"),
            facing: Dir8::SE,
            fire: None,
        },
    )
    .unwrap();
    let home = Action::Move {
        from: sq("D5"),
        to: sq("D1"),
        facing: Dir8::S,
        fire: None,
    };
    assert!(m.state().legal().contains(&home), "{:?}", m.state().legal());
    let facts = m.play(WHITE, &home).unwrap().to_vec();
    assert!(facts.iter().any(|f| matches!(f, Fact::FlagHome { .. })));
    assert_eq!(m.state().outcome().unwrap().winners, vec![WHITE]);
}

#[test]
fn a_flag_passes_from_a_wreck_to_a_piece_ending_beside_it() {
    let mut g = ctf(
        &["W LT D5 N", "B HT D8 S", "B LT G6 W", "W CLT A1 N"],
        &["D4"],
    );
    g.flags = vec![Flag::Carried(0)];
    g.pieces[0].state = PieceState::Wrecked;
    g.turn = 1;
    let legal = g.legal();
    // The black LT ends next to the wreck on D5 and takes its flag; it may not fire too.
    let take = Action::Take {
        from: sq("G6"),
        to: sq("E6"),
        facing: Dir8::W,
        flag: 0,
    };
    assert!(legal.contains(&take), "{legal:?}");
    assert!(
        legal
            .iter()
            .all(|a| !matches!(a, Action::Take { to, .. } if *to == sq("G6")))
    );
}

#[test]
fn capture_the_flag_setups_need_an_odd_number_of_free_flag_squares() {
    let r = rules();
    let text = r#"TankChessSetup(
        name: "flags", board: (width: 8, height: 8), mode: CaptureTheFlag, position: true,
        obstacles: ["D4"], flags: ["C3", "D4"],
        white: [(kind: LT, at: "A1")],
    )"#;
    let err = Scenario::parse("flags.ron", text, &r)
        .unwrap_err()
        .to_string();
    assert!(err.contains("odd number of flags"), "{err}");
    assert!(err.contains("must be free"), "{err}");
}

#[test]
fn four_players_take_turns_in_seat_order_and_end_on_points() {
    use crate::framework::bot::{Bot, RandomBot};
    let r = rules();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/tank-chess/four-players.ron");
    let scenario = Scenario::load(&path, &r).unwrap();
    let mut m = Match::new(TankChess::new(&scenario, &r), 1);
    assert_eq!(m.state().player_count(), 4);
    let mut rng = MatchRng::new(5);
    let mut seats = Vec::new();
    while let Some(&side) = m.state().to_act().first() {
        seats.push(side.0);
        let a = RandomBot.choose(m.state(), side, &mut rng).unwrap();
        m.play(side, &a).unwrap();
    }
    assert_eq!(&seats[..4], &[0, 1, 2, 3]);
    let o = m.state().outcome().unwrap();
    assert!(o.reason.contains("points"), "{}", o.reason);
    let points = m.state().points();
    let best = *points.iter().max().unwrap();
    for w in &o.winners {
        assert_eq!(points[usize::from(w.0)], best);
    }
}

#[test]
fn a_command_tank_kill_scores_two_points() {
    let r = rules();
    let text = r#"TankChessSetup(
        name: "4p", board: (width: 10, height: 10), mode: FourPlayers(move_limit: 15), position: true,
        white: [(kind: HT, at: "D2"), (kind: LT, at: "A1", command: true)],
        black: [(kind: LT, at: "D7", facing: S, command: true), (kind: LT, at: "J10")],
        flag_white: [(kind: LT, at: "A9", command: true)],
        flag_black: [(kind: LT, at: "J5", command: true)],
    )"#;
    let s = Scenario::parse("4p.ron", text, &r).unwrap();
    let mut m = Match::new(TankChess::new(&s, &r), 1);
    let shot = Action::Move {
        from: sq("D2"),
        to: sq("D3"),
        facing: Dir8::N,
        fire: Some(sq("D7")),
    };
    m.play(WHITE, &shot).unwrap();
    assert_eq!(
        m.state().points()[0],
        2 + 2,
        "two pieces left and a Command tank destroyed"
    );
    assert_eq!(
        m.state().to_move(),
        BLACK,
        "Black still has a piece, so it moves next"
    );
}

#[test]
fn without_announced_play_nothing_is_announced() {
    let mut g = black_to_move(position(
        10,
        16,
        &["B1", "B2", "I15", "J15", "I16"],
        &["W CLT A1 E", "W LT B5 W", "B HT A13 E", "B CLT J16 S"],
    ));
    g.announced = false;
    let mut m = Match::new(g, 1);
    let turn = Action::Move {
        from: sq("A13"),
        to: sq("A13"),
        facing: Dir8::S,
        fire: None,
    };
    let facts = m.play(BLACK, &turn).unwrap().to_vec();
    assert!(
        !facts.iter().any(|f| matches!(f, Fact::Announced(_))),
        "{facts:?}"
    );
    let last = &m.history()[0];
    assert_eq!(
        notation::move_text(&last.action, Some(&last.facts)),
        "A13/S"
    );
}

/// What holds after every move: every piece on the board (but escaped ones), no two on
/// one square, a side to move with a legal move while the game goes on.
fn check_invariants(g: &TankChess) {
    let (w, h) = g.size();
    let mut seen = Vec::new();
    for p in g.pieces() {
        if p.state == PieceState::Escaped {
            continue;
        }
        assert!(p.at.col < w && p.at.row < h, "{p:?} is off the board");
        assert!(!seen.contains(&p.at), "two pieces on {:?}", p.at);
        seen.push(p.at);
    }
    match g.outcome() {
        Some(_) => assert!(g.to_act().is_empty()),
        None => {
            let who = g.to_act();
            assert_eq!(who.len(), 1);
            assert!(!g.legal_actions(who[0]).is_empty());
        }
    }
}

/// The long run: random legal play for 10⁶ moves on every shipped setup.
#[test]
#[ignore = "long: run with --release -- --ignored"]
fn long_random_play_keeps_the_invariants() {
    use crate::framework::Playable;
    let r = rules();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tank-chess");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let setups: Vec<_> = files
        .iter()
        .map(|p| crate::framework::playable::load_setup::<TankChess>(p, &r).unwrap())
        .collect();
    assert!(setups.len() >= 10);
    let _ = TankChess::KIND;
    crate::framework::long_run::play::<TankChess>(
        &setups,
        crate::framework::long_run::actions_wanted(),
        2_000,
        check_invariants,
    );
}

/// The filter's shortcuts (a piece searched once per position, a quiet move let through
/// unsearched) agree with searching the position after every move from scratch, and a
/// single move's check agrees with the whole list.
#[test]
fn the_fast_filter_agrees_with_a_full_search() {
    let r = rules();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tank-chess");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (mut positions, mut threatened) = (0, 0);
    for (n, path) in files.iter().enumerate() {
        let setup = crate::framework::playable::load_setup::<TankChess>(path, &r).unwrap();
        let mut m = crate::framework::playable::start::<TankChess>(&setup, 0, &[]).unwrap();
        let mut pick = MatchRng::new(n as u64);
        while m.state().outcome().is_none() && m.history().len() < 240 {
            let g = m.state().clone();
            if m.history().len() % 6 == 5 && g.filtered() {
                positions += 1;
                let other = opponent(g.to_move());
                let mut probe = Probe::new(&g);
                threatened += usize::from(probe.threatened);
                assert_eq!(probe.threatened, g.threatens(other).is_some());
                let legal = g.legal();
                for (k, mv) in g.pseudo_moves(g.to_move()).into_iter().enumerate() {
                    let mut next = g.clone();
                    next.play_unchecked(mv);
                    let full = next.result.is_some() || next.threatens(other).is_none();
                    assert_eq!(probe.allows(&g, mv), full, "{} {mv:?}", path.display());
                    if k % 17 == 0 {
                        assert_eq!(g.is_legal(&mv), legal.contains(&mv), "{mv:?}");
                    }
                }
            }
            let legal = g.legal();
            m.play(g.to_move(), &legal[pick.pick(legal.len())]).unwrap();
        }
    }
    assert!(
        positions >= 100 && threatened > 0,
        "{positions} positions, {threatened} threatened"
    );
    eprintln!("{positions} positions, {threatened} with the Command tank threatened");
}

/// A random Standard position with announced play: a board of 6 to 10 squares a side,
/// some obstacles, each side a Command tank and up to five other pieces of any kind,
/// facing anywhere, and either side to move.
fn random_position(rng: &mut MatchRng) -> TankChess {
    random_position_in(rng, Mode::Standard)
}

/// A random position of `mode`: Command tanks only in the modes that have them.
fn random_position_in(rng: &mut MatchRng, mode: Mode) -> TankChess {
    let commands = matches!(mode, Mode::Standard);
    let (w, h) = (6 + rng.pick(5) as u8, 6 + rng.pick(5) as u8);
    let mut free: Vec<Square> = (0..w)
        .flat_map(|col| (0..h).map(move |row| Square { col, row }))
        .collect();
    let mut take = |rng: &mut MatchRng| free.swap_remove(rng.pick(free.len()));
    let obstacles: Vec<Square> = (0..rng.pick(usize::from(w) * usize::from(h) / 8 + 1))
        .map(|_| take(rng))
        .collect();
    let mut pieces = Vec::new();
    for white in [true, false] {
        for k in 0..=1 + rng.pick(5) {
            pieces.push(setup::Placed {
                white,
                side: u8::from(!white),
                kind: Kind::ALL[rng.pick(Kind::ALL.len())],
                at: take(rng),
                facing: Dir8::ALL[rng.pick(8)],
                command: commands && k == 0,
            });
        }
    }
    let mut game = game_of(mode, w, h, obstacles, pieces);
    game.turn = u8::try_from(rng.pick(2)).unwrap_or(0);
    game
}

/// The rule itself, searched the slow way: after `m`, does any reply of the opponent win
/// at once (destroy the mover's Command tank, or escape with its own)? Every reply is
/// played out on a copy; nothing of the fast filter (threat searches, firing lines,
/// shooters) is used.
fn reference_allows(game: &TankChess, m: Action) -> bool {
    let mover = game.to_move();
    let mut next = game.clone();
    next.play_unchecked(m);
    if next.result.is_some() {
        return true;
    }
    let them = next.to_move();
    next.pseudo_moves(them).into_iter().all(|r| {
        let mut after = next.clone();
        after.play_unchecked(r);
        after
            .result
            .as_ref()
            .is_none_or(|o| !o.winners.contains(&them) || o.winners.contains(&mover))
    })
}

/// The fast legal-move list (and the single-move check) agree with the slow reference
/// on 10,000 random positions, in about a third of which the side to move is threatened.
#[test]
fn fast_legality_agrees_with_the_slow_reference_on_ten_thousand_random_positions() {
    const POSITIONS: usize = 10_000;
    let run = |part: u64| {
        let mut rng = MatchRng::new(0x7a4c_0000 + part);
        let (mut threatened, mut moves, mut refused) = (0, 0, 0);
        for n in 0..POSITIONS / 2 {
            let g = random_position(&mut rng);
            if g.result.is_some() {
                continue;
            }
            let other = opponent(g.to_move());
            threatened += usize::from(g.threatens(other).is_some());
            let slow: Vec<Action> = g
                .pseudo_moves(g.to_move())
                .into_iter()
                .filter(|m| reference_allows(&g, *m))
                .collect();
            let fast = g.legal();
            assert_eq!(fast, slow, "position {n} of part {part}: {g:?}");
            moves += slow.len();
            refused += g.pseudo_moves(g.to_move()).len() - slow.len();
            for m in g.pseudo_moves(g.to_move()).into_iter().step_by(7) {
                assert_eq!(g.is_legal(&m), slow.contains(&m), "{m:?} in {g:?}");
            }
            assert_eq!(g.has_legal_move(), !slow.is_empty());
        }
        (threatened, moves, refused)
    };
    let (a, b) = std::thread::scope(|s| {
        let other = s.spawn(|| run(1));
        let mine = run(0);
        (mine, other.join().unwrap())
    });
    let (threatened, moves, refused) = (a.0 + b.0, a.1 + b.1, a.2 + b.2);
    eprintln!(
        "{POSITIONS} random positions: {threatened} threatened, {moves} legal moves, {refused} refused"
    );
    assert!(threatened >= POSITIONS / 10, "{threatened} threatened");
    assert!(refused >= POSITIONS, "{refused} refused");
}

mod engine {
    use super::*;
    use crate::rules::tank_chess::engine::{Engine, Limits, WIN, evaluate, evaluate_four, zobrist};

    fn analyse(g: &TankChess, nodes: u64) -> crate::rules::tank_chess::engine::Analysis {
        Engine::new(Limits::nodes(12, nodes)).analyse(g, None)
    }

    #[test]
    fn the_engine_takes_a_command_tank_in_its_sights() {
        // The black CLT stands in front of the white HT with its rear turned.
        let g = position(10, 10, &[], &["W HT E3 N", "B CLT E7 N", "W CLT A1 N"]);
        let a = analyse(&g, 20_000);
        assert!(
            matches!(a.best, Some(Action::Move { fire: Some(t), .. }) if t == sq("E7")),
            "{a:?}"
        );
        assert_eq!(a.mate_in(), Some(1), "{a:?}");
    }

    #[test]
    fn the_engine_finds_the_checkmate_and_the_escapemate_of_the_rules_tests() {
        // Black turns its HT down column A: nothing White has can stop the shot.
        let g = black_to_move(position(
            10,
            16,
            &["B1", "B2"],
            &["W CLT A1 E", "B HT A13 E", "B CLT J16 S"],
        ));
        let a = analyse(&g, 50_000);
        assert!(a.score > WIN - 100, "{a:?}");
        let mut m = Match::new(g, 1);
        m.play(BLACK, &a.best.unwrap()).unwrap();
        let winners = m.state().outcome().map(|o| o.winners);
        assert!(
            winners == Some(vec![BLACK]) || m.state().threatens(BLACK).is_some(),
            "the engine's move mates or checks: {:?}",
            a.line
        );
        // White's Command tank runs for the far edge, and Black cannot stop it.
        let g = position(
            8,
            16,
            &["B16", "B15", "A15"],
            &["W CLT H10 N", "B CLT A16 E"],
        );
        let a = analyse(&g, 50_000);
        assert!(a.score > WIN - 100, "{a:?}");
    }

    #[test]
    fn the_engine_plays_only_legal_moves_and_the_same_move_twice() {
        let mut rng = MatchRng::new(99);
        for _ in 0..40 {
            let g = random_position(&mut rng);
            if g.result.is_some() {
                continue;
            }
            let legal = g.legal();
            let a = analyse(&g, 3_000);
            match a.best {
                Some(m) => assert!(legal.contains(&m), "{m:?} is not legal in {g:?}"),
                None => assert!(legal.is_empty()),
            }
            // Only the first iteration, which every move gets, may run past the budget.
            assert!(a.nodes <= 3_000 + 64 || a.depth == 1, "{} nodes", a.nodes);
            let again = analyse(&g, 3_000);
            assert_eq!(
                (again.best, again.score, again.nodes, again.line),
                (a.best, a.score, a.nodes, a.line),
                "a node budget gives the same answer"
            );
        }
    }

    #[test]
    fn moves_the_engine_calls_equal_to_the_best_really_are() {
        // Searched one by one with a full window, every move the root reports as tied
        // with the best scores the best: a move that only failed low against the best
        // (and so may lose a piece the best keeps) is never among them.
        let mut rng = MatchRng::new(7);
        let mut tied = 0;
        for _ in 0..30 {
            let g = random_position_in(&mut rng, Mode::LastTankStanding { move_limit: 150 });
            let a = Engine::new(Limits::nodes(2, u64::MAX)).analyse(&g, None);
            if a.mate_in().is_some() {
                // Forced results count plies from a different root.
                continue;
            }
            for &m in &a.ties {
                let mut next = g.clone();
                next.play_unchecked(m);
                let reply = Engine::new(Limits::nodes(1, u64::MAX)).analyse(&next, None);
                let score = if next.result.is_some() || next.legal().len() <= 1 {
                    continue;
                } else {
                    -reply.score
                };
                assert_eq!(score, a.score, "{m:?} tied with {:?} in {g:?}", a.best);
                tied += 1;
            }
        }
        assert!(tied > 30, "only {tied} tied moves were looked at");
    }

    #[test]
    fn in_four_players_the_engine_plays_for_points() {
        // White's heavy tank can destroy Black's Command tank on D7 (2 points) or, from
        // D5, Black's light tank on G5 (1 point): it takes the Command tank.
        let r = rules();
        let text = r#"TankChessSetup(
            name: "4p", board: (width: 10, height: 10), mode: FourPlayers(move_limit: 15), position: true,
            white: [(kind: HT, at: "D2"), (kind: LT, at: "A1", command: true)],
            black: [(kind: LT, at: "D7", facing: S, command: true), (kind: LT, at: "G5", facing: W)],
            flag_white: [(kind: LT, at: "A9", command: true)],
            flag_black: [(kind: LT, at: "J5", command: true)],
        )"#;
        let s = Scenario::parse("4p.ron", text, &r).unwrap();
        let g = TankChess::new(&s, &r);
        let a = analyse(&g, 20_000);
        let Some(Action::Move { fire: Some(t), .. }) = a.best else {
            panic!("the engine does not shoot: {a:?}");
        };
        assert_eq!(t, sq("D7"), "the Command tank is worth two points: {a:?}");
        assert!(a.score > 0, "{a:?}");
        // The shipped setup: the engine plays only legal moves, for every seat in turn.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/tank-chess/four-players.ron");
        let text = std::fs::read_to_string(&path).unwrap();
        let s = Scenario::parse("four-players.ron", &text, &r).unwrap();
        let mut m = Match::new(TankChess::new(&s, &r), 3);
        let mut engine = Engine::new(Limits::nodes(12, 2_000));
        for _ in 0..8 {
            let g = m.state().clone();
            if g.result.is_some() {
                break;
            }
            let side = g.to_move();
            let best = engine.analyse(&g, None).best.expect("a move");
            assert!(g.legal().contains(&best), "{best:?}");
            m.play(side, &best).unwrap();
        }
        assert!(evaluate_four(m.state(), WHITE) > -10_000);
    }

    #[test]
    fn zobrist_keys_follow_the_position_not_the_path() {
        let rules = rules();
        let g = TankChess::new(&Scenario::builtin_default(&rules), &rules);
        let legal = g.legal();
        let white: Vec<Action> = legal.iter().copied().take(2).collect();
        let play = |moves: &[Action]| {
            let mut m = Match::new(g.clone(), 1);
            for a in moves {
                let side = m.state().to_move();
                m.play(side, a).unwrap();
            }
            m.state().clone()
        };
        // White's two moves by different pieces, Black answering the same way between.
        let first = play(&[white[0]]);
        let black = first.legal()[0];
        let a = play(&[white[0], black]);
        assert_ne!(zobrist(&a), zobrist(&g));
        assert_ne!(zobrist(&a), zobrist(&first));
        assert_eq!(zobrist(&a), zobrist(&play(&[white[0], black])));
        // Material counts for the side it belongs to.
        assert_eq!(
            evaluate(&g, WHITE),
            evaluate(&g, BLACK),
            "the start is even"
        );
    }
}

// Rules map: tests for rules that had none.

#[test]
fn the_rules_table_holds_the_rulebooks_charts() {
    let r = rules();
    // Speed, firepower, and armor front/side/rear, in the charts' order LT MT HT TD HM.
    let chart = [
        (Kind::LT, 5, 1, (1, 0, 0)),
        (Kind::MT, 4, 2, (2, 1, 0)),
        (Kind::HT, 3, 3, (3, 2, 1)),
        (Kind::TD, 4, 4, (2, 1, 0)),
        (Kind::HM, 3, 5, (1, 0, 0)),
    ];
    for (kind, speed, firepower, (front, side, rear)) in chart {
        let s = r.stats(kind);
        assert_eq!((s.speed, s.firepower), (speed, firepower), "{kind}");
        assert_eq!(
            (s.armor.front, s.armor.side, s.armor.rear),
            (front, side, rear),
            "{kind}"
        );
    }
    // Turrets on the tanks, a fixed gun on the destroyer, the mortar at 3 to 5 squares.
    for kind in [Kind::LT, Kind::MT, Kind::HT] {
        assert_eq!(r.stats(kind).weapon, Weapon::Turret, "{kind}");
    }
    assert_eq!(r.stats(Kind::TD).weapon, Weapon::Fixed);
    assert_eq!(r.stats(Kind::HM).weapon, Weapon::Mortar { min: 3, max: 5 });
}

#[test]
fn speed_is_the_number_of_steps_a_move_may_take() {
    // The heavy tank's speed is 3: three squares ahead, or two and a turn, no more.
    let g = position(8, 8, &[], &["W HT D2 N", "W CLT A1 N", "B CLT H8 S"]);
    let idx = g.pieces().iter().position(|p| p.at == sq("D2")).unwrap();
    let (dests, _) = g.destinations(idx);
    assert!(dests.contains(&(sq("D5"), Dir8::N)));
    assert!(!dests.iter().any(|(s, _)| *s == sq("D6")));
    assert!(dests.contains(&(sq("D4"), Dir8::NE)));
    assert!(!dests.contains(&(sq("D5"), Dir8::NE)));
    // A turn, then two diagonal squares.
    assert!(dests.contains(&(sq("F4"), Dir8::NE)));
}

#[test]
fn white_moves_first_and_the_sides_alternate() {
    let r = rules();
    let g = TankChess::new(&Scenario::builtin_default(&r), &r);
    assert_eq!(g.to_act(), vec![WHITE]);
    let mut m = Match::new(g, 1);
    let before = m.state().pieces().to_vec();
    let first = m.state().legal()[0];
    m.play(WHITE, &first).unwrap();
    let moved = before
        .iter()
        .zip(m.state().pieces())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(moved, 1, "one piece moves a turn");
    assert_eq!(m.state().to_act(), vec![BLACK]);
    assert!(m.state().legal_actions(WHITE).is_empty());
    let reply = m.state().legal()[0];
    m.play(BLACK, &reply).unwrap();
    assert_eq!(m.state().to_move(), WHITE);
}

#[test]
fn only_the_moved_piece_fires_and_only_after_moving() {
    // The white HT already has the black LT on E8 in its sights.
    let g = position(
        10,
        10,
        &[],
        &["W HT E3 N", "B LT E8 S", "W CLT A1 N", "B CLT J10 S"],
    );
    let moves = g.pseudo_moves(WHITE);
    for a in &moves {
        if let Action::Move {
            from,
            to,
            facing,
            fire: Some(_),
        } = *a
        {
            let p = g.piece_at(from).unwrap();
            assert!(
                (to, facing) != (p.at, p.facing),
                "{a:?} fires without moving"
            );
        }
    }
    // A square ahead, or a turn in place (the turret still covers north), then the shot.
    assert!(moves.contains(&Action::Move {
        from: sq("E3"),
        to: sq("E4"),
        facing: Dir8::N,
        fire: Some(sq("E8")),
    }));
    assert!(moves.contains(&Action::Move {
        from: sq("E3"),
        to: sq("E3"),
        facing: Dir8::NE,
        fire: Some(sq("E8")),
    }));
    // With `fire_without_move` the piece may fire standing still.
    let mut still = g.clone();
    still.rules = Arc::new(Rules {
        fire_without_move: true,
        ..rules()
    });
    assert!(still.pseudo_moves(WHITE).contains(&Action::Move {
        from: sq("E3"),
        to: sq("E3"),
        facing: Dir8::N,
        fire: Some(sq("E8")),
    }));
}

#[test]
fn a_reversing_medium_tank_with_three_targets_destroys_only_the_one_chosen() {
    // Backing from E4 to E3 brings three black light tanks into the turret's three
    // directions: ahead (front armor I) and on both diagonals (side armor 0).
    let g = position_in(
        Mode::LastTankStanding { move_limit: 25 },
        10,
        10,
        &[],
        &["W MT E4 N", "B LT E5 S", "B LT B6 S", "B LT H6 S"],
    );
    let targets: Vec<Square> = g
        .legal()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move {
                from,
                to,
                facing: Dir8::N,
                fire: Some(t),
            } if from == sq("E4") && to == sq("E3") => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(targets.len(), 3, "{targets:?}");
    for t in ["E5", "B6", "H6"] {
        assert!(targets.contains(&sq(t)), "{t}");
    }
    let mut m = Match::new(g, 1);
    m.play(
        WHITE,
        &Action::Move {
            from: sq("E4"),
            to: sq("E3"),
            facing: Dir8::N,
            fire: Some(sq("E5")),
        },
    )
    .unwrap();
    let wrecked: Vec<Square> = m
        .state()
        .pieces()
        .iter()
        .filter(|p| p.state == PieceState::Wrecked)
        .map(|p| p.at)
        .collect();
    assert_eq!(wrecked, vec![sq("E5")]);
}

#[test]
fn a_tank_destroyer_destroys_a_heavy_tank_from_the_front() {
    // Firepower IV beats the heavy tank's front armor III.
    let g = position(
        10,
        10,
        &[],
        &["W TD E3 N", "B HT E8 S", "W CLT A1 N", "B CLT J10 S"],
    );
    let t = *g.piece_at(sq("E8")).unwrap();
    assert_eq!(g.armor_hit(&t, sq("E3")), (ArmorSide::Front, 3));
    assert_eq!(targets_from(&g, "E3"), vec![sq("E8")]);
}

#[test]
fn the_heavy_mortar_may_fire_at_three_or_five_squares_and_only_straight_ahead() {
    // The rulebook's example: a white MT 3 squares ahead of the black HM and a TD 5
    // ahead; a white LT 3 squares off on its diagonal is not in its line.
    let g = position(
        10,
        10,
        &[],
        &[
            "B HM E8 S",
            "W MT E5 N",
            "W TD E3 N",
            "W LT H5 N",
            "W CLT A1 N",
            "B CLT J10 S",
        ],
    );
    assert_eq!(targets_from(&g, "E8"), vec![sq("E5"), sq("E3")]);
}

#[test]
fn a_wreck_stays_where_it_was_destroyed_and_blocks_moves_and_shots() {
    let g = position_in(
        Mode::LastTankStanding { move_limit: 25 },
        10,
        10,
        &[],
        &["W HT E2 N", "W LT A2 N", "B LT E6 S", "B LT E9 S"],
    );
    let mut m = Match::new(g, 1);
    m.play(
        WHITE,
        &Action::Move {
            from: sq("E2"),
            to: sq("E3"),
            facing: Dir8::N,
            fire: Some(sq("E6")),
        },
    )
    .unwrap();
    let g = m.state();
    assert_eq!(g.piece_at(sq("E6")).unwrap().state, PieceState::Wrecked);
    // The heavy tank's line up column E now ends at the wreck, not at the LT on E9.
    assert!(targets_from(g, "E3").is_empty());
    // The LT on E9 cannot drive south through it.
    let idx = g.pieces().iter().position(|p| p.at == sq("E9")).unwrap();
    let (dests, _) = g.destinations(idx);
    assert!(dests.contains(&(sq("E7"), Dir8::S)));
    assert!(!dests.iter().any(|(s, _)| *s == sq("E5")));
}

#[test]
fn the_command_tank_escapes_across_the_far_edge_and_wins() {
    // Three squares to the last row; the fourth step leaves the board.
    let g = position(8, 8, &[], &["W CLT D5 N", "B CLT H1 N"]);
    let escape = Action::Escape { from: sq("D5") };
    assert!(g.legal().contains(&escape));
    assert_eq!(notation::move_text(&escape, None), "D5 > off");
    let mut m = Match::new(g, 1);
    m.play(WHITE, &escape).unwrap();
    let o = m.state().outcome().unwrap();
    assert_eq!(o.winners, vec![WHITE]);
    assert!(o.reason.contains("escaped"), "{}", o.reason);
    // Five squares from the last row the exit would be a sixth step: too far.
    let g = position(8, 8, &[], &["W CLT D3 N", "B CLT H1 N"]);
    assert!(!g.legal().contains(&Action::Escape { from: sq("D3") }));
}

#[test]
fn an_escape_is_announced_and_only_a_move_that_stops_it_is_legal() {
    // Walls on columns C and E (rows 8 to 10, E10 left open) make a corridor up column D.
    // The black CLT is walled into A10; the black LT can reach D8 or D9 in time, and
    // from column D it would strike only the white CLT's front, which it cannot beat.
    let g = position(
        8,
        10,
        &["C8", "C9", "C10", "E8", "E9", "A9", "B9", "B10"],
        &["W CLT D5 N", "B CLT A10 S", "B LT F10 W"],
    );
    let mut m = Match::new(g, 1);
    let run = Action::Move {
        from: sq("D5"),
        to: sq("D7"),
        facing: Dir8::N,
        fire: None,
    };
    let facts = m.play(WHITE, &run).unwrap().to_vec();
    assert!(
        facts.contains(&Fact::Announced(Announcement::Escape)),
        "{facts:?}"
    );
    assert!(m.state().outcome().is_none());
    let last = &m.history()[0];
    assert_eq!(
        notation::move_text(&last.action, Some(&last.facts)),
        "D5 > D7/N (-)"
    );
    // Black must stop the escape: only the LT ending on D8 or D9 does.
    let legal = m.state().legal();
    assert!(!legal.is_empty());
    for a in &legal {
        assert!(
            matches!(a, Action::Move { to, .. } if *to == sq("D8") || *to == sq("D9")),
            "{a:?} does not stop the escape"
        );
    }
}

#[test]
fn opening_a_line_for_another_piece_is_a_check_too() {
    // The black HM on A9 stands between the black HT and the white CLT, and cannot turn
    // round in three steps: nothing threatens the CLT yet. Stepping aside opens column A
    // for the HT.
    let g = black_to_move(position(
        10,
        16,
        &["B1", "B2", "I15", "J15", "I16"],
        &[
            "W CLT A1 E",
            "W LT B5 W",
            "B HT A13 S",
            "B HM A9 N",
            "B CLT J16 S",
        ],
    ));
    assert!(g.threatens(BLACK).is_none());
    let mut m = Match::new(g, 1);
    let aside = Action::Move {
        from: sq("A9"),
        to: sq("B10"),
        facing: Dir8::NE,
        fire: None,
    };
    let facts = m.play(BLACK, &aside).unwrap().to_vec();
    assert!(
        facts.contains(&Fact::Announced(Announcement::Check)),
        "{facts:?}"
    );
    assert!(m.state().outcome().is_none());
}

#[test]
fn the_move_limit_draws_a_standard_game() {
    // A wall across the board, and a limit of one move each.
    let wall = ["A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5"];
    let mut g = position(8, 8, &wall, &["W CLT A1 N", "B CLT H8 S"]);
    g.rules = Arc::new(Rules {
        move_limit: 1,
        ..rules()
    });
    let mut m = Match::new(g, 1);
    m.play(
        WHITE,
        &Action::Move {
            from: sq("A1"),
            to: sq("A2"),
            facing: Dir8::N,
            fire: None,
        },
    )
    .unwrap();
    assert!(m.state().outcome().is_none());
    m.play(
        BLACK,
        &Action::Move {
            from: sq("H8"),
            to: sq("H7"),
            facing: Dir8::S,
            fire: None,
        },
    )
    .unwrap();
    let o = m.state().outcome().unwrap();
    assert!(o.winners.is_empty(), "{}", o.reason);
    assert!(o.reason.contains("move limit"), "{}", o.reason);
}

#[test]
fn a_side_with_no_legal_move_and_no_threat_is_stalemated_into_a_draw() {
    // The black CLT on D8 is walled in and the white CLT drives up to D7 in front of it.
    // Any turn would show the white CLT, backing to D6, a side or the rear; facing south
    // it shows only its front, which firepower I cannot beat.
    let g = position(
        8,
        8,
        &["C8", "E8", "C7", "E7"],
        &["W CLT D6 N", "B CLT D8 S"],
    );
    let mut m = Match::new(g, 1);
    m.play(
        WHITE,
        &Action::Move {
            from: sq("D6"),
            to: sq("D7"),
            facing: Dir8::N,
            fire: None,
        },
    )
    .unwrap();
    let o = m.state().outcome().unwrap();
    assert!(o.winners.is_empty(), "{}", o.reason);
    assert!(o.reason.contains("no legal move"), "{}", o.reason);
}

#[test]
fn escape_of_three_at_the_move_limit_goes_to_the_side_with_more_escapes() {
    let wall = ["A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5"];
    let mut g = position_in(
        Mode::EscapeOfThree,
        8,
        8,
        &wall,
        &["W LT A1 N", "B LT H8 S"],
    );
    g.rules = Arc::new(Rules {
        move_limit: 1,
        ..rules()
    });
    g.escaped = [1, 0];
    let mut m = Match::new(g, 1);
    m.play(
        WHITE,
        &Action::Move {
            from: sq("A1"),
            to: sq("A2"),
            facing: Dir8::N,
            fire: None,
        },
    )
    .unwrap();
    m.play(
        BLACK,
        &Action::Move {
            from: sq("H8"),
            to: sq("H7"),
            facing: Dir8::S,
            fire: None,
        },
    )
    .unwrap();
    let o = m.state().outcome().unwrap();
    assert_eq!(o.winners, vec![WHITE], "{}", o.reason);
}

#[test]
fn a_piece_may_pass_diagonally_between_two_obstacles() {
    // D5 and E4 touch corners; the LT on D4 facing NE slips between them to E5.
    let g = position(
        8,
        8,
        &["D5", "E4"],
        &["W LT D4 NE", "W CLT A1 N", "B CLT H8 S"],
    );
    let idx = g.pieces().iter().position(|p| p.at == sq("D4")).unwrap();
    assert!(g.destinations(idx).0.contains(&(sq("E5"), Dir8::NE)));
    let mut tight = g.clone();
    tight.rules = Arc::new(Rules {
        diagonal_squeeze: false,
        ..rules()
    });
    assert!(!tight.destinations(idx).0.contains(&(sq("E5"), Dir8::NE)));
}

#[test]
fn a_reduced_board_may_be_any_rectangle_up_to_twenty_squares() {
    let r = rules();
    let setup = |w: u8, h: u8| {
        format!(
            r#"TankChessSetup(
        name: "reduced", board: (width: {w}, height: {h}), position: true,
        white: [(kind: LT, at: "A1", command: true)],
    )"#
        )
    };
    let s = Scenario::parse("reduced.ron", &setup(20, 16), &r).unwrap();
    assert_eq!(TankChess::new(&s, &r).size(), (20, 16));
    let s = Scenario::parse("reduced.ron", &setup(12, 12), &r).unwrap();
    assert_eq!((s.width, s.height), (12, 12));
    let err = Scenario::parse("big.ron", &setup(22, 16), &r)
        .unwrap_err()
        .to_string();
    assert!(err.contains("4 to 20"), "{err}");
}

#[test]
fn any_piece_type_may_be_the_command_tank() {
    // 'CMT': a medium tank carries the antenna; the mix of pieces is the setup's own.
    let r = rules();
    let text = r#"TankChessSetup(
        name: "cmt", board: (width: 8, height: 8), position: true,
        white: [(kind: MT, at: "A1", command: true), (kind: HT, at: "B1"), (kind: HM, at: "C1")],
    )"#;
    let s = Scenario::parse("cmt.ron", text, &r).unwrap();
    let g = TankChess::new(&s, &r);
    let cmd = g.pieces().iter().find(|p| p.command && p.white).unwrap();
    assert_eq!(cmd.label(), "white CMT");
    assert_eq!(g.pieces().iter().filter(|p| p.command).count(), 2);
}

#[test]
fn the_default_setup_is_the_basic_board_with_sixteen_pieces_a_side_facing_each_other() {
    let r = rules();
    let s = Scenario::builtin_default(&r);
    assert_eq!((s.width, s.height), (16, 16));
    for side in [0, 1] {
        let pieces: Vec<_> = s.pieces.iter().filter(|p| p.side == side).collect();
        assert_eq!(pieces.len(), 16);
        // Towards the opposite side: White (south) north, Black (north) south.
        let facing = if side == 0 { Dir8::N } else { Dir8::S };
        assert!(pieces.iter().all(|p| p.facing == facing));
        // One Command tank a side, a light tank.
        let cmd: Vec<_> = pieces.iter().filter(|p| p.command).collect();
        assert_eq!(cmd.len(), 1);
        assert_eq!(cmd[0].kind, Kind::LT);
    }
    // White in the south half, Black its image through the centre.
    for w in s.pieces.iter().filter(|p| p.side == 0) {
        assert!(w.at.row < 8);
        let image = Square {
            col: 15 - w.at.col,
            row: 15 - w.at.row,
        };
        assert!(
            s.pieces.iter().any(|b| b.side == 1
                && b.at == image
                && b.kind == w.kind
                && b.command == w.command)
        );
    }
    let g = TankChess::new(&s, &r);
    let clt = g.pieces().iter().find(|p| p.command && p.white).unwrap();
    assert_eq!(clt.label(), "white CLT");
}

#[test]
fn single_type_pieces_all_play_as_one_type() {
    let r = rules();
    let text = r#"TankChessSetup(
        name: "all medium", board: (width: 8, height: 8), mode: SingleType(MT), position: true,
        white: [(kind: LT, at: "A1", command: true), (kind: HT, at: "B1"), (kind: HM, at: "C1")],
    )"#;
    let s = Scenario::parse("single.ron", text, &r).unwrap();
    assert!(s.pieces.iter().all(|p| p.kind == Kind::MT));
    assert_eq!(s.pieces.iter().filter(|p| p.command).count(), 2);
    // The rulebook's remarks follow from the charts: a light, medium or heavy tank cannot
    // beat its own type's front armor; a TD or an HM beats every armor of its own type.
    for kind in [Kind::LT, Kind::MT, Kind::HT] {
        let st = r.stats(kind);
        assert!(st.firepower <= st.armor.front, "{kind}");
    }
    for kind in [Kind::TD, Kind::HM] {
        let st = r.stats(kind);
        let thickest = st.armor.front.max(st.armor.side).max(st.armor.rear);
        assert!(st.firepower > thickest, "{kind}");
    }
}

#[test]
fn only_escape_of_three_lets_a_piece_without_the_antenna_leave_the_board() {
    for mode in [
        Mode::LastTankStanding { move_limit: 25 },
        Mode::CaptureTheFlag,
        Mode::FourPlayers { move_limit: 15 },
    ] {
        let g = position_in(mode, 8, 8, &[], &["W LT D8 N", "B LT A1 S"]);
        assert!(
            !g.legal().iter().any(|a| matches!(a, Action::Escape { .. })),
            "{mode:?}"
        );
    }
    let g = position_in(Mode::EscapeOfThree, 8, 8, &[], &["W LT D8 N", "B LT A1 S"]);
    assert!(g.legal().contains(&Action::Escape { from: sq("D8") }));
    // Last Tank Standing has no Command tank at all.
    let r = rules();
    let text = r#"TankChessSetup(
        name: "lts", board: (width: 8, height: 8), mode: LastTankStanding(move_limit: 25), position: true,
        white: [(kind: LT, at: "A1", command: true)],
    )"#;
    let err = Scenario::parse("lts.ron", text, &r)
        .unwrap_err()
        .to_string();
    assert!(err.contains("this mode has no Command tank"), "{err}");
}

#[test]
fn a_flag_passes_to_an_ally_ending_beside_its_carrier() {
    let mut g = ctf(&["W LT D5 N", "W LT G6 W", "B LT A8 S"], &["D4"]);
    g.flags = vec![Flag::Carried(0)];
    let legal = g.legal();
    let take = Action::Take {
        from: sq("G6"),
        to: sq("E6"),
        facing: Dir8::W,
        flag: 0,
    };
    assert!(legal.contains(&take), "{legal:?}");
    // The carrier takes nothing from itself, and an enemy cannot take the flag from a
    // carrier still in play.
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::Take { from, .. } if *from == sq("D5")))
    );
    g.turn = 1;
    assert!(!g.legal().iter().any(|a| matches!(a, Action::Take { .. })));
}

#[test]
fn with_three_flags_bringing_home_two_wins() {
    let mut g = ctf(&["W LT D2 S", "B LT A8 S"], &["D4"]);
    g.flags = vec![
        Flag::Home(WHITE),
        Flag::Carried(0),
        Flag::Standing(sq("F4")),
    ];
    let mut m = Match::new(g, 1);
    let home = Action::Move {
        from: sq("D2"),
        to: sq("D1"),
        facing: Dir8::S,
        fire: None,
    };
    let facts = m.play(WHITE, &home).unwrap().to_vec();
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::FlagHome { flag: 1, .. })),
        "{facts:?}"
    );
    let o = m.state().outcome().unwrap();
    assert_eq!(o.winners, vec![WHITE], "{}", o.reason);
}

#[test]
fn a_side_wiped_out_in_escape_of_three_loses_at_once() {
    // Black's only piece is destroyed: nothing is left to move, and White wins (the
    // game would otherwise wait for a move Black cannot make).
    let g = position_in(
        Mode::EscapeOfThree,
        10,
        10,
        &[],
        &["W HT E2 N", "B LT E8 S"],
    );
    let mut m = Match::new(g, 1);
    let shot = Action::Move {
        from: sq("E2"),
        to: sq("E3"),
        facing: Dir8::N,
        fire: Some(sq("E8")),
    };
    m.play(WHITE, &shot).unwrap();
    let outcome = m.state().outcome().expect("the game ends");
    assert_eq!(outcome.winners, vec![WHITE], "{}", outcome.reason);
}

#[test]
fn a_square_a_piece_cannot_reach_says_which_rule_forbids_it() {
    // White HT on E4 facing north (speed 3), an obstacle on E6, a black LT on C4.
    let g = position(
        8,
        8,
        &["E6"],
        &["W HT E4 N", "B LT C4 E", "W CLT A1 N", "B CLT H8 S"],
    );
    let why = |to: &str| g.why_not_to(sq("E4"), sq(to));
    // A square it can reach: no refusal.
    assert_eq!(why("E5"), None);
    // The obstacle itself, and a piece: squares must be empty.
    assert_eq!(why("E6").unwrap().1, "chess.speed.empty");
    assert!(why("E6").unwrap().0.contains("obstacle"), "{:?}", why("E6"));
    assert_eq!(why("C4").unwrap().1, "chess.speed.empty");
    // E7 is two squares ahead past the obstacle: in reach on an empty board, blocked here.
    assert_eq!(why("E7").unwrap().1, "chess.speed.empty");
    assert!(why("E7").unwrap().0.contains("blocked"), "{:?}", why("E7"));
    // Three squares ahead and a turn is four steps, more than the HT's speed.
    let far = why("A8").unwrap();
    assert_eq!(far.1, "chess.speed.chart");
    assert!(far.0.contains("3 steps"), "{}", far.0);
    // A black piece is not White's to move.
    assert_eq!(
        g.why_not_to(sq("C4"), sq("C5")).unwrap().1,
        "chess.basic.turns"
    );
    // The refusal of a whole move names the same rules.
    let mv = |to: &str| Action::Move {
        from: sq("E4"),
        to: sq(to),
        facing: Dir8::N,
        fire: None,
    };
    let rule = |player, action: &Action| {
        g.refusal(player, action, &MatchRng::new(0))
            .map(|refusal| refusal.rule)
    };
    assert_eq!(rule(WHITE, &mv("E7")), Some("chess.speed.empty"));
    let legal = g
        .legal()
        .into_iter()
        .find(|a| matches!(a, Action::Move { from, .. } if *from == sq("E4")))
        .unwrap();
    assert_eq!(rule(WHITE, &legal), None);
    assert_eq!(rule(BLACK, &legal), Some("chess.basic.turns"));
    // The HT is no Command tank: it may not drive off the board.
    assert_eq!(
        rule(WHITE, &Action::Escape { from: sq("E4") }),
        Some("chess.goal.escape")
    );
    // The refusal's words are the move's own.
    let refusal = g.refusal(WHITE, &mv("E7"), &MatchRng::new(0)).unwrap();
    assert_eq!(refusal.why, g.why_illegal(&mv("E7")));
}

#[test]
fn a_move_that_ignores_a_check_is_refused_by_the_check_rule() {
    let (m, _) = blockable_check();
    let g = m.state();
    assert_eq!(g.why_not_to(sq("B5"), sq("A5")), None);
    let (text, rule) = g.why_not_to(sq("B5"), sq("B6")).unwrap();
    assert_eq!(rule, "chess.check.answer");
    assert!(text.contains("in check"), "{text}");
}

#[test]
fn a_move_that_opens_a_line_on_the_own_command_tank_is_refused_by_the_self_check_rule() {
    // The white LT on A5 shields its Command tank on A1 from the black HT on A13; nothing
    // is announced, and stepping aside would open the file.
    let g = position(
        10,
        16,
        &["B1", "B2", "I15", "J15", "I16"],
        &["W CLT A1 E", "W LT A5 N", "B HT A13 S", "B CLT J16 S"],
    );
    assert_eq!(g.last_announcement(), None);
    let (text, rule) = g.why_not_to(sq("A5"), sq("B6")).unwrap();
    assert_eq!(rule, "chess.check.self", "{text}");
}

/// A move limit of 0, in the rules table or a mode, is refused with its place: the game
/// would end before its first move.
#[test]
fn a_move_limit_of_zero_is_refused_with_its_place() {
    let text = crate::rules::tank_chess::setup::BUILTIN_RULES;
    let at = text
        .find("move_limit:")
        .expect("the table has a move limit");
    let end = at + text[at..].find(',').unwrap();
    let zero = format!("{}move_limit: 0{}", &text[..at], &text[end..]);
    let err = Rules::parse("rules.ron", &zero).unwrap_err().to_string();
    let line = text[..at].matches('\n').count() + 1;
    assert!(
        err.starts_with(&format!("rules.ron:{line}:")) && err.contains("move limit of 0"),
        "{err}"
    );
    let setup = "TankChessSetup(name: \"x\", board: (width: 8, height: 8), \
                 mode: LastTankStanding(move_limit: 0), \
                 white: [(kind: LT, at: \"A1\")])";
    let err = Scenario::parse("s.ron", setup, &Rules::builtin())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("s.ron:1:") && err.contains("move limit of 0"),
        "{err}"
    );
}

/// Every number of the rules table has its range checked, each refused at its own line.
#[test]
fn every_number_of_the_rules_table_is_kept_in_its_range() {
    use crate::data::testing::assert_refused_at;
    let table = include_str!("../../../assets/rules/tank-chess.ron");
    assert_refused_at(
        "tank-chess.ron",
        table,
        |t| Rules::parse("tank-chess.ron", t),
        &[
            (
                "light: (speed: 5",
                "light: (speed: 13",
                "speed is 1 to 12 steps",
            ),
            (
                "light: (speed: 5",
                "light: (speed: 0",
                "speed is 1 to 12 steps",
            ),
            (
                "firepower: 1,",
                "firepower: 0,",
                "firepower is 1 to 10, not 0",
            ),
            (
                "firepower: 5,",
                "firepower: 11,",
                "firepower is 1 to 10, not 11",
            ),
            (
                "armor: (front: 3,",
                "armor: (front: 11,",
                "armor is 0 to 10, not 11",
            ),
            (
                "side: 2, rear: 1)",
                "side: 11, rear: 1)",
                "armor is 0 to 10, not 11",
            ),
            (
                "side: 2, rear: 1)",
                "side: 2, rear: 11)",
                "armor is 0 to 10, not 11",
            ),
            (
                "Mortar(min: 3, max: 5)",
                "Mortar(min: 3, max: 20)",
                "a mortar's longest range is 1 to 19, not 20",
            ),
            (
                "Mortar(min: 3, max: 5)",
                "Mortar(min: 6, max: 5)",
                "a mortar needs 1 <= min <= max",
            ),
            (
                "Mortar(min: 3, max: 5)",
                "Mortar(min: 0, max: 5)",
                "a mortar needs 1 <= min <= max",
            ),
            (
                "reverse_squares: 1,",
                "reverse_squares: 13,",
                "a reverse move is 0 to 12, not 13",
            ),
            ("move_limit: 150,", "move_limit: 0,", "a move limit of 0"),
        ],
    );
}
