//! What if, at the table: each side's chance to win from this moment over N bot
//! continuations, and after each candidate action of the player to act ("Fire at Viper:
//! Blue wins 62% [59, 65]"), on worker threads while the table stays live; and the Lab
//! opened on the game's setup.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::client::core::open::OpenLab;
use crate::client::core::session::{GameClient, Session};
use crate::client::frame::hud::Panels;
use crate::framework::PlayerId;
use crate::lab::whatif::{self, Candidate, Chances, Continue};
use crate::rules::FileKind;

/// An answer: the chances now, and after each candidate.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The match and revision it answers for.
    pub key: (u64, u64),
    pub seats: Vec<String>,
    pub actor: String,
    pub now: Chances,
    pub candidates: Vec<Candidate>,
    pub seconds: f64,
}

struct Job {
    started: Instant,
    done: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    total: u32,
    worker: Option<JoinHandle<Result<Answer, String>>>,
}

/// The what-if window's state, shared by the five games.
#[derive(Resource)]
pub struct WhatIf {
    job: Option<Job>,
    pub answer: Option<Result<Answer, String>>,
    pub games: u32,
    pub candidates: usize,
}

impl WhatIf {
    /// Starts the continuations from `state` (the match at `key`: its generation and
    /// revision), as the window's button does.
    pub fn ask<G: GameClient>(&mut self, state: G, key: (u64, u64)) {
        self.job = Some(start(state, key, self.games, self.candidates));
        self.answer = None;
    }

    /// Whether continuations are being played.
    #[must_use]
    pub fn running(&self) -> bool {
        self.job.is_some()
    }
}

impl Default for WhatIf {
    fn default() -> Self {
        Self {
            job: None,
            answer: None,
            games: 1000,
            candidates: 6,
        }
    }
}

/// Starts the continuations of `G`'s match at `key`.
fn start<G: GameClient>(state: G, key: (u64, u64), games: u32, candidates: usize) -> Job {
    let done = Arc::new(AtomicU32::new(0));
    let cancel = Arc::new(AtomicBool::new(false));
    let (d, c) = (Arc::clone(&done), Arc::clone(&cancel));
    let threads = crate::lab::run::all_cores().saturating_sub(1).max(1);
    let picked = whatif::candidates(&state, candidates, key.1);
    let total = games + games / 4 * u32::try_from(picked.len()).unwrap_or(0);
    let worker = std::thread::spawn(move || {
        let started = Instant::now();
        let opts = Continue {
            games,
            seed: key.1,
            bots: &[],
            threads,
            cancel: Some(&c),
            done: Some(&d),
        };
        let now = whatif::simulate_from(&state, &opts)?;
        let each = whatif::per_candidate(
            &state,
            &picked,
            &Continue {
                games: games / 4,
                ..opts
            },
        )?;
        let seats = (0..state.player_count())
            .map(|i| state.player_name(PlayerId(u8::try_from(i).unwrap_or(0))))
            .collect();
        let actor = whatif::to_act(&state)
            .map(|p| state.player_name(p))
            .unwrap_or_default();
        Ok(Answer {
            key,
            seats,
            actor,
            now,
            candidates: each,
            seconds: started.elapsed().as_secs_f64(),
        })
    });
    Job {
        started: Instant::now(),
        done,
        cancel,
        total,
        worker: Some(worker),
    }
}

/// The window, and the Lab button's message, for game `G`.
pub fn window<G: GameClient>(
    mut contexts: EguiContexts,
    session: Res<Session<G>>,
    mut panels: ResMut<Panels>,
    mut what: ResMut<WhatIf>,
    mut opens: MessageWriter<OpenLab>,
) -> Result {
    if panels.lab {
        panels.lab = false;
        open_lab(&session, &mut opens);
        return Ok(());
    }
    let what = &mut *what;
    what.follow();
    if !panels.whatif {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let key = (session.generation, session.revision);
    let state = session.state();
    let mut open = true;
    egui::Window::new("What if…")
        .open(&mut open)
        .resizable(false)
        .default_pos([330.0, 120.0])
        .default_width(420.0)
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new("Each side's chance to win from this moment: the game's bots play it out many times with fresh dice. After each candidate action too, so a blunder can be told from bad dice.")
                    .weak(),
            );
            ui.horizontal(|ui| {
                ui.label("Continuations:");
                ui.add(egui::DragValue::new(&mut what.games).range(20..=20_000).speed(10.0));
                ui.label("Candidates:");
                ui.add(egui::DragValue::new(&mut what.candidates).range(0..=16));
            });
            simulate_row(ui, ctx, what, state, key);
            answer_lines(ui, what.answer.as_ref(), key);
        });
    if !open {
        panels.whatif = false;
    }
    Ok(())
}

