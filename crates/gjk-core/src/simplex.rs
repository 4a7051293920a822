//! Support points and the simplex GJK keeps between iterations.

use crate::real::Real;
pub use crate::subsolver::MAX_SIMPLEX_POINTS;
pub use crate::subsolver::Reduced;
use crate::vector::Vector;

/// Least zero band, in units of `ε · scale`, that the deep-overlap test of
/// the verification phase assumes (the barycentric weights it reads carry
/// rounding of a few `ε · scale`).
pub const DEEP_BAND_FLOOR: f64 = 64.0;

/// Weight of the shape points' coordinates in a query's scale, against the
/// Minkowski points' own: a query's scale starts at this fraction of its
/// first support point's largest coordinate of `a` and `b`
/// ([`SupportPoint`]'s). With the default zero band (`256 ε · scale`) that
/// is a floor of `4 ε` of the coordinates: the rounding of placing B in
/// A's frame and of `w = a − b`, which a scale of the Minkowski points
/// alone misses near contact (a warm start's cached points there can be
/// a hundred-thousandth of the shapes' size; such queries called pairs in
/// contact apart at 6e-8 with a band of 2e-12). Far from the origin it
/// lets the band grow with the coordinates' rounding only, not 64 times
/// faster.
pub const SOURCE_SCALE_WEIGHT: f64 = 1.0 / 64.0;

/// Marker for "this support point is not a numbered vertex".
pub const NO_INDEX: u32 = u32::MAX;

/// A point of the Minkowski difference `A − B` with the two points it came from.
///
/// `w = a − b`, where `a` is the support point of shape A along the search
/// direction `d` and `b` the support point of shape B along `−d`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SupportPoint<V> {
    /// `a − b`, the point of the Minkowski difference.
    pub w: V,
    /// The support point of shape A.
    pub a: V,
    /// The support point of shape B.
    pub b: V,
    /// Vertex index of `a` in A, or [`NO_INDEX`].
    pub index_a: u32,
    /// Vertex index of `b` in B, or [`NO_INDEX`].
    pub index_b: u32,
}

impl<V: Vector> SupportPoint<V> {
    /// A support point from the two shape points, without vertex indices.
    #[inline]
    pub fn new(a: V, b: V) -> Self {
        Self { w: a - b, a, b, index_a: NO_INDEX, index_b: NO_INDEX }
    }

    /// A support point from the two shape points and their vertex indices.
    #[inline]
    pub fn with_indices(a: V, index_a: u32, b: V, index_b: u32) -> Self {
        Self { w: a - b, a, b, index_a, index_b }
    }

    /// Whether all three points are finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        // One test instead of one per coordinate: `0 · x` is ±0 for finite
        // `x` and NaN for infinity or NaN (and never overflows), so the sum
        // below has a zero square norm exactly when every coordinate is
        // finite. Called on every support point in GJK's loop.
        let z = V::Scalar::ZERO;
        let zero = self.w * z + self.a * z + self.b * z;
        zero.length_squared() == z
    }

    /// The seed of a query's scale from this point's shape points: their
    /// largest coordinate magnitude times [`SOURCE_SCALE_WEIGHT`].
    /// The rounding of `w = a − b` (and of placing `b` in A's frame) is
    /// relative to `a` and `b`, not to `w`, which near contact is tiny.
    #[inline]
    pub(crate) fn source_scale(&self) -> V::Scalar {
        self.a.max_abs().max(self.b.max_abs()) * V::Scalar::from_f64(SOURCE_SCALE_WEIGHT)
    }

    /// Whether `w` is finite: [`Self::is_finite`] for a point built by
    /// [`Self::new`] or [`Self::with_indices`] (so `w = a − b`), at a third
    /// of the cost. A non-finite coordinate of `a` or `b` makes that of
    /// `w` infinite or NaN (∞ − x, x − ∞, ∞ − ∞, NaN − x), and a difference
    /// that overflows fails both tests. For the queries' own loops, which
    /// build their points so and read only `w`.
    #[inline]
    pub(crate) fn w_is_finite(&self) -> bool {
        let z = V::Scalar::ZERO;
        (self.w * z).length_squared() == z
    }
}

