//! Boxes placed in a frame ([`BoxView`]) and their separating-axis test.
//!
//! Two boxes are apart exactly when one of their face normals (2 + 2 in
//! 2D, 3 + 3 in 3D) or, in 3D, one of the 9 cross products of an edge of
//! each separates them (Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH
//! 1996; Ericson, *Real-Time Collision Detection*, §4.4.1, whose formulas
//! for the cross axes are used here). Each axis is a handful of products,
//! with no support call, where GJK on a box pair spends several support
//! calls and simplex solves.
//!
//! # Views and pairs
//!
//! `BoxView` is a box core placed in a frame (`Shape::core_box`: `Cuboid`
//! through `&`, `Placed`, `Rounded`), or a segment or point core as a box of
//! zero width (`Shape::core_segment`: `Capsule`, `Ball`, through the same
//! wrappers). `box_cores` pairs a box with a box or with such a core, never
//! two segments, whose axes would not be complete: against a solid box the
//! segment has no face of its own and its direction's cross products with
//! the box's edges are among the axes; a zero extent makes no edge, so no
//! cross axis. A point core (a ball's) skips the axes: `point_box` clamps its
//! coordinates to the box, exact in every region, with the nearest face
//! inside.
//!
//! # Bounds
//!
//! `box_separation` gives proven bounds on the largest separation over the
//! axes: a rounding allowance per axis (`BOX_ROUNDING` ε·reach over the
//! axis's length) and, where nearly parallel edges' cross axis is skipped
//! (length below √ε), an upper bound widened by that angle times the reach.
//! `box_separation_until` stops after the face normals when their lower bound
//! already passes the caller's limit (the upper bound is then unknown). The
//! boolean test takes apart / meet from the bounds (else GJK); the distance
//! alone (`box_gap`, one pass in A's frame) takes the face normals first,
//! then the edge axes from the same products: an axis whose witnesses
//! realise its separation is the distance (`BoxSeparation::exact_gap`: the
//! axis bounds it from below, the two witness points from above), an upper
//! bound at most 0 is contact or overlap (0); else GJK. gjk-epa's box contact
//! takes from it the penetration depth of two convex polytopes (the least
//! overlap over the candidate axes), its axis as the normal
//! (`BoxSeparation::normal`) and the deepest corner and its foot, or the
//! closest points of two edges, as the points (`BoxSeparation::witnesses`).
//!
//! # Segments
//!
//! Two segment or point cores (capsules and balls against each other) are
//! measured in closed form (`closest_on_segments`): the distance from B's
//! point to segment A is convex along B and piecewise the distance to A's
//! start, line or end, each piece's least one clamped projection; every
//! quantity is a difference of points, so segments side by side keep their
//! accuracy where the lines' closest points (Ericson's) divide by the
//! angle's `1 − cos²`; then one round of alternating projections, so that the
//! direction between the points is the features' own perpendicular. Checked
//! by `box_sat.rs`, `analytic.rs` and `segment_pairs.rs`.

use gjk_core::{Real, Vector};

use crate::space::Space;

/// Allowance for rounding in each axis's separation, in units of
/// `ε · reach` (the pair's centre distance plus both half-diagonals) over
/// the axis's unnormalised length: a few roundings of products of at most
/// `reach`, as `gjk_core::tuning::BALL_ROUNDING` allows for the balls.
pub const BOX_ROUNDING: f64 = 16.0;

/// A cross axis whose unnormalised length is below `√ε` (nearly parallel
/// edges) is skipped, and the test's upper bound grows by this length
/// times the pair's reach: nearly parallel edges span a face of `A − B`
/// that tilts from its neighbours by about that angle.
pub const BOX_PARALLEL_SKIP: f64 = 1.0;

/// A box core placed in a frame: half extents along its own axes, the axes
/// and the centre in the outer frame ([`crate::Shape::core_box`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxView<V: Vector> {
    /// Half extents along the box's axes: positive for a box
    /// ([`crate::Shape::core_box`]); zero across a segment, and along
    /// every axis for a point ([`crate::Shape::core_segment`]).
    pub half: V,
    /// The box's axes in the outer frame: unit, orthogonal, right-handed
    /// (the first `DIM` are used).
    pub axes: [V; 3],
    /// The centre in the outer frame.
    pub center: V,
}

