//! The rules in motion: declarations, the answer window, rolls, battle results, Wars,
//! Meganukes, eliminations and the Final Battle.

use serde::{Deserialize, Serialize};

use super::{
    Action, BattleDie, BattleTanks, Declaration, DieCounts, DieKind, Phase, Round, TwoPlayerStart,
    Volley, WarMatches,
};
use crate::framework::{MatchRng, Outcome, PlayerId, Refusal};

/// Why a declaration was made for a commander without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Forced {
    /// The game's first roll: no Nukes.
    FirstRoll,
    /// No Nuke in the arsenal.
    NoNuke,
    /// Rolled a Nuke last time (and still has Tanks).
    NukeBarred,
    /// Only Nukes left: Nukes back to back.
    OnlyNukes,
    /// An empty arsenal at War: a free die from the bag.
    EmptyArsenal,
    /// An empty arsenal and an empty bag: they leave the War.
    BagEmpty,
}

/// How a battle was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WinReason {
    /// The highest roll, with no match above it.
    Highest { value: u8 },
    /// A single Meganuke.
    Meganuke,
    /// Every other commander at War left it (no dice, empty bag).
    Unopposed,
}

/// One die of a Final Battle volley.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalDie {
    pub kind: DieKind,
    pub face: u8,
    /// After modifiers (0 for a misfire).
    pub value: u8,
    pub meganuke: bool,
    pub damage: u32,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ending {
    /// The Final Battle's winner: the Supreme Commander.
    FinalBattle { winner: PlayerId, damage: [u32; 2] },
    /// The Final Battle was tied: everyone dies.
    FinalTie { damage: u32 },
    /// Everyone else ran out of dice.
    LastStanding(PlayerId),
    /// Three or more Meganukes at once.
    WorldDestroyed,
    /// A Double Meganuke left nobody with dice.
    NobodyLeft,
    /// The battle limit was reached.
    BattleLimit,
}

impl Ending {
    /// The framework's outcome.
    #[must_use]
    pub fn outcome(self, game: &BattleTanks) -> Outcome {
        let name = |p: PlayerId| game.player(p).name.clone();
        match self {
            Self::FinalBattle { winner, damage } => Outcome::win(
                winner,
                format!(
                    "{} wins the Final Battle {}-{} and becomes SUPREME COMMANDER",
                    name(winner),
                    damage[0].max(damage[1]),
                    damage[0].min(damage[1])
                ),
            ),
            Self::FinalTie { damage } => Outcome::draw(format!(
                "the Final Battle is tied at {damage}: everyone dies"
            )),
            Self::LastStanding(p) => {
                Outcome::win(p, format!("{} is the last commander with dice", name(p)))
            }
            Self::WorldDestroyed => Outcome::draw("the world is destroyed: no one wins"),
            Self::NobodyLeft => Outcome::draw("no commander has any dice left: no one wins"),
            Self::BattleLimit => Outcome::draw(format!(
                "the battle limit ({}) was reached",
                game.setup.rules.battle_limit
            )),
        }
    }
}

/// Something that happened, with everything the client needs to show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    /// The game begins.
    Began {
        players: Vec<String>,
        tanks: u8,
        nukes: u8,
        bag: u8,
    },
    /// A battle begins: `rollers` declare in this order.
    BattleBegins { battle: u32, rollers: Vec<PlayerId> },
    /// A declaration: a choice, or made for them (`forced`: a free die, no Nuke...).
    /// `kind` is `None` when they leave the War (no dice, empty bag).
    Declared {
        player: PlayerId,
        kind: Option<DieKind>,
        forced: Option<Forced>,
    },
    /// The answer window opens: these Tank declarers may switch to a Nuke, in order.
    AnswerWindow { players: Vec<PlayerId> },
    /// An answer in the window.
    Answered { player: PlayerId, switched: bool },
    /// Every declared die is rolled at once and lands on the Battlefield.
    Rolled {
        battle: u32,
        /// 0 for the battle's opening roll, then 1, 2... for each War.
        war: u32,
        dice: Vec<BattleDie>,
    },
    /// Two or more misfires in a roll: they stay as loot and go to no War.
    Misfires { players: Vec<PlayerId> },
    /// Every die of the roll misfired: the same commanders roll again.
    AllMisfired { players: Vec<PlayerId> },
    /// Matches: `players` go to War (the matched dice and any higher, `war_dice`); the
    /// other dice of the roll stay as loot.
    War {
        players: Vec<PlayerId>,
        /// The highest matched value.
        matched: u8,
        war_dice: Vec<u32>,
        loot: Vec<u32>,
    },
    /// `winner` takes every die on the Battlefield into their arsenal (free dice become
    /// Tanks).
    BattleWon {
        battle: u32,
        winner: PlayerId,
        reason: WinReason,
        dice: Vec<u32>,
        gained: DieCounts,
    },
    /// Two Meganukes: every die on the Battlefield is destroyed; no one wins the battle.
    DoubleMeganuke {
        players: Vec<PlayerId>,
        dice: Vec<u32>,
        destroyed: DieCounts,
    },
    /// Three or more Meganukes: the world ends and no one wins.
    WorldEnds { players: Vec<PlayerId> },
    /// Nobody at War could roll: the Battlefield's dice go back to whoever rolled them.
    CalledOff { dice: Vec<u32> },
    /// A commander ended a battle with an empty arsenal.
    Eliminated { player: PlayerId },
    /// The last two commanders fight the Final Battle.
    FinalBattleBegins { players: [PlayerId; 2] },
    /// A commander launches their arsenal in the Final Battle.
    Launched { player: PlayerId },
    /// One commander's Final Battle volley and its damage.
    Volley(Volley),
    /// The game is over.
    GameOver { ending: Ending },
}