/// The simplex of the Minkowski difference that GJK keeps: up to
/// [`MAX_SIMPLEX_POINTS`] support points with the barycentric coordinates of
/// the current closest point, and the search direction each point came from
/// (used to rebuild the simplex when warm starting).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Simplex<V: Vector> {
    points: [SupportPoint<V>; MAX_SIMPLEX_POINTS],
    dirs: [V; MAX_SIMPLEX_POINTS],
    lambda: [V::Scalar; MAX_SIMPLEX_POINTS],
    len: u8,
    /// Bit `i` set when point `i` is the support point along `dirs[i]` (so
    /// `dirs[i]·w` is how far `A − B` reaches along it); warm-start points
    /// rebuilt from vertex indices are not.
    exact: u8,
}

impl<V: Vector> Default for Simplex<V> {
    #[inline(always)]
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<V: Vector> Simplex<V> {
    /// The empty simplex, all zeros (a constant, so that the solvers'
    /// states start from one copy rather than element by element).
    pub(crate) const EMPTY: Self = {
        let z = SupportPoint { w: V::ZERO, a: V::ZERO, b: V::ZERO, index_a: 0, index_b: 0 };
        Self {
            points: [z; MAX_SIMPLEX_POINTS],
            dirs: [V::ZERO; MAX_SIMPLEX_POINTS],
            lambda: [V::Scalar::ZERO; MAX_SIMPLEX_POINTS],
            len: 0,
            exact: 0,
        }
    };
}

impl<V: Vector> Simplex<V> {
    /// A simplex of one point (barycentric weight 1).
    #[inline]
    pub fn from_point(p: SupportPoint<V>, dir: V) -> Self {
        let mut s = Self::default();
        s.points[0] = p;
        s.dirs[0] = dir;
        s.lambda[0] = V::Scalar::ONE;
        s.len = 1;
        s.exact = 1;
        s
    }

    /// A simplex of two points, both supports along `dir`, whose closest
    /// point to the origin is `(1 − t)·p.w + t·q.w` (`t` clamped to
    /// `[0, 1]`; NaN counts as 0): an edge of `A − B` found without GJK (the
    /// polygon walk of gjk-shapes), reported as GJK's final simplex would be.
    ///
    /// ```
    /// use gjk_core::{Simplex, SupportPoint, glam::Vec2};
    /// // A's edge from (0, 0) to (0, 2) against B's vertex (1, 1.5).
    /// let b = Vec2::new(1.0, 1.5);
    /// let p = SupportPoint::with_indices(Vec2::ZERO, 0, b, 3);
    /// let q = SupportPoint::with_indices(Vec2::new(0.0, 2.0), 1, b, 3);
    /// let s = Simplex::from_segment(p, q, Vec2::X, 0.75);
    /// assert_eq!(s.closest_point(), Vec2::new(-1.0, 0.0)); // point_a − point_b
    /// assert_eq!(s.witness_points(), (Vec2::new(0.0, 1.5), b));
    /// ```
    #[inline]
    pub fn from_segment(p: SupportPoint<V>, q: SupportPoint<V>, dir: V, t: V::Scalar) -> Self {
        let t = if t > V::Scalar::ZERO { t.min(V::Scalar::ONE) } else { V::Scalar::ZERO };
        let mut s = Self::from_point(p, dir);
        s.points[1] = q;
        s.dirs[1] = dir;
        s.lambda[0] = V::Scalar::ONE - t;
        s.lambda[1] = t;
        s.len = 2;
        s.exact = 0b11;
        s
    }

    /// Makes this the one-point simplex of [`Self::from_point`] in place
    /// (the other slots keep stale values, which are never read).
    #[inline]
    pub(crate) fn set_point(&mut self, p: SupportPoint<V>, dir: V) {
        self.points[0] = p;
        self.dirs[0] = dir;
        self.lambda[0] = V::Scalar::ONE;
        self.len = 1;
        self.exact = 1;
    }

