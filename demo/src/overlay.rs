//! Live gizmos: closest points from the selected body to every body in
//! range, contact points with normals and depths, and the GJK simplex of
//! the selected pair at any recorded iteration.

use std::time::Instant;

use bevy::prelude::*;
use gjk_epa::contact;
use gjk_shapes::gjk_core::{GjkConfig, Iteration, Status, distance_with};
use gjk_shapes::{CoreOf, Shape, Transformed, distance};

use crate::interaction::Selection;
use crate::physics::{Body, Contacts};

/// Closest-point segments are drawn to bodies within this distance.
pub const OVERLAY_RANGE: f32 = 6.0;
/// Colour of closest points and separating segments.
pub const CLOSEST_COLOUR: Color = Color::srgb(1.0, 0.95, 0.0);
/// Colour of contact points and normals.
pub const CONTACT_COLOUR: Color = Color::srgb(1.0, 0.0, 1.0);
/// Colour of the GJK simplex.
pub const SIMPLEX_COLOUR: Color = Color::srgb(0.0, 1.0, 1.0);
/// Where the Minkowski-difference view is drawn, above the selected body.
pub const SIMPLEX_VIEW_OFFSET: Vec3 = Vec3::new(0.0, 3.5, 0.0);
/// Gizmo line width in pixels.
pub const LINE_WIDTH: f32 = 3.0;

/// Which overlays are on.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Overlays {
    /// Closest points to bodies in range.
    pub closest_points: bool,
    /// Contact points, normals and depths.
    pub contacts: bool,
    /// The GJK simplex of the selected pair.
    pub simplex: bool,
    /// Which recorded iteration to show (clamped to the last).
    pub simplex_step: usize,
}

impl Default for Overlays {
    fn default() -> Self {
        Self { closest_points: true, contacts: true, simplex: true, simplex_step: usize::MAX }
    }
}

/// Measurements of the selected pair (the selected body and its nearest
/// neighbour), shown by the panel.
#[derive(Resource, Default, Debug)]
pub struct PairReadout {
    /// The neighbour.
    pub other: Option<Entity>,
    /// Distance (0 in contact).
    pub distance: f32,
    /// Penetration depth (0 when apart).
    pub depth: f32,
    /// GJK status.
    pub status: Option<Status>,
    /// GJK support calls.
    pub gjk_iterations: u32,
    /// EPA support calls.
    pub epa_iterations: u32,
    /// Wall time of the distance query, in microseconds.
    pub query_micros: f32,
    /// Every GJK iteration of the pair's core query (world frame).
    pub iterations: Vec<Iteration<Vec3>>,
}

/// Overlay drawing and pair measurements.
pub fn plugin(app: &mut App) {
    app.init_resource::<Overlays>()
        .init_resource::<PairReadout>()
        .add_systems(Startup, line_width)
        .add_systems(Update, (measure_pairs, draw_contacts, draw_simplex).chain());
}

fn line_width(mut store: ResMut<GizmoConfigStore>) {
    let (config, _) = store.config_mut::<DefaultGizmoConfigGroup>();
    config.line.width = LINE_WIDTH;
}

/// A body's shape placed at its pose (`None` for a pose no query accepts).
fn placed(b: &Body) -> Option<Transformed<&dyn Shape<Vec3>, Vec3>> {
    Transformed::new(b.collider.shape(), b.pose).ok()
}

