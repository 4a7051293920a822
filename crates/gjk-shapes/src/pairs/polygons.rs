//! Polygon pairs (2D, both cores `Shape::core_polygon`): the boundary walk
//! and the separating-axis test.
//!
//! `ConvexPolygon`s of three or more vertices, through `&`, `Placed` and
//! `Rounded`, take the boundary walk first (`polygon_walk`): the nearest point of `K = B − A` to the origin is
//! the distance. From the vertex `b_j − a_i` of the supports along the
//! centres' offset (`PolygonView::support_along`) it moves along K's edges
//! while the origin's foot lies past the current vertex; K's edge at a vertex
//! is B's edge there or A's reversed, whichever turns first counter-clockwise
//! (one cross product: the merge that builds a Minkowski sum). Where it stops
//! with the origin in the vertex's normal cone, or on an edge's outer side,
//! that is the projection (exact, from any start). Steps are bounded by K's
//! edge count (the distance falls at each). Rounding can misorder K's edges
//! where they are shorter than `POLYGON_WALK_EDGE_ULPS` ulps of the walk's
//! coordinates; for such pairs an end outside is kept only when a
//! certificate confirms it (along the claimed normal, climbs from the end's
//! vertices find nothing of A higher or of B lower, within
//! `POLYGON_WALK_CERT_ULPS`). `polygon_closest` places an end on such a short
//! edge of B again in the outer frame with the edge's own normal and keeps
//! it only where the foot falls within that edge (up to
//! `POLYGON_WALK_FOOT_ULPS`). An end on an edge's inner side proves only a
//! point of K that near: the callers then take the separating-axis test or
//! GJK.
//!
//! - The full query (`distance_local`, no warm-start cache, default iteration
//!   cap) takes the walk's answer for polygon pairs whose inner balls do not
//!   overlap (`distance`): ended outside beyond the zero band,
//!   `Separated`, exact; within the band, `Touching` with that edge's normal
//!   verified (`B − A` lies behind the line of each of its edges). Its
//!   `iterations` are 0 and its simplex is GJK-shaped (`Simplex::from_point`,
//!   `Simplex::from_segment`), so a cache filled from it warm-starts GJK. An
//!   end inside deeper than the band hands GJK the feature as a warm start.
//! - The distance alone measures polygon pairs by the walk where it is exact,
//!   else, up to `POLYGON_SAT_LIMIT` vertex pairs, by the separating-axis test
//!   where it is exact (`distance_value`: the largest edge separation with the
//!   gap it proves). These agree with the full query within its zero band,
//!   not to the bit.
//! - The boolean test does the same: after the balls, the walk decides, then
//!   for pairs of at most `POLYGON_SAT_LIMIT` vertex pairs the largest edge
//!   separation, else GJK. Pairs stored far from their own origins
//!   (`POLYGON_SAT_REACH_RATIO`) are left to GJK, whose differences of nearby
//!   vertices round less.
//! - The smallest pairs skip the walk (`POLYGON_WALK_PAIRS`): the branch-free
//!   separating-axis kernel is as fast there near contact and faster on
//!   overlaps.
//!
//! Pinned against brute force, GJK, the swapped pair, a rigid motion,
//! rounding and f32 by `intersects.rs`
//! (`walk_full_distance_matches_brute_force_gjk_and_swap`,
//! `walk_full_distance_near_contact_matches_brute_force_and_gjk`).

use gjk_core::internal::BallTest;
use gjk_core::{DistanceResult, GjkConfig, Real, Simplex, Status, SupportMap, SupportPoint, Vector};

use super::Sat;
use crate::geometry::climb_ring;
use crate::shape::{CoreOf, PolygonView, Shape};
use crate::space::Space;

/// Polygon pairs with at most this many vertex pairs (`n·m`) are tested by
/// the separating-axis theorem instead of GJK when no warm-start cache is
/// given: O(n·m/4) branch-free work against GJK's few support calls, which
/// cost more up to about this size on the benchmark's touching polygons
/// (docs/decisions.md).
pub const POLYGON_SAT_LIMIT: usize = 256;

/// Polygon pairs with at most this many vertex pairs (`n·m`) skip the
/// boundary walk ([`polygon_closest`]) in the boolean test and the distance
/// alone and go straight to the separating-axis test: on such small pairs
/// its branch-free kernel is as fast near contact and faster on overlaps,
/// where the walk ends inside and the test runs anyway (the 2D 4-gon rows).
pub const POLYGON_WALK_PAIRS: usize = 16;

/// Slack, in ulps of the walk's coordinates, of the certificate that ends
/// [`polygon_closest`]'s walk outside `B − A`: along the claimed normal, the
/// final vertex of A may lie this far below a neighbour (and B's above)
/// and still count as extreme. Rounding in the walk's own products is a
/// few ulps; a misordered walk (edges shorter than an ulp of the
/// coordinates, from a tiny polygon far from A's origin) misses by the
/// polygons' size.
pub const POLYGON_WALK_CERT_ULPS: f64 = 64.0;

/// Edges shorter than this many ulps of the walk's coordinates make
/// [`polygon_closest`]'s walk prove its end ([`POLYGON_WALK_CERT_ULPS`]):
/// through the pose into A's frame such an edge's direction can be off
/// by more than 2.5e-4 rad (a near-duplicate pair of vertices, or a polygon
/// far smaller than the offset between the frames), and the walk's merge
/// of the edges can go wrong; longer edges keep it.
pub const POLYGON_WALK_EDGE_ULPS: f64 = 4096.0;

/// How far, in ulps of the coordinates, the foot of [`polygon_closest`]'s
/// final end on an edge of B shorter than [`POLYGON_WALK_EDGE_ULPS`] may
/// fall outside that edge when it is placed again in the outer frame with
/// the edge's own normal: rounding moves it a few ulps. Beyond, the walk's
/// edge was not the polygon's (its direction in A's frame was rounding
/// noise: its own normal points elsewhere, and the feature's points would
/// lie off the shapes), and GJK answers.
pub const POLYGON_WALK_FOOT_ULPS: f64 = 64.0;

/// Most ratio of the separating-axis test's coordinates (the polygons'
/// reach from their own origins plus the origins' distance) to the scale of
/// `A − B` for which the boolean test of polygons uses it
/// ([`POLYGON_SAT_LIMIT`]); beyond, GJK decides.
pub const POLYGON_SAT_REACH_RATIO: f64 = 8.0;

/// The scale of the zero band for the separating-axis tests and the walk
/// of the polygon cores `pa` and `pb` (one frame): the centres' distance
/// (`offset`, from A's centre to B's; its largest coordinate) plus the outer
/// `radii` (their sum), a bound on the coordinates of `A − B` as GJK's
/// scale is. `None` (GJK decides) for non-finite values and polygons
/// stored far from their own origins or far apart: the tests'
/// sums cancel at their `reach`, where GJK subtracts nearby vertices first;
/// within [`POLYGON_SAT_REACH_RATIO`] the rounding (a few `ε · reach`)
/// stays well inside the zero band (`zero_tolerance · scale`).
#[inline]
fn sat_scale<V: Space>(
    pa: &PolygonView<'_, V>,
    pb: &PolygonView<'_, V>,
    offset: V,
    radii: V::Scalar,
    margin: V::Scalar,
) -> Option<V::Scalar> {
    // Every coordinate the tests compute with is below `reach`; squared
    // finite, no product overflows.
    let reach = (pb.origin - pa.origin).max_abs() + pa.reach + pb.reach;
    let scale = offset.max_abs() + radii;
    let near = reach <= V::Scalar::from_f64(POLYGON_SAT_REACH_RATIO) * scale;
    (near && (reach * reach).is_finite() && scale.is_finite() && margin.is_finite()).then_some(scale)
}

