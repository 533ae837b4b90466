//! The whole table in the space the panels leave free.
//!
//! Each game tells [`Framing`] the outline of its table (points in the world that must be
//! seen: a board's corners with the height of what stands on it, a round table's rim).
//! Whenever a table opens, and on Reset (R) and top-down (T), the camera is fitted: it
//! comes as close as it can while the table's outline, projected on the screen, stays
//! inside the window and clear of every panel that frames the table (the banner, the
//! seats and log, the action bar, each game's own panels). Until the player steers the
//! camera, the view follows the panels: one that grows, shrinks, collapses to its title
//! bar or first opens, and a window resized, refit it. A panel that closes keeps its room
//! until the next table, so that the board does not jump back and forth as a card comes
//! and goes.
//!
//! The fit is a search: for each distance tried (a bisection), the focus is moved over a
//! grid in the ground plane and the positions that fit are kept; the camera takes the
//! middle of those at the nearest distance where any fits.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::client::table::camera::Rig;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Framing>()
        .init_resource::<FramePanels>()
        // Off the table (the menu, the editor, the lab) there is nothing to fit: R and T
        // there steer the rig as it is.
        .add_systems(
            OnExit(crate::client::core::Screen::Playing),
            |mut framing: ResMut<Framing>| framing.leave(),
        )
        .add_systems(
            PostUpdate,
            fit.after(bevy_egui::EguiPostUpdateSet::EndPass)
                .before(bevy::transform::TransformSystems::Propagate),
        );
}

/// Gaps kept between the table's outline and the window's edge or a panel, in logical
/// pixels.
pub const MARGIN: f32 = 6.0;

/// What the camera keeps in view.
#[derive(Resource, Default, Debug)]
pub struct Framing {
    outline: Vec<Vec3>,
    top_down: bool,
    /// Refit when the panels or the window change (until the player steers).
    follow: bool,
    /// Fit on the next frame whatever changed.
    due: bool,
    /// The panels and window size the last fit was made for.
    fitted: Option<(Vec<Rect>, Vec2)>,
    /// Counts the tables shown (a new one forgets where the panels stood).
    table: u64,
}

impl Framing {
    /// A new table: keep `outline` in view, at an angle or straight down. The same
    /// table drawn again (after an action) leaves the view as the player has it.
    pub fn show(&mut self, outline: Vec<Vec3>, top_down: bool) {
        if self.outline == outline {
            return;
        }
        self.outline = outline;
        self.top_down = top_down;
        self.follow = true;
        self.due = true;
        self.fitted = None;
        self.table += 1;
    }

    /// Fits the view again (Reset, top-down), straight down when `top_down`.
    pub fn reset(&mut self, top_down: bool) {
        self.top_down = top_down;
        self.follow = true;
        self.due = true;
    }

    /// The table is left: nothing to keep in view until the next one (which counts as a
    /// new table even if it is the same).
    pub fn leave(&mut self) {
        self.outline.clear();
        self.follow = false;
        self.due = false;
        self.fitted = None;
        self.table += 1;
    }

    /// The player moved the camera: the view stays where they put it.
    pub fn steered(&mut self) {
        self.follow = false;
    }

    /// The points of the table that must be in view.
    #[must_use]
    pub fn outline(&self) -> &[Vec3] {
        &self.outline
    }

    /// Whether the view is straight down.
    #[must_use]
    pub fn top_down(&self) -> bool {
        self.top_down
    }

    /// Whether the view follows the panels (not steered since the last fit).
    #[must_use]
    pub fn follows(&self) -> bool {
        self.follow
    }
}

/// The panels the table is kept clear of: windows that stay on screen while a game is
/// played, by title (or id). Each game registers its own with [`frame_panels`].
#[derive(Resource, Debug)]
pub struct FramePanels {
    ids: Vec<egui::Id>,
    /// The last place each was seen on the current table.
    seen: Vec<(egui::Id, Rect)>,
    /// The table the panels were gathered on (a new table forgets them).
    table: u64,
}

impl Default for FramePanels {
    fn default() -> Self {
        let mut panels = Self {
            ids: Vec::new(),
            seen: Vec::new(),
            table: 0,
        };
        panels.add(&["banner", "Seats and log", "orders", "timeline"]);
        panels
    }
}

