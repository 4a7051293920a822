//! The 2D explain mode (key `E`, the panel's button, or `--explain`): two
//! shapes dragged in the plane on the left; on the right their Minkowski
//! difference `A − B`, the origin, each GJK iteration's simplex and search
//! direction, the closest point and, for overlaps, EPA's polygon expanding
//! to the penetration vector, with the barycode region of the current
//! simplex that holds the origin shaded. Step through the iterations with
//! the arrow keys or the panel. What the GJK write-ups this library grew
//! from draw in static figures, live.
//!
//! The model ([`Explanation`]) is plain data computed by [`explain`], so
//! tests check it without a window. It runs GJK itself on the shapes'
//! cores (a circle's centre, a capsule's segment; radii added after), as
//! the posed queries do, whatever fast path the library would take for
//! the pair; EPA runs on the cores' difference, its polygon at each step
//! the hull of the points found so far.

use std::cell::RefCell;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use gjk_epa::{EpaConfig, contact, penetration};
use gjk_shapes::gjk_core::{DistanceResult, GjkConfig, Iteration, Status, SupportMap, distance_with};
use gjk_shapes::{Capsule, Circle, ConvexPolygon, CoreOf, Pose, Rectangle, Shape, Transformed};

use crate::ui::PANEL_WIDTH;

/// Directions sampled for the outlines of `A − B`.
pub const OUTLINE_DIRECTIONS: usize = 128;
/// Radians a wheel line turns the shape under the cursor.
pub const TURN_STEP: f32 = 0.08;

/// Whether the explain mode is on, and its state.
#[derive(Resource, Clone, Debug)]
pub struct ExplainMode {
    /// Shown instead of the 3D scene.
    pub on: bool,
    /// The two shapes.
    pub bodies: [Body2; 2],
    /// The step shown: GJK's iterations, then EPA's (clamped to the last).
    pub step: usize,
    /// The body being dragged.
    dragging: Option<usize>,
}

impl Default for ExplainMode {
    fn default() -> Self {
        Self {
            on: false,
            bodies: [
                Body2 { kind: Kind2::Polygon, at: Vec2::new(-0.4, 0.1), angle: 0.2 },
                Body2 { kind: Kind2::Box, at: Vec2::new(1.3, 0.9), angle: 0.5 },
            ],
            // The second iteration: a simplex and its shaded region.
            step: 1,
            dragging: None,
        }
    }
}

/// The shapes the mode offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind2 {
    /// A pentagon.
    Polygon,
    /// A 1.6 × 0.8 rectangle.
    Box,
    /// A circle of radius 0.6.
    Circle,
    /// A capsule of half height 0.5 and radius 0.3.
    Capsule,
}

impl Kind2 {
    /// Every kind, in the panel's order.
    pub const ALL: [Kind2; 4] = [Kind2::Polygon, Kind2::Box, Kind2::Circle, Kind2::Capsule];

    /// The shape.
    pub fn shape(self) -> Box<dyn Shape<Vec2>> {
        match self {
            Kind2::Polygon => Box::new(
                ConvexPolygon::new(&[
                    Vec2::new(-1.0, -0.6),
                    Vec2::new(1.2, -0.8),
                    Vec2::new(1.4, 0.7),
                    Vec2::new(-0.2, 1.1),
                    Vec2::new(-1.1, 0.4),
                ])
                .expect("a convex pentagon"),
            ),
            Kind2::Box => Box::new(Rectangle::new(Vec2::new(0.8, 0.4)).expect("positive")),
            Kind2::Circle => Box::new(Circle::new(0.6f32).expect("positive")),
            Kind2::Capsule => Box::new(Capsule::new(0.5f32, 0.3).expect("positive")),
        }
    }

    /// Its name in the panel.
    pub fn name(self) -> &'static str {
        match self {
            Kind2::Polygon => "polygon",
            Kind2::Box => "box",
            Kind2::Circle => "circle",
            Kind2::Capsule => "capsule",
        }
    }
}