/// The boolean test of two polygon cores (`a`, `b` in one frame) within
/// `margin` plus the zero band by the separating-axis theorem: the
/// edge normals of both polygons are the only candidate separating axes
/// (the boundary of `A − B` is made of their edges), so the largest
/// separation `s` along them decides. `s` beyond the limit: apart (the
/// cores are at least `s` apart). `s ≤ 0`: no edge line separates, so the
/// cores touch or overlap. In between the cores are exactly `s` apart when
/// the lowest vertex's foot lies on the edge, so they meet within the
/// limit; otherwise (a vertex–vertex region), and for pairs too large,
/// too far out for exact products or not finite: unknown, GJK decides. The
/// zero band is GJK's, relative to the scale of `A − B`'s coordinates (as
/// the polygon contact's). The balls decide first, as GJK's tests do.
/// `config` is sanitized by the caller.
pub(super) fn intersects<V, A, B>(a: &A, b: &B, margin: V::Scalar, config: &GjkConfig<V::Scalar>) -> Sat
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let Some(pa) = a.core_polygon() else { return Sat::Unknown };
    let (a, b) = (&CoreOf(a), &CoreOf(b));
    // The balls' centres and radii once, for the ball test, the scale and
    // the walk's first direction.
    let (Some(ca), Some(cb), Some(ra), Some(rb)) =
        (a.center(), b.center(), a.center_radii(), b.center_radii())
    else {
        return Sat::Unknown;
    };
    // The balls first, as GJK's test (most far or deep pairs end there).
    match gjk_core::internal::ball_test_of((ca, ra), (cb, rb), margin, config) {
        BallTest::Apart => return Sat::Apart,
        BallTest::Overlapping => return Sat::Meet,
        BallTest::Unknown => {}
    }
    let Some(pb) = b.0.core_polygon() else { return Sat::Unknown };
    let Some(scale) = sat_scale(&pa, &pb, cb - ca, ra.1 + rb.1, margin) else { return Sat::Unknown };
    let limit = margin + config.zero_tolerance * scale;
    let limit2 = limit * limit;
    // The boundary walk first (past the smallest pairs): a few steps on
    // most pairs, linear at worst.
    let walk = if pa.vertices.len() * pb.vertices.len() > POLYGON_WALK_PAIRS {
        polygon_walk::<V, false>(&pa, &pb, cb - ca)
    } else {
        Walk::Unknown
    };
    match walk {
        // Exit: the exact distance decides.
        Walk::Outside(n, v, _) => {
            return if n * n <= limit2 * (v[0] * v[0] + v[1] * v[1]) { Sat::Meet } else { Sat::Apart };
        }
        // Exit: a point of `B − A` within the limit.
        Walk::Inside(dist2, ..) if dist2 <= limit2 => return Sat::Meet,
        // Exit: a final vertex within the limit of the other polygon.
        Walk::Inside(_, End { i, j, .. }) if near(&pa, &pb, pa.vertex(i), pb.vertex(j), limit) => {
            return Sat::Meet;
        }
        _ => {}
    }
    if pa.vertices.len() * pb.vertices.len() > POLYGON_SAT_LIMIT {
        return Sat::Unknown;
    }
    let (sa, ea) = pa.face_separation(&pb, limit);
    // Exit: an edge of A separates beyond the band.
    if sa > limit {
        return Sat::Apart;
    }
    let (sb, eb) = pb.face_separation(&pa, limit);
    // Exit: an edge of B does.
    if sb > limit {
        return Sat::Apart;
    }
    let (s, face, other, edge) = if sa >= sb { (sa, pa, pb, ea) } else { (sb, pb, pa, eb) };
    // Exit: no edge separates; the polygons touch or overlap.
    if s <= V::Scalar::ZERO {
        return Sat::Meet;
    }
    // Exit: the distance, where the test finds it exactly (within the
    // band, since `s` is a lower bound); else GJK measures.
    match exact_gap(&face, &other, edge, s) {
        Ok(d) if d <= limit => Sat::Meet,
        Ok(_) => Sat::Apart,
        Err(_) => Sat::Unknown,
    }
}

/// Whether `b` (a vertex of B) is within `limit` of A, or `a` (of A) of
/// B: inside it, or within `limit` of its edge of largest separation
/// (whose distance is the point's when that separation is positive).
#[inline]
fn near<V: Space>(pa: &PolygonView<'_, V>, pb: &PolygonView<'_, V>, a: V, b: V, limit: V::Scalar) -> bool {
    let zero = V::Scalar::ZERO;
    let within = |face: &PolygonView<'_, V>, q: V| {
        let (s, e) = face.point_separation(q);
        s <= zero || (s <= limit && face.edge_distance_squared(e, q) <= limit * limit)
    };
    within(pa, b) || within(pb, a)
}

/// The feature of `K = B − A` where [`polygon_walk`] ends: its vertex
/// `b_j − a_i`, or the edge of K through it that is A's edge `k` (from
/// vertex `k` to `k + 1`, reversed in K) or B's edge `k`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct End {
    /// A's vertex.
    i: usize,
    /// B's vertex.
    j: usize,
    /// The edge, if the walk ended on one: `(of A, index)` (asked for by
    /// the walk's `EDGE` flag; `None` otherwise).
    edge: Option<(bool, usize)>,
    /// Whether an edge of B that the end's tests used is short
    /// ([`POLYGON_WALK_EDGE_ULPS`]): its direction in A's frame may be
    /// rounding, and the feature is checked again in the outer frame
    /// ([`POLYGON_WALK_FOOT_ULPS`]). Asked for with `edge` (`false`
    /// otherwise).
    short: bool,
}

/// Where [`polygon_walk`] ends on the boundary of `K = B − A`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Walk<S> {
    /// The origin is outside `K` at exactly the distance `n / |v|` of
    /// `Outside(n, v)` (`n ≥ 0`; a quotient, so that the boolean test
    /// compares squares with no root or division): the walk ended on the
    /// point of `K` nearest to it, a vertex `w` (`n = |w|²`, `v = w`) whose
    /// normal cone holds the origin, or an edge `e` (`n = |e × w|`, `v = e`)
    /// on whose outer side the origin's foot falls. `n = 0`: distance 0
    /// (`v` may then be zero too).
    Outside(S, [S; 2], End),
    /// The walk ended on an edge with the origin on its inner side, at this
    /// squared distance from the edge: a point of `K` that near, but not a
    /// proof of overlap (a far side's edge ends a walk the same way).
    Inside(S, End),
    /// The step bound was spent (only rounding can cycle), or an end
    /// outside failed its certificate (rounding misordered the steps).
    Unknown,
}

