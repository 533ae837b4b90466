//! The Lab's pictures, drawn with egui_plot: win rates with their intervals, the verdicts,
//! the difference of each variant from the base, game lengths, first-move advantage,
//! units and upgrades, where tanks fall, matchups, a duel's matrix rows, and a sweep.

use bevy_egui::egui;
use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints, Points, VLine};

use super::LabScreen;
use crate::client::core::open::PlotTab;
use crate::client::table::theme::{self, arm_color, heat};
use crate::lab::{ArmReport, LabReport, Rate};

const PLOT_HEIGHT: f32 = 330.0;

/// An axis that names whole positions from `first` on by `labels` (bars and rows).
fn index_labels(
    labels: Vec<String>,
    first: usize,
) -> impl Fn(egui_plot::GridMark, &std::ops::RangeInclusive<f64>) -> String {
    move |mark, _| {
        let i = mark.value.round();
        if (mark.value - i).abs() < 1e-6 && i >= first as f64 {
            labels.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    }
}

pub(super) fn show(ui: &mut egui::Ui, lab: &mut LabScreen) {
    let Some(report) = lab.report.clone() else {
        ui.add_space(20.0);
        ui.label(
            egui::RichText::new("Change a number on the left, then Run: the plots fill in here as the games finish.")
                .weak(),
        );
        return;
    };
    verdicts(ui, &report);
    ui.horizontal_wrapped(|ui| {
        for tab in tabs(&report) {
            ui.selectable_value(&mut lab.tab, tab, tab.title());
        }
    });
    if !tabs(&report).contains(&lab.tab) {
        lab.tab = PlotTab::WinRates;
    }
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| match lab.tab {
            PlotTab::WinRates => win_rates(ui, &report),
            PlotTab::Difference => difference(ui, &report),
            PlotTab::Lengths => lengths(ui, &report),
            PlotTab::FirstMove => first_move(ui, &report),
            PlotTab::Pieces => pieces(ui, &report),
            PlotTab::Taken => taken(ui, &report),
            PlotTab::Losses => losses(ui, &report),
            PlotTab::Matchups => matchups(ui, &report),
            PlotTab::Rows => rows(ui, &report),
            PlotTab::Sweep => sweep(ui, &report),
        });
}

/// The pictures this report has something for.
fn tabs(report: &LabReport) -> Vec<PlotTab> {
    let mut tabs = vec![PlotTab::WinRates];
    if report.arms.len() > 1 {
        tabs.push(PlotTab::Difference);
    }
    tabs.push(PlotTab::Lengths);
    if report.arms.iter().any(|a| a.first_mover.is_some()) {
        tabs.push(PlotTab::FirstMove);
    }
    if report.arms.iter().any(|a| !a.pieces.is_empty()) {
        tabs.push(PlotTab::Pieces);
    }
    if report.arms.iter().any(|a| !a.taken.is_empty()) {
        tabs.push(PlotTab::Taken);
    }
    if report.arms.iter().any(|a| a.board.is_some()) {
        tabs.push(PlotTab::Losses);
    }
    if report.arms.iter().any(|a| !a.matchups.is_empty()) {
        tabs.push(PlotTab::Matchups);
    }
    if report.arms.iter().any(|a| !a.counts.is_empty()) {
        tabs.push(PlotTab::Rows);
    }
    if report.question.sweep.is_some() {
        tabs.push(PlotTab::Sweep);
    }
    tabs
}