impl<V: Space> BoxView<V> {
    /// An axis-aligned box about the origin.
    #[inline]
    pub fn aligned(half: V) -> Self {
        let axis = |i: usize| if i < V::DIM { V::axis(i) } else { V::ZERO };
        Self { half, axes: [axis(0), axis(1), axis(2)], center: V::ZERO }
    }

    /// The same box seen from a frame in which the outer frame has
    /// rotation `rotate` (a linear map) and origin `origin`.
    #[inline]
    pub fn mapped(&self, rotate: impl Fn(V) -> V, origin: V) -> Self {
        Self { half: self.half, axes: self.axes.map(&rotate), center: rotate(self.center) + origin }
    }

    /// The largest coordinate magnitude its points can have relative to its
    /// centre: the half-diagonal's length bounds them.
    #[inline]
    fn radius(&self) -> V::Scalar {
        self.half.length()
    }
}

/// What the separating-axis test of two boxes proves about the largest
/// separation `s` over all candidate axes (the distance when the boxes are
/// apart along a face normal, a lower bound on it otherwise; minus the
/// penetration depth when they overlap).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxSeparation<S> {
    /// A proven lower bound on `s` (rounding allowed for): above 0, the
    /// boxes are at least that far apart.
    pub lower: S,
    /// A proven upper bound on `s`: at most 0, the boxes touch or overlap;
    /// below `−x`, they overlap deeper than `x`.
    pub upper: S,
    /// The pair's reach: the centres' distance plus both half-diagonals,
    /// a bound on the coordinates of `A − B` about the centres.
    pub reach: S,
    /// The largest separation as computed (between the bounds).
    pub separation: S,
    /// Its axis: `0..DIM` A's face normal `i`, `3..3 + DIM` B's face normal
    /// `j`, `6 + 3i + j` the cross product `Aᵢ × Bⱼ` (3D).
    pub axis: usize,
    /// Whether a cross axis was skipped (nearly parallel edges): then
    /// `separation` may understate the largest by up to `upper − lower`.
    pub skipped: bool,
}

/// The products the cross axes of two 3D boxes share (see
/// [`box_separation`]).
struct Mats<S> {
    r: [[S; 3]; 3],
    q: [[S; 3]; 3],
    ta: [S; 3],
    ha: [S; 3],
    hb: [S; 3],
    round: S,
    skip: S,
}

/// The running bounds of [`box_separation`], and the largest separation
/// with its axis.
struct Acc<S> {
    lower: S,
    upper: S,
    best: S,
    axis: usize,
    skipped: bool,
}

impl<S: Real> Acc<S> {
    /// Takes axis `axis`'s separation `sep`, exact within `err`.
    #[inline(always)]
    fn take(&mut self, sep: S, err: S, axis: usize) {
        self.lower = self.lower.max(sep - err);
        self.upper = self.upper.max(sep + err);
        if sep > self.best {
            (self.best, self.axis) = (sep, axis);
        }
    }
}

impl<S: Real> Mats<S> {
    /// The nine cross axes, written out so that every index is a constant;
    /// the check for edges of zero length only where a core is flat (two
    /// solid boxes, the common case, pay nothing for it).
    #[inline(always)]
    fn crosses(&self, acc: &mut Acc<S>) {
        if self.ha.contains(&S::ZERO) || self.hb.contains(&S::ZERO) {
            self.crosses_of::<true>(acc);
        } else {
            self.crosses_of::<false>(acc);
        }
    }

    #[inline(always)]
    fn crosses_of<const FLAT: bool>(&self, acc: &mut Acc<S>) {
        self.cross::<FLAT>(0, 0, acc);
        self.cross::<FLAT>(0, 1, acc);
        self.cross::<FLAT>(0, 2, acc);
        self.cross::<FLAT>(1, 0, acc);
        self.cross::<FLAT>(1, 1, acc);
        self.cross::<FLAT>(1, 2, acc);
        self.cross::<FLAT>(2, 0, acc);
        self.cross::<FLAT>(2, 1, acc);
        self.cross::<FLAT>(2, 2, acc);
    }