/// The distance between two polygon cores (`pa`, `pb` in one frame) by a
/// walk on the boundary of `K = B − A`, whose nearest point to the origin
/// is the pair's distance: O(steps) instead of the separating-axis test's
/// O(n·m). The walk starts at `K`'s vertex `b_j − a_i` (`a_i` A's support
/// along `d`, `b_j` B's along `−d`; `d` from A's centre to B's puts it on
/// the near side) and moves along `K`'s edges while the origin's foot lies
/// past the current vertex: the edges of `K` at a vertex are B's edge
/// there or A's reversed, whichever comes first counter-clockwise (the
/// merge of the two edge lists that builds a Minkowski sum; both lists
/// turn through less than half a turn from a vertex whose normal cones
/// meet, so one cross product orders them). It ends where the foot falls
/// on the vertex or within an edge. Its answer is exact wherever the
/// origin is outside that vertex's cone or edge (the projection's
/// characterisation on a convex set), whatever the start; on the inner
/// side of the final edge it proves only a point of `K` that near.
///
/// The walk runs in A's own frame, on coordinate pairs: A's vertices as
/// stored, B's mapped by one rotation and offset. Each step is two
/// vertices and a few products; the steps are bounded by `K`'s edge count
/// (`n + m`), as the distance falls at each. The inputs are the
/// separating-axis test's (finite, coordinates checked by [`sat_scale`]);
/// both views counter-clockwise. `EDGE`: whether the caller needs the
/// final edge (the boolean test and the distance do not; without it their
/// code does no work for it). Forced inline: called out of line, its
/// answer went through memory (the 2D `intersects` rows).
#[inline(always)]
fn polygon_walk<V: Space, const EDGE: bool>(
    pa: &PolygonView<'_, V>,
    pb: &PolygonView<'_, V>,
    d: V,
) -> Walk<V::Scalar> {
    let zero = V::Scalar::ZERO;
    let (na, nb) = (pa.vertices.len(), pb.vertices.len());
    let next = |k: usize, n: usize| if k + 1 == n { 0 } else { k + 1 };
    let prev = |k: usize, n: usize| if k == 0 { n - 1 } else { k - 1 };
    // B's own frame to A's: rows `m`, offset `t` (as `face_separation`).
    let m = [
        pa.axis_x.dot(pb.axis_x),
        pa.axis_x.dot(pb.axis_y),
        pa.axis_y.dot(pb.axis_x),
        pa.axis_y.dot(pb.axis_y),
    ];
    let o = pb.origin - pa.origin;
    let t = [pa.axis_x.dot(o), pa.axis_y.dot(o)];
    let av = |i: usize| {
        let p = pa.vertices[i];
        [p.component(0), p.component(1)]
    };
    let bv = |j: usize| {
        let q = pb.vertices[j];
        let (x, y) = (q.component(0), q.component(1));
        [m[0] * x + m[1] * y + t[0], m[2] * x + m[3] * y + t[1]]
    };
    let sub = |x: [V::Scalar; 2], y: [V::Scalar; 2]| [x[0] - y[0], x[1] - y[1]];
    let dot = |x: [V::Scalar; 2], y: [V::Scalar; 2]| x[0] * y[0] + x[1] * y[1];
    // `x × y` (> 0 when `y` turns left of `x`).
    let cross = |x: [V::Scalar; 2], y: [V::Scalar; 2]| x[0] * y[1] - x[1] * y[0];
    // The certificate of an end outside `K`: along `u` (from A towards B,
    // the claimed normal), A's vertex `i` is the highest of A and B's
    // vertex `j` the lowest of B, within the slack of
    // [`POLYGON_WALK_CERT_ULPS`], each proven by a climb from it
    // ([`climb_ring`]); B's heights are taken in its own frame, where its
    // edges are exact. So `u` separates the polygons by `(b_j − a_i)·u`,
    // the claimed distance: the walk's answer is proven. It is asked for
    // where an edge of B the end's tests used is shorter than
    // [`POLYGON_WALK_EDGE_ULPS`] ulps of the coordinates: placed in A's
    // frame, such an edge's direction can be rounding (a tiny polygon far
    // from A's origin: its vertices there coincide, and a zero edge passes
    // every test), and the end proves nothing; an end the certificate
    // rejects is no answer. Longer edges keep their directions to 2.5e-4 rad, and
    // the tests then hold (two climbs at every end cost more on the
    // benchmark's polygons: the 2D rows).
    let coords = pa.reach + pb.reach + t[0].abs() + t[1].abs();
    let short = V::Scalar::from_f64(POLYGON_WALK_EDGE_ULPS) * V::Scalar::EPSILON * coords;
    // Whether B has a short edge at all (most pairs: no, and no end asks).
    let b_short = pb.min_edge <= short;
    let short = |len2: V::Scalar| b_short && len2 <= short * short;
    let certified = |i: usize, j: usize, u: [V::Scalar; 2]| {
        let ulps = V::Scalar::from_f64(POLYGON_WALK_CERT_ULPS) * V::Scalar::EPSILON * coords;
        walk_certified(pa, pb, m, (i, j), u, ulps)
    };
    // The origin's distance from the line of `edge` through `w`, on the
    // outer side (right of a counter-clockwise edge) or not; an end
    // outside that its certificate rejects: none.
    let off_edge = |edge: [V::Scalar; 2], w: [V::Scalar; 2], len2: V::Scalar, end: End, risky: bool| {
        let c = cross(edge, w);
        if c <= zero {
            Walk::Inside(c * c / len2, end)
        } else if !risky || certified(end.i, end.j, [-edge[1], edge[0]]) {
            Walk::Outside(c, edge, end)
        } else {
            Walk::Unknown
        }
    };
    // Supports along one direction make a vertex of K (any start must be
    // one for the merge above to hold): a zero `d` (concentric balls)
    // would pick any vertices, so the x axis stands in.
    let d = if d.dot(d) > zero { d } else { V::axis(0) };
    let (mut i, mut j) = (pa.support_along(d), pb.support_along(-d));
    let (mut a, mut b) = (av(i), bv(j));
    // Bounded by K's edge count: the distance falls at every step.
    for _ in 0..=na + nb {
        let w = sub(b, a);
        // K's edge leaving `w` (counter-clockwise): B's from `b_j` or A's
        // from `a_i` reversed, the first of the two to turn to.
        let (a_next, b_next) = (av(next(i, na)), bv(next(j, nb)));
        let (ea, eb) = (sub(a, a_next), sub(b_next, b));
        let forward_b = cross(eb, ea) >= zero;
        let e = if forward_b { eb } else { ea };
        let (along, len2_e) = (-dot(w, e), dot(e, e));
        if along > zero {
            if along < len2_e {
                // Exit: the foot falls within the leaving edge.
                let edge = if forward_b { (false, j) } else { (true, i) };
                let risky = forward_b && short(len2_e);
                let end = End { i, j, edge: EDGE.then_some(edge), short: EDGE && risky };
                return off_edge(e, w, len2_e, end, risky);
            }
            if forward_b {
                (j, b) = (next(j, nb), b_next);
            } else {
                (i, a) = (next(i, na), a_next);
            }
            continue;
        }
        // K's edge arriving at `w`: the later of B's into `b_j` and A's
        // into `a_i` reversed.
        let (a_prev, b_prev) = (av(prev(i, na)), bv(prev(j, nb)));
        let (fa, fb) = (sub(a_prev, a), sub(b, b_prev));
        let back_a = cross(fb, fa) > zero;
        let f = if back_a { fa } else { fb };
        let (along, len2_f) = (dot(w, f), dot(f, f));
        // Only B's edges are rounded by the pose (A's are its own).
        let risky = || (forward_b && short(len2_e)) || (!back_a && short(len2_f));
        if along > zero {
            if along < len2_f {
                // Exit: the foot falls within the arriving edge.
                let edge = if back_a { (true, prev(i, na)) } else { (false, prev(j, nb)) };
                let risky = risky();
                let end = End { i, j, edge: EDGE.then_some(edge), short: EDGE && risky };
                return off_edge(f, w, len2_f, end, risky);
            }
            if back_a {
                (i, a) = (prev(i, na), a_prev);
            } else {
                (j, b) = (prev(j, nb), b_prev);
            }
            continue;
        }
        // Exit: the foot is the vertex itself (the origin in its cone),
        // proven where an edge was short.
        return if !risky() || certified(i, j, w) {
            Walk::Outside(dot(w, w), w, End { i, j, edge: None, short: false })
        } else {
            Walk::Unknown
        };
    }
    // Exit: the bound is spent (only rounding can cycle).
    Walk::Unknown
}