fn measure_pairs(
    selection: Res<Selection>,
    overlays: Res<Overlays>,
    bodies: Query<(Entity, &Body)>,
    mut readout: ResMut<PairReadout>,
    mut gizmos: Gizmos,
) {
    let Some(sel) = selection.selected.and_then(|e| bodies.get(e).ok()) else {
        *readout = PairReadout::default();
        return;
    };
    let (se, sb) = sel;
    // The nearest moving body is the pair partner (the ground only when
    // nothing else is around).
    let mut nearest: Option<(Entity, (bool, f32))> = None;
    for (e, b) in &bodies {
        if e == se {
            continue;
        }
        let start = Instant::now();
        let r = distance(sb.collider.shape(), &sb.pose, b.collider.shape(), &b.pose);
        let micros = start.elapsed().as_secs_f32() * 1e6;
        if r.status == Status::InvalidInput {
            continue;
        }
        let key = (!b.is_dynamic(), r.distance);
        if nearest.is_none_or(|n| key < n.1) {
            nearest = Some((e, key));
            readout.query_micros = micros;
        }
        if overlays.closest_points && r.distance > 0.0 && r.distance < OVERLAY_RANGE {
            gizmos.line(r.point_a, r.point_b, CLOSEST_COLOUR);
            gizmos.sphere(Isometry3d::from_translation(r.point_a), 0.06, CLOSEST_COLOUR);
            gizmos.sphere(Isometry3d::from_translation(r.point_b), 0.06, CLOSEST_COLOUR);
        }
    }
    let Some((other, _)) = nearest else { return };
    let Ok((_, ob)) = bodies.get(other) else { return };
    let c = contact(sb.collider.shape(), &sb.pose, ob.collider.shape(), &ob.pose);
    let (Some(pa), Some(pb)) = (placed(sb), placed(ob)) else { return };
    let mut log = Vec::new();
    let core = distance_with(&CoreOf(pa), &CoreOf(pb), &GjkConfig::default(), None, &mut log);
    readout.other = Some(other);
    readout.distance = c.distance;
    readout.depth = c.depth;
    readout.status = Some(core.status);
    readout.gjk_iterations = c.gjk_iterations;
    readout.epa_iterations = c.epa_iterations;
    readout.iterations = log;
}

fn draw_contacts(overlays: Res<Overlays>, contacts: Res<Contacts>, mut gizmos: Gizmos) {
    if !overlays.contacts {
        return;
    }
    for pair in &contacts.pairs {
        for p in &pair.points {
            if p.depth < -0.01 {
                continue;
            }
            let at = (p.point_a + p.point_b) * 0.5;
            gizmos.sphere(Isometry3d::from_translation(at), 0.05, CONTACT_COLOUR);
            // Normal arrow, longer for deeper points.
            gizmos.arrow(at, at + pair.normal * (0.35 + 10.0 * p.depth.max(0.0)), CONTACT_COLOUR);
        }
    }
}

fn draw_simplex(
    overlays: Res<Overlays>,
    selection: Res<Selection>,
    bodies: Query<&Body>,
    readout: Res<PairReadout>,
    mut gizmos: Gizmos,
) {
    if !overlays.simplex || readout.iterations.is_empty() {
        return;
    }
    let Some(sb) = selection.selected.and_then(|e| bodies.get(e).ok()) else { return };
    let k = overlays.simplex_step.min(readout.iterations.len() - 1);
    let it = &readout.iterations[k];
    // The source points on A and B of each simplex vertex.
    for p in it.simplex.points() {
        gizmos.line(p.a, p.b, SIMPLEX_COLOUR.with_alpha(0.5));
        gizmos.sphere(Isometry3d::from_translation(p.a), 0.04, SIMPLEX_COLOUR);
        gizmos.sphere(Isometry3d::from_translation(p.b), 0.04, SIMPLEX_COLOUR);
    }
    // The Minkowski difference view: origin, simplex and closest point.
    let o = sb.pose.translation + SIMPLEX_VIEW_OFFSET;
    let pts: Vec<Vec3> = it.simplex.points().iter().map(|p| o + p.w).collect();
    for i in 0..pts.len() {
        for j in i + 1..pts.len() {
            gizmos.line(pts[i], pts[j], SIMPLEX_COLOUR);
        }
    }
    gizmos.cross(Isometry3d::from_translation(o), 0.15, Color::WHITE);
    gizmos.line(o, o + it.closest, CLOSEST_COLOUR);
}