    /// Axis `Aᵢ × Bⱼ` (Ericson's formulas: with `(i₁, i₂)`, `(j₁, j₂)` the
    /// other two indices, cyclic), skipped when nearly parallel.
    #[inline(always)]
    fn cross<const FLAT: bool>(&self, i: usize, j: usize, acc: &mut Acc<S>) {
        // A box of zero extent along an axis (a segment's or a point's
        // core, `Shape::core_segment`) has no edge along it: no axis.
        if FLAT && (self.ha[i] == S::ZERO || self.hb[j] == S::ZERO) {
            return;
        }
        let (r, q) = (&self.r, &self.q);
        let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
        // |Aᵢ × Bⱼ|: the part of Bⱼ off Aᵢ (no cancellation).
        let len = sqrt(r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j]);
        if len < self.skip {
            acc.skipped = true;
            return;
        }
        let ra = self.ha[i1] * q[i2][j] + self.ha[i2] * q[i1][j];
        let rb = self.hb[j1] * q[i][j2] + self.hb[j2] * q[i][j1];
        let num = self.ta[i2] * r[i1][j] - self.ta[i1] * r[i2][j];
        acc.take((num.abs() - ra - rb) / len, self.round / len, 6 + 3 * i + j);
    }
}

/// `√x` (the scalar trait has no square root; `std`'s, through f64).
#[inline]
fn sqrt<S: Real>(x: S) -> S {
    S::from_f64(x.to_f64().sqrt())
}

/// The separating-axis test of two boxes given in one frame: bounds on
/// their largest separation (see [`BoxSeparation`]). Every input must be
/// finite and products of `reach`-sized numbers must not overflow (the
/// caller checks); then both bounds are finite.
pub fn box_separation<V: Space>(a: &BoxView<V>, b: &BoxView<V>) -> BoxSeparation<V::Scalar> {
    box_separation_until(a, b, |_| V::Scalar::INFINITY)
}

/// [`box_separation`] that stops after the face normals when they alone
/// prove the largest separation above `stop(reach)` (their lower bound
/// passes it): the edge axes are not evaluated, `upper` is then infinity
/// (unknown) and `axis` a face. A query that only wants "apart beyond a
/// limit" (or "not overlapping deeply") passes that limit: most separated
/// boxes are apart along a face normal, and the nine edge axes cost three
/// quarters of the test.
pub fn box_separation_until<V: Space>(
    a: &BoxView<V>,
    b: &BoxView<V>,
    stop: impl FnOnce(V::Scalar) -> V::Scalar,
) -> BoxSeparation<V::Scalar> {
    let dim = V::DIM;
    let zero = V::Scalar::ZERO;
    let t = b.center - a.center;
    let reach = t.length() + a.radius() + b.radius();
    let eps = V::Scalar::EPSILON;
    let round = V::Scalar::from_f64(BOX_ROUNDING) * eps * reach;
    // Plain arrays (constant indices once the loops over `DIM` unroll):
    // r[i][j] = Aᵢ·Bⱼ (B's axes in A's frame), q its magnitudes,
    // ta[i] = t·Aᵢ, tb[j] = t·Bⱼ.
    let mut r = [[zero; 3]; 3];
    let mut q = [[zero; 3]; 3];
    let (mut ta, mut tb, mut ha, mut hb) = ([zero; 3], [zero; 3], [zero; 3], [zero; 3]);
    for i in 0..dim {
        for j in 0..dim {
            r[i][j] = a.axes[i].dot(b.axes[j]);
            q[i][j] = r[i][j].abs();
        }
        ta[i] = t.dot(a.axes[i]);
        tb[i] = t.dot(b.axes[i]);
        ha[i] = a.half.component(i);
        hb[i] = b.half.component(i);
    }
    // Every axis's separation `sep` within `err`: the bounds of the largest.
    let none = -V::Scalar::INFINITY;
    let mut acc = Acc { lower: none, upper: none, best: none, axis: 0, skipped: false };
    // A's face normals, then B's.
    for i in 0..dim {
        let (mut ra, mut rb) = (zero, zero);
        for j in 0..dim {
            rb += hb[j] * q[i][j];
            ra += ha[j] * q[j][i];
        }
        acc.take(ta[i].abs() - ha[i] - rb, round, i);
        acc.take(tb[i].abs() - ra - hb[i], round, 3 + i);
    }
    // Exit: a face normal already separates beyond `stop`.
    if dim == 3 && acc.lower > stop(reach) {
        let Acc { lower, best, axis, .. } = acc;
        return BoxSeparation {
            lower,
            upper: V::Scalar::INFINITY,
            reach,
            separation: best,
            axis,
            skipped: false,
        };
    }
    if dim == 3 {
        let skip = V::Scalar::from_f64(BOX_PARALLEL_SKIP * eps.to_f64().sqrt());
        let m = Mats { r, q, ta, ha, hb, round, skip };
        m.crosses(&mut acc);
        // A skipped axis's separation is within `skip · reach` of the
        // neighbouring faces' (nearly parallel edges span a face of `A − B`
        // tilted from its neighbours by about that angle).
        if acc.skipped {
            acc.upper += skip * reach;
        }
    }
    let Acc { lower, upper, best, axis, skipped } = acc;
    BoxSeparation { lower, upper, reach, separation: best, axis, skipped }
}