/// [`polygon_walk`]'s certificate of an end outside `K` at vertices
/// `(i, j)` along `u` (in A's own frame; `m`: B's own frame's rows there;
/// `ulps`: the slack per unit of `u`'s 1-norm). Out of line and cold: it
/// runs only at ends that used a short edge of B, and inlined it made the
/// walk's callers inline less (the 2D `distance` rows).
#[cold]
#[inline(never)]
fn walk_certified<V: Space>(
    pa: &PolygonView<'_, V>,
    pb: &PolygonView<'_, V>,
    m: [V::Scalar; 4],
    (i, j): (usize, usize),
    u: [V::Scalar; 2],
    ulps: V::Scalar,
) -> bool {
    let slack = ulps * (u[0].abs() + u[1].abs());
    let ub = [m[0] * u[0] + m[2] * u[1], m[1] * u[0] + m[3] * u[1]];
    let ha = |k: usize| {
        let p = pa.vertices[k];
        p.component(0) * u[0] + p.component(1) * u[1]
    };
    // B's heights downwards (its lowest vertex along `u` is wanted).
    let hb = |k: usize| {
        let q = pb.vertices[k];
        -(q.component(0) * ub[0] + q.component(1) * ub[1])
    };
    // A climb from each vertex, through near-duplicate neighbours that tie
    // with it (a neighbour alone can hide a higher vertex behind its
    // twin), finds nothing higher beyond the slack.
    let (ta, tb) = (climb_ring(pa.vertices.len(), i, ha, slack), climb_ring(pb.vertices.len(), j, hb, slack));
    ha(ta) <= ha(i) + slack && hb(tb) <= hb(j) + slack
}

/// Where the boundary walk of two convex polygons ends
/// ([`polygon_closest`]), as a contact: the feature's signed distance,
/// normal and points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolygonClosest<V: Vector> {
    /// The polygons' distance when `exact`. Otherwise at most 0: minus the
    /// distance of the origin from the final edge's line of `B − A`, which
    /// the polygons overlap by at most there (so they meet when it is
    /// within the zero band); not proven their penetration depth.
    pub separation: V::Scalar,
    /// Unit, from A towards B: the final edge's normal, or the direction
    /// between the final vertices.
    pub normal: V,
    /// A's point of the feature: the closest point of A when `exact`.
    pub point_a: V,
    /// B's point: `point_a − point_b = −separation · normal`.
    pub point_b: V,
    /// Whether the walk proved the distance and the closest points (it
    /// ended with the origin outside `B − A`).
    pub exact: bool,
}

/// The closest features of two convex polygons (`pa`, `pb` in one frame)
/// by the boundary walk on `B − A`: O(steps), starting from the supports
/// along `d` (from A towards B; the centres' offset puts the walk on the
/// near side, any direction gives the same exact answers). The walk is
/// exact wherever it ends with the origin outside `B − A`; see
/// [`PolygonClosest`] for what it gives otherwise. `None` for views or a
/// direction that are not finite or too large for the walk's products
/// (squares must be finite), a spent step bound (only rounding can cycle),
/// a vertex–vertex touch (no normal) and an end on a short edge of B
/// whose foot, placed again with the edge's own normal, falls outside the
/// edge beyond [`POLYGON_WALK_FOOT_ULPS`] (rounding in A's frame turned
/// the edge).
pub fn polygon_closest<V: Space>(
    pa: &PolygonView<'_, V>,
    pb: &PolygonView<'_, V>,
    d: V,
) -> Option<PolygonClosest<V>> {
    polygon_feature(pa, pb, d).map(|(c, _)| c)
}

/// [`polygon_closest`] with the feature it ended on.
#[inline(always)]
fn polygon_feature<V: Space>(
    pa: &PolygonView<'_, V>,
    pb: &PolygonView<'_, V>,
    d: V,
) -> Option<(PolygonClosest<V>, End)> {
    let zero = V::Scalar::ZERO;
    let reach = (pb.origin - pa.origin).max_abs() + pa.reach + pb.reach;
    if !(reach * reach).is_finite() || !(d.dot(d)).is_finite() {
        return None;
    }
    let (exact, end) = match polygon_walk::<V, true>(pa, pb, d) {
        Walk::Outside(_, _, end) => (true, end),
        Walk::Inside(_, end) => (false, end),
        Walk::Unknown => return None,
    };
    // The feature again in the outer frame, with the views' unit normals.
    let (p, q) = (pa.vertex(end.i), pb.vertex(end.j));
    // Where the end used a short edge of B: the foot `x` must fall within
    // the edge from `s` to `e` up to [`POLYGON_WALK_FOOT_ULPS`]; far
    // outside, the walk's edge in A's frame was not this one (rounding
    // turned it), and its answer is no answer. (A's edges are exact in
    // A's frame, where the walk runs, and long edges of B keep their
    // directions there.)
    let on_edge = |s: V, e: V, x: V| {
        let slack = V::Scalar::from_f64(POLYGON_WALK_FOOT_ULPS) * V::Scalar::EPSILON * (reach + x.max_abs());
        let (edge, u) = (e - s, x - s);
        let (along, len2) = (u.dot(edge), edge.length_squared());
        let past = along - len2;
        let slack2 = slack * slack * len2;
        // Compared as products: a zero edge gives `along = 0`, within.
        (along >= zero || along * along <= slack2) && (past <= zero || past * past <= slack2)
    };
    let (separation, normal, point_a, point_b) = match end.edge {
        None => {
            let r = q - p;
            let s = r.length();
            if !zero.strictly_less(s) {
                return None;
            }
            (s, r * (V::Scalar::ONE / s), p, q)
        }
        // A's edge `k` against B's vertex `q`.
        Some((true, k)) => {
            let n = pa.normal(k);
            let s = n.dot(q - pa.vertex(k));
            (s, n, q - n * s, q)
        }
        // B's edge `k` against A's vertex `p` (the normal turned to point
        // from A towards B).
        Some((false, k)) => {
            let (n, s0) = (pb.normal(k), pb.vertex(k));
            let s = n.dot(p - s0);
            let x = p - n * s;
            let k1 = if k + 1 == pb.vertices.len() { 0 } else { k + 1 };
            if end.short && !on_edge(s0, pb.vertex(k1), x) {
                return None;
            }
            (s, -n, p, x)
        }
    };
    Some((PolygonClosest { separation, normal, point_a, point_b, exact }, end))
}

/// The full distance result of two polygon cores (`a`, `b` in one frame)
/// whose inner balls do not overlap, by the boundary walk
/// ([`polygon_closest`]) instead of GJK, where the walk settles it:
///
/// - ended outside `B − A` beyond the zero band: [`Status::Separated`],
///   exact (on pairs whose outer balls are apart, in a step or two);
/// - ended outside within the band, or on the inner side of an edge of
///   `B − A` within the band: [`Status::Touching`] (distance the exact gap,
///   or 0 inside), with that edge's normal verified: `B − A` lies on the
///   inner side of the edge's line (it is an edge of the convex set), so
///   along its normal the shapes overlap by at most the origin's depth
///   behind it, the band. On the far edge of an apart pair that ends there
///   the origin's foot lies on the edge, so the pair is within the band
///   too.
///
/// The result is GJK's for such a pair: the closest points (the feature's
/// points for an end inside), the normal from A towards B, `lower_bound`
/// the exact distance (0 inside), `iterations` 0 (no support call after
/// the walk's start), the zero band of [`sat_scale`] (which bounds the
/// coordinates of `A − B`, as GJK's scale does) and the final simplex of
/// the feature: the vertex pair, or the edge and the opposite vertex, with
/// vertex indices (so a warm-start cache can be filled from it).
/// [`PolygonFull::Seed`] for an end inside deeper than the band (an
/// overlap, or a far edge's inner side): GJK's turn, warm-started from the
/// feature. [`PolygonFull::Gjk`] where GJK must answer from scratch: shapes
/// other than polygons, inner balls that overlap (an overlap: GJK's simplex
/// holding the origin is EPA's start), coordinates the walk cannot use, a
/// vertex–vertex touch (no normal), a distance beyond `config.max_distance`,
/// and an iteration cap below the default (the caller asked for GJK's
/// capped search).
#[inline]
pub(crate) fn distance<V, A, B>(a: &A, b: &B, config: &GjkConfig<V::Scalar>) -> PolygonFull<V>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    polygon_walk_result(a, b, config).unwrap_or(PolygonFull::Gjk)
}