/// Starts the game: the first battle, or the Final Battle for two under that switch.
pub(super) fn begin(game: &mut BattleTanks, rng: &mut MatchRng) -> Vec<Fact> {
    if !matches!(game.phase, Phase::NotStarted) {
        return Vec::new();
    }
    let r = &game.setup.rules;
    let mut facts = vec![Fact::Began {
        players: game.setup.players.clone(),
        tanks: r.tanks,
        nukes: r.nukes,
        bag: r.bag,
    }];
    if game.players.len() == 2 && r.two_player_start == TwoPlayerStart::FinalBattle {
        start_final_battle(game, &mut facts);
    } else {
        game.first = PlayerId(0);
        start_battle(game, &mut facts, rng);
    }
    facts
}

/// Checks and plays one action.
///
/// # Errors
/// Why the action is refused, with the rule that refuses it; `game` is then unchanged.
pub(super) fn apply(
    game: &mut BattleTanks,
    player: PlayerId,
    action: Action,
    rng: &mut MatchRng,
) -> Result<Vec<Fact>, Refusal> {
    if player.index() >= game.players.len() {
        return Err(Refusal::new(
            "bt.equipment.players",
            format!("{player} has no seat in this game"),
        ));
    }
    let name = game.player(player).name.clone();
    let mut facts = Vec::new();
    match &mut game.phase {
        Phase::NotStarted => {
            return Err(Refusal::new("bt.basic.one-die", "the game has not begun"));
        }
        Phase::Over(_) => return Err(Refusal::new("bt.win.final-battle", "the game is over")),
        Phase::FinalBattle { players, launched } => {
            if let Some(players) = launch(players, launched, player, action, &name, &mut facts)? {
                final_battle(game, players, &mut facts, rng);
            }
            return Ok(facts);
        }
        Phase::Declaring(round) => {
            if let Some(&answerer) = round.answering.first() {
                if answerer != player {
                    return Err(Refusal::new(
                        "bt.basic.announce",
                        format!("{} answers first", game.players[answerer.index()].name),
                    ));
                }
                answer(round, player, action, &name, &mut facts)?;
            } else {
                let Some(&next) = round.rollers.get(round.declarations.len()) else {
                    return Err(Refusal::new(
                        "bt.basic.declare-order",
                        "nobody is declaring now",
                    ));
                };
                if next != player {
                    return Err(Refusal::new(
                        "bt.basic.declare-order",
                        format!("{} declares first", game.players[next.index()].name),
                    ));
                }
                declare(game, player, action, &name, &mut facts)?;
            }
        }
    }
    advance(game, &mut facts, rng);
    Ok(facts)
}