/// The distance between two boxes given in one frame where the
/// separating-axis test proves it, in one pass over the axes: the face
/// normals first (most separated boxes are apart along one), then the edge
/// axes, reusing the face pass's products. An axis whose witness points
/// realise its separation gives the distance exactly (as
/// [`BoxSeparation::exact_gap`] decides, here in A's frame from the same
/// products); an upper bound at most 0 gives 0 (contact or overlap);
/// `None` where GJK must measure (closest features in a vertex or edge
/// region, rounding between the bounds, inputs too large for the
/// products, axes that are not finite). The answer is within the test's
/// rounding allowance ([`BOX_ROUNDING`]) of the exact distance for views
/// with unit orthogonal axes (as [`crate::Shape::core_box`] gives them);
/// for others it is unspecified, but never NaN, infinite or negative.
pub fn box_gap<V: Space>(a: &BoxView<V>, b: &BoxView<V>) -> Option<V::Scalar> {
    // Exit: axes that are not finite (the shapes' views never have them).
    if !(0..V::DIM).all(|i| a.axes[i].is_finite() && b.axes[i].is_finite()) {
        return None;
    }
    box_gap_of(a, b)
}

/// [`box_gap`] for views whose axes are finite (the shapes' own, from
/// [`crate::Shape::core_box`] on validated poses): the posed queries skip
/// the check.
#[inline]
pub(crate) fn box_gap_of<V: Space>(a: &BoxView<V>, b: &BoxView<V>) -> Option<V::Scalar> {
    let t = b.center - a.center;
    let reach = t.length() + a.radius() + b.radius();
    if !(reach * reach).is_finite() {
        return None;
    }
    if V::DIM != 3 {
        // 2D: four face normals; the general test and its witnesses.
        let s = box_separation(a, b);
        if s.upper <= V::Scalar::ZERO {
            return Some(V::Scalar::ZERO);
        }
        return s.exact_gap(a, b).filter(|d| d.is_finite());
    }
    let zero = V::Scalar::ZERO;
    let eps = V::Scalar::EPSILON;
    let round = V::Scalar::from_f64(BOX_ROUNDING) * eps * reach;
    // As in `box_separation_until`: r[i][j] = Aᵢ·Bⱼ, q = |r|, ta, tb the
    // centre offset along each box's axes.
    let mut r = [[zero; 3]; 3];
    let mut q = [[zero; 3]; 3];
    let (mut ta, mut tb, mut ha, mut hb) = ([zero; 3], [zero; 3], [zero; 3], [zero; 3]);
    for i in 0..3 {
        for j in 0..3 {
            r[i][j] = a.axes[i].dot(b.axes[j]);
            q[i][j] = r[i][j].abs();
        }
        ta[i] = t.dot(a.axes[i]);
        tb[i] = t.dot(b.axes[i]);
        ha[i] = a.half.component(i);
        hb[i] = b.half.component(i);
    }
    let none = -V::Scalar::INFINITY;
    let mut acc = Acc { lower: none, upper: none, best: none, axis: 0, skipped: false };
    for i in 0..3 {
        let (mut ra, mut rb) = (zero, zero);
        for j in 0..3 {
            rb += hb[j] * q[i][j];
            ra += ha[j] * q[j][i];
        }
        acc.take(ta[i].abs() - ha[i] - rb, round, i);
        acc.take(tb[i].abs() - ra - hb[i], round, 3 + i);
    }
    let sign = |x: V::Scalar| if x >= zero { V::Scalar::ONE } else { -V::Scalar::ONE };
    // Exit: a face separates and its witnesses realise it. For A's face
    // `i` (normal `σ Aᵢ` towards B, σ = sign tᵢ), B's deepest corner along
    // it has A-frame coordinates `taₖ + Σⱼ ±hbⱼ rₖⱼ` (the sign of `−σ rᵢⱼ`,
    // as `support` picks); its foot on the face's plane lies on the face
    // when the other two coordinates are within A's half-extents. B's faces
    // the same way in B's frame, with A's corner `−tbₖ + Σᵢ ±haᵢ rᵢₖ`.
    if acc.best > zero && acc.best.is_finite() {
        let exact = match acc.axis {
            i @ 0..3 => {
                let sg = -sign(ta[i]);
                let c = |k: usize| {
                    ta[k] + (0..3).map(|j| hb[j] * sign(sg * r[i][j]) * r[k][j]).fold(zero, |x, y| x + y)
                };
                (0..3).filter(|&k| k != i).all(|k| c(k).abs() <= ha[k])
            }
            j => {
                let j = j - 3;
                let sg = sign(tb[j]);
                let c = |k: usize| {
                    -tb[k] + (0..3).map(|i| ha[i] * sign(sg * r[i][j]) * r[i][k]).fold(zero, |x, y| x + y)
                };
                (0..3).filter(|&k| k != j).all(|k| c(k).abs() <= hb[k])
            }
        };
        if exact {
            return Some(acc.best);
        }
    }
    let skip = V::Scalar::from_f64(BOX_PARALLEL_SKIP * eps.to_f64().sqrt());
    let m = Mats { r, q, ta, ha, hb, round, skip };
    m.crosses(&mut acc);
    if acc.skipped {
        acc.upper += skip * reach;
    }
    // Exit: contact or overlap.
    if acc.upper <= zero {
        return Some(zero);
    }
    // Exit: an edge pair separates and the closest points of its two
    // edges' lines lie within both edges (a face that is the largest
    // failed its check above). In A's frame: the axis `n = σ (Aᵢ × Bⱼ)`,
    // A's edge through its corner furthest along `n` (moved to the edge's
    // midpoint), B's through its corner furthest along `−n`.
    if acc.best > zero && acc.best.is_finite() && acc.axis >= 6 {
        let (i, j) = ((acc.axis - 6) / 3, (acc.axis - 6) % 3);
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let sg = sign(ta[i2] * r[i1][j] - ta[i1] * r[i2][j]);
        let mut n = [zero; 3];
        n[i1] = -sg * r[i2][j];
        n[i2] = sg * r[i1][j];
        // w = pa − pb in A's frame: pa's coordinates are ±haₖ off axis i,
        // pb is B's centre plus its off-axis half-extents along −n.
        let mut w = [zero; 3];
        w[i1] = ha[i1] * sign(n[i1]);
        w[i2] = ha[i2] * sign(n[i2]);
        for (k, wk) in w.iter_mut().enumerate() {
            *wk -= ta[k];
        }
        for l in (0..3).filter(|&l| l != j) {
            let nl = n[i1] * r[i1][l] + n[i2] * r[i2][l];
            let s = hb[l] * sign(-nl);
            for (k, wk) in w.iter_mut().enumerate() {
                *wk -= s * r[k][l];
            }
        }
        let rij = r[i][j];
        let d = w[i];
        let e = w[0] * r[0][j] + w[1] * r[1][j] + w[2] * r[2][j];
        let den = V::Scalar::ONE - rij * rij;
        if den > zero && ((rij * e - d) / den).abs() <= ha[i] && ((e - rij * d) / den).abs() <= hb[j] {
            return Some(acc.best);
        }
    }
    None
}