/// Each arm's line of win rates and its verdicts, the closest to even, and the
/// sequential test's answer.
fn verdicts(ui: &mut egui::Ui, report: &LabReport) {
    for (i, arm) in report.arms.iter().enumerate() {
        let rates: Vec<String> = report
            .question
            .seats
            .iter()
            .zip(&arm.rates)
            .map(|(s, r)| format!("{s} {:.1}%", 100.0 * r.rate))
            .collect();
        let mut line = format!("{}: {} games, {}", arm.name, arm.games, rates.join(", "));
        if arm.no_winner > 0 {
            line.push_str(&format!(", no winner {}", arm.no_winner));
        }
        ui.label(egui::RichText::new(line).color(arm_color(i)));
        if report.question.same_as_base.contains(&arm.name) {
            ui.label(
                egui::RichText::new(format!("   {}", crate::lab::report::SAME_AS_BASE))
                    .color(theme::PLOT_NOTE),
            );
        }
        arm_verdict(ui, report, arm);
        exercised(ui, arm);
        if let Some(f) = &arm.first_mover_verdict {
            let color = if f.ends_with(": significant") {
                theme::SIGNIFICANT
            } else {
                theme::PLOT_NOTE
            };
            ui.label(egui::RichText::new(format!("   {f}")).color(color));
        }
    }
    if let Some(b) = &report.balanced {
        ui.label(egui::RichText::new(format!("Closest to even: {b}")).strong());
    }
    if let Some(t) = &report.sprt {
        let color = if t.reading.answer.is_some() {
            theme::SPRT_ANSWERED
        } else {
            theme::PLOT_NOTE
        };
        ui.label(egui::RichText::new(&t.words).color(color).strong())
            .on_hover_text(format!(
                "A sequential probability ratio test: the run stops once either log-likelihood ratio reaches {:+.2} (a change of at least δ) or both fall to {:.2} (less than δ); docs/lab.md gives the formulas",
                t.reading.upper, t.reading.lower
            ));
    }
}

/// An arm's verdict against the base, with the games it turned and its paired reading.
fn arm_verdict(ui: &mut egui::Ui, report: &LabReport, arm: &ArmReport) {
    if let Some(v) = &arm.verdict {
        let color = if v.significant {
            theme::SIGNIFICANT
        } else {
            theme::PLOT_NOTE
        };
        let mut words = format!("   {}", v.words);
        if let Some(t) = arm.turned {
            words.push_str(&format!(
                " · the change turned {t} of {} games on the same dice",
                arm.games
            ));
        }
        let verdict = ui.label(egui::RichText::new(words).color(color).strong());
        // Paired: a line of its own for an A/B question; in a sweep, where every
        // value has its verdict, under the pointer.
        const PAIRED: &str = "Paired games: the variant is compared with the base seed by seed, so a \
             lucky seed and the first move count for both alike and the interval is that \
             of the differences";
        if let Some(p) = &arm.paired {
            if report.question.sweep.is_some() {
                verdict.on_hover_text(format!("{}\n\n{PAIRED}", p.words()));
            } else {
                ui.label(egui::RichText::new(format!("   {}", p.words())).color(theme::PLOT_NOTE))
                    .on_hover_text(PAIRED);
            }
        }
    }
}

/// Whether the games met the rules the variant changes: a verdict on a rule the bots
/// never used measures the bots, not the rule.
fn exercised(ui: &mut egui::Ui, arm: &ArmReport) {
    for e in &arm.exercised {
        match &e.warning {
            Some(w) if !e.counted() => {
                ui.label(egui::RichText::new(format!("   {w}")).color(theme::PLOT_NOTE));
            }
            Some(w) => {
                ui.label(egui::RichText::new(format!("   ⚠ {w}")).color(theme::UNEXERCISED))
                    .on_hover_text(
                        "The bots' games met this rule seldom or never, so the win rates above \
                     say little about the change: try a setup or bots that use it",
                    );
            }
            None => {
                ui.label(
                    egui::RichText::new(format!("   {}", e.summary())).color(theme::PLOT_NOTE),
                );
            }
        }
    }
}

/// A plot of the Lab: `height` high, with a legend, that holds still (the screen
/// scrolls, the plot does not pan or zoom).
fn lab_plot(id: &str, height: f32) -> Plot<'_> {
    Plot::new(id)
        .height(height)
        .legend(Legend::default())
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
}

/// A plot of percentages from 0 up.
fn percent_plot(id: &str) -> Plot<'_> {
    lab_plot(id, PLOT_HEIGHT).include_y(0.0)
}

/// A bar with its 95% interval drawn as a whisker.
fn whisker(x: f64, r: Rate, color: egui::Color32) -> Line<'static> {
    Line::new(
        "",
        PlotPoints::new(vec![[x, 100.0 * r.lo], [x, 100.0 * r.hi]]),
    )
    .color(color)
    .width(2.0)
}