/// A Launch order in the Final Battle, from one of its two commanders, once: both
/// commanders once both have launched.
fn launch(
    players: &[PlayerId; 2],
    launched: &mut Vec<PlayerId>,
    player: PlayerId,
    action: Action,
    name: &str,
    facts: &mut Vec<Fact>,
) -> Result<Option<[PlayerId; 2]>, Refusal> {
    if action != Action::Launch {
        return Err(Refusal::new(
            "bt.final.launch",
            "in the Final Battle the only order is Launch",
        ));
    }
    if !players.contains(&player) {
        return Err(Refusal::new(
            "bt.basic.final-two",
            format!("{name} is not in the Final Battle"),
        ));
    }
    if launched.contains(&player) {
        return Err(Refusal::new(
            "bt.final.launch",
            format!("{name} has already launched"),
        ));
    }
    launched.push(player);
    facts.push(Fact::Launched { player });
    Ok((launched.len() == 2).then_some(*players))
}

/// `player`'s answer to a Nuke announced after it declared a Tank: keep it, or switch
/// to a Nuke.
fn answer(
    round: &mut Round,
    player: PlayerId,
    action: Action,
    name: &str,
    facts: &mut Vec<Fact>,
) -> Result<(), Refusal> {
    let switched = match action {
        Action::Keep => false,
        Action::SwitchToNuke => true,
        _ => {
            return Err(Refusal::new(
                "bt.basic.announce",
                format!("{name} may only Keep or Switch to a Nuke now"),
            ));
        }
    };
    round.answering.remove(0);
    if switched && let Some(d) = round.declarations.iter_mut().find(|d| d.player == player) {
        d.kind = Some(DieKind::Nuke);
        d.switched = true;
    }
    facts.push(Fact::Answered { player, switched });
    Ok(())
}

/// `player`'s declaration of a Tank or a Nuke, when its arsenal and the rules allow it.
fn declare(
    game: &mut BattleTanks,
    player: PlayerId,
    action: Action,
    name: &str,
    facts: &mut Vec<Fact>,
) -> Result<(), Refusal> {
    let kind = match action {
        Action::Tank => DieKind::Tank,
        Action::Nuke => DieKind::Nuke,
        _ => {
            return Err(Refusal::new(
                "bt.basic.announce",
                format!("{name} must declare a Tank or a Nuke now"),
            ));
        }
    };
    let (choices, forced) = game.weapon_choices(player);
    if !choices.contains(&kind) {
        let why = match (kind, forced) {
            (DieKind::Nuke, Some(Forced::FirstRoll)) => {
                "no Nukes on the first roll of the game".to_string()
            }
            (DieKind::Nuke, Some(Forced::NukeBarred)) => {
                format!("{name} rolled a Nuke last time: no Nuke twice in a row")
            }
            (DieKind::Nuke, _) => format!("{name} has no Nuke"),
            _ => format!("{name} has no Tank"),
        };
        return Err(Refusal::new(forced_rule(forced), why));
    }
    if let Phase::Declaring(round) = &mut game.phase {
        round.declarations.push(Declaration {
            player,
            kind: Some(kind),
            forced: None,
            switched: false,
        });
    }
    facts.push(Fact::Declared {
        player,
        kind: Some(kind),
        forced: None,
    });
    Ok(())
}

/// The rule that takes a weapon out of a commander's choice.
const fn forced_rule(forced: Option<Forced>) -> &'static str {
    match forced {
        Some(Forced::FirstRoll) => "bt.basic.first-roll",
        Some(Forced::NoNuke) => "bt.terms.start",
        Some(Forced::NukeBarred) => "bt.terms.no-nuke-twice",
        Some(Forced::OnlyNukes) => "bt.terms.only-nukes",
        Some(Forced::EmptyArsenal) => "bt.dice.free-die",
        Some(Forced::BagEmpty) => "bt.dice.empty-bag",
        None => "bt.basic.announce",
    }
}

/// Opens battle `battle + 1` among the living, from the rotating first declarer.
fn start_battle(game: &mut BattleTanks, facts: &mut Vec<Fact>, rng: &mut MatchRng) {
    game.battle += 1;
    game.roll_in_battle = 0;
    let n = game.players.len();
    let rollers: Vec<PlayerId> = (0..n)
        .map(|i| PlayerId(u8::try_from((game.first.index() + i) % n).unwrap_or(0)))
        .filter(|p| !game.player(*p).out)
        .collect();
    facts.push(Fact::BattleBegins {
        battle: game.battle,
        rollers: rollers.clone(),
    });
    open_round(game, rollers, facts, rng);
}