impl FramePanels {
    fn add(&mut self, names: &[&str]) {
        for name in names {
            // A window's id is its title's, or the id given it.
            for id in [window_id(name), egui::Id::new(name)] {
                if !self.ids.contains(&id) {
                    self.ids.push(id);
                }
            }
        }
    }

    /// Where the panels stand (or last stood, on this table), in logical pixels.
    #[must_use]
    pub fn rects(&self) -> Vec<Rect> {
        self.seen.iter().map(|(_, r)| *r).collect()
    }
}

/// Registers windows (by title or id) that frame a game's table.
pub fn frame_panels(app: &mut App, names: &[&str]) {
    app.init_resource::<FramePanels>();
    app.world_mut().resource_mut::<FramePanels>().add(names);
}

#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
fn fit(
    mut framing: ResMut<Framing>,
    mut panels: ResMut<FramePanels>,
    mut rig: ResMut<Rig>,
    clean: Option<Res<crate::client::core::Clean>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    cameras: Query<&Projection, With<Camera3d>>,
    mut contexts: Query<&mut bevy_egui::EguiContext, With<bevy_egui::PrimaryEguiContext>>,
) {
    if framing.outline.is_empty() {
        return;
    }
    let Some(window) = windows.iter().next() else {
        return;
    };
    let size = window.size();
    if size.x < 1.0 || size.y < 1.0 {
        return;
    }
    // The panels on screen now; one of them closed keeps its last place on this table.
    if panels.table != framing.table {
        panels.table = framing.table;
        panels.seen.clear();
    }
    if clean.is_none()
        && let Some(mut ctx) = contexts.iter_mut().next()
    {
        let ids = panels.ids.clone();
        // Panels are laid out in points, the table in the window's pixels.
        let zoom = ctx.get_mut().zoom_factor();
        let now: Vec<(egui::Id, Rect)> = ctx.get_mut().memory(|mem| {
            let visible = mem.areas().visible_layer_ids();
            ids.iter()
                .filter(|id| visible.iter().any(|l| l.id == **id))
                .filter_map(|id| {
                    let r = mem.area_rect(*id)?;
                    Some((*id, in_pixels(r, zoom)))
                })
                .collect()
        });
        for (id, rect) in now {
            match panels.seen.iter_mut().find(|(i, _)| *i == id) {
                Some(seen) => seen.1 = rect,
                None => panels.seen.push((id, rect)),
            }
        }
    }
    let avoid = panels.rects();
    let changed = framing.fitted.as_ref() != Some(&(avoid.clone(), size));
    if !(framing.due || framing.follow && changed) {
        return;
    }
    let fov = match cameras.iter().next() {
        Some(Projection::Perspective(p)) => p.fov,
        _ => std::f32::consts::FRAC_PI_4,
    };
    let pitch = if framing.top_down {
        Rig::TOP_DOWN
    } else {
        Rig::ANGLED
    };
    let (focus, distance) = fit_view(
        &framing.outline,
        Shot {
            yaw: 0.0,
            pitch,
            fov,
            size,
        },
        &avoid,
    );
    rig.frame_view(focus, distance, framing.top_down);
    framing.fitted = Some((avoid, size));
    framing.due = false;
}

/// How the camera looks: turned by `yaw`, raised by `pitch`, with a vertical field of
/// view `fov` on a window of `size` logical pixels.
#[derive(Clone, Copy, Debug)]
pub struct Shot {
    pub yaw: f32,
    pub pitch: f32,
    pub fov: f32,
    pub size: Vec2,
}

impl Shot {
    /// The world-to-clip matrix of a rig looking at `focus` from `distance`.
    fn matrix(&self, focus: Vec3, distance: f32) -> Mat4 {
        let rig = Rig::looking(focus, self.yaw, self.pitch, distance);
        let view = rig.transform().to_matrix().inverse();
        let aspect = self.size.x / self.size.y;
        Mat4::perspective_infinite_reverse_rh(self.fov, aspect, 0.1) * view
    }