/// A point against a box, in closed form: the box's point nearest it (the
/// point's coordinates along the box's axes clamped to the half extents).
/// Apart, that point and the distance are exact whatever the region (face,
/// edge or corner), where the separating-axis test is exact over a face
/// only. Inside (or within rounding of the surface), the nearest face: the
/// depth is the least distance to a face plane, exactly the penetration
/// depth of a point in a box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointBox<V: Vector> {
    /// The point's signed distance from the box: positive apart, minus the
    /// depth inside.
    pub gap: V::Scalar,
    /// The unit normal from the box towards the point (outward across the
    /// nearest face where the point is inside or on it).
    pub normal: V,
    /// The box's point nearest the point (inside: the point's foot on the
    /// nearest face).
    pub on_box: V,
}

/// [`PointBox`] of `point` and box `b` (given in one frame). Apart by more
/// than rounding of the coordinates (16 ε of the reach), the clamped point
/// and its direction; else the face whose plane is nearest (largest signed
/// slab distance), its normal and the point's foot there. Every input must
/// be finite (the caller checks).
pub fn point_box<V: Space>(point: V, b: &BoxView<V>) -> PointBox<V> {
    let zero = V::Scalar::ZERO;
    let d = point - b.center;
    let (mut out, mut out_sq) = (V::ZERO, zero);
    let (mut face, mut face_sep) = (0, -V::Scalar::INFINITY);
    for (k, &axis) in b.axes.iter().enumerate().take(V::DIM) {
        let (l, h) = (d.dot(axis), b.half.component(k));
        // The slab's signed distance, and the part of `d` outside it.
        let sep = l.abs() - h;
        if sep > face_sep {
            (face, face_sep) = (k, sep);
        }
        if sep > zero {
            let o = if l >= zero { sep } else { -sep };
            out = out + axis * o;
            out_sq += sep * sep;
        }
    }
    let reach = d.length() + b.half.length();
    let round = V::Scalar::from_f64(BOX_ROUNDING) * V::Scalar::EPSILON * reach;
    let dist = sqrt(out_sq);
    if dist > round {
        return PointBox { gap: dist, normal: out * (V::Scalar::ONE / dist), on_box: point - out };
    }
    // On or inside: the nearest face plane (exact inside; within rounding
    // of the distance on the surface).
    let axis = b.axes[face];
    let normal = if d.dot(axis) >= zero { axis } else { -axis };
    PointBox { gap: face_sep, normal, on_box: point - normal * face_sep }
}