/// Opens the declarations of a roll among `rollers`.
fn open_round(
    game: &mut BattleTanks,
    rollers: Vec<PlayerId>,
    facts: &mut Vec<Fact>,
    rng: &mut MatchRng,
) {
    game.contenders.clone_from(&rollers);
    game.phase = Phase::Declaring(Round {
        rollers,
        declarations: Vec::new(),
        answering: Vec::new(),
        window_opened: false,
    });
    advance(game, facts, rng);
}

/// Makes every declaration that is not a choice, opens the answer window when it is
/// due, and rolls once everything is declared and answered.
fn advance(game: &mut BattleTanks, facts: &mut Vec<Fact>, rng: &mut MatchRng) {
    loop {
        let Phase::Declaring(round) = &game.phase else {
            return;
        };
        if !round.answering.is_empty() {
            return;
        }
        if let Some(&next) = round.rollers.get(round.declarations.len()) {
            let (choices, forced) = game.weapon_choices(next);
            if choices.len() > 1 {
                return;
            }
            let kind = choices.first().copied();
            if let Phase::Declaring(round) = &mut game.phase {
                round.declarations.push(Declaration {
                    player: next,
                    kind,
                    forced,
                    switched: false,
                });
            }
            facts.push(Fact::Declared {
                player: next,
                kind,
                forced,
            });
            continue;
        }
        // Everyone has declared. The answer window opens once, for the Tank declarers
        // who chose before some Nuke was announced.
        if !round.window_opened {
            let last_nuke = round
                .declarations
                .iter()
                .rposition(|d| d.kind == Some(DieKind::Nuke));
            let window: Vec<PlayerId> = match last_nuke {
                Some(last) => round.declarations[..last]
                    .iter()
                    .filter(|d| d.kind == Some(DieKind::Tank) && d.forced.is_none())
                    .map(|d| d.player)
                    .collect(),
                None => Vec::new(),
            };
            if let Phase::Declaring(round) = &mut game.phase {
                round.window_opened = true;
                if !window.is_empty() {
                    round.answering.clone_from(&window);
                    facts.push(Fact::AnswerWindow { players: window });
                    return;
                }
            }
            continue;
        }
        let declarations = round.declarations.clone();
        roll(game, &declarations, facts, rng);
        return;
    }
}

/// Rolls every declared die at once and resolves the roll.
fn roll(
    game: &mut BattleTanks,
    declarations: &[Declaration],
    facts: &mut Vec<Fact>,
    rng: &mut MatchRng,
) {
    let rolling: Vec<(PlayerId, DieKind)> = declarations
        .iter()
        .filter_map(|d| d.kind.map(|k| (d.player, k)))
        .collect();
    // Fewer than two dice to roll: nobody is left to fight (everyone else left the War).
    match rolling.as_slice() {
        [] => {
            let dice: Vec<u32> = game.battlefield.iter().map(|d| d.id).collect();
            for d in std::mem::take(&mut game.battlefield) {
                give(game, d.owner, d.kind);
            }
            facts.push(Fact::CalledOff { dice });
            end_battle(game, facts, rng);
            return;
        }
        [(winner, _)] => {
            win(game, *winner, WinReason::Unopposed, facts);
            end_battle(game, facts, rng);
            return;
        }
        _ => {}
    }
    for d in &mut game.battlefield {
        d.at_war = false;
    }
    let rules = game.setup.rules.clone();
    let mut rolled = Vec::new();
    for (player, kind) in rolling {
        match kind {
            DieKind::Tank => game.players[player.index()].tanks -= 1,
            DieKind::Nuke => game.players[player.index()].nukes -= 1,
            DieKind::Free => game.bag -= 1,
        }
        game.players[player.index()].rolled_nuke_last = kind == DieKind::Nuke;
        let face = rng.d6();
        let (value, misfire, meganuke) = BattleTanks::die_value(&rules, kind, face);
        let die = BattleDie {
            id: game.next_die_id,
            owner: player,
            kind,
            face,
            value,
            misfire,
            meganuke,
            at_war: false,
        };
        game.next_die_id += 1;
        rolled.push(die);
    }
    game.rolls += 1;
    game.roll_in_battle += 1;
    facts.push(Fact::Rolled {
        battle: game.battle,
        war: game.roll_in_battle - 1,
        dice: rolled.clone(),
    });
    game.battlefield.extend(rolled.iter().copied());
    resolve_roll(game, &rolled, facts, rng);
}