    /// Empties the simplex in place (stale slots are never read).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.exact = 0;
    }

    /// Number of points (1 to 4; 0 only before a query starts).
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the simplex holds no point.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The support points.
    #[inline]
    pub fn points(&self) -> &[SupportPoint<V>] {
        &self.points[..self.len()]
    }

    /// The search directions the points came from (same order as [`Self::points`]).
    #[inline]
    pub fn directions(&self) -> &[V] {
        &self.dirs[..self.len()]
    }

    /// Barycentric coordinates of the closest point (same order as [`Self::points`]).
    #[inline]
    pub fn barycentric(&self) -> &[V::Scalar] {
        &self.lambda[..self.len()]
    }

    /// The closest point of the simplex to the origin, `Σ λᵢ wᵢ`.
    #[inline]
    pub fn closest_point(&self) -> V {
        let mut v = V::ZERO;
        for i in 0..self.len() {
            v = v + self.points[i].w * self.lambda[i];
        }
        v
    }

    /// Whether the simplex is full (`DIM + 1` points) and holds the origin
    /// farther than twice `band` from every facet: a cheap test (one
    /// volume, no facet normals) that tells a deep overlap from one that
    /// may only touch. GJK's verification uses it to settle deep overlaps
    /// without testing facets; contact generation to skip EPA for pairs
    /// that may only touch.
    ///
    /// The origin's distance to the facet opposite vertex `i` is
    /// `λᵢ · hᵢ` (its barycentric weight times that vertex's height), and
    /// `hᵢ = |vol| / |nᵢ|` with `vol` the simplex's raw volume and `nᵢ`
    /// the facet's raw normal. With `scale` the largest coordinate
    /// magnitude of the points, every point lies within `√DIM · scale` of
    /// the origin, which bounds `|nᵢ|` (`Vector::facet_normal_bound`). The
    /// factor two covers the rounding of the weights, whose error is
    /// ε-level: the band used is at least [`DEEP_BAND_FLOOR`] `ε · scale`,
    /// so a tiny band only makes the test more cautious.
    ///
    /// [`DEEP_BAND_FLOOR`]: DEEP_BAND_FLOOR
    #[inline]
    pub fn encloses_origin_deeply(&self, band: V::Scalar) -> bool {
        if self.len() != V::DIM + 1 {
            return false;
        }
        let w = self.w_array();
        let scale = w.iter().fold(V::Scalar::ZERO, |m, p| m.max(p.max_abs()));
        let min_weight = self.barycentric().iter().fold(V::Scalar::ONE, |m, &l| m.min(l));
        let vol = V::simplex_volume_raw(&w).abs();
        let floor = V::Scalar::from_f64(DEEP_BAND_FLOOR) * V::Scalar::EPSILON * scale;
        let two = V::Scalar::ONE + V::Scalar::ONE;
        min_weight * vol > two * band.max(floor) * V::facet_normal_bound(scale)
    }

    /// The witness points `(Σ λᵢ aᵢ, Σ λᵢ bᵢ)` on A and B.
    #[inline]
    pub fn witness_points(&self) -> (V, V) {
        let (mut pa, mut pb) = (V::ZERO, V::ZERO);
        for i in 0..self.len() {
            pa = pa + self.points[i].a * self.lambda[i];
            pb = pb + self.points[i].b * self.lambda[i];
        }
        (pa, pb)
    }

    /// The same simplex with every support point's `a` and `b` mapped by
    /// `f` (and `w` recomputed), e.g. to move it into another frame.
    pub fn map_points(&self, f: impl Fn(V) -> V) -> Self {
        let mut s = *self;
        for p in s.points.iter_mut().take(self.len()) {
            let (a, b) = (f(p.a), f(p.b));
            *p = SupportPoint { w: a - b, a, b, ..*p };
        }
        s
    }