/// The closest points `(on a, on b)` of two segments or points given as
/// boxes of zero width ([`Shape::core_segment`](crate::Shape::core_segment)), in closed form. The
/// distance from B's point `b(t)` to segment A is convex in `t`, and
/// piecewise the distance to A's start, to A's line, or to A's end, as
/// `b(t)`'s place along A falls before, within or past it; each piece's
/// least is one clamped projection, and the least of those is the answer.
/// Every quantity is a difference of points or a projection on A's unit
/// direction, so nearly parallel segments keep their accuracy, where the
/// lines' closest points (Ericson, *Real-Time Collision Detection*,
/// §5.1.9) divide by `1 − cos²` of their angle: segments side by side in
/// a plane drift apart linearly, and a parameter lost to that division
/// costs the distance to first order (√ε of the length, measured). The
/// points lie on the segments; their distance is the segments' within
/// rounding. Every input must be finite (the caller checks).
pub fn closest_on_segments<V: Space>(a: &BoxView<V>, b: &BoxView<V>) -> (V, V) {
    let zero = V::Scalar::ZERO;
    let one = V::Scalar::ONE;
    // Start and direction of each: the centre less its half extent.
    let half = |v: &BoxView<V>| (0..V::DIM).fold(V::ZERO, |e, k| e + v.axes[k] * v.half.component(k));
    let (ea, eb) = (half(a), half(b));
    let (p1, d1, p2, d2) = (a.center - ea, ea + ea, b.center - eb, eb + eb);
    let len_a = d1.length();
    // The point of A nearest `q`, and of B nearest `q` within `[lo, hi]`.
    let on_a = |q: V| {
        let s = if len_a > zero { ((q - p1).dot(d1) / (len_a * len_a)).max(zero).min(one) } else { zero };
        p1 + d1 * s
    };
    let dd = d2.dot(d2);
    let on_b = |q: V, lo: V::Scalar, hi: V::Scalar| {
        let t = if dd > zero { ((q - p2).dot(d2) / dd).max(lo).min(hi) } else { lo };
        p2 + d2 * t
    };
    if len_a == zero {
        // A is a point.
        return (p1, on_b(p1, zero, one));
    }
    let u = d1 * (one / len_a);
    // B's place along A's line, `α(t) = α0 + t·Δα`, and its offset from
    // it, `w(t) = w0 + t·Δw` (differences of points: no cancellation of
    // nearly parallel directions).
    let (e0, e1) = (p2 - p1, (p2 + d2) - p1);
    let (al0, al1) = (e0.dot(u), e1.dot(u));
    let (w0, w1) = (e0 - u * al0, e1 - u * al1);
    let (dal, dw) = (al1 - al0, w1 - w0);
    // The pieces of `[0, 1]` where `α` is before A's start, along A, or
    // past its end: split where `α` crosses 0 and `len_a`.
    let mut cuts = [zero, one, one, one];
    let mut n = 1;
    if dal != zero {
        for c in [-al0 / dal, (len_a - al0) / dal] {
            if c > zero && c < one {
                cuts[n] = c;
                n += 1;
            }
        }
    }
    if n == 3 && cuts[1] > cuts[2] {
        cuts.swap(1, 2);
    }
    cuts[n] = one;
    let mut best = (V::Scalar::INFINITY, p1, p2);
    for k in 0..n {
        let (lo, hi) = (cuts[k], cuts[k + 1]);
        let mid = al0 + dal * ((lo + hi) * V::Scalar::from_f64(0.5));
        let q = if mid < zero {
            // Before A's start: B's point nearest A's start.
            on_b(p1, lo, hi)
        } else if mid > len_a {
            // Past A's end: nearest A's end.
            on_b(p1 + d1, lo, hi)
        } else {
            // Along A: the least offset from A's line.
            let ww = dw.dot(dw);
            let t = if ww > zero { (-(w0.dot(dw)) / ww).max(lo).min(hi) } else { lo };
            p2 + d2 * t
        };
        let pa = on_a(q);
        let dist = (q - pa).length_squared();
        if dist < best.0 {
            best = (dist, pa, q);
        }
    }
    // One round of alternating projections from the best pair (in exact
    // arithmetic each never moves the points apart, so it is kept even
    // where rounding says an ulp further): where segments lie nearly
    // parallel, pairs a rounding apart in distance differ in direction by
    // their angle (a piece's end standing for A's end, say), and the
    // direction is the contact's normal. B's point nearest A's, then A's
    // nearest that, settle the features' own perpendicular.
    let q = on_b(best.1, zero, one);
    (on_a(q), q)
}