    /// Where the `points` appear on the screen (logical pixels, y down), or `None` when
    /// one is behind the camera.
    fn project(&self, matrix: &Mat4, points: &[Vec3]) -> Option<Vec<Vec2>> {
        points
            .iter()
            .map(|p| {
                let clip = *matrix * p.extend(1.0);
                (clip.w > 1e-4).then(|| {
                    let ndc = clip.truncate() / clip.w;
                    Vec2::new(
                        (ndc.x + 1.0) * 0.5 * self.size.x,
                        (1.0 - ndc.y) * 0.5 * self.size.y,
                    )
                })
            })
            .collect()
    }
}

/// The focus and distance at which the `outline` seen as `shot` looks comes as close as
/// it can while it stays inside the window and clear of the `avoid` rectangles, each by
/// [`MARGIN`]. Where nothing fits (a window smaller than the panels), the whole outline in
/// the window, panels or not.
#[must_use]
pub fn fit_view(outline: &[Vec3], shot: Shot, avoid: &[Rect]) -> (Vec3, f32) {
    let (lo, hi) = outline.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let centre = Vec3::new((lo.x + hi.x) * 0.5, 0.0, (lo.z + hi.z) * 0.5);
    let span = (hi - lo).max_element().max(1.0);
    let fits = |avoid: &[Rect], d: f32| best_focus(outline, shot, avoid, centre, span, d);
    for avoid in [avoid, &[]] {
        let (mut near, mut far) = (span * 0.2, span * 8.0);
        let Some(mut best) = fits(avoid, far) else {
            continue;
        };
        for _ in 0..14 {
            let mid = (near * far).sqrt();
            match fits(avoid, mid) {
                Some(focus) => (far, best) = (mid, focus),
                None => near = mid,
            }
        }
        return (best, far);
    }
    (centre, span * 8.0)
}

/// Half the number of focus positions tried along each ground axis.
const GRID: i32 = 16;

/// The middle of the focus positions, around `centre`, from which the outline seen from
/// `distance` fits; `None` when none does.
fn best_focus(
    outline: &[Vec3],
    shot: Shot,
    avoid: &[Rect],
    centre: Vec3,
    span: f32,
    distance: f32,
) -> Option<Vec3> {
    let (right, forward) = (
        Quat::from_rotation_y(shot.yaw) * Vec3::X,
        Quat::from_rotation_y(shot.yaw) * -Vec3::Z,
    );
    let step = span * 0.7 / GRID as f32;
    let at = |i: i32, j: i32| centre + right * (i as f32 * step) + forward * (j as f32 * step);
    let ok = |focus: Vec3| {
        let matrix = shot.matrix(focus, distance);
        shot.project(&matrix, outline)
            .is_some_and(|points| clear(&points, shot.size, avoid))
    };
    let mut sum = (0.0, 0.0, 0u32);
    let mut found = Vec::new();
    for i in -GRID..=GRID {
        for j in -GRID..=GRID {
            if ok(at(i, j)) {
                sum = (sum.0 + i as f32, sum.1 + j as f32, sum.2 + 1);
                found.push((i, j));
            }
        }
    }
    if sum.2 == 0 {
        return None;
    }
    let n = sum.2 as f32;
    let middle = centre + right * (sum.0 / n * step) + forward * (sum.1 / n * step);
    if ok(middle) {
        return Some(middle);
    }
    let (mi, mj) = (sum.0 / n, sum.1 / n);
    found
        .into_iter()
        .min_by(|a, b| {
            let d = |(i, j): (i32, i32)| (i as f32 - mi).powi(2) + (j as f32 - mj).powi(2);
            d(*a).total_cmp(&d(*b))
        })
        .map(|(i, j)| at(i, j))
}

/// Whether the outline's `points` on the screen lie inside a window of `size` and their
/// hull clear of every rectangle of `avoid`, each by [`MARGIN`].
fn clear(points: &[Vec2], size: Vec2, avoid: &[Rect]) -> bool {
    let inside = points.iter().all(|p| {
        p.x >= MARGIN && p.y >= MARGIN && p.x <= size.x - MARGIN && p.y <= size.y - MARGIN
    });
    if !inside {
        return false;
    }
    let hull = hull(points);
    avoid.iter().all(|r| !overlaps(&hull, r.inflate(MARGIN)))
}