fn win_rates(ui: &mut egui::Ui, report: &LabReport) {
    let seats = report.question.seats.clone();
    let n = report.arms.len().max(1) as f64;
    let width = 0.8 / n;
    let names = seats.clone();
    percent_plot("lab-win-rates")
        .include_y(100.0)
        .y_axis_label("wins, % (bars: 95% interval)")
        .x_axis_formatter(index_labels(names, 0))
        .show(ui, |plot| {
            for (a, arm) in report.arms.iter().enumerate() {
                let color = arm_color(a);
                let bars: Vec<Bar> = arm
                    .rates
                    .iter()
                    .enumerate()
                    .map(|(s, r)| {
                        let x = s as f64 + (a as f64 - (n - 1.0) / 2.0) * width;
                        Bar::new(x, 100.0 * r.rate)
                            .width(width * 0.9)
                            .fill(color)
                            .name(format!(
                                "{} {}: {:.1}% [{:.1}, {:.1}]",
                                arm.name,
                                seats.get(s).cloned().unwrap_or_default(),
                                100.0 * r.rate,
                                100.0 * r.lo,
                                100.0 * r.hi
                            ))
                    })
                    .collect();
                plot.bar_chart(BarChart::new(arm.name.clone(), bars).color(color));
                for (s, r) in arm.rates.iter().enumerate() {
                    let x = s as f64 + (a as f64 - (n - 1.0) / 2.0) * width;
                    plot.line(whisker(x, *r, theme::PLOT_INTERVAL));
                }
            }
        });
}

fn difference(ui: &mut egui::Ui, report: &LabReport) {
    let names: Vec<String> = report.arms.iter().map(|a| a.name.clone()).collect();
    let labels = names.clone();
    lab_plot("lab-difference", PLOT_HEIGHT)
        .x_axis_label(
            "change in the win rate of the seat each variant moves most, points (95% interval)",
        )
        .y_axis_formatter(index_labels(labels, 1))
        .include_y(0.5)
        .include_y(names.len() as f64 - 0.5)
        .show(ui, |plot| {
            plot.vline(VLine::new("no difference", 0.0).color(theme::PLOT_REFERENCE));
            for (i, arm) in report.arms.iter().enumerate().skip(1) {
                let Some(v) = &arm.verdict else { continue };
                let y = i as f64;
                let color = arm_color(i);
                // The interval and its middle share one name: one legend entry a variant.
                let name = format!("{}: {}'s win rate", arm.name, v.moved);
                plot.line(
                    Line::new(name.clone(), PlotPoints::new(vec![[v.lo, y], [v.hi, y]]))
                        .color(color)
                        .width(4.0),
                );
                plot.points(
                    Points::new(name, PlotPoints::new(vec![[v.points, y]]))
                        .color(color)
                        .radius(6.0),
                );
            }
        });
}

fn lengths(ui: &mut egui::Ui, report: &LabReport) {
    let n = report.arms.len().max(1) as f64;
    let width = 0.8 / n;
    percent_plot("lab-lengths")
        .x_axis_label("rounds")
        .y_axis_label("games, %")
        .show(ui, |plot| {
            for (a, arm) in report.arms.iter().enumerate() {
                let total = f64::from(arm.games.max(1));
                let bars: Vec<Bar> = arm
                    .lengths
                    .iter()
                    .map(|(&rounds, &count)| {
                        let x = f64::from(rounds) + (a as f64 - (n - 1.0) / 2.0) * width;
                        Bar::new(x, 100.0 * f64::from(count) / total)
                            .width(width * 0.9)
                            .fill(arm_color(a))
                            .name(format!("{}: {rounds} rounds, {count} games", arm.name))
                    })
                    .collect();
                plot.bar_chart(
                    BarChart::new(format!("{} (mean {:.1})", arm.name, arm.mean_rounds), bars)
                        .color(arm_color(a)),
                );
            }
        });
}

fn first_move(ui: &mut egui::Ui, report: &LabReport) {
    let names: Vec<String> = report.arms.iter().map(|a| a.name.clone()).collect();
    percent_plot("lab-first-move")
        .include_y(100.0)
        .x_axis_formatter(index_labels(names, 0))
        .y_axis_label("games won by the seat that moved first, %")
        .show(ui, |plot| {
            plot.hline(egui_plot::HLine::new("no advantage", 50.0).color(theme::PLOT_REFERENCE));
            for (a, arm) in report.arms.iter().enumerate() {
                let Some(r) = arm.first_mover else { continue };
                let x = a as f64;
                plot.bar_chart(
                    BarChart::new(
                        format!(
                            "{}: {:.1}% [{:.1}, {:.1}]",
                            arm.name,
                            100.0 * r.rate,
                            100.0 * r.lo,
                            100.0 * r.hi
                        ),
                        vec![Bar::new(x, 100.0 * r.rate).width(0.6).fill(arm_color(a))],
                    )
                    .color(arm_color(a)),
                );
                plot.line(whisker(x, r, theme::PLOT_INTERVAL));
            }
        });
}