/// Where one of two box views is a point (a ball's core,
/// [`Shape::core_segment`](crate::Shape::core_segment) with no extent): [`point_box`] of its centre
/// against the other, and whether the point is the first view's. `None`
/// where neither is.
#[inline]
pub fn point_and_box<V: Space>(a: &BoxView<V>, b: &BoxView<V>) -> Option<(PointBox<V>, bool)> {
    if b.half == V::ZERO {
        Some((point_box(b.center, a), false))
    } else if a.half == V::ZERO {
        Some((point_box(a.center, b), true))
    } else {
        None
    }
}

impl<V: Space> BoxView<V> {
    /// The corner furthest along `dir` (the positive side on ties).
    #[inline]
    pub fn support(&self, dir: V) -> V {
        let mut p = self.center;
        for (i, &axis) in self.axes.iter().enumerate().take(V::DIM) {
            let h = self.half.component(i);
            p = p + axis * if dir.dot(axis) >= V::Scalar::ZERO { h } else { -h };
        }
        p
    }
}

/// `a × b` from components (3D only; the trait has no cross product).
#[inline]
fn cross<V: Space>(a: V, b: V) -> V {
    let c = |i: usize| a.component(i);
    let d = |i: usize| b.component(i);
    V::axis(0) * (c(1) * d(2) - c(2) * d(1))
        + V::axis(1) * (c(2) * d(0) - c(0) * d(2))
        + V::axis(2) * (c(0) * d(1) - c(1) * d(0))
}

impl<S: Real> BoxSeparation<S> {
    /// The unit axis of [`Self::separation`], pointing from A towards B
    /// (the boxes' centres), in the shared frame.
    pub fn normal<V: Space<Scalar = S>>(&self, a: &BoxView<V>, b: &BoxView<V>) -> V {
        let n = match self.axis {
            i @ 0..3 => a.axes[i],
            j @ 3..6 => b.axes[j - 3],
            k => cross(a.axes[(k - 6) / 3], b.axes[(k - 6) % 3]).try_normalize().unwrap_or(a.axes[0]),
        };
        if n.dot(b.center - a.center) >= S::ZERO { n } else { -n }
    }

