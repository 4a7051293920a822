//! Small geometric helpers the shapes share: argmax scans, hill climbs on
//! a ring of vertices, a 2D convex hull's order, and ball radii.

use gjk_core::glam::DVec2;
use gjk_core::{Real, Vector};

/// Relative margin of the inner and outer radii of hulls and polygons
/// ([`SupportMap::center_radii`](gjk_core::SupportMap::center_radii)): the inner radius is taken this fraction
/// of the outer one smaller (hull facets are planar to quickhull's
/// tolerance, far below it), before [`RADII_ROUNDING`].
pub const RADII_MARGIN: f64 = 1e-9;

/// Relative rounding of the radii to the coordinate type: the inner radius
/// is shrunk and the outer one grown by this fraction before conversion,
/// past `f32`'s rounding (`2⁻²⁴`).
pub const RADII_ROUNDING: f64 = 1e-6;

/// Ulps of a polygon's reach (times the direction's size) that
/// `climb_ring` walks through below its best height: rounding in the
/// heights of near-duplicate vertices (points a few ulps apart, which the
/// hull keeps) ties or dips them by a few ulps mid-slope, where a strict
/// climb stopped (a fuzzed polygon's support fell 2.0 short).
pub const POLYGON_CLIMB_SLACK_ULPS: f64 = 8.0;

/// Index of the point of `pts` furthest along `dir` (first on ties): the
/// linear-scan support shared by every vertex-list shape.
#[inline]
pub(crate) fn argmax<V: Vector>(pts: &[V], dir: V) -> usize {
    let mut best = 0;
    let mut best_d = pts[0].dot(dir);
    for (i, p) in pts.iter().enumerate().skip(1) {
        let d = p.dot(dir);
        if d > best_d {
            best = i;
            best_d = d;
        }
    }
    best
}

/// `(inner, outer)` in the coordinate type, with [`RADII_MARGIN`] and
/// [`RADII_ROUNDING`]; `None` unless the inner radius stays positive.
pub(crate) fn ball_radii<S: Real>(inner: f64, outer: f64) -> Option<(S, S)> {
    let inner = (inner - RADII_MARGIN * outer) * (1.0 - RADII_ROUNDING);
    // No face (a flat hull) leaves `inner` infinite.
    (inner > 0.0 && inner.is_finite() && outer.is_finite())
        .then(|| (S::from_f64(inner), S::from_f64(outer * (1.0 + RADII_ROUNDING))))
        .filter(|(i, _)| *i > S::ZERO)
}

/// Hill climbing around a convex polygon's `n` vertices from `start`, by
/// their heights `h`, on strict rises only: towards the higher neighbour
/// while the next is higher. For polygons whose edges are resolved
/// ([`edges_resolved`]); [`climb_ring`] otherwise.
#[inline(always)]
pub(crate) fn climb_strict<S: Real>(n: usize, start: usize, h: impl Fn(usize) -> S) -> usize {
    let next = |i: usize| if i + 1 == n { 0 } else { i + 1 };
    let prev = |i: usize| if i == 0 { n - 1 } else { i - 1 };
    let (mut i, mut best) = (start, h(start));
    // The direction of travel: up the larger rise (none: a maximum).
    let (f, b) = (h(next(i)), h(prev(i)));
    let forward = f > best && f >= b;
    if !forward && b <= best {
        // Exit: no neighbour is higher.
        return i;
    }
    // Bounded by the vertex count: each step rises strictly.
    for _ in 0..n {
        let j = if forward { next(i) } else { prev(i) };
        let v = h(j);
        if v > best {
            (i, best) = (j, v);
        } else {
            // Exit: the next falls; `i` is the top.
            break;
        }
    }
    i
}

/// [`climb_ring`]'s slack for vertices within `reach` of the origin and a
/// direction of 1-norm `size`.
#[inline(always)]
pub(crate) fn climb_slack<S: Real>(reach: S, size: S) -> S {
    S::from_f64(POLYGON_CLIMB_SLACK_ULPS) * S::EPSILON * reach * size
}

/// Hill climbing around a convex polygon's `n` vertices from `start`, by
/// their heights `h`: towards the higher neighbour, on while the next
/// height is within `slack` of the best so far (heights that tie or dip by
/// rounding mid-slope do not stop it), and the highest vertex seen is the
/// answer. On a convex polygon the heights rise to the maximum and fall
/// after it, so the walk ends one step past it. Where it found nothing
/// higher than the start, the other way is walked too (a start between two
/// near-duplicates can face either). Bounded by `n` steps each way; a NaN
/// height ends a walk.
#[inline(always)]
pub(crate) fn climb_ring<S: Real>(n: usize, start: usize, h: impl Fn(usize) -> S, slack: S) -> usize {
    let next = |i: usize| if i + 1 == n { 0 } else { i + 1 };
    let prev = |i: usize| if i == 0 { n - 1 } else { i - 1 };
    let (mut best_i, mut best) = (start, h(start));
    let (f, b) = (h(next(start)), h(prev(start)));
    // The larger rise first (forward on a tie).
    let first = b <= f;
    for forward in [first, !first] {
        let step = |i: usize| if forward { next(i) } else { prev(i) };
        // The neighbour's height is known already.
        let (mut at, mut v) = (step(start), if forward { f } else { b });
        // Bounded: at most `n` steps around the ring.
        for _ in 0..n {
            if v > best {
                (best_i, best) = (at, v);
            } else if v < best - slack || v.is_nan() {
                // Exit: fallen below the slack (or NaN): past the top.
                break;
            }
            at = step(at);
            v = h(at);
        }
        if best_i != start {
            // Exit: the walk rose; the other way falls from the start.
            break;
        }
    }
    best_i
}

/// Andrew's monotone chain in f64: indices of the hull, counter-clockwise,
/// dropping collinear and repeated points.
pub(crate) fn monotone_chain(p: &[DVec2]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..p.len()).collect();
    idx.sort_by(|&a, &b| p[a].x.total_cmp(&p[b].x).then(p[a].y.total_cmp(&p[b].y)));
    idx.dedup_by(|a, b| p[*a] == p[*b]);
    if idx.len() <= 2 {
        return idx;
    }
    // Orientation with a scale-relative zero, so nearly collinear points are
    // dropped rather than making a sliver edge.
    let scale = idx.iter().map(|&i| p[i].abs().max_element()).fold(0.0, f64::max);
    let eps = 1e-14 * scale * scale;
    let cross = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<usize> = Vec::with_capacity(idx.len() * 2);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &usize>> =
            if pass == 0 { Box::new(idx.iter()) } else { Box::new(idx.iter().rev()) };
        for &i in iter {
            while hull.len() >= start + 2
                && cross(p[hull[hull.len() - 2]], p[hull[hull.len() - 1]], p[i]) <= eps
            {
                hull.pop();
            }
            hull.push(i);
        }
        hull.pop();
    }
    if hull.len() < 2 {
        // All points (nearly) equal.
        hull.truncate(1);
        if hull.is_empty() {
            hull.push(idx[0]);
        }
    }
    if hull.len() == 2 && p[hull[0]] == p[hull[1]] {
        hull.truncate(1);
    }
    hull
}