/// The convex hull of `points`, counter-clockwise in y-down screen terms (Andrew's
/// monotone chain).
#[must_use]
pub fn hull(points: &[Vec2]) -> Vec<Vec2> {
    let mut p = points.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut out: Vec<Vec2> = Vec::with_capacity(p.len() * 2);
    for pass in 0..2 {
        let start = out.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in iter {
            while out.len() >= start + 2 && cross(out[out.len() - 2], out[out.len() - 1], q) <= 0.0
            {
                out.pop();
            }
            out.push(q);
        }
        out.pop();
    }
    out
}

/// Whether the convex polygon `hull` and the rectangle `r` overlap (separating axes).
fn overlaps(hull: &[Vec2], r: Rect) -> bool {
    if hull.is_empty() {
        return false;
    }
    let (lo, hi) = hull.iter().fold((Vec2::MAX, Vec2::MIN), |(lo, hi), p| {
        (lo.min(*p), hi.max(*p))
    });
    if hi.x <= r.min.x || lo.x >= r.max.x || hi.y <= r.min.y || lo.y >= r.max.y {
        return false;
    }
    let corners = [
        r.min,
        Vec2::new(r.max.x, r.min.y),
        r.max,
        Vec2::new(r.min.x, r.max.y),
    ];
    for (k, a) in hull.iter().enumerate() {
        let b = hull[(k + 1) % hull.len()];
        let normal = (b - *a).perp();
        let (hmin, hmax) = span_along(hull, normal);
        let (rmin, rmax) = span_along(&corners, normal);
        if hmax <= rmin || rmax <= hmin {
            return false;
        }
    }
    true
}

fn span_along(points: &[Vec2], axis: Vec2) -> (f32, f32) {
    points.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
        let d = p.dot(axis);
        (lo.min(d), hi.max(d))
    })
}

/// The area (in square pixels) of the convex polygon `hull` that the rectangle `r`
/// covers: the polygon clipped to the rectangle (Sutherland–Hodgman), measured by the
/// shoelace formula.
#[must_use]
pub fn covered(hull: &[Vec2], r: Rect) -> f32 {
    let mut poly = hull.to_vec();
    let edges: [(Vec2, Vec2); 4] = [
        (Vec2::X, Vec2::new(r.min.x, 0.0)),
        (-Vec2::X, Vec2::new(r.max.x, 0.0)),
        (Vec2::Y, Vec2::new(0.0, r.min.y)),
        (-Vec2::Y, Vec2::new(0.0, r.max.y)),
    ];
    for (inward, at) in edges {
        let side = |p: Vec2| (p - at).dot(inward);
        let mut next = Vec::with_capacity(poly.len() + 2);
        for k in 0..poly.len() {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            let (sa, sb) = (side(a), side(b));
            if sa >= 0.0 {
                next.push(a);
            }
            if (sa >= 0.0) != (sb >= 0.0) {
                next.push(a + (b - a) * (sa / (sa - sb)));
            }
        }
        poly = next;
        if poly.is_empty() {
            return 0.0;
        }
    }
    let twice: f32 = (0..poly.len())
        .map(|k| poly[k].perp_dot(poly[(k + 1) % poly.len()]))
        .sum();
    twice.abs() * 0.5
}

/// The corners of a box from `lo` to `hi`: a board's outline with what stands on it.
#[must_use]
pub fn box_outline(lo: Vec3, hi: Vec3) -> Vec<Vec3> {
    let mut out = Vec::with_capacity(8);
    for y in [lo.y, hi.y] {
        for (x, z) in [(lo.x, lo.z), (hi.x, lo.z), (hi.x, hi.z), (lo.x, hi.z)] {
            out.push(Vec3::new(x, y, z));
        }
    }
    out
}

/// Points on the rim of a round table of `radius` around `centre`, at the surface and at
/// `height` above it.
#[must_use]
pub fn disc_outline(centre: Vec3, radius: f32, height: f32) -> Vec<Vec3> {
    let mut out = Vec::with_capacity(32);
    for y in [0.0, height] {
        for k in 0..16 {
            let a = k as f32 / 16.0 * std::f32::consts::TAU;
            out.push(centre + Vec3::new(radius * a.cos(), y, radius * a.sin()));
        }
    }
    out
}

/// The id egui gives a window titled `title` (its title's text, hashed as an
/// `Option<Cow<str>>`), to find where it stands.
#[must_use]
pub fn window_id(title: &str) -> bevy_egui::egui::Id {
    bevy_egui::egui::Id::new(Some(std::borrow::Cow::<str>::Borrowed(title)))
}