/// Each unit's and upgrade's worth in the base: its side's win rate when it lasted the
/// battle against when it was lost.
fn pieces(ui: &mut egui::Ui, report: &LabReport) {
    let Some(arm) = report.arms.first() else {
        return;
    };
    ui.label(
        egui::RichText::new(format!(
            "{}: each unit's and upgrade's side wins this often when it lasts the battle (green) and when it is lost (red). A wide gap is a piece that decides battles.",
            arm.name
        ))
        .weak(),
    );
    let names = piece_names(report, arm);
    lab_plot("lab-pieces", PLOT_HEIGHT.max(18.0 * names.len() as f32))
        .y_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
        .include_x(0.0)
        .include_x(100.0)
        .x_axis_label("side's win rate, %")
        .show_axes([true, false])
        .show(ui, |plot| {
            let lasted: Vec<Bar> = piece_bars(arm, &names, 0.2, "lasted", |p| p.lasted)
                .into_iter()
                .map(|b| b.fill(theme::LASTED))
                .collect();
            let lost: Vec<Bar> = piece_bars(arm, &names, -0.2, "lost", |p| p.lost)
                .into_iter()
                .map(|b| b.fill(theme::LOST))
                .collect();
            plot.bar_chart(
                BarChart::new("lasted", lasted)
                    .horizontal()
                    .color(theme::LASTED),
            );
            plot.bar_chart(BarChart::new("lost", lost).horizontal().color(theme::LOST));
            // Every row named on the plot itself: the axis has room for only a few.
            for (i, name) in names.iter().enumerate() {
                plot.text(
                    egui_plot::Text::new(
                        "",
                        egui_plot::PlotPoint::new(1.0, i as f64),
                        name.as_str(),
                    )
                    .anchor(egui::Align2::LEFT_CENTER)
                    .color(theme::PLOT_TEXT),
                );
            }
        });
}

/// Each piece's name with its side, as the pieces plot names its rows.
fn piece_names(report: &LabReport, arm: &ArmReport) -> Vec<String> {
    arm.pieces
        .iter()
        .map(|p| {
            format!(
                "{} ({})",
                p.name,
                report
                    .question
                    .seats
                    .get(usize::from(p.seat))
                    .cloned()
                    .unwrap_or_default()
            )
        })
        .collect()
}

/// A bar per piece with games for `rate` (lasted or lost), `offset` off its row.
fn piece_bars(
    arm: &ArmReport,
    names: &[String],
    offset: f64,
    word: &str,
    rate: fn(&crate::lab::report::PieceValue) -> Rate,
) -> Vec<Bar> {
    arm.pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| rate(p).games > 0)
        .map(|(i, p)| {
            let r = rate(p);
            Bar::new(i as f64 + offset, 100.0 * r.rate)
                .width(0.38)
                .name(format!(
                    "{} {word}: {:.0}% of {}",
                    names[i],
                    100.0 * r.rate,
                    r.games
                ))
        })
        .collect::<Vec<Bar>>()
}