/// A shape placed in the plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body2 {
    /// What it is.
    pub kind: Kind2,
    /// Where its origin is.
    pub at: Vec2,
    /// Its turn (radians, counter-clockwise).
    pub angle: f32,
}

impl Body2 {
    /// Its pose.
    pub fn pose(&self) -> Pose<Vec2> {
        Pose::from_angle_translation(self.angle, self.at)
    }
}

/// One step of the explanation.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// A GJK iteration: the simplex after it (points of `A − B`), the
    /// direction searched, the support point found and the closest point
    /// of the simplex to the origin.
    Gjk {
        /// The simplex's points.
        simplex: Vec<Vec2>,
        /// The search direction.
        direction: Vec2,
        /// The support point of `A − B` along it.
        support: Vec2,
        /// The simplex's closest point to the origin.
        closest: Vec2,
        /// Proven bounds on the cores' distance.
        bounds: (f32, f32),
    },
    /// An EPA step: the polygon of the points found so far and its edge
    /// nearest the origin, with the origin's foot on it (the penetration
    /// vector's estimate).
    Epa {
        /// The polygon, counter-clockwise.
        polygon: Vec<Vec2>,
        /// The nearest edge's ends.
        edge: (Vec2, Vec2),
        /// The origin's foot on it.
        foot: Vec2,
    },
}

/// Everything the mode draws, in the plane of `A − B`.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The outline of the cores' difference, which GJK and EPA search.
    pub core_outline: Vec<Vec2>,
    /// The outline of the shapes' difference, where radii round the cores.
    pub full_outline: Option<Vec<Vec2>>,
    /// GJK's iterations, then EPA's steps where the cores overlap.
    pub steps: Vec<Step>,
    /// How many of the steps are GJK's.
    pub gjk_steps: usize,
    /// The library's distance query on the pair (`gjk_shapes::distance`).
    pub result: DistanceResult<Vec2>,
    /// The contact query's penetration vector (normal × depth), where the
    /// shapes overlap.
    pub penetration: Option<Vec2>,
}

/// `A − B` as one support map (B reflected), recording the points EPA asks
/// for once `recording` is on.
struct Difference<'s> {
    a: &'s dyn SupportMap<Vec2>,
    b: &'s dyn SupportMap<Vec2>,
    log: RefCell<Option<Vec<Vec2>>>,
}

impl SupportMap<Vec2> for Difference<'_> {
    fn support(&self, d: Vec2) -> Vec2 {
        let p = self.a.support(d) - self.b.support(-d);
        if let Some(log) = self.log.borrow_mut().as_mut() {
            log.push(p);
        }
        p
    }
    fn center(&self) -> Option<Vec2> {
        Some(self.a.center()? - self.b.center()?)
    }
}

/// The outline of a support map from `OUTLINE_DIRECTIONS` directions.
fn outline(s: &dyn SupportMap<Vec2>) -> Vec<Vec2> {
    let mut points: Vec<Vec2> = (0..OUTLINE_DIRECTIONS)
        .map(|k| s.support(Vec2::from_angle(k as f32 * std::f32::consts::TAU / OUTLINE_DIRECTIONS as f32)))
        .collect();
    // A polygon's vertex answers many directions: once is enough.
    points.dedup();
    while points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    points
}