/// Decides what a roll does: Meganukes, misfires, a winner or a War.
fn resolve_roll(
    game: &mut BattleTanks,
    rolled: &[BattleDie],
    facts: &mut Vec<Fact>,
    rng: &mut MatchRng,
) {
    let meganukes: Vec<PlayerId> = rolled
        .iter()
        .filter(|d| d.meganuke)
        .map(|d| d.owner)
        .collect();
    if meganukes.len() >= usize::from(game.setup.rules.world_end_meganukes) {
        facts.push(Fact::WorldEnds { players: meganukes });
        finish(game, Ending::WorldDestroyed, facts);
        return;
    }
    if meganukes.len() >= 2 {
        double_meganuke(game, meganukes, facts, rng);
        return;
    }
    if let [winner] = meganukes.as_slice() {
        win(game, *winner, WinReason::Meganuke, facts);
        end_battle(game, facts, rng);
        return;
    }
    let misfired: Vec<PlayerId> = rolled
        .iter()
        .filter(|d| d.misfire)
        .map(|d| d.owner)
        .collect();
    if misfired.len() == rolled.len() {
        facts.push(Fact::AllMisfired {
            players: misfired.clone(),
        });
        open_round(game, misfired, facts, rng);
        return;
    }
    if misfired.len() >= 2 {
        facts.push(Fact::Misfires { players: misfired });
    }
    let count = |v: u8| rolled.iter().filter(|d| d.value == v).count();
    let matched = rolled
        .iter()
        .map(|d| d.value)
        .filter(|&v| v > 0 && count(v) >= 2)
        .max();
    match matched {
        None => {
            let best = rolled
                .iter()
                .max_by_key(|d| d.value)
                .copied()
                .unwrap_or(rolled[0]);
            win(
                game,
                best.owner,
                WinReason::Highest { value: best.value },
                facts,
            );
            end_battle(game, facts, rng);
        }
        Some(matched) => go_to_war(game, rolled, matched, facts, rng),
    }
}

/// Two Meganukes or more: every die on the Battlefield is destroyed and the battle ends.
fn double_meganuke(
    game: &mut BattleTanks,
    meganukes: Vec<PlayerId>,
    facts: &mut Vec<Fact>,
    rng: &mut MatchRng,
) {
    let mut destroyed = DieCounts::default();
    let dice = std::mem::take(&mut game.battlefield);
    for d in &dice {
        if d.kind == DieKind::Nuke {
            destroyed.nukes += 1;
        } else {
            destroyed.tanks += 1;
        }
    }
    game.destroyed.tanks += destroyed.tanks;
    game.destroyed.nukes += destroyed.nukes;
    facts.push(Fact::DoubleMeganuke {
        players: meganukes,
        dice: dice.iter().map(|d| d.id).collect(),
        destroyed,
    });
    end_battle(game, facts, rng);
}

/// A match at `matched`: the dice that go to War (the rest stay as loot), and the
/// War's declarations open among their owners.
fn go_to_war(
    game: &mut BattleTanks,
    rolled: &[BattleDie],
    matched: u8,
    facts: &mut Vec<Fact>,
    rng: &mut MatchRng,
) {
    let count = |v: u8| rolled.iter().filter(|d| d.value == v).count();
    // The highest match and anything above it go to War; under the rulebook's
    // reading every other matched pair goes too.
    let every_match = game.rules().war_matches == WarMatches::All;
    let to_war =
        |d: &BattleDie| d.value >= matched || (every_match && d.value > 0 && count(d.value) >= 2);
    let war_ids: Vec<u32> = rolled.iter().filter(|d| to_war(d)).map(|d| d.id).collect();
    for d in &mut game.battlefield {
        d.at_war = war_ids.contains(&d.id);
    }
    let warriors: Vec<PlayerId> = rolled
        .iter()
        .filter(|d| to_war(d))
        .map(|d| d.owner)
        .collect();
    facts.push(Fact::War {
        players: warriors.clone(),
        matched,
        war_dice: war_ids,
        loot: rolled.iter().filter(|d| !to_war(d)).map(|d| d.id).collect(),
    });
    open_round(game, warriors, facts, rng);
}

/// Puts a die into `player`'s arsenal (a free die becomes a Tank).
fn give(game: &mut BattleTanks, player: PlayerId, kind: DieKind) {
    let c = &mut game.players[player.index()];
    match kind {
        DieKind::Nuke => c.nukes += 1,
        DieKind::Tank | DieKind::Free => c.tanks += 1,
    }
}

