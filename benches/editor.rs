//! Speed goal of the scenario editor: on a 60 × 60 board with forty units, one edit and
//! the live validation of the whole scenario that follows it take at most 5 ms.
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tanktable::editor::{Edit, HexEditor, Symmetry, Terrain};
use tanktable::grid::Facing;
use tanktable::rules::tank_commander::Rules;
use tanktable::rules::tank_commander::setup::UnitSetup;

/// A 60 × 60 board with mixed terrain and twenty units a side.
fn big() -> HexEditor {
    let mut editor = HexEditor::new(Rules::builtin(), 60, 60);
    let kinds = [
        Terrain::Forest,
        Terrain::Hill,
        Terrain::Mud,
        Terrain::Building,
    ];
    for (i, t) in kinds.into_iter().enumerate() {
        let cells = (0..60)
            .flat_map(|c| (0..30).map(move |r| [c, r]))
            .filter(|[c, r]| (c * 7 + r * 3 + i as i32 * 5) % 11 == 0)
            .collect();
        editor.apply(Edit::Paint { cells, terrain: t });
    }
    for i in 0..20 {
        let at = format!("{}{}", tanktable::grid::hex::column_letters(i * 3), 58);
        let unit: UnitSetup = ron::from_str(&format!(
            "(side: \"Blue\", name: \"Blue {i}\", at: {at:?}, facing: N)"
        ))
        .expect("a unit");
        editor.apply(Edit::AddUnit(Box::new(unit)));
    }
    editor.apply(Edit::Mirror(Symmetry::Rotate180));
    assert!(
        editor.check().problems.is_empty(),
        "{:?}",
        editor.check().lines()
    );
    editor
}

fn edit_and_check(c: &mut Criterion) {
    let mut editor = big();
    let mut group = c.benchmark_group("editor: 60 x 60, 40 units");
    let mut flip = false;
    group.bench_function("brush stroke (7 hexes) + live check", |b| {
        b.iter(|| {
            flip = !flip;
            let terrain = if flip { Terrain::Forest } else { Terrain::Open };
            let cells = vec![
                [30, 30],
                [30, 29],
                [31, 29],
                [31, 30],
                [30, 31],
                [29, 30],
                [29, 29],
            ];
            black_box(editor.apply(Edit::Paint { cells, terrain }));
            black_box(editor.check().problems.len())
        });
    });
    group.bench_function("move a unit + live check", |b| {
        b.iter(|| {
            flip = !flip;
            let mut unit = editor.design().setup.units[0].clone();
            unit.at = if flip { "A50".into() } else { "A58".into() };
            unit.facing = if flip { Facing::NE } else { Facing::N };
            black_box(editor.apply(Edit::SetUnit(0, Box::new(unit))));
            black_box(editor.check().problems.len())
        });
    });
    group.bench_function("undo + redo", |b| {
        b.iter(|| {
            editor.undo();
            black_box(editor.redo())
        });
    });
    group.finish();
}

criterion_group!(benches, edit_and_check);
criterion_main!(benches);