    /// The same simplex in another vector type of the same scalar (every
    /// point and direction converted by `f`), e.g. `Vec3` to `Vec3A`.
    #[inline]
    pub fn convert<W: Vector<Scalar = V::Scalar>>(&self, f: impl Fn(V) -> W) -> Simplex<W> {
        let p = |q: &SupportPoint<V>| SupportPoint {
            w: f(q.w),
            a: f(q.a),
            b: f(q.b),
            index_a: q.index_a,
            index_b: q.index_b,
        };
        Simplex {
            points: [p(&self.points[0]), p(&self.points[1]), p(&self.points[2]), p(&self.points[3])],
            dirs: [f(self.dirs[0]), f(self.dirs[1]), f(self.dirs[2]), f(self.dirs[3])],
            lambda: self.lambda,
            len: self.len,
            exact: self.exact,
        }
    }

    /// The same simplex with its search directions mapped by `f`.
    pub fn map_directions(&self, f: impl Fn(V) -> V) -> Self {
        let mut s = *self;
        for d in s.dirs.iter_mut().take(self.len()) {
            *d = f(*d);
        }
        s
    }

    /// The Minkowski-difference points, padded to four.
    #[inline]
    pub(crate) fn w_array(&self) -> [V; MAX_SIMPLEX_POINTS] {
        let mut w = [V::ZERO; MAX_SIMPLEX_POINTS];
        for (i, wi) in w.iter_mut().enumerate().take(self.len()) {
            *wi = self.points[i].w;
        }
        w
    }

    /// Appends a point (the caller guarantees room).
    #[inline]
    pub(crate) fn push(&mut self, p: SupportPoint<V>, dir: V) {
        self.push_with(p, dir, true);
    }

    /// Appends a point, saying whether it is the support point along `dir`.
    #[inline]
    pub(crate) fn push_with(&mut self, p: SupportPoint<V>, dir: V, exact: bool) {
        let i = self.len();
        debug_assert!(i < MAX_SIMPLEX_POINTS);
        self.points[i] = p;
        self.dirs[i] = dir;
        self.lambda[i] = V::Scalar::ZERO;
        self.exact = (self.exact & !(1 << i)) | (u8::from(exact) << i);
        self.len += 1;
    }

    /// Whether point `i` is the support point along its direction.
    #[inline]
    pub(crate) fn is_exact(&self, i: usize) -> bool {
        self.exact & (1 << i) != 0
    }

    /// Drops the last point pushed (undoing [`Self::push`] before a reduce).
    #[inline]
    pub(crate) fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// Keeps the points named in `r.mask` with their barycentric coordinates.
    #[inline]
    pub(crate) fn reduce(&mut self, r: &Reduced<V::Scalar>) {
        if u32::from(r.mask) == (1u32 << self.len) - 1 {
            // Every point kept (an enclosing simplex): weights only.
            self.lambda = r.lambda;
            return;
        }
        // Branch-free compaction over all slots: each slot is copied to
        // position `k`, which advances only past kept points (`k ≤ i`, so
        // nothing unread is overwritten; mask bits past `len` are clear).
        // Which points survive is unpredictable, and a branch per point
        // mispredicted often (measured with callgrind's branch simulator).
        let mut k = 0;
        let mut exact = 0;
        for i in 0..MAX_SIMPLEX_POINTS {
            let keep = usize::from((r.mask >> i) & 1);
            self.points[k] = self.points[i];
            self.dirs[k] = self.dirs[i];
            self.lambda[k] = r.lambda[i];
            exact |= ((self.exact >> i) & 1 & keep as u8) << k;
            k += keep;
        }
        self.len = k as u8;
        self.exact = exact;
    }
}

/// The point of a sub-distance answer (beside the simplex that uses it:
/// `Reduced` itself knows no vector type).
impl<S: Real> Reduced<S> {
    /// The point `Σ λᵢ wᵢ`.
    #[inline]
    pub fn point<V: Vector<Scalar = S>>(&self, w: &[V; MAX_SIMPLEX_POINTS]) -> V {
        let mut p = V::ZERO;
        for (i, wi) in w.iter().enumerate() {
            if self.mask & (1 << i) != 0 {
                p = p + *wi * self.lambda[i];
            }
        }
        p
    }
}