/// What each choice made before play is worth: its side's win rate when it took the
/// choice less when it did not, with the 95% interval, a row each (best first).
fn taken(ui: &mut egui::Ui, report: &LabReport) {
    let Some(arm) = report.arms.first() else {
        return;
    };
    ui.label(
        egui::RichText::new(format!(
            "{}: {}. Each row is a side's win rate when its tanks took the upgrade, less when they did not, in points with the 95% interval; gold rows leave zero out (the upgrade matters), grey rows could be chance.",
            arm.name,
            report
                .question
                .draws
                .as_deref()
                .unwrap_or("the choices made before play")
        ))
        .weak(),
    );
    let seat = |s: u8| {
        report
            .question
            .seats
            .get(usize::from(s))
            .cloned()
            .unwrap_or_default()
    };
    let rows = arm.taken.len();
    lab_plot("lab-taken", PLOT_HEIGHT.max(22.0 * rows as f32))
        .x_axis_label("win rate when taken less without, points (95% interval)")
        .show_axes([true, false])
        .include_x(-30.0)
        .include_x(30.0)
        .include_y(-0.5)
        .include_y(rows as f64 - 0.5)
        .show(ui, |plot| {
            plot.vline(VLine::new("no difference", 0.0).color(theme::PLOT_REFERENCE));
            for (i, t) in arm.taken.iter().enumerate() {
                // The best row at the top.
                let y = (rows - 1 - i) as f64;
                let (d, lo, hi) = t.difference;
                let color = if t.significant() {
                    theme::TAKEN_SIGNIFICANT
                } else {
                    theme::TAKEN_NOT_SIGNIFICANT
                };
                let label = format!(
                    "{} ({}): {:.0}% taken, {:.0}% without, {:+.1} [{:+.1}, {:+.1}]",
                    t.name,
                    seat(t.seat),
                    100.0 * t.taken.rate,
                    100.0 * t.without.rate,
                    100.0 * d,
                    100.0 * lo,
                    100.0 * hi
                );
                // Unnamed, so the legend stays empty: every row is labelled on the plot.
                plot.line(
                    Line::new("", PlotPoints::new(vec![[100.0 * lo, y], [100.0 * hi, y]]))
                        .color(color)
                        .width(4.0),
                );
                plot.points(
                    Points::new("", PlotPoints::new(vec![[100.0 * d, y]]))
                        .color(color)
                        .radius(5.0),
                );
                plot.text(
                    egui_plot::Text::new("", egui_plot::PlotPoint::new(-29.0, y + 0.32), label)
                        .anchor(egui::Align2::LEFT_CENTER)
                        .color(theme::PLOT_TEXT),
                );
            }
        });
}

/// A heat map of the board: where tanks fell, over every game of the base.
fn losses(ui: &mut egui::Ui, report: &LabReport) {
    let Some(arm) = report.arms.first() else {
        return;
    };
    let Some([w, h]) = arm.board else { return };
    let total: u32 = arm.losses.iter().map(|(_, c)| c).sum();
    ui.label(
        egui::RichText::new(format!(
            "{}: {total} tanks lost in {} games; the brighter a space, the more tanks fell there (north is up).",
            arm.name, arm.games
        ))
        .weak(),
    );
    heat_board(ui, arm, w, h);
}

fn heat_board(ui: &mut egui::Ui, arm: &ArmReport, w: i32, h: i32) {
    let max = arm.losses.iter().map(|(_, c)| *c).max().unwrap_or(1).max(1);
    let size = (PLOT_HEIGHT / h.max(1) as f32)
        .min(560.0 / w.max(1) as f32)
        .clamp(6.0, 40.0);
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(size * w as f32 + size, size * h as f32 + size),
        egui::Sense::hover(),
    );
    let painter = ui.painter_at(rect);
    for col in 0..w {
        for row in 0..h {
            let count = arm
                .losses
                .iter()
                .find(|(at, _)| *at == [col, row])
                .map_or(0, |(_, c)| *c);
            let t = f64::from(count) / f64::from(max);
            // Odd columns sit half a space lower, as the hex board does.
            let y = row as f32 * size + if col % 2 == 1 { size / 2.0 } else { 0.0 };
            let cell = egui::Rect::from_min_size(
                rect.min + egui::vec2(col as f32 * size, y),
                egui::vec2(size - 1.0, size - 1.0),
            );
            let color = heat(t);
            painter.rect_filled(cell, 2.0, color);
            if count > 0 && size >= 22.0 {
                painter.text(
                    cell.center(),
                    egui::Align2::CENTER_CENTER,
                    count.to_string(),
                    egui::FontId::proportional(10.0),
                    theme::HEAT_TEXT,
                );
            }
        }
    }
}