/// What [`distance`] found: the result, or GJK's turn (from the
/// walk's final feature where it ended inside: a warm start next to the
/// overlap).
pub(crate) enum PolygonFull<V: Vector> {
    /// The walk's result.
    Done(DistanceResult<V>),
    /// An end inside, deeper than the band: GJK from this simplex.
    Seed(Simplex<V>),
    /// GJK, cold.
    Gjk,
}

/// [`distance`]'s body (`None`: GJK, cold).
#[inline(always)]
fn polygon_walk_result<V, A, B>(a: &A, b: &B, config: &GjkConfig<V::Scalar>) -> Option<PolygonFull<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let zero = V::Scalar::ZERO;
    // Under an iteration cap the search runs as asked (as the balls'
    // exits are off there: `gjk_core::internal::ball_test`).
    if config.max_iterations < gjk_core::DEFAULT_MAX_ITERATIONS {
        return None;
    }
    let ((ia, oa), (ib, ob)) = (CoreOf(a).center_radii()?, CoreOf(b).center_radii()?);
    let offset = CoreOf(b).center()? - CoreOf(a).center()?;
    // Not where the inner balls overlap (NaN fails too); checked first,
    // as the cheapest way out for the overlaps GJK measures.
    if !((ia + ib) * (ia + ib)).strictly_less(offset.length_squared()) {
        return None;
    }
    let pa = a.core_polygon()?;
    let pb = b.core_polygon()?;
    let scale = sat_scale(&pa, &pb, offset, oa + ob, zero)?;
    let config = config.sanitized();
    let band = config.zero_tolerance * scale;
    let (c, end) = polygon_feature(&pa, &pb, offset)?;
    // Exact outside beyond the band; within the band (either side): touching.
    let status = if band.strictly_less(c.separation) && c.exact {
        Some(Status::Separated)
    } else if c.separation >= -band {
        Some(Status::Touching)
    } else {
        // An end inside, deeper than the band: GJK finds the overlap, from
        // the feature (below).
        None
    };
    let distance = c.separation.max(zero);
    if distance > config.max_distance {
        return None;
    }
    let point =
        |i: usize, j: usize| SupportPoint::with_indices(pa.vertex(i), i as u32, pb.vertex(j), j as u32);
    // Where `x` lies on the segment from `p` to `q` (its parameter).
    let param = |p: V, q: V, x: V| {
        let e = q - p;
        (x - p).dot(e) / e.length_squared()
    };
    let next = |k: usize, n: usize| if k + 1 == n { 0 } else { k + 1 };
    // Every point of the feature is a support of `A − B` along the normal
    // (A's furthest towards B, B's furthest towards A).
    let simplex = match end.edge {
        None => Simplex::from_point(point(end.i, end.j), c.normal),
        Some((true, k)) => {
            let k1 = next(k, pa.vertices.len());
            let t = param(pa.vertex(k), pa.vertex(k1), c.point_a);
            Simplex::from_segment(point(k, end.j), point(k1, end.j), c.normal, t)
        }
        Some((false, k)) => {
            let k1 = next(k, pb.vertices.len());
            let t = param(pb.vertex(k), pb.vertex(k1), c.point_b);
            Simplex::from_segment(point(end.i, k), point(end.i, k1), c.normal, t)
        }
    };
    let Some(status) = status else {
        // Exit: GJK from the feature (one more support call, along the
        // origin's side of the edge, usually encloses it).
        return Some(PolygonFull::Seed(simplex));
    };
    Some(PolygonFull::Done(DistanceResult {
        status,
        distance,
        point_a: c.point_a,
        point_b: c.point_b,
        normal: c.normal,
        lower_bound: if c.exact { distance } else { zero },
        tolerance: band,
        iterations: 0,
        simplex,
    }))
}

/// The distance between two polygon cores (`a`, `b` in one frame; `nb`
/// vertices in `b`) by the boundary walk ([`polygon_walk`]: exact where the
/// origin ends outside `B − A`, contact within the band, overlap where a
/// final vertex lies inside the other polygon; every pair whose outer
/// balls are apart, where it ends outside in a step or two, and the pairs
/// past [`POLYGON_WALK_PAIRS`] near contact), else by the separating-axis
/// test, where it settles it: the
/// largest separation `s` over both polygons' edge normals, beyond 0 with
/// the gap [`exact_gap`] proves (vertex–edge or vertex–vertex); at most 0
/// an overlap, distance 0; a gap in an end region the test cannot confirm
/// is contact (distance 0) where its nearest vertices are within the zero
/// band. `None` where GJK must measure: more than [`POLYGON_SAT_LIMIT`]
/// vertex pairs, coordinates the test cannot use ([`sat_scale`]), a gap
/// beyond the band in an end region the test cannot confirm, or a gap
/// beyond `config.max_distance`. `config` is sanitized by the caller.
#[inline]
pub(crate) fn distance_value<V, A, B>(
    a: &A,
    b: &B,
    nb: usize,
    config: &GjkConfig<V::Scalar>,
) -> Option<V::Scalar>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let zero = V::Scalar::ZERO;
    let pa = a.core_polygon()?;
    let pb = b.core_polygon()?;
    let (ca, cb) = (CoreOf(a).center()?, CoreOf(b).center()?);
    let radii = CoreOf(a).center_radii()?.1 + CoreOf(b).center_radii()?.1;
    let scale = sat_scale(&pa, &pb, cb - ca, radii, zero)?;
    let band = config.zero_tolerance * scale;
    // The boundary walk first (past the smallest pairs, unless the outer
    // balls are apart: then it ends outside, exact): a few steps on most
    // pairs, linear at worst.
    let apart = (cb - ca).length_squared() > radii * radii;
    let walk = if apart || pa.vertices.len() * nb > POLYGON_WALK_PAIRS {
        polygon_walk::<V, false>(&pa, &pb, cb - ca)
    } else {
        Walk::Unknown
    };
    match walk {
        // Exit: the exact distance.
        Walk::Outside(n, v, _) => {
            // (`n = 0`: the vertex `w` is the origin, distance 0.)
            let distance = if n > zero { n / (V::axis(0) * v[0] + V::axis(1) * v[1]).length() } else { zero };
            return (distance <= config.max_distance).then_some(distance);
        }
        // Exit: contact, a point of `B − A` within the band (the distance
        // lies between 0 and it).
        Walk::Inside(dist2, ..) if dist2 <= band * band => return Some(zero),
        // Exit: overlap, a final vertex inside the other polygon.
        Walk::Inside(_, End { i, j, .. }) if near(&pa, &pb, pa.vertex(i), pb.vertex(j), zero) => {
            return Some(zero);
        }
        _ => {}
    }
    if pa.vertices.len() * nb > POLYGON_SAT_LIMIT {
        return None;
    }
    // Every edge of both (no early exit: the largest separation is needed).
    let (sa, ea) = pa.face_separation(&pb, V::Scalar::INFINITY);
    let (sb, eb) = pb.face_separation(&pa, V::Scalar::INFINITY);
    let (s, face, other, edge) = if sa >= sb { (sa, pa, pb, ea) } else { (sb, pb, pa, eb) };
    // Exit: no edge separates; the polygons touch or overlap.
    if s <= V::Scalar::ZERO {
        return Some(V::Scalar::ZERO);
    }
    let distance = match exact_gap(&face, &other, edge, s) {
        Ok(gap) => gap,
        // A gap in an end region: contact where its nearest vertices are
        // within the band (the gap lies between `s` and their distance).
        Err((k, j)) => {
            let near = (other.vertex(j) - face.vertex(k)).length_squared() <= band * band;
            (s <= band && near).then_some(V::Scalar::ZERO)?
        }
    };
    (distance <= config.max_distance).then_some(distance)
}