/// Asks for the Lab on this game's setup (when it was opened from a setup file).
fn open_lab<G: GameClient>(session: &Session<G>, opens: &mut MessageWriter<OpenLab>) {
    let setup = session.path.clone().filter(|p| {
        std::fs::read_to_string(p)
            .is_ok_and(|t| crate::rules::detect(p, &t).is_ok_and(|d| d.kind == FileKind::Setup))
    });
    opens.write(OpenLab {
        game: Some(G::KIND),
        setup,
        // A game that is autosaved can be gone back to (a replay is not).
        from_table: session.interactive && session.replay.is_none(),
        ..OpenLab::default()
    });
}

impl WhatIf {
    /// Follows the job: takes its answer once its worker has finished.
    fn follow(&mut self) {
        if let Some(job) = &mut self.job
            && job.worker.as_ref().is_none_or(JoinHandle::is_finished)
        {
            let result = job.worker.take().map_or_else(
                || Err("no worker".to_string()),
                |w| {
                    w.join()
                        .unwrap_or_else(|_| Err("the worker stopped".into()))
                },
            );
            self.answer = Some(result);
            self.job = None;
        }
    }
}

/// Simulate from here (or Cancel), and the running job's progress.
fn simulate_row<G: GameClient>(
    ui: &mut egui::Ui,
    ctx: &egui::Context,
    what: &mut WhatIf,
    state: &G,
    key: (u64, u64),
) {
    let over = state.outcome().is_some();
    let running = what.job.is_some();
    ui.horizontal(|ui| {
        if running {
            if ui.button("Cancel").clicked()
                && let Some(job) = &what.job
            {
                job.cancel.store(true, Ordering::Relaxed);
            }
        } else if ui
            .add_enabled(!over, egui::Button::new("Simulate from here"))
            .on_disabled_hover_text("The match is over")
            .clicked()
        {
            what.ask(state.clone(), key);
        }
        if let Some(job) = &what.job {
            let done = job.done.load(Ordering::Relaxed);
            ui.add(
                egui::ProgressBar::new(done as f32 / job.total.max(1) as f32)
                    .desired_width(200.0)
                    .text(format!(
                        "{done} / {} · {:.1} s",
                        job.total,
                        job.started.elapsed().as_secs_f64()
                    )),
            );
            ctx.request_repaint();
        }
    });
}

/// The answer: each side's chances now and after each candidate, or what went wrong.
fn answer_lines(ui: &mut egui::Ui, answer: Option<&Result<Answer, String>>, key: (u64, u64)) {
    match answer {
        Some(Ok(a)) => {
            if a.key != key {
                ui.label(egui::RichText::new("(for an earlier moment of this game)").weak());
            }
            let rates = |c: &Chances| {
                a.seats
                    .iter()
                    .zip(&c.rates)
                    .map(|(s, r)| {
                        format!(
                            "{s} {:.0}% [{:.0}, {:.0}]",
                            100.0 * r.rate,
                            100.0 * r.lo,
                            100.0 * r.hi
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            ui.label(
                egui::RichText::new(format!(
                    "Now ({} games, {:.2} s): {}",
                    a.now.games,
                    a.seconds,
                    rates(&a.now)
                ))
                .strong(),
            );
            if !a.candidates.is_empty() {
                ui.label(format!("If {} plays:", a.actor));
                for c in &a.candidates {
                    ui.label(format!("  {}: {}", c.action, rates(&c.chances)));
                }
            }
        }
        Some(Err(e)) => {
            ui.colored_label(crate::client::table::theme::WARN, e);
        }
        None => {}
    }
}