/// The convex hull of `points`, counter-clockwise (Andrew's monotone chain).
pub fn hull(points: &[Vec2]) -> Vec<Vec2> {
    let mut p: Vec<Vec2> = points.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    // The lower chain left to right, then the upper one back.
    let chain = |points: &mut dyn Iterator<Item = Vec2>| {
        let mut h: Vec<Vec2> = Vec::new();
        for q in points {
            while h.len() >= 2 && (h[h.len() - 1] - h[h.len() - 2]).perp_dot(q - h[h.len() - 2]) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
        h
    };
    let mut h = chain(&mut p.iter().copied());
    h.extend(chain(&mut p.iter().rev().copied()));
    h
}

/// The edge of a counter-clockwise polygon nearest the origin and the
/// origin's foot on it.
fn nearest_edge(polygon: &[Vec2]) -> Option<((Vec2, Vec2), Vec2)> {
    let n = polygon.len();
    (0..n)
        .map(|i| {
            let (a, b) = (polygon[i], polygon[(i + 1) % n]);
            let t = ((-a).dot(b - a) / (b - a).length_squared().max(f32::MIN_POSITIVE)).clamp(0.0, 1.0);
            ((a, b), a + (b - a) * t)
        })
        .min_by(|x, y| x.1.length_squared().total_cmp(&y.1.length_squared()))
}

/// The explanation of a pair.
pub fn explain(bodies: &[Body2; 2]) -> Explanation {
    let (sa, sb) = (bodies[0].kind.shape(), bodies[1].kind.shape());
    let ta = Transformed::new(&*sa, bodies[0].pose()).expect("a valid pose");
    let tb = Transformed::new(&*sb, bodies[1].pose()).expect("a valid pose");
    let (ca, cb) = (CoreOf(&ta), CoreOf(&tb));
    let diff = Difference { a: &ca, b: &cb, log: RefCell::new(None) };
    let origin = [Vec2::ZERO];
    let config = GjkConfig::default();
    let mut log: Vec<Iteration<Vec2>> = Vec::new();
    let core = distance_with(&diff, origin.as_slice(), &config, None, &mut log);
    let mut steps: Vec<Step> = log
        .iter()
        .map(|it| Step::Gjk {
            simplex: it.simplex.points().iter().map(|p| p.w).collect(),
            direction: it.direction,
            support: it.support.w,
            closest: it.closest,
            bounds: (it.lower_bound, it.upper_bound),
        })
        .collect();
    let gjk_steps = steps.len();
    if core.status == Status::Intersecting {
        // EPA from GJK's simplex, recording each point it adds.
        *diff.log.borrow_mut() = Some(Vec::new());
        let _ = penetration(&diff, origin.as_slice(), &core.simplex, &EpaConfig::default());
        let added = diff.log.borrow_mut().take().unwrap_or_default();
        let mut found: Vec<Vec2> = core.simplex.points().iter().map(|p| p.w).collect();
        for p in added {
            found.push(p);
            let polygon = hull(&found);
            if let Some((edge, foot)) = nearest_edge(&polygon) {
                steps.push(Step::Epa { polygon, edge, foot });
            }
        }
    }
    let round = sa.radius() + sb.radius() > 0.0;
    let (pa, pb) = (bodies[0].pose(), bodies[1].pose());
    let result = gjk_shapes::distance(&*sa, &pa, &*sb, &pb);
    let c = contact(&*sa, &pa, &*sb, &pb);
    Explanation {
        core_outline: outline(&diff),
        full_outline: round.then(|| outline(&Difference { a: &ta, b: &tb, log: RefCell::new(None) })),
        steps,
        gjk_steps,
        result,
        penetration: (c.is_contact() && c.depth > 0.0).then_some(c.normal * c.depth),
    }
}

/// The barycode region of a simplex that holds the origin, as the
/// half-planes `(n, c)` (points `x` with `n · x ≥ c`) that bound it, and its
/// code: one bit per simplex point, set where its barycentric coordinate
/// of the origin's projection is positive (Zhang et al., Fig. 1).
pub fn origin_region(simplex: &[Vec2]) -> (Vec<(Vec2, f32)>, u8) {
    match *simplex {
        [a, b] => {
            // Beyond either end, or over the edge: the lines through the
            // ends square to it.
            let d = b - a;
            let u = (-a).dot(d) / d.length_squared().max(f32::MIN_POSITIVE);
            if u <= 0.0 {
                (vec![(-d, -d.dot(a))], 0b10)
            } else if u >= 1.0 {
                (vec![(d, d.dot(b))], 0b01)
            } else {
                (vec![(d, d.dot(a)), (-d, -d.dot(b))], 0b11)
            }
        }
        [a, b, c] => {
            // Each coordinate's sign is the side of the opposite edge's line.
            let area = (b - a).perp_dot(c - a);
            let mut planes = Vec::new();
            let mut code = 0u8;
            // The coordinate of a, b, c in turn: its opposite edge (p, q),
            // whose left side (counter-clockwise triangles) holds the vertex.
            for (k, (p, q)) in [(b, c), (c, a), (a, b)].into_iter().enumerate() {
                let n = (q - p).perp() * area.signum();
                let positive = n.dot(-p) > 0.0;
                code |= u8::from(positive) << (2 - k);
                planes.push(if positive { (n, n.dot(p)) } else { (-n, -n.dot(p)) });
            }
            (planes, code)
        }
        _ => (Vec::new(), 0b1),
    }
}

/// `polygon` cut by the half-plane `n · x ≥ c` (Sutherland–Hodgman).
fn clip(polygon: &[Vec2], (n, c): (Vec2, f32)) -> Vec<Vec2> {
    let mut out = Vec::new();
    for i in 0..polygon.len() {
        let (p, q) = (polygon[i], polygon[(i + 1) % polygon.len()]);
        let (dp, dq) = (n.dot(p) - c, n.dot(q) - c);
        if dp >= 0.0 {
            out.push(p);
        }
        if (dp >= 0.0) != (dq >= 0.0) {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
    out
}

/// The mode as a plugin: `E` toggles it; drawn in egui over the scene.
pub fn plugin(app: &mut App) {
    app.init_resource::<ExplainMode>()
        .add_systems(Update, toggle_and_step)
        .add_systems(EguiPrimaryContextPass, draw);
}

/// `E` toggles the mode; the arrow keys step (Home / End: first, last).
pub fn toggle_and_step(keys: Res<ButtonInput<KeyCode>>, mut mode: ResMut<ExplainMode>) {
    if keys.just_pressed(KeyCode::KeyE) {
        mode.on = !mode.on;
    }
    if !mode.on {
        return;
    }
    let step = mode.step;
    if keys.just_pressed(KeyCode::ArrowRight) {
        mode.step = step.saturating_add(1);
    }
    if keys.just_pressed(KeyCode::ArrowLeft) {
        mode.step = step.saturating_sub(1);
    }
    if keys.just_pressed(KeyCode::Home) {
        mode.step = 0;
    }
    if keys.just_pressed(KeyCode::End) {
        mode.step = usize::MAX;
    }
}

/// Colours of the drawing.
const BACKGROUND: egui::Color32 = egui::Color32::from_rgb(248, 248, 244);
const SHAPE_A: egui::Color32 = egui::Color32::from_rgb(68, 119, 170);
const SHAPE_B: egui::Color32 = egui::Color32::from_rgb(204, 102, 119);
const DIFFERENCE: egui::Color32 = egui::Color32::from_rgba_unmultiplied_const(68, 119, 170, 80);
const REGION: egui::Color32 = egui::Color32::from_rgba_unmultiplied_const(230, 170, 30, 90);
const CLOSEST: egui::Color32 = egui::Color32::from_rgb(204, 51, 17);
const PENETRATION: egui::Color32 = egui::Color32::from_rgb(34, 136, 51);
const EPA: egui::Color32 = egui::Color32::from_rgb(153, 68, 153);

/// A view of the plane in a screen rectangle: centre, pixels per unit.
#[derive(Clone, Copy)]
struct View {
    rect: egui::Rect,
    centre: Vec2,
    scale: f32,
}

impl View {
    fn fit(rect: egui::Rect, points: impl Iterator<Item = Vec2>) -> Self {
        let (lo, hi) =
            points.fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(lo, hi), p| (lo.min(p), hi.max(p)));
        let span = (hi - lo).max(Vec2::splat(1e-3)) * 1.3;
        let scale = (rect.width() / span.x).min(rect.height() / span.y);
        View { rect, centre: (lo + hi) / 2.0, scale }
    }
    fn to_screen(self, p: Vec2) -> egui::Pos2 {
        let c = self.rect.center();
        egui::pos2(c.x + (p.x - self.centre.x) * self.scale, c.y - (p.y - self.centre.y) * self.scale)
    }
    fn to_plane(self, s: egui::Pos2) -> Vec2 {
        let c = self.rect.center();
        Vec2::new((s.x - c.x) / self.scale + self.centre.x, -(s.y - c.y) / self.scale + self.centre.y)
    }
    fn corners(self) -> Vec<Vec2> {
        let r = self.rect;
        [r.left_bottom(), r.right_bottom(), r.right_top(), r.left_top()].map(|s| self.to_plane(s)).to_vec()
    }
    fn polyline(self, points: &[Vec2]) -> Vec<egui::Pos2> {
        points.iter().map(|&p| self.to_screen(p)).collect()
    }
}

fn draw(mut contexts: EguiContexts, mut mode: ResMut<ExplainMode>) -> Result {
    if !mode.on {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let e = explain(&mode.bodies);
    let n = e.steps.len();
    let step = mode.step.min(n.saturating_sub(1));
    let screen = ctx.viewport_rect();
    let area =
        egui::Rect::from_min_max(egui::pos2(screen.left() + PANEL_WIDTH + 8.0, screen.top()), screen.max);
    egui::Area::new("explain".into()).fixed_pos(area.min).order(egui::Order::Middle).show(ctx, |ui| {
        let (response, whole) = ui.allocate_painter(area.size(), egui::Sense::click_and_drag());
        whole.rect_filled(area, 0.0, BACKGROUND);
        let half = area.width() / 2.0;
        let left = egui::Rect::from_min_size(area.min + egui::vec2(0.0, 40.0), egui::vec2(half - 8.0, area.height() - 120.0));
        let right = egui::Rect::from_min_size(area.min + egui::vec2(half + 8.0, 40.0), egui::vec2(half - 16.0, area.height() - 120.0));
        let font = egui::FontId::proportional(15.0);
        // Each view draws within its own rectangle.
        let painter = whole.with_clip_rect(left);
        whole.text(left.left_top() - egui::vec2(0.0, 30.0), egui::Align2::LEFT_TOP, "A (blue) and B (red): drag to move, wheel to turn", font.clone(), egui::Color32::BLACK);
        whole.text(right.left_top() - egui::vec2(0.0, 30.0), egui::Align2::LEFT_TOP, "A − B, the origin, and GJK's search", font.clone(), egui::Color32::BLACK);
        // The shapes.
        let shapes: Vec<Vec<Vec2>> = mode
            .bodies
            .iter()
            .map(|b| {
                let s = b.kind.shape();
                let t = Transformed::new(&*s, b.pose()).expect("a valid pose");
                outline(&t)
            })
            .collect();
        let sv = View::fit(left, shapes.iter().flatten().copied().chain([Vec2::new(-3.0, -2.0), Vec2::new(3.0, 2.0)]));
        for (k, (outline, colour)) in shapes.iter().zip([SHAPE_A, SHAPE_B]).enumerate() {
            let fill = egui::Color32::from_rgba_unmultiplied(colour.r(), colour.g(), colour.b(), 110);
            painter.add(egui::Shape::convex_polygon(sv.polyline(outline), fill, egui::Stroke::new(2.0, colour)));
            painter.text(sv.to_screen(mode.bodies[k].at), egui::Align2::CENTER_CENTER, ["A", "B"][k], font.clone(), colour);
        }
        if e.result.status != Status::Intersecting && e.result.distance > 0.0 {
            painter.line_segment([sv.to_screen(e.result.point_a), sv.to_screen(e.result.point_b)], egui::Stroke::new(2.0, CLOSEST));
        }
        // Drag and turn the shape under the pointer.
        if response.drag_started()
            && let Some(p) = response.interact_pointer_pos()
        {
            let at = sv.to_plane(p);
            mode.dragging = (0..2).min_by(|&i, &j| mode.bodies[i].at.distance(at).total_cmp(&mode.bodies[j].at.distance(at)));
        }
        if response.dragged()
            && let Some(k) = mode.dragging
        {
            let d = response.drag_delta();
            mode.bodies[k].at += Vec2::new(d.x, -d.y) / sv.scale;
        }
        if response.drag_stopped() {
            mode.dragging = None;
        }
        if let Some(p) = response.hover_pos()
            && left.contains(p)
        {
            let wheel = ui.input(|i| i.smooth_scroll_delta.y);
            if wheel != 0.0 {
                let at = sv.to_plane(p);
                let k = (0..2).min_by(|&i, &j| mode.bodies[i].at.distance(at).total_cmp(&mode.bodies[j].at.distance(at))).unwrap_or(0);
                mode.bodies[k].angle += wheel.signum() * TURN_STEP;
            }
        }
        // The Minkowski difference and the search.
        let painter = whole.with_clip_rect(right);
        let dv = View::fit(right, e.core_outline.iter().chain(e.full_outline.iter().flatten()).copied().chain([Vec2::ZERO]));
        if let Some(full) = &e.full_outline {
            painter.add(egui::Shape::closed_line(dv.polyline(full), egui::Stroke::new(1.0, SHAPE_A)));
        }
        painter.add(egui::Shape::convex_polygon(dv.polyline(&e.core_outline), DIFFERENCE, egui::Stroke::new(2.0, SHAPE_A)));
        let small = egui::FontId::proportional(13.0);
        let caption = match e.steps.get(step) {
            Some(Step::Gjk { simplex, direction, support, closest, bounds }) => {
                let (planes, code) = origin_region(simplex);
                let region = planes.iter().fold(dv.corners(), |p, &h| clip(&p, h));
                // A single point's region is the whole plane: nothing to shade.
                if !planes.is_empty() && region.len() >= 3 {
                    painter.add(egui::Shape::convex_polygon(dv.polyline(&region), REGION, egui::Stroke::NONE));
                }
                let stroke = egui::Stroke::new(2.5, egui::Color32::BLACK);
                painter.add(if simplex.len() >= 3 { egui::Shape::closed_line(dv.polyline(simplex), stroke) } else { egui::Shape::line(dv.polyline(simplex), stroke) });
                for &p in simplex {
                    painter.circle_filled(dv.to_screen(p), 4.0, egui::Color32::BLACK);
                }
                // The direction searched, from the origin, a fifth of the view long.
                let arrow = direction.normalize_or_zero() * (dv.rect.width() / 5.0);
                painter.arrow(dv.to_screen(Vec2::ZERO), egui::vec2(arrow.x, -arrow.y), egui::Stroke::new(2.0, egui::Color32::DARK_GRAY));
                painter.circle_stroke(dv.to_screen(*support), 6.0, egui::Stroke::new(2.0, egui::Color32::DARK_GRAY));
                painter.line_segment([dv.to_screen(Vec2::ZERO), dv.to_screen(*closest)], egui::Stroke::new(2.0, CLOSEST));
                painter.circle_filled(dv.to_screen(*closest), 4.0, CLOSEST);
                let width = simplex.len().max(1);
                format!(
                    "GJK iteration {} of {}: simplex of {} point(s); the origin is in barycode region {code:0width$b} (shaded); distance in [{:.4}, {:.4}]",
                    step + 1,
                    e.gjk_steps,
                    simplex.len(),
                    bounds.0,
                    bounds.1
                )
            }
            Some(Step::Epa { polygon, edge, foot }) => {
                painter.add(egui::Shape::closed_line(dv.polyline(polygon), egui::Stroke::new(2.0, EPA)));
                painter.line_segment([dv.to_screen(edge.0), dv.to_screen(edge.1)], egui::Stroke::new(3.5, EPA));
                painter.line_segment([dv.to_screen(Vec2::ZERO), dv.to_screen(*foot)], egui::Stroke::new(2.5, PENETRATION));
                format!(
                    "EPA step {} of {}: the polygon of the points found grows towards A − B's boundary; its edge nearest the origin gives depth {:.4}",
                    step + 1 - e.gjk_steps,
                    n - e.gjk_steps,
                    foot.length()
                )
            }
            None => "no iteration".to_string(),
        };
        if step + 1 == n
            && let Some(p) = e.penetration
        {
            painter.arrow(dv.to_screen(Vec2::ZERO), egui::vec2(p.x, -p.y) * dv.scale, egui::Stroke::new(3.0, PENETRATION));
        }
        let origin = dv.to_screen(Vec2::ZERO);
        painter.circle_stroke(origin, 5.0, egui::Stroke::new(2.0, egui::Color32::BLACK));
        // The label on whichever side keeps it in the view.
        let (offset, align) = if origin.x > right.center().x {
            (egui::vec2(-9.0, 9.0), egui::Align2::RIGHT_TOP)
        } else {
            (egui::vec2(9.0, 9.0), egui::Align2::LEFT_TOP)
        };
        painter.text(origin + offset, align, "origin", small.clone(), egui::Color32::BLACK);
        let status = match e.result.status {
            Status::Intersecting => match e.penetration {
                Some(p) => format!("overlapping: penetration depth {:.4} (green: normal × depth)", p.length()),
                None => "overlapping".to_string(),
            },
            s => format!("{s:?}: distance {:.4} (red: the closest points)", e.result.distance),
        };
        let painter = &whole;
        let bottom = area.left_bottom() + egui::vec2(0.0, -70.0);
        painter.text(bottom, egui::Align2::LEFT_TOP, caption, small.clone(), egui::Color32::BLACK);
        painter.text(bottom + egui::vec2(0.0, 22.0), egui::Align2::LEFT_TOP, status, small.clone(), egui::Color32::BLACK);
        painter.text(
            bottom + egui::vec2(0.0, 44.0),
            egui::Align2::LEFT_TOP,
            "Left / Right arrow keys: step · Home / End · E: back to the 3D scene · black: simplex · grey arrow: search direction · purple: EPA",
            small,
            egui::Color32::DARK_GRAY,
        );
    });
    // The mode's panel (in place of the scene's): shapes and steps.
    let mut root = egui::Ui::new(
        ctx.clone(),
        "explain_viewport".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(screen),
    );
    egui::Panel::left("explain_panel").exact_size(PANEL_WIDTH).show(&mut root, |ui| {
        ui.heading("GJK, explained");
        ui.label("Drag A or B on the left; the wheel turns the one under the cursor.");
        ui.separator();
        for (k, label) in ["A", "B"].into_iter().enumerate() {
            ui.horizontal_wrapped(|ui| {
                ui.label(label);
                for kind in Kind2::ALL {
                    ui.selectable_value(&mut mode.bodies[k].kind, kind, kind.name());
                }
            });
        }
        ui.separator();
        ui.label(format!("{} GJK iterations, {} EPA steps", e.gjk_steps, n - e.gjk_steps));
        if n > 0 {
            let mut k = step;
            ui.add(egui::Slider::new(&mut k, 0..=n - 1).text("step"));
            mode.step = if k + 1 == n { usize::MAX } else { k };
        }
        ui.horizontal(|ui| {
            if ui.button("◀ back").clicked() {
                mode.step = step.saturating_sub(1);
            }
            if ui.button("forward ▶").clicked() {
                mode.step = step + 1;
            }
        });
        ui.separator();
        if ui.button("Back to the 3D scene (E)").clicked() {
            mode.on = false;
        }
    });
    Ok(())
}