/// Where `foot` (on the line of `face`'s edge `edge`) lies: `None` on the
/// edge, else the end of the edge past which it falls.
#[inline]
fn edge_end<V: Space>(face: &PolygonView<'_, V>, edge: usize, foot: V) -> Option<usize> {
    let next = if edge + 1 == face.vertices.len() { 0 } else { edge + 1 };
    let (p0, p1) = (face.vertex(edge), face.vertex(next));
    let t = (foot - p0).dot(p1 - p0);
    if t < V::Scalar::ZERO {
        Some(edge)
    } else if t > (p1 - p0).length_squared() {
        Some(next)
    } else {
        None
    }
}

/// The distance between two separated polygons (one frame) from their
/// largest edge separation `s > 0`, along edge `edge` of `face` against
/// `other`'s lowest vertex `q`, where the test proves it: `s` itself when
/// `q`'s foot on the edge's line lies within the edge (vertex–edge: the
/// line separates by `s` and the foot is a point of `face` at `s`); else
/// `|q − p|` for the edge's end `p` past which the foot falls, when each of
/// `p` and `q` is its polygon's support along the line between them
/// (vertex–vertex: the slab between the two support lines has width
/// `|q − p|`). Where neither holds, the vertices `(k, j)` of `p` and `q`
/// (GJK measures those, or [`distance_value`] calls them contact).
#[inline]
fn exact_gap<V: Space>(
    face: &PolygonView<'_, V>,
    other: &PolygonView<'_, V>,
    edge: usize,
    s: V::Scalar,
) -> Result<V::Scalar, (usize, usize)> {
    let n = face.normal(edge);
    let j = other.lowest_along(n);
    let q = other.vertex(j);
    let k = match edge_end(face, edge, q - n * s) {
        None => return Ok(s),
        Some(k) => k,
    };
    let (nf, no) = (face.vertices.len(), other.vertices.len());
    let next = |i: usize, len: usize| if i + 1 == len { 0 } else { i + 1 };
    let prev = |i: usize, len: usize| if i == 0 { len - 1 } else { i - 1 };
    let p = face.vertex(k);
    let r = q - p;
    let zero = V::Scalar::ZERO;
    let p_top = r.dot(face.vertex(prev(k, nf)) - p) <= zero && r.dot(face.vertex(next(k, nf)) - p) <= zero;
    let q_low = r.dot(other.vertex(prev(j, no)) - q) >= zero && r.dot(other.vertex(next(j, no)) - q) >= zero;
    if p_top && q_low { Ok(r.length()) } else { Err((k, j)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConvexPolygon, Placed, Pose, Rot2};
    use gjk_core::glam::DVec2;
    use gjk_testkit::{Rng, brute_closest_2d, polygon};

    /// `exact_gap` on separated pairs: wherever it answers, the brute-force
    /// distance (all edge pairs); both of its cases (vertex–edge and
    /// vertex–vertex) answer on many pairs, and it declines on few (none
    /// here: the edge end past the foot has always been the closest vertex).
    #[test]
    fn exact_gap_is_the_brute_force_distance() {
        let mut rng = Rng::new(7303);
        let (mut edge, mut corner, mut declined) = (0, 0, 0);
        for k in 0..3000 {
            let (n, m) = (rng.usize(3, 12), rng.usize(3, 12));
            let a = ConvexPolygon::new(&polygon(&mut rng, n)).unwrap();
            let b = ConvexPolygon::new(&polygon(&mut rng, m)).unwrap();
            let dir = rng.unit2();
            let pose = Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2)), dir * rng.range(2.5, 6.0));
            let placed = Placed::new(&b, &pose);
            let (pa, pb) = (a.core_polygon().unwrap(), placed.core_polygon().unwrap());
            let world: Vec<DVec2> = (0..pb.vertices.len()).map(|j| pb.vertex(j)).collect();
            let truth = brute_closest_2d(a.vertices(), &world).0;
            let (sa, ea) = pa.face_separation(&pb, f64::INFINITY);
            let (sb, eb) = pb.face_separation(&pa, f64::INFINITY);
            let (s, face, other, e) = if sa >= sb { (sa, &pa, &pb, ea) } else { (sb, &pb, &pa, eb) };
            if s <= 0.0 {
                // Not separated after all (the polygons reach 2.5 apart at most
                // rarely): no gap to check.
                continue;
            }
            assert!(s <= truth + 1e-12, "pair {k}: the separation {s} exceeds the distance {truth}");
            match exact_gap(face, other, e, s) {
                Ok(d) => {
                    assert!((d - truth).abs() <= 1e-12, "pair {k}: {d} vs {truth}");
                    if d == s { edge += 1 } else { corner += 1 }
                }
                Err(_) => declined += 1,
            }
        }
        assert!(
            edge > 500 && corner > 500 && declined < 30,
            "edge {edge}, corner {corner}, declined {declined}"
        );
    }

    /// `distance_value` on pairs moved to touch along their closest points and
    /// then apart by gaps from 1e-12 to 1e-2 of the size, in f64 and f32:
    /// every answer is the brute-force distance (of the rounded vertices),
    /// or 0 for a pair within the zero band; in f32, corner contacts (the
    /// end-region rule: a gap whose nearest vertices are within the band)
    /// are among them.
    #[test]
    fn polygon_gap_is_exact_or_contact_within_the_band() {
        let mut rng = Rng::new(7309);
        let (mut exact, mut contact, mut corner, mut none) = ([0; 2], [0; 2], 0, 0);
        for k in 0..4000 {
            let (n, m) = (rng.usize(3, 12), rng.usize(3, 12));
            let (va, vb) = (polygon(&mut rng, n), polygon(&mut rng, m));
            let (a, b) = (ConvexPolygon::new(&va).unwrap(), ConvexPolygon::new(&vb).unwrap());
            let angle = rng.range(-3.2, 3.2);
            let far = Pose::new(Rot2::from_angle(angle), rng.unit2() * 6.0);
            let world =
                |p: &Pose<DVec2>| b.vertices().iter().map(|v| p.transform_point(*v)).collect::<Vec<_>>();
            let (d, pa, pb) = brute_closest_2d(a.vertices(), &world(&far));
            let gap = [0.0, 1e-12, 1e-9, 1e-6, 1e-4, 1e-2][k % 6];
            let pose = Pose::new(far.rotation, far.translation - (pb - pa) / d * (d - gap));
            // f64, then the same pair rounded to f32.
            let a32 = ConvexPolygon::new(&va.iter().map(|p| p.as_vec2()).collect::<Vec<_>>()).unwrap();
            let b32 = ConvexPolygon::new(&vb.iter().map(|p| p.as_vec2()).collect::<Vec<_>>()).unwrap();
            let pose32 = Pose::new(Rot2::from_angle(angle as f32), pose.translation.as_vec2());
            let runs = [
                gap_case(&a, &b, &pose, |v| v, 1e-12),
                gap_case(&a32, &b32, &pose32, |v: gjk_core::glam::Vec2| v.as_dvec2(), 1e-5),
            ];
            for (p, run) in runs.into_iter().enumerate() {
                match run {
                    None => none += 1,
                    Some((true, is_corner)) => {
                        contact[p] += 1;
                        corner += usize::from(is_corner);
                    }
                    Some((false, _)) => exact[p] += 1,
                }
                let _ = k;
            }
        }
        assert!(
            exact.iter().all(|&e| e > 1500) && none < 400,
            "exact {exact:?}, contact {contact:?}, none {none}"
        );
        assert!(contact.iter().all(|&c| c > 200) && corner > 0, "contact {contact:?}, corners {corner}");
    }

    /// One pair for [`polygon_gap_is_exact_or_contact_within_the_band`]:
    /// `None` when the test declines, else whether it reported contact and
    /// whether that contact is a separated pair's (the end-region rule).
    fn gap_case<V: Space + gjk_core::internal::Vector2>(
        a: &ConvexPolygon<V>,
        b: &ConvexPolygon<V>,
        pose: &Pose<V>,
        to64: impl Fn(V) -> DVec2 + Copy,
        tol: f64,
    ) -> Option<(bool, bool)> {
        let cfg = GjkConfig::<V::Scalar>::default();
        let placed = Placed::new(b, pose);
        let wa: Vec<DVec2> = a.vertices().iter().map(|v| to64(*v)).collect();
        let wb: Vec<DVec2> = b.vertices().iter().map(|v| to64(pose.transform_point(*v))).collect();
        let truth = brute_closest_2d(&wa, &wb).0;
        let v = distance_value(a, &placed, b.vertices().len(), &cfg)?.to_f64();
        let (pa, pb) = (a.core_polygon().unwrap(), placed.core_polygon().unwrap());
        let (ca, cb) = (CoreOf(a).center().unwrap(), CoreOf(&placed).center().unwrap());
        let radii = CoreOf(a).center_radii().unwrap().1 + CoreOf(&placed).center_radii().unwrap().1;
        let scale = sat_scale(&pa, &pb, cb - ca, radii, V::Scalar::ZERO).unwrap();
        let band = (cfg.zero_tolerance * scale).to_f64();
        if v == 0.0 {
            assert!(truth <= 2.0 * band + tol, "contact reported, distance {truth:e} (band {band:e})");
            let (sa, _) = pa.face_separation(&pb, V::Scalar::INFINITY);
            let (sb, _) = pb.face_separation(&pa, V::Scalar::INFINITY);
            Some((true, sa.max(sb) > V::Scalar::ZERO))
        } else {
            assert!((v - truth).abs() <= tol, "{v:e} vs {truth:e}");
            Some((false, false))
        }
    }

    /// Distance between two counter-clockwise polygons (f64): 0 where no
    /// edge line of either separates them, else the least distance of a
    /// vertex from an edge of the other, with its points `(on A, on B)`.
    /// O(n·m) and independent of the walk: the oracle of its tests.
    fn oracle_2d(a: &[DVec2], b: &[DVec2]) -> (f64, DVec2, DVec2) {
        let edges = |f: &[DVec2]| (0..f.len()).map(|i| (f[i], f[(i + 1) % f.len()])).collect::<Vec<_>>();
        let sep = |f: &[DVec2], g: &[DVec2]| {
            let lowest = |(s, e): (DVec2, DVec2)| {
                let n = DVec2::new((e - s).y, -(e - s).x).normalize();
                g.iter().map(|q| n.dot(*q - s)).fold(f64::INFINITY, f64::min)
            };
            edges(f).into_iter().map(lowest).fold(f64::NEG_INFINITY, f64::max)
        };
        if sep(a, b) <= 0.0 && sep(b, a) <= 0.0 {
            return (0.0, DVec2::ZERO, DVec2::ZERO);
        }
        let mut best = (f64::INFINITY, DVec2::ZERO, DVec2::ZERO);
        for (f, g, f_is_a) in [(a, b, true), (b, a, false)] {
            for (s, e) in edges(f) {
                for &q in g {
                    let d = e - s;
                    let foot = s + d * ((q - s).dot(d) / d.length_squared()).clamp(0.0, 1.0);
                    let dist = (q - foot).length();
                    if dist < best.0 {
                        best = if f_is_a { (dist, foot, q) } else { (dist, q, foot) };
                    }
                }
            }
        }
        best
    }

    /// A pair for the walk's tests: random polygons of 3–60 vertices (so
    /// that supports both scan and climb), B turned and moved along the
    /// closest points to the signed `gap` (negative: overlap by that much).
    fn walk_pair(rng: &mut Rng, gap: f64) -> (ConvexPolygon<DVec2>, ConvexPolygon<DVec2>, Pose<DVec2>) {
        let (n, m) = (rng.usize(3, 60), rng.usize(3, 60));
        let a = ConvexPolygon::new(&polygon(rng, n)).unwrap();
        let b = ConvexPolygon::new(&polygon(rng, m)).unwrap();
        let far = Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2)), rng.unit2() * 6.0);
        let world: Vec<DVec2> = b.vertices().iter().map(|v| far.transform_point(*v)).collect();
        let (d, pa, pb) = oracle_2d(a.vertices(), &world);
        (a, b, Pose::new(far.rotation, far.translation - (pb - pa) / d * (d - gap)))
    }

    /// The boundary walk against the oracle, from the centres' direction
    /// and from random ones (its answers must not depend on the start):
    /// `Outside` is the distance (to 1e-10 on shapes of size 1–4, 6
    /// apart), `Inside` a point of `B − A` that near (the oracle at most
    /// its distance), the bound never spent (a zero direction, as from
    /// concentric balls, starts on the x axis); on pairs apart by 0.5 to
    /// 1e-9, touching, and overlapping by 1e-6 and 0.1. From the centres'
    /// direction nearly every pair apart by 1e-6 or more ends outside (the
    /// rest settle on a far edge's inner side; the callers fall back).
    #[test]
    fn polygon_walk_is_exact_outside_and_proves_its_point_inside() {
        let mut rng = Rng::new(7321);
        let (mut outside, mut inside, mut far) = ([0; 3], [0; 3], 0);
        for k in 0..3000 {
            let gap = [-1e-1, -1e-6, 0.0, 1e-9, 1e-6, 1e-3, 0.5][k % 7];
            let (a, b, pose) = walk_pair(&mut rng, gap);
            let placed = Placed::new(&b, &pose);
            let (pa, pb) = (a.core_polygon().unwrap(), placed.core_polygon().unwrap());
            let world: Vec<DVec2> = (0..pb.vertices.len()).map(|j| pb.vertex(j)).collect();
            let truth = oracle_2d(a.vertices(), &world).0;
            let centres = CoreOf(&placed).center().unwrap() - CoreOf(&a).center().unwrap();
            let starts = [centres, rng.unit2(), [rng.unit2() * 1e-3, DVec2::ZERO][k % 2]];
            for (s, d) in starts.into_iter().enumerate() {
                match polygon_walk::<DVec2, false>(&pa, &pb, d) {
                    Walk::Outside(num, v, _) => {
                        let dist = if num > 0.0 { num / DVec2::new(v[0], v[1]).length() } else { 0.0 };
                        assert!(
                            (dist - truth).abs() <= 1e-10,
                            "pair {k} (gap {gap:e}), start {s}: {dist:e} vs {truth:e}"
                        );
                        outside[s] += 1;
                    }
                    Walk::Inside(dist2, End { i, j, .. }) => {
                        assert!(
                            truth <= dist2.sqrt() + 1e-10,
                            "pair {k} (gap {gap:e}), start {s}: {truth:e} beyond {dist2:e}²"
                        );
                        assert!(i < pa.vertices.len() && j < pb.vertices.len(), "pair {k}: ends {i}, {j}");
                        far += usize::from(s == 0 && gap >= 1e-6);
                        inside[s] += 1;
                    }
                    Walk::Unknown => panic!("pair {k} (gap {gap:e}), start {s}: the bound was spent"),
                }
            }
        }
        // Separated pairs (4 of 7, with some touching) end outside from any
        // start; the overlapping ones (2 of 7) inside.
        assert!(
            outside.iter().all(|&o| o > 1700) && inside.iter().all(|&i| i > 1000),
            "{outside:?} {inside:?}"
        );
        assert!(far < 10, "{far} separated pairs ended on a far edge from the centres' direction");
    }

    /// `polygon_closest` against the oracle on the walk's pairs, both
    /// polygons posed: exact pairs give the distance, closest points on the
    /// shapes (within 1e-10 of A and B, the oracle's distance apart) and
    /// the unit normal between them; the others end on an edge's inner
    /// side, with a separation of at most 0 and points that differ by it
    /// along the normal: overlapping and touching pairs, and a few
    /// separated ones whose walk settled on a far edge (the callers fall
    /// back to the separating-axis test there).
    #[test]
    fn polygon_closest_gives_the_closest_features() {
        let mut rng = Rng::new(7333);
        let (mut exact, mut other, mut far) = (0, 0, 0);
        for k in 0..2000 {
            let gap = [-1e-1, -1e-6, 0.0, 1e-9, 1e-6, 1e-3, 0.5][k % 7];
            let (a, b, pose) = walk_pair(&mut rng, gap);
            // Both posed by one more rigid motion (the views' axes turn).
            let m = Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2)), rng.unit2() * rng.range(0.0, 3.0));
            let (pose_a, pose_b) = (m, m.mul(&pose));
            let (qa, qb) = (Placed::new(&a, &pose_a), Placed::new(&b, &pose_b));
            let (pa, pb) = (qa.core_polygon().unwrap(), qb.core_polygon().unwrap());
            let wa: Vec<DVec2> = (0..pa.vertices.len()).map(|i| pa.vertex(i)).collect();
            let wb: Vec<DVec2> = (0..pb.vertices.len()).map(|j| pb.vertex(j)).collect();
            let truth = oracle_2d(&wa, &wb).0;
            let d = CoreOf(&qb).center().unwrap() - CoreOf(&qa).center().unwrap();
            let Some(c) = polygon_closest(&pa, &pb, d) else {
                assert!(gap == 0.0, "pair {k} (gap {gap:e}): no answer");
                continue;
            };
            let ctx = format!("pair {k} (gap {gap:e}): {c:?}, truth {truth:e}");
            assert!((c.normal.length() - 1.0).abs() <= 1e-12, "{ctx}");
            assert!((c.point_a - c.point_b + c.normal * c.separation).length() <= 1e-10, "{ctx}");
            if c.exact {
                assert!((c.separation - truth).abs() <= 1e-10, "{ctx}");
                assert!(oracle_2d(&wa, &[c.point_a]).0 <= 1e-10, "{ctx}: point_a off A");
                assert!(oracle_2d(&wb, &[c.point_b]).0 <= 1e-10, "{ctx}: point_b off B");
                exact += 1;
            } else {
                // On the inner side of the final edge; a separated pair ends
                // there only where the walk settles on a far edge (rare).
                assert!(c.separation <= 1e-12, "{ctx}");
                other += 1;
                far += usize::from(gap >= 1e-6);
            }
        }
        assert!(exact > 1000 && other > 500 && far < 20, "exact {exact}, other {other}, far {far}");
    }

    /// Regression (fuzz seeds 589381, 794429): f32 polygons a few units
    /// across placed 1e5 – 1e7 apart, where B's vertices in A's frame fall
    /// on a grid of 0.008 – 0.5 and its short edges' directions there are
    /// rounding. The walk ended, proven, on such an edge, and the feature
    /// placed again with the edge's own normal claimed a separation along
    /// a normal that was not the pair's (6.55e6 for 7.15e6), its point on
    /// B far off B. Every exact answer must be the f64 oracle's distance
    /// on the same (f32) shapes, with points on them, to 64 ulps of the
    /// coordinates; the rest decline (GJK answers) or end inside.
    #[test]
    fn polygon_closest_on_far_f32_polygons_is_the_oracle_or_declines() {
        use gjk_core::glam::Vec2;
        let mut rng = Rng::new(7349);
        let (mut exact, mut declined) = (0, 0);
        for k in 0..3000 {
            let (n, m) = (rng.usize(3, 24), rng.usize(8, 60));
            let size = rng.range(1.0, 3.0);
            let shape = |rng: &mut Rng, n: usize| {
                let v: Vec<Vec2> = polygon(rng, n).iter().map(|p| (*p * size).as_vec2()).collect();
                ConvexPolygon::new(&v).unwrap()
            };
            let (a, b) = (shape(&mut rng, n), shape(&mut rng, m));
            // Near an axis half the time (the grid's rounding then leaves
            // B's near edges level while their own normals tilt).
            let far = 10f64.powf(rng.range(5.0, 7.0));
            let axis = [DVec2::X, DVec2::Y, -DVec2::X, -DVec2::Y][k % 4];
            let dir = if k % 8 < 4 { (axis + rng.unit2() * 1e-6).normalize() } else { rng.unit2() };
            let pose = Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2) as f32), (dir * far).as_vec2());
            let placed = Placed::new(&b, &pose);
            let (pa, pb) = (a.core_polygon().unwrap(), placed.core_polygon().unwrap());
            // The same shapes in f64: B's own vertices by the f32 pose's
            // numbers, exactly.
            let (c, sn) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
            let t = pose.translation.as_dvec2();
            let wa: Vec<DVec2> = a.vertices().iter().map(|p| p.as_dvec2()).collect();
            let wb: Vec<DVec2> = b
                .vertices()
                .iter()
                .map(|p| {
                    let p = p.as_dvec2();
                    DVec2::new(c * p.x - sn * p.y, sn * p.x + c * p.y) + t
                })
                .collect();
            let truth = oracle_2d(&wa, &wb).0;
            let d = CoreOf(&placed).center().unwrap() - CoreOf(&a).center().unwrap();
            let Some(r) = polygon_closest(&pa, &pb, d) else {
                declined += 1;
                continue;
            };
            if !r.exact {
                continue;
            }
            let tol = 64.0 * f32::EPSILON as f64 * (far + 2.0 * size);
            let ctx = format!("pair {k}: {r:?}, truth {truth:e}, tolerance {tol:e}");
            assert!((r.separation as f64 - truth).abs() <= tol, "{ctx}");
            assert!(oracle_2d(&wa, &[r.point_a.as_dvec2()]).0 <= tol, "{ctx}: point_a off A");
            assert!(oracle_2d(&wb, &[r.point_b.as_dvec2()]).0 <= tol, "{ctx}: point_b off B");
            exact += 1;
        }
        assert!(exact > 2000, "exact {exact}, declined {declined}");
    }
}