    /// Witness points `(on A, on B)` of [`Self::separation`] along `n`
    /// ([`Self::normal`]): for A's face, B's deepest corner and its foot on
    /// that face's plane; for B's face, the same the other way; for an edge
    /// pair, the closest points of A's edge furthest along `n` and B's
    /// furthest along `−n` (clamped to the edges). `point_a − point_b` is
    /// `−separation · n` for the faces, and for edges whose closest points
    /// lie within both.
    pub fn witnesses<V: Space<Scalar = S>>(&self, a: &BoxView<V>, b: &BoxView<V>, n: V) -> (V, V) {
        let s = self.separation;
        match self.axis {
            0..3 => {
                let q = b.support(-n);
                (q - n * s, q)
            }
            3..6 => {
                let p = a.support(n);
                (p, p + n * s)
            }
            k => {
                let (i, j) = ((k - 6) / 3, (k - 6) % 3);
                let (da, db) = (a.axes[i], b.axes[j]);
                // The support corners, moved to their edges' midpoints.
                let pa = a.support(n) - da * (a.half.component(i) * sign(n.dot(da)));
                let pb = b.support(-n) - db * (b.half.component(j) * sign(-n.dot(db)));
                // Closest points of the lines pa + u·da, pb + v·db (unit
                // directions, not parallel: the axis was not skipped).
                let w = pa - pb;
                let (r, d, e) = (da.dot(db), da.dot(w), db.dot(w));
                let den = (S::ONE - r * r).max(S::EPSILON);
                let clamp = |x: S, h: S| x.max(-h).min(h);
                let u = clamp((r * e - d) / den, a.half.component(i));
                let v = clamp((e - r * d) / den, b.half.component(j));
                (pa + da * u, pb + db * v)
            }
        }
    }
}

impl<S: Real> BoxSeparation<S> {
    /// The boxes' distance where this separation's axis proves it: the
    /// separation along it is positive and its witness points (see
    /// [`Self::witnesses`]) realise it, B's deepest corner's foot lying on
    /// A's face (or the other way), or the closest points of the two edges
    /// lying within both. Then the axis bounds the distance from below and
    /// the two points, one on each box, from above, by the same amount
    /// (whether or not the axis is the largest). `None` otherwise (vertex
    /// or edge regions GJK must measure, overlaps).
    pub fn exact_gap<V: Space<Scalar = S>>(&self, a: &BoxView<V>, b: &BoxView<V>) -> Option<S> {
        self.exact_gap_along(a, b, self.normal(a, b))
    }

    /// [`Self::exact_gap`] given the axis's normal `n` ([`Self::normal`]),
    /// for a caller that has it already.
    pub fn exact_gap_along<V: Space<Scalar = S>>(&self, a: &BoxView<V>, b: &BoxView<V>, n: V) -> Option<S> {
        let s = self.separation;
        // Apart (a NaN separation is not).
        if s.partial_cmp(&S::ZERO) != Some(core::cmp::Ordering::Greater) {
            return None;
        }
        // Whether `p` lies on box `x`'s face across axis `skip`: within
        // its half-extents along the other two axes.
        let on_face = |x: &BoxView<V>, p: V, skip: usize| {
            (0..V::DIM)
                .filter(|&k| k != skip)
                .all(|k| (p - x.center).dot(x.axes[k]).abs() <= x.half.component(k))
        };
        let exact = match self.axis {
            i @ 0..3 => on_face(a, b.support(-n) - n * s, i),
            j @ 3..6 => on_face(b, a.support(n) + n * s, j - 3),
            k => {
                let (i, j) = ((k - 6) / 3, (k - 6) % 3);
                let (da, db) = (a.axes[i], b.axes[j]);
                let pa = a.support(n) - da * (a.half.component(i) * sign(n.dot(da)));
                let pb = b.support(-n) - db * (b.half.component(j) * sign(-n.dot(db)));
                let w = pa - pb;
                let (r, d, e) = (da.dot(db), da.dot(w), db.dot(w));
                let den = S::ONE - r * r;
                // The lines' closest points, unclamped, within both edges.
                den > S::ZERO
                    && ((r * e - d) / den).abs() <= a.half.component(i)
                    && ((e - r * d) / den).abs() <= b.half.component(j)
            }
        };
        exact.then_some(s)
    }
}

/// `+1` for `x ≥ 0`, else `−1` (the supports' tie rule).
#[inline]
fn sign<S: Real>(x: S) -> S {
    if x >= S::ZERO { S::ONE } else { -S::ONE }
}