/// `winner` takes the whole Battlefield.
fn win(game: &mut BattleTanks, winner: PlayerId, reason: WinReason, facts: &mut Vec<Fact>) {
    let dice = std::mem::take(&mut game.battlefield);
    let mut gained = DieCounts::default();
    for d in &dice {
        give(game, winner, d.kind);
        if d.kind == DieKind::Nuke {
            gained.nukes += 1;
        } else {
            gained.tanks += 1;
        }
    }
    facts.push(Fact::BattleWon {
        battle: game.battle,
        winner,
        reason,
        dice: dice.iter().map(|d| d.id).collect(),
        gained,
    });
}

/// After a battle: eliminations, then the next battle, the Final Battle or the end.
fn end_battle(game: &mut BattleTanks, facts: &mut Vec<Fact>, rng: &mut MatchRng) {
    let living_before = game.living().len();
    for p in game.living() {
        if game.player(p).arsenal() == 0 {
            game.players[p.index()].out = true;
            facts.push(Fact::Eliminated { player: p });
        }
    }
    game.contenders.clear();
    let living = game.living();
    match living.as_slice() {
        [] => finish(game, Ending::NobodyLeft, facts),
        [last] => finish(game, Ending::LastStanding(*last), facts),
        [_, _] if living_before > 2 => start_final_battle(game, facts),
        _ if game.battle >= game.setup.rules.battle_limit => {
            finish(game, Ending::BattleLimit, facts);
        }
        _ => {
            let n = game.players.len();
            let next = (1..=n)
                .map(|i| PlayerId(u8::try_from((game.first.index() + i) % n).unwrap_or(0)))
                .find(|p| !game.player(*p).out)
                .unwrap_or(living[0]);
            game.first = next;
            start_battle(game, facts, rng);
        }
    }
}

fn start_final_battle(game: &mut BattleTanks, facts: &mut Vec<Fact>) {
    let living = game.living();
    let players = [living[0], living[1]];
    game.contenders = living;
    game.phase = Phase::FinalBattle {
        players,
        launched: Vec::new(),
    };
    facts.push(Fact::FinalBattleBegins { players });
}

/// Damage of one die in the Final Battle.
#[must_use]
pub fn final_damage(rules: &super::BattleRules, kind: DieKind, face: u8) -> u32 {
    match kind {
        DieKind::Nuke if face == 6 => u32::from(rules.meganuke_damage),
        DieKind::Nuke if face == rules.nuke_damage_face => u32::from(rules.hit_damage),
        DieKind::Tank | DieKind::Free if face == rules.tank_damage_face => {
            u32::from(rules.hit_damage)
        }
        _ => 0,
    }
}

/// Both commanders roll every die; the most damage wins, a tie kills everyone.
fn final_battle(
    game: &mut BattleTanks,
    players: [PlayerId; 2],
    facts: &mut Vec<Fact>,
    rng: &mut MatchRng,
) {
    let rules = game.setup.rules.clone();
    let mut damage = [0u32; 2];
    for (i, p) in players.into_iter().enumerate() {
        let c = game.player(p).clone();
        let kinds = std::iter::repeat_n(DieKind::Tank, c.tanks as usize)
            .chain(std::iter::repeat_n(DieKind::Nuke, c.nukes as usize));
        let dice: Vec<FinalDie> = kinds
            .map(|kind| {
                let face = rng.d6();
                let (value, _, meganuke) = BattleTanks::die_value(&rules, kind, face);
                FinalDie {
                    kind,
                    face,
                    value,
                    meganuke,
                    damage: final_damage(&rules, kind, face),
                }
            })
            .collect();
        damage[i] = dice.iter().map(|d| d.damage).sum();
        let volley = Volley {
            player: p,
            dice,
            damage: damage[i],
        };
        game.final_battle.push(volley.clone());
        facts.push(Fact::Volley(volley));
    }
    let ending = match damage[0].cmp(&damage[1]) {
        std::cmp::Ordering::Greater => Ending::FinalBattle {
            winner: players[0],
            damage,
        },
        std::cmp::Ordering::Less => Ending::FinalBattle {
            winner: players[1],
            damage,
        },
        std::cmp::Ordering::Equal => Ending::FinalTie { damage: damage[0] },
    };
    finish(game, ending, facts);
}

fn finish(game: &mut BattleTanks, ending: Ending, facts: &mut Vec<Fact>) {
    game.contenders.clear();
    game.phase = Phase::Over(ending);
    facts.push(Fact::GameOver { ending });
}