/// A panel's rectangle, laid out in egui's points, in the window's logical pixels (the
/// pointer's and the camera's): points scaled by the interface's zoom.
#[must_use]
pub fn in_pixels(r: bevy_egui::egui::Rect, zoom: f32) -> Rect {
    Rect::new(
        r.min.x * zoom,
        r.min.y * zoom,
        r.max.x * zoom,
        r.max.y * zoom,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shot(pitch: f32) -> Shot {
        Shot {
            yaw: 0.0,
            pitch,
            fov: std::f32::consts::FRAC_PI_4,
            size: Vec2::new(1280.0, 720.0),
        }
    }

    fn seen(outline: &[Vec3], shot: Shot, focus: Vec3, distance: f32) -> Vec<Vec2> {
        hull(
            &shot
                .project(&shot.matrix(focus, distance), outline)
                .unwrap(),
        )
    }

    #[test]
    fn a_fitted_board_fills_the_free_space_and_misses_every_panel() {
        let board = box_outline(Vec3::new(-8.0, 0.0, -6.0), Vec3::new(8.0, 0.6, 6.0));
        let panels = [
            Rect::new(380.0, 0.0, 900.0, 70.0),     // a banner
            Rect::new(944.0, 6.0, 1274.0, 480.0),   // the log
            Rect::new(300.0, 620.0, 1060.0, 716.0), // an action bar
        ];
        for pitch in [Rig::ANGLED, Rig::TOP_DOWN] {
            let s = shot(pitch);
            let (focus, distance) = fit_view(&board, s, &panels);
            let hull = seen(&board, s, focus, distance);
            for r in &panels {
                assert!(covered(&hull, *r) < 1.0, "{r:?} covers the board");
            }
            for p in &hull {
                assert!(p.x >= 0.0 && p.y >= 0.0 && p.x <= 1280.0 && p.y <= 720.0);
            }
            // Close to the tightest: a little nearer and it no longer fits.
            let (lo, hi) = hull.iter().fold((Vec2::MAX, Vec2::MIN), |(lo, hi), p| {
                (lo.min(*p), hi.max(*p))
            });
            assert!(
                hi.y - lo.y > 400.0 || hi.x - lo.x > 700.0,
                "the board is drawn small: {lo} to {hi}"
            );
            assert!(best_focus(&board, s, &panels, Vec3::ZERO, 16.0, distance * 0.9).is_none());
        }
    }

    #[test]
    fn with_no_room_beside_the_panels_the_board_still_fits_the_window() {
        let board = box_outline(Vec3::new(-8.0, 0.0, -6.0), Vec3::new(8.0, 0.6, 6.0));
        let everything = [Rect::new(0.0, 0.0, 1280.0, 720.0)];
        let s = shot(Rig::ANGLED);
        let (focus, distance) = fit_view(&board, s, &everything);
        let hull = seen(&board, s, focus, distance);
        assert!(
            hull.iter()
                .all(|p| p.x >= 0.0 && p.x <= 1280.0 && p.y >= 0.0 && p.y <= 720.0)
        );
    }

    #[test]
    fn covered_area_is_the_clipped_polygon() {
        let square = hull(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(10.0, 0.0),
            Vec2::new(10.0, 10.0),
            Vec2::new(0.0, 10.0),
        ]);
        assert_eq!(square.len(), 4);
        assert!((covered(&square, Rect::new(5.0, 5.0, 20.0, 20.0)) - 25.0).abs() < 1e-3);
        assert!(covered(&square, Rect::new(11.0, 0.0, 20.0, 20.0)).abs() < 1e-3);
        assert!(overlaps(&square, Rect::new(9.0, 9.0, 12.0, 12.0)));
        assert!(!overlaps(&square, Rect::new(10.5, 0.0, 12.0, 12.0)));
        // A triangle's hypotenuse separates it from a box beyond it.
        let triangle = hull(&[Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)]);
        assert!(!overlaps(&triangle, Rect::new(6.0, 6.0, 9.0, 9.0)));
        assert!((covered(&triangle, Rect::new(0.0, 0.0, 20.0, 20.0)) - 50.0).abs() < 1e-3);
    }
}