/// How often each label beat each other one, as a grid (rows against columns).
fn matchups(ui: &mut egui::Ui, report: &LabReport) {
    let Some(arm) = report.arms.first() else {
        return;
    };
    let mut labels: Vec<String> = arm.matchups.iter().map(|m| m.row.clone()).collect();
    labels.sort();
    labels.dedup();
    ui.label(
        egui::RichText::new(format!(
            "{}: how often the row's seat won while the column's was at the table.",
            arm.name
        ))
        .weak(),
    );
    let cell = 70.0;
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(
            cell * (labels.len() as f32 + 1.5),
            22.0 * (labels.len() as f32 + 1.0) + 10.0,
        ),
        egui::Sense::hover(),
    );
    let painter = ui.painter_at(rect);
    let font = egui::FontId::proportional(12.0);
    for (j, col) in labels.iter().enumerate() {
        painter.text(
            rect.min + egui::vec2(cell * (j as f32 + 1.5) + cell / 2.0, 8.0),
            egui::Align2::CENTER_CENTER,
            col,
            font.clone(),
            theme::MATCHUP_LABEL,
        );
    }
    for (i, row) in labels.iter().enumerate() {
        let y = 22.0 * (i as f32 + 1.0);
        painter.text(
            rect.min + egui::vec2(4.0, y + 9.0),
            egui::Align2::LEFT_CENTER,
            row,
            font.clone(),
            theme::MATCHUP_LABEL,
        );
        for (j, col) in labels.iter().enumerate() {
            let Some(m) = arm.matchups.iter().find(|m| &m.row == row && &m.col == col) else {
                continue;
            };
            let r = egui::Rect::from_min_size(
                rect.min + egui::vec2(cell * (j as f32 + 1.5), y),
                egui::vec2(cell - 3.0, 19.0),
            );
            painter.rect_filled(r, 2.0, heat(m.rate.rate));
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                format!("{:.0}%", 100.0 * m.rate.rate),
                font.clone(),
                theme::HEAT_TEXT,
            );
        }
    }
}

/// How often each pair of orders met, per variant.
fn rows(ui: &mut egui::Ui, report: &LabReport) {
    let mut names: Vec<String> = report
        .arms
        .iter()
        .flat_map(|a| a.counts.iter().map(|(n, _)| n.clone()))
        .collect();
    names.sort();
    names.dedup();
    let labels = names.clone();
    let n = report.arms.len().max(1) as f64;
    let width = 0.8 / n;
    lab_plot("lab-rows", PLOT_HEIGHT.max(22.0 * names.len() as f32))
        .y_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
        .include_x(0.0)
        .x_axis_label("share of turns, %")
        .y_axis_formatter(index_labels(labels, 0))
        .show(ui, |plot| {
            for (a, arm) in report.arms.iter().enumerate() {
                let total: u32 = arm.counts.iter().map(|(_, c)| c).sum::<u32>().max(1);
                let bars: Vec<Bar> = arm
                    .counts
                    .iter()
                    .filter_map(|(name, c)| {
                        let i = names.iter().position(|n| n == name)?;
                        Some(
                            Bar::new(
                                i as f64 + (a as f64 - (n - 1.0) / 2.0) * width,
                                100.0 * f64::from(*c) / f64::from(total),
                            )
                            .width(width * 0.9)
                            .fill(arm_color(a))
                            .name(format!("{}: {name}, {c} turns", arm.name)),
                        )
                    })
                    .collect();
                plot.bar_chart(
                    BarChart::new(arm.name.clone(), bars)
                        .horizontal()
                        .color(arm_color(a)),
                );
            }
        });
}

/// Each seat's win rate against the swept value, with intervals.
fn sweep(ui: &mut egui::Ui, report: &LabReport) {
    let field = report.question.sweep.clone().unwrap_or_default();
    let points: Vec<(f64, &ArmReport)> = report
        .arms
        .iter()
        .skip(1)
        .filter_map(|a| {
            let v = a.changes.get(&field)?.parse::<f64>().ok()?;
            Some((v, a))
        })
        .collect();
    percent_plot("lab-sweep")
        .include_y(100.0)
        .x_axis_label(field.clone())
        .y_axis_label("wins, % (95% interval)")
        .show(ui, |plot| {
            plot.hline(egui_plot::HLine::new("even", 50.0).color(theme::PLOT_REFERENCE));
            for (s, seat) in report.question.seats.iter().enumerate() {
                let color =
                    theme::seat_color(crate::framework::PlayerId(u8::try_from(s).unwrap_or(0)));
                let line: Vec<[f64; 2]> = points
                    .iter()
                    .filter_map(|(x, a)| a.rates.get(s).map(|r| [*x, 100.0 * r.rate]))
                    .collect();
                plot.line(
                    Line::new(seat.clone(), PlotPoints::new(line.clone()))
                        .color(color)
                        .width(2.5),
                );
                plot.points(
                    Points::new(seat.clone(), PlotPoints::new(line))
                        .color(color)
                        .radius(4.0),
                );
                for (x, a) in &points {
                    if let Some(r) = a.rates.get(s) {
                        plot.line(whisker(*x, *r, color));
                    }
                }
            }
        });
}
