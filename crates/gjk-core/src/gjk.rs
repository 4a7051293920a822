//! The GJK distance algorithm as a caller-driven state machine.
//!
//! [`GjkSolver`] holds the simplex and the current closest point. The caller
//! asks it for a search [`direction`](GjkSolver::direction), evaluates the two
//! support mappings (A along `d`, B along `−d`) and hands the result to
//! [`step`](GjkSolver::step), until a step returns [`Step::Done`]. The
//! convenience queries in [`crate::query`] run exactly this loop, so a debug
//! viewer that drives the solver by hand sees the same iterations.
//!
//! The loop follows van den Bergen ("A fast and robust GJK implementation for
//! collision detection of convex objects", JGT 1999) and Montanari et al.
//! (TOG 2017): search along `−v`, stop when the support point brings no
//! relative improvement, reduce the simplex with the sub-distance solver of
//! the dimension (barycode in 2D, signed volumes in 3D), and stop as soon as
//! the closest point stops shrinking, so every exit is a proof of progress or
//! of convergence and no input can make it loop.

use crate::real::Real;
use crate::simplex::{MAX_SIMPLEX_POINTS, Simplex, SupportPoint};
use crate::vector::Vector;

/// Default hard cap on GJK iterations ([`GjkConfig::max_iterations`]).
///
/// Polytopes converge in far fewer (the count of distinct simplices is
/// finite); the cap exists for curved shapes at tight tolerances and for
/// inputs that defeat the numerical progress checks.
pub const DEFAULT_MAX_ITERATIONS: u32 = 128;

/// Most extra support calls spent deciding between touching and
/// intersecting once the origin is found on the simplex: one per facet of a
/// full simplex (4 in 3D), or the last search direction plus both sides of a
/// facet (3).
pub const MAX_VERIFY_CANDIDATES: usize = 4;

/// Most tie-breaking escapes per query (see Exit 4 in
/// [`GjkSolver::step`]): each costs one support call.
pub const MAX_ESCAPES: u32 = 2;

/// Most refinements per query (see Exits 2 and 4 in [`GjkSolver::step`]):
/// each costs one support call, and only a stall unproven to the zero band
/// takes one. A polytope's facet needs one or two; a curved shape's cap
/// nearly parallel to a face converges over a few (2 left f64 cylinders on
/// a box's face measured 27 bands off, and one such overlap called apart:
/// docs/reliability.md, *Curved caps nearly parallel to a face*).
pub const MAX_REFINES: u32 = 8;

/// How far below zero, in ulps of 1, a barycentric weight of a facet's
/// truer closest point may fall and still count as within the facet (the
/// rounding of the weights' area ratios; see [`GjkSolver::step`]'s Exit 4).
/// A point that far outside lies within `64 ε` of the facet's size of it,
/// well inside the zero band (`256 ε` of the coordinates).
pub const FACET_WEIGHT_ULPS: f64 = 64.0;

/// Sideways tilt of an escape direction, relative to the unit search
/// direction: large enough to break exact ties between support points on a
/// face, small enough to stay on that face's side of the shape.
pub const ESCAPE_TILT: f64 = 1.0 / 1_048_576.0;

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

/// Tunables of a GJK query. All tolerances are relative, so one
/// configuration serves shapes of any size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkConfig<S> {
    /// Hard cap on iterations (support calls of the search phase).
    pub max_iterations: u32,
    /// Relative accuracy of a converged distance: the loop stops when the
    /// gap between the upper bound `|v|` and the lower bound `v·w/|v|` is at
    /// most `rel_tolerance · max(|v|, scale)`.
    pub rel_tolerance: S,
    /// Scale-relative zero: with `scale` the largest coordinate magnitude of
    /// the Minkowski-difference points seen (and at least
    /// [`SOURCE_SCALE_WEIGHT`] of the first support point's shape points),
    /// distances up to `zero_tolerance · scale` count as contact.
    pub zero_tolerance: S,
    /// Early out: once the distance is proven larger than this, the query
    /// stops with [`Status::Beyond`] (infinity, the default, never stops
    /// early). Contact generation with a prediction distance uses it.
    pub max_distance: S,
}

impl<S: Real> Default for GjkConfig<S> {
    fn default() -> Self {
        Self {
            max_iterations: DEFAULT_MAX_ITERATIONS,
            rel_tolerance: S::DEFAULT_REL_TOLERANCE,
            zero_tolerance: S::DEFAULT_ZERO_TOLERANCE,
            max_distance: S::INFINITY,
        }
    }
}

impl<S: Real> GjkConfig<S> {
    /// The default configuration with an early out beyond `max_distance`.
    pub fn within(max_distance: S) -> Self {
        Self { max_distance, ..Self::default() }
    }
}

impl<S: Real> GjkConfig<S> {
    /// The configuration with NaN, negative or infinite tolerances replaced
    /// by the defaults, a zero iteration cap raised to one, a NaN
    /// `max_distance` read as infinity and a negative one as zero.
    pub fn sanitized(self) -> Self {
        // Finite and not negative; NaN fails both comparisons.
        let ok = |x: S| (x >= S::ZERO) & (x < S::INFINITY);
        // The common case (every query sanitises its configuration): valid
        // as given. A NaN `max_distance` fails `>= 0`.
        if (self.max_iterations > 0)
            & ok(self.rel_tolerance)
            & ok(self.zero_tolerance)
            & (self.max_distance >= S::ZERO)
        {
            return self;
        }
        let d = Self::default();
        Self {
            max_iterations: self.max_iterations.max(1),
            rel_tolerance: if ok(self.rel_tolerance) { self.rel_tolerance } else { d.rel_tolerance },
            zero_tolerance: if ok(self.zero_tolerance) { self.zero_tolerance } else { d.zero_tolerance },
            max_distance: if self.max_distance.is_nan() {
                S::INFINITY
            } else {
                self.max_distance.max(S::ZERO)
            },
        }
    }
}

/// What a distance query found, and so what its outputs mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The shapes are apart by more than the zero band. `distance`, the
    /// witness points and `normal` are exact to `rel_tolerance`.
    Separated,
    /// The distance is within the zero band and `normal` was verified: no
    /// point of `A − B` lies further than the band along it, so the shapes
    /// touch and penetrate by at most the band. `normal` separates them.
    Touching,
    /// The origin lies in `A − B` (distance 0) and no separating direction
    /// was found: the shapes overlap. `normal` is only the last search
    /// direction, not a separating one; use EPA for depth and normal.
    Intersecting,
    /// The distance is proven larger than [`GjkConfig::max_distance`]:
    /// `lower_bound` exceeds it. `distance` is only an upper bound, the
    /// witness points a valid pair of points of A and B, and `normal` the
    /// direction that proved the bound (it separates the shapes).
    Beyond,
    /// The iteration cap was reached. `distance` is an upper bound and the
    /// witness points are a valid pair of points of A and B, not
    /// necessarily the closest.
    IterationLimit,
    /// A support point (or the configuration) held NaN or infinity. All
    /// outputs are zero.
    InvalidInput,
}

impl Status {
    /// Whether the result says the shapes are in contact (touching or
    /// overlapping).
    #[inline]
    pub fn is_contact(self) -> bool {
        matches!(self, Status::Touching | Status::Intersecting)
    }
}

/// Outcome of one [`GjkSolver::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Ask for another support point along [`GjkSolver::direction`].
    Continue,
    /// The query has finished; [`GjkSolver::result`] holds the answer.
    Done(Status),
}

/// Everything a distance query returns (the paper's "level 3").
#[derive(Clone, Copy, Debug)]
pub struct DistanceResult<V: Vector> {
    /// What was found, and so what the other fields mean.
    pub status: Status,
    /// Euclidean distance between the shapes (0 when in contact).
    pub distance: V::Scalar,
    /// Closest point on A (a convex combination of A's support points).
    pub point_a: V,
    /// Closest point on B (same barycentric weights as `point_a`).
    pub point_b: V,
    /// Unit separating normal pointing from A to B (see [`Status`]).
    pub normal: V,
    /// A lower bound on the distance proven by the support calls made.
    pub lower_bound: V::Scalar,
    /// The zero band used: distances up to this count as contact.
    pub tolerance: V::Scalar,
    /// Support calls made after the start (search plus verification).
    pub iterations: u32,
    /// The final simplex with the source points on A and B of each vertex.
    pub simplex: Simplex<V>,
}

impl<V: Vector> DistanceResult<V> {
    /// Whether the shapes touch or overlap (distance within the zero band).
    #[inline]
    pub fn intersects(&self) -> bool {
        self.status.is_contact()
    }

    /// The distance, or `None` when the query failed (invalid input).
    #[inline]
    pub fn try_distance(&self) -> Option<V::Scalar> {
        (self.status != Status::InvalidInput).then_some(self.distance)
    }

    /// The same result in another vector type of the same scalar.
    #[inline]
    pub(crate) fn convert<W: Vector<Scalar = V::Scalar>>(
        &self,
        f: impl Fn(V) -> W + Copy,
    ) -> DistanceResult<W> {
        DistanceResult {
            status: self.status,
            distance: self.distance,
            point_a: f(self.point_a),
            point_b: f(self.point_b),
            normal: f(self.normal),
            lower_bound: self.lower_bound,
            tolerance: self.tolerance,
            iterations: self.iterations,
            simplex: self.simplex.convert(f),
        }
    }

    /// The all-zero result reported for invalid input.
    pub fn invalid() -> Self {
        Self {
            status: Status::InvalidInput,
            distance: V::Scalar::ZERO,
            point_a: V::ZERO,
            point_b: V::ZERO,
            normal: V::X,
            lower_bound: V::Scalar::ZERO,
            tolerance: V::Scalar::ZERO,
            iterations: 0,
            simplex: Simplex::default(),
        }
    }
}

/// The lower bound on the distance that one support point `w` of A − B,
/// found along `dir`, proves: every x of A − B has `dir·x ≤ dir·w`, so the
/// distance is at least `−dir·w / |dir|` when that is positive. Returns
/// `(−dir·w, bound²)`, or `None` when it proves nothing.
#[inline]
pub(crate) fn start_bound<V: Vector>(w: V, dir: V) -> Option<(V::Scalar, V::Scalar)> {
    let vw = -dir.dot(w);
    let dd = dir.length_squared();
    (vw > V::Scalar::ZERO && dd > V::Scalar::ZERO).then(|| (vw, vw * vw / dd))
}

/// The scale of the zero band for the exits taken on the first support
/// point alone: the larger of the coordinates of `w` and of the search
/// direction `dir`. A touching pair's first point can lie at the contact,
/// with coordinates at rounding level; a band relative to that point alone
/// would call the pair apart by its rounding. A cold start searches along
/// the centres' difference, whose negation is a point of `A − B` (the
/// centres lie in the shapes), so its magnitude is one of `A − B`'s.
/// Only these exits use it (the search's own scale stays that of the points
/// it saw), and it only ever widens their band: they stop less often.
#[inline]
pub(crate) fn start_scale<V: Vector>(w: V, dir: V) -> V::Scalar {
    w.max_abs().max(dir.max_abs())
}

/// Whether a proven squared lower bound passes the caller's limit plus the
/// zero band of `scale` (so that touching pairs are never cut off): GJK's
/// Exit 0, [`Status::Beyond`].
#[inline]
pub(crate) fn beyond<S: Real>(config: &GjkConfig<S>, scale: S, lower_sq: S) -> bool {
    let limit = config.max_distance + config.zero_tolerance * scale;
    lower_sq > limit * limit
}

/// GJK's Exit 1: the gap between the upper bound `|v|` and the lower bound
/// `v·w/|v|` (with `w` the support point along `−v`) is within the relative
/// tolerance of `|v|`, or of the shapes' `scale` (so that near-contact
/// distances converge too). Squared values: `vv = v·v`, `vw = v·w`.
#[inline(always)]
pub(crate) fn converged<S: Real>(config: &GjkConfig<S>, scale: S, vv: S, vw: S) -> bool {
    let gap = vv - vw;
    let abs = config.rel_tolerance * scale;
    gap <= config.rel_tolerance * vv || gap * gap <= vv * abs * abs
}

/// Whether the gap between the upper bound `|v|` and the lower bound
/// `v·w/|v|` exceeds the zero band `band` (squared values as in
/// [`converged`]): the search stopped without proving its distance to the
/// band, the case GJK's refinement (Exits 2 and 4) looks at again.
#[inline(always)]
pub(crate) fn unproven<S: Real>(vv: S, vw: S, band: S) -> bool {
    let gap = vv - vw;
    gap > S::ZERO && gap * gap > vv * band * band
}

/// Whether the best proven lower bound `√lower_sq` leaves the distance
/// `|v|` unproven to the zero band `band`: `|v| − √lower_sq > band`, in
/// squares (`|v| > l + b` ⇔ `vv − l² − b² > 2 l b`).
#[inline]
pub(crate) fn unproven_by<S: Real>(vv: S, lower_sq: S, band: S) -> bool {
    let x = vv - lower_sq - band * band;
    let two = S::ONE + S::ONE;
    x > S::ZERO && x * x > two * two * lower_sq * band * band
}

/// Whether a search stopping at Exit 2 or 4 should refine (see
/// [`GjkSolver::step`]): within [`MAX_REFINES`] (counted here) and only
/// where the distance is unproven to the band, by this step's support
/// point ([`unproven`]) or, after an escape (whose support point proves no
/// bound), by the best bound so far ([`unproven_by`]).
#[inline(always)]
pub(crate) fn wants_refine<S: Real>(
    escaping: bool,
    refines: &mut u32,
    (vv, vw, lower_sq): (S, S, S),
    band: S,
) -> bool {
    let open = if escaping { unproven_by(vv, lower_sq, band) } else { unproven(vv, vw, band) };
    if *refines >= MAX_REFINES || !open {
        return false;
    }
    *refines += 1;
    true
}

/// The closest point to the origin of the plane of the facet `w` (`DIM`
/// points: a segment in 2D, a triangle in 3D), from the facet's unit
/// normal: `n (n · w₀)`. Its direction is as accurate as the normal, a
/// cross product of the facet's edges, whatever its distance; `v` summed
/// from the barycentric weights carries rounding of `ε · scale` in every
/// component, which turns its direction by `ε · scale / |v|`, a
/// thousandth of a radian in `f32` a few hundred ulps from contact. A
/// search along that turned direction can return a vertex already in the
/// simplex while the true support lies beyond the facet (the paper's
/// 64-vertex touching set, pair 71: stopped at 1.6 zero bands with no lower
/// bound, the true gap 1.6e-7). `None` for other simplices or a degenerate
/// facet.
///
/// Out of line and cold: it runs only where a search stalls unproven.
#[cold]
#[inline(never)]
pub(crate) fn facet_point<V: Vector>(w: &[V]) -> Option<V> {
    if w.len() != V::DIM {
        return None;
    }
    let n = V::facet_normal(w)?;
    let p = n * n.dot(w[0]);
    p.is_finite().then_some(p)
}

/// The escape direction of GJK's Exit 4 (see [`GjkSolver::step`]): `−v`
/// tilted by [`ESCAPE_TILT`] away from the rejected support point `w`, or
/// `None` when `w − v` is parallel to `v` (no sideways direction).
///
/// Out of line and cold: inlined, the compiler computed its `v / |v|` (a
/// square root and a division) at the top of every step of the distance
/// loop, for an exit that almost never runs (callgrind: ~50 instructions
/// a step).
#[cold]
#[inline(never)]
pub(crate) fn escape_direction<V: Vector>(v: V, w: V) -> Option<V> {
    let n = v.try_normalize().unwrap_or(V::ZERO);
    let away = v - w;
    (away - n * n.dot(away)).try_normalize().map(|t| -n + t * V::Scalar::from_f64(ESCAPE_TILT))
}

/// Barycentric weights of `t`, a point of the plane of the facet
/// `w[..DIM]`, in that facet (areas of the sub-facets with `t` in each
/// corner, over the facet's); `None` for a degenerate facet or a weight
/// below `−FACET_WEIGHT_ULPS · ε` (outside the facet beyond rounding).
#[cold]
#[inline(never)]
pub(crate) fn facet_weights<V: Vector>(
    w: &[V; MAX_SIMPLEX_POINTS],
    t: V,
) -> Option<[V::Scalar; MAX_SIMPLEX_POINTS]> {
    let n = V::facet_normal_raw(&w[..V::DIM]);
    let nn = n.length_squared();
    // Degenerate (zero area) or not finite: no weights (NaN fails both).
    if nn <= V::Scalar::ZERO || !nn.is_finite() {
        return None;
    }
    let slack = V::Scalar::from_f64(FACET_WEIGHT_ULPS) * V::Scalar::EPSILON;
    let mut lambda = [V::Scalar::ZERO; MAX_SIMPLEX_POINTS];
    for i in 0..V::DIM {
        let mut f = *w;
        f[i] = t;
        let l = V::facet_normal_raw(&f[..V::DIM]).dot(n) / nn;
        // Outside the facet beyond rounding, or NaN.
        if l < -slack || l.is_nan() {
            return None;
        }
        lambda[i] = l.max(V::Scalar::ZERO);
    }
    Some(lambda)
}

#[derive(Clone, Copy, Debug)]
enum Phase<V> {
    /// The GJK descent towards the origin.
    Search,
    /// The origin is on the simplex: check candidate separating normals.
    Verify { candidates: [V; MAX_VERIFY_CANDIDATES], count: u8, next: u8 },
    /// Finished.
    Done(Status),
}

/// GJK distance as a state machine driven by the caller.
///
/// ```
/// use gjk_core::{GjkSolver, GjkConfig, Step, SupportMap, minkowski_support, glam::Vec2};
/// let a = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)];
/// let b = [Vec2::new(3.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(3.0, 1.0)];
/// let mut gjk = GjkSolver::new(GjkConfig::default());
/// let d0 = Vec2::X;
/// let mut step = gjk.start(minkowski_support(&a, &b, d0), d0);
/// while step == Step::Continue {
///     let d = gjk.direction();
///     // A debug viewer would draw gjk.simplex() and gjk.closest_point() here.
///     step = gjk.step(minkowski_support(&a, &b, d));
/// }
/// assert!((gjk.result().distance - 2.0).abs() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct GjkSolver<V: Vector> {
    config: GjkConfig<V::Scalar>,
    simplex: Simplex<V>,
    /// Current closest point of the simplex to the origin.
    v: V,
    vv: V::Scalar,
    /// The closest point before the last update (its direction is the best
    /// guess of a contact normal when the origin is reached).
    prev_v: V,
    /// Largest coordinate magnitude of the Minkowski points seen.
    scale: V::Scalar,
    /// Best proven lower bound on the distance, squared (0 when none), and
    /// the pair `(v·w, v)` it came from: the bound is `v·w / |v|`.
    lower_sq: V::Scalar,
    lower_vw: V::Scalar,
    lower_v: V,
    iterations: u32,
    /// Escapes made (Exit 4), at most [`MAX_ESCAPES`].
    escapes: u32,
    /// Refinements made (Exits 2 and 4), at most [`MAX_REFINES`].
    refines: u32,
    /// Whether `dir` is an escape direction rather than `−v` (its support
    /// point then proves no lower bound).
    escaping: bool,
    dir: V,
    phase: Phase<V>,
    normal: V,
    distance: V::Scalar,
}

impl<V: Vector> GjkSolver<V> {
    /// A solver with the given configuration (sanitized), not yet started.
    pub fn new(config: GjkConfig<V::Scalar>) -> Self {
        Self { config: config.sanitized(), ..Self::new_unchecked() }
    }

    /// A solver with the default configuration, not yet started.
    #[inline]
    fn new_unchecked() -> Self {
        Self {
            config: GjkConfig::default(),
            simplex: Simplex::default(),
            v: V::ZERO,
            vv: V::Scalar::ZERO,
            prev_v: V::ZERO,
            scale: V::Scalar::ZERO,
            lower_sq: V::Scalar::ZERO,
            lower_vw: V::Scalar::ZERO,
            lower_v: V::X,
            iterations: 0,
            escapes: 0,
            refines: 0,
            escaping: false,
            dir: V::X,
            phase: Phase::Done(Status::InvalidInput),
            normal: V::X,
            distance: V::Scalar::ZERO,
        }
    }

    /// Starts from one support point `p`, found along `dir`.
    pub fn start(&mut self, p: SupportPoint<V>, dir: V) -> Step {
        self.reset();
        self.start_fresh(p, dir, V::Scalar::ZERO)
    }

    /// [`Self::start`] on a solver just made by [`Self::new`] (nothing to
    /// reset; the queries' hot path).
    /// `seed`: a coordinate magnitude of `A − B` known before the first
    /// support call (the queries' centres; 0 for none), the least scale.
    #[inline]
    pub(crate) fn start_fresh(&mut self, p: SupportPoint<V>, dir: V, seed: V::Scalar) -> Step {
        // The common cold start, without the general path's solve: one
        // point is its own closest point.
        if !p.is_finite() || !dir.is_finite() {
            return self.finish_invalid();
        }
        self.phase = Phase::Search;
        self.scale = p.w.max_abs().max(seed).max(p.source_scale());
        self.simplex.set_point(p, dir);
        self.v = p.w;
        self.vv = p.w.length_squared();
        self.prev_v = -dir;
        if !self.vv.is_finite() {
            return self.finish_invalid();
        }
        // The start point is a support along `dir`: every x of A − B has
        // dir·x ≤ dir·w, so the distance is at least −dir·w/|dir| when that
        // is positive. A pair whose centres are far apart (the common
        // broad-phase case) is proven beyond the limit here, one support
        // call sooner than Exit 0 of the first step could.
        if let Some((vw, lower_sq)) = start_bound(p.w, dir) {
            self.lower_sq = lower_sq;
            self.lower_vw = vw;
            self.lower_v = -dir;
            if beyond(&self.config, start_scale(p.w, dir), lower_sq) {
                // Exit 0 at the start, beyond (as in `search_step`).
                self.distance = self.v.length();
                self.normal = dir.try_normalize().unwrap_or(V::X);
                return self.finish(Status::Beyond);
            }
        }
        if self.vv <= self.band() * self.band() {
            return self.enter_verify(false);
        }
        self.dir = -self.v;
        Step::Continue
    }

    /// Back to the state of [`Self::new`] with the same configuration.
    /// Field by field rather than `*self = …`: the simplex's slots past its
    /// length are never read, so only its length is cleared, and the large
    /// `Verify` phase payload is not rewritten (a whole-struct reset was a
    /// ~350-byte copy on every query).
    #[inline]
    fn reset(&mut self) {
        self.simplex.clear();
        self.v = V::ZERO;
        self.vv = V::Scalar::ZERO;
        self.prev_v = V::ZERO;
        self.scale = V::Scalar::ZERO;
        self.lower_sq = V::Scalar::ZERO;
        self.lower_vw = V::Scalar::ZERO;
        self.lower_v = V::X;
        self.iterations = 0;
        self.escapes = 0;
        self.refines = 0;
        self.escaping = false;
        self.dir = V::X;
        self.phase = Phase::Done(Status::InvalidInput);
        self.normal = V::X;
        self.distance = V::Scalar::ZERO;
    }

    /// Starts from several support points (a warm-start simplex), each with
    /// the direction it came from. Duplicates are dropped; at most
    /// [`MAX_SIMPLEX_POINTS`] are used. An empty slice is invalid input. A
    /// full simplex counts as holding the origin only where its
    /// barycentric weights put the origin within the zero band (at least
    /// [`DEEP_BAND_FLOOR`] `ε · scale`); otherwise (one too thin for its
    /// distance from the origin, whose solve is rounding) the search goes
    /// on from its point nearest the origin.
    pub fn start_from(&mut self, points: &[(SupportPoint<V>, V)]) -> Step {
        self.start_with::<false>(points.iter().copied())
    }

    /// [`Self::start_from`] on points made as they are read (a warm-start
    /// cache rebuilds them straight into the simplex, with no array in
    /// between). `BUILT`: every point was made by [`SupportPoint::new`] or
    /// [`SupportPoint::with_indices`] (so `w = a − b`), and its finiteness
    /// is that of `w` alone ([`SupportPoint::w_is_finite`]); a caller's
    /// points may not be, and are checked whole.
    #[inline]
    pub(crate) fn start_with<const BUILT: bool>(
        &mut self,
        points: impl Iterator<Item = (SupportPoint<V>, V)>,
    ) -> Step {
        self.reset();
        self.phase = Phase::Search;
        for (p, d) in points.take(V::DIM + 1) {
            // `0 · x` is ±0 for finite `x`, NaN otherwise (as in
            // `SupportPoint::is_finite`): one test for the point and `d`.
            let z = V::Scalar::ZERO;
            let finite =
                if BUILT { (p.w * z + d * z).length_squared() == z } else { p.is_finite() && d.is_finite() };
            if !finite {
                return self.finish_invalid();
            }
            if self.simplex.points().iter().any(|q| q.w == p.w) {
                continue;
            }
            if self.simplex.is_empty() {
                // The first point's shape points seed the scale, as a cold
                // start's do: the cached points lie near the contact, where
                // `w` alone can be far smaller than the coordinates' rounding.
                self.scale = p.source_scale();
            }
            self.scale = self.scale.max(p.w.max_abs());
            // Warm-start points come from vertex indices, not from supports
            // along `d` on the current poses.
            self.simplex.push_with(p, d, false);
        }
        if self.simplex.is_empty() {
            return self.finish_invalid();
        }
        let w = self.simplex.w_array();
        let n = self.simplex.len();
        let r = V::solve_simplex(&w, n);
        let full = n == V::DIM + 1 && r.mask == 0b1111 >> (MAX_SIMPLEX_POINTS - n);
        let v = r.point(&w);
        self.simplex.reduce(&r);
        self.v = v;
        self.vv = v.length_squared();
        self.prev_v = self.simplex.directions()[0] * -V::Scalar::ONE;
        if !self.vv.is_finite() {
            return self.finish_invalid();
        }
        if full {
            // An enclosure puts the weighted sum at the origin, to rounding.
            // Warm-start points can form a simplex too thin for its distance
            // from the origin (a shape 1e-6 across, 0.8 away: its volumes
            // are below the rounding of its determinants), whose solve then
            // claims the origin with weights that sum elsewhere: no proof.
            let floor = V::Scalar::from_f64(DEEP_BAND_FLOOR) * V::Scalar::EPSILON * self.scale;
            let band = self.band().max(floor);
            if self.vv <= band * band {
                return self.enter_verify(true);
            }
            // Exit: the search goes on from the point nearest the origin.
            return self.restart_from_nearest();
        }
        if self.vv <= self.band() * self.band() {
            return self.enter_verify(false);
        }
        self.dir = -self.v;
        Step::Continue
    }

    /// Keeps only the simplex point nearest the origin (with its
    /// direction) and searches on from it: the answer to a warm-start
    /// simplex whose solve is rounding (see [`Self::start_from`]).
    #[cold]
    fn restart_from_nearest(&mut self) -> Step {
        let pts = self.simplex.points();
        let near =
            |k: usize, i: usize| if pts[i].w.length_squared() < pts[k].w.length_squared() { i } else { k };
        let k = (1..pts.len()).fold(0, near);
        let (p, d) = (pts[k], self.simplex.directions()[k]);
        self.simplex.set_point(p, d);
        self.v = p.w;
        self.vv = p.w.length_squared();
        if self.vv <= self.band() * self.band() {
            return self.enter_verify(false);
        }
        self.dir = -self.v;
        Step::Continue
    }

    /// The direction to evaluate next: A's support along it, B's along its
    /// negation.
    #[inline]
    pub fn direction(&self) -> V {
        self.dir
    }

    /// Whether the query has finished.
    #[inline]
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done(_))
    }

    /// The current simplex (with barycentric weights of the closest point).
    #[inline]
    pub fn simplex(&self) -> &Simplex<V> {
        &self.simplex
    }

    /// The current closest point of the simplex to the origin (`v`).
    #[inline]
    pub fn closest_point(&self) -> V {
        self.v
    }

    /// Proven bounds `(lower, upper)` on the distance so far.
    #[inline]
    pub fn distance_bounds(&self) -> (V::Scalar, V::Scalar) {
        (self.lower_bound(), self.v.length())
    }

    /// The best proven lower bound on the distance.
    #[inline]
    fn lower_bound(&self) -> V::Scalar {
        if self.lower_sq > V::Scalar::ZERO { self.lower_vw / self.lower_v.length() } else { V::Scalar::ZERO }
    }

    /// Support calls made since the start.
    #[inline]
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// The current zero band, `zero_tolerance · scale`.
    #[inline]
    fn band(&self) -> V::Scalar {
        self.config.zero_tolerance * self.scale
    }

    /// The budget of `step` calls that surely reaches [`Step::Done`].
    #[inline]
    pub fn step_budget(&self) -> u32 {
        self.config.max_iterations + MAX_VERIFY_CANDIDATES as u32 + 1
    }

    /// Feeds the support point found along [`Self::direction`].
    #[inline]
    pub fn step(&mut self, p: SupportPoint<V>) -> Step {
        match self.phase {
            Phase::Search => self.search_step(p),
            Phase::Verify { candidates, count, next } => self.verify_step(p, candidates, count, next),
            Phase::Done(s) => Step::Done(s),
        }
    }

    #[inline(always)]
    fn search_step(&mut self, p: SupportPoint<V>) -> Step {
        self.iterations += 1;
        if !p.is_finite() {
            return self.finish_invalid();
        }
        self.scale = self.scale.max(p.w.max_abs());
        let vw = self.v.dot(p.w);
        let escaping = core::mem::replace(&mut self.escaping, false);
        // A support point along −v proves the lower bound v·w/|v|; one
        // along an escape direction proves nothing, so it skips Exit 1.
        if !escaping {
            if vw > V::Scalar::ZERO {
                let lb = vw * vw / self.vv;
                if lb > self.lower_sq {
                    self.lower_sq = lb;
                    self.lower_vw = vw;
                    self.lower_v = self.v;
                }
            }
            // Exit 0, beyond: the lower bound passed the caller's limit (plus
            // the zero band, so that touching pairs are never cut off).
            if beyond(&self.config, self.scale, self.lower_sq) {
                self.distance = self.v.length();
                self.normal = (-self.lower_v).try_normalize().unwrap_or(V::X);
                return self.finish(Status::Beyond);
            }
            // Exit 1, converged (see `converged`).
            if converged(&self.config, self.scale, self.vv, vw) {
                return self.finish_converged();
            }
        }
        let band = self.band();
        // Exit 2, repeated vertex: the simplex cannot grow, so |v| is final,
        // unless the distance is unproven to the band and a facet's normal
        // gives a truer `v` (see `facet_point`).
        if self.simplex.points().iter().any(|q| q.w == p.w) {
            if wants_refine(escaping, &mut self.refines, (self.vv, vw, self.lower_sq), band)
                && let Some(step) = self.refine()
            {
                return step;
            }
            return self.finish_converged();
        }
        let dir = self.dir;
        self.simplex.push(p, dir);
        let w = self.simplex.w_array();
        let n = self.simplex.len();
        let r = V::solve_simplex_newest(&w, n);
        if n == V::DIM + 1 && r.mask == 0b1111 >> (MAX_SIMPLEX_POINTS - n) {
            // Exit 3, enclosed: a full-dimensional simplex holds the origin.
            self.simplex.reduce(&r);
            self.prev_v = self.v;
            self.v = V::ZERO;
            self.vv = V::Scalar::ZERO;
            return self.enter_verify(true);
        }
        let v = r.point(&w);
        let vv = v.length_squared();
        // Exit 4, no progress: |v| must strictly decrease each iteration;
        // when rounding stops that, the previous simplex is the answer.
        if !vv.strictly_less(self.vv) {
            // Not converged (Exit 1 did not fire), so the true progress was
            // below rounding. Near contact (`|v|` a few hundred ulps of the
            // scale, the distance unproven to the band) that is rounding in
            // `v`'s direction: a truer `v` from the facet's normal first
            // (`facet_point`). A simplex one point short of a facet (a
            // segment in 3D) makes its facet with the new point instead
            // (`refine_facet`).
            let open = wants_refine(escaping, &mut self.refines, (self.vv, vw, self.lower_sq), band);
            if n == V::DIM {
                if open && let Some(step) = self.refine_facet() {
                    return step;
                }
                self.simplex.pop();
            } else {
                self.simplex.pop();
                if open && let Some(step) = self.refine() {
                    return step;
                }
            }
            // Elsewhere it happens when the closest point lies on an edge
            // of a face whose support points tie along −v (faces parallel
            // to within ~1e-10): the support picked the tie on the wrong
            // side, and the point needed is across the face. Search once
            // more along −v tilted away from the rejected point, which
            // breaks the tie the other way. Only a strict improvement is
            // kept; at most MAX_ESCAPES times.
            if !escaping
                && self.escapes < MAX_ESCAPES
                && let Some(dir) = escape_direction(self.v, p.w)
            {
                self.escapes += 1;
                self.escaping = true;
                self.dir = dir;
                return Step::Continue;
            }
            return self.finish_converged();
        }
        self.simplex.reduce(&r);
        self.prev_v = self.v;
        self.v = v;
        self.vv = vv;
        // Exit 5, origin reached: within the zero band of the simplex.
        if vv <= band * band {
            return self.enter_verify(false);
        }
        // Exit 6, iteration cap.
        if self.iterations >= self.config.max_iterations {
            return self.finish(Status::IterationLimit);
        }
        self.dir = -v;
        Step::Continue
    }

    /// GJK's refinement (Exits 2 and 4, the distance unproven to the band):
    /// `v` recomputed from the facet's normal ([`facet_point`]) and one more
    /// search step along it, or the verification where that `v` lies
    /// within the zero band. `None` (the exit goes on as without it) for
    /// other simplices or where the facet gives the same point.
    #[cold]
    #[inline(never)]
    fn refine(&mut self) -> Option<Step> {
        let w = self.simplex.w_array();
        let v = facet_point(&w[..self.simplex.len()]).filter(|v| *v != self.v)?;
        Some(self.refine_to(v))
    }

    /// Takes the truer closest point `t` of a refinement as `v`: the
    /// verification where it lies within the band, else one more search
    /// step along `−t`.
    fn refine_to(&mut self, t: V) -> Step {
        self.prev_v = self.v;
        self.v = t;
        self.vv = t.length_squared();
        let band = self.band();
        if self.vv <= band * band {
            // Exit 5 for the truer point: the origin is within the band.
            return self.enter_verify(false);
        }
        self.dir = -t;
        Step::Continue
    }

    /// GJK's refinement for a simplex one point short of a facet (a
    /// segment in 3D, a point in 2D) that the new support point `p` (last
    /// in the simplex) did not visibly improve: the facet's truer closest
    /// point ([`facet_point`]), where it lies within the facet, becomes
    /// `v`, with `p` kept. Since Exit 1 did not fire, `p` lies beyond `v`
    /// along `−v`, so moving from `v` towards `p` brings the closest point
    /// strictly nearer: mathematically the facet's closest point is not
    /// `v`, and rounding hid the step, which is below an ulp of `|v|²` where
    /// `p` lies far to the side (a cylinder's cap tilted 1e-9 on another's:
    /// docs/reliability.md, *Curved caps nearly parallel to a face*). Its
    /// barycentric weights must be non-negative to rounding, so that `v`
    /// stays a point of `A − B`. `None` (the exit goes on as without it)
    /// for a degenerate facet, a point outside it or the same `v`.
    #[cold]
    #[inline(never)]
    fn refine_facet(&mut self) -> Option<Step> {
        let w = self.simplex.w_array();
        let t = facet_point(&w[..V::DIM]).filter(|t| *t != self.v)?;
        let lambda = facet_weights(&w, t)?;
        let mask = 0b1111u8 >> (MAX_SIMPLEX_POINTS - V::DIM);
        self.simplex.reduce(&crate::simplex::Reduced { mask, lambda });
        Some(self.refine_to(t))
    }

    /// The origin is within the zero band of the simplex: collect candidate
    /// separating normals to tell touching from overlap.
    fn enter_verify(&mut self, full: bool) -> Step {
        let mut candidates = [V::ZERO; MAX_VERIFY_CANDIDATES];
        let mut count = 0usize;
        let pts = self.simplex.points();
        let n = pts.len();
        let w = self.simplex.w_array();
        let band = self.band();
        self.distance = V::Scalar::ZERO;
        if full && self.simplex.encloses_origin_deeply(band) {
            // No facet is within the band, so neither is the boundary of
            // `A − B` (which holds the simplex): no candidate could pass.
            self.normal = (-self.prev_v).try_normalize().unwrap_or(V::X);
            return self.finish(Status::Intersecting);
        }
        // Free candidates first: a point found as the support along `d`
        // says how far A − B reaches along `d`; within the band, `d` is
        // already a proven separating normal (no support call needed).
        // `x·n ≤ band·|n|` for an unnormalised `n`, without the square root
        // unless it is close (most candidates are far beyond the band).
        let within = |x: V::Scalar, n: V| x <= V::Scalar::ZERO || x * x <= band * band * n.length_squared();
        for (i, (p, d)) in pts.iter().zip(self.simplex.directions()).enumerate() {
            if self.simplex.is_exact(i)
                && within(d.dot(p.w), *d)
                && let Some(d) = d.try_normalize()
                && d.dot(p.w) <= band
            {
                self.normal = d;
                return self.finish(Status::Touching);
            }
        }
        if full {
            debug_assert_eq!(n, V::DIM + 1);
            // Facets the origin lies within the band of; the others are
            // farther than the band, which proves penetration across them.
            // The facet opposite vertex `skip` (the first `n − 1` entries:
            // triangles of a tetrahedron, edges of a triangle in 2D).
            for skip in 0..=V::DIM {
                // The facet opposite vertex `skip`; constant indices once
                // this loop over the compile-time `DIM` unrolls.
                let (i, j, k) = match skip {
                    0 => (1, 2, 3),
                    1 => (0, 2, 3),
                    2 => (0, 1, 3),
                    _ => (0, 1, 2),
                };
                let facet = [w[i], w[j], w[k]];
                let mut raw = V::facet_normal_raw(&facet[..V::DIM]);
                // Orient outwards, away from the opposite vertex.
                if raw.dot(w[skip] - facet[0]) > V::Scalar::ZERO {
                    raw = -raw;
                }
                if !within(raw.dot(facet[0]), raw) {
                    continue;
                }
                if let Some(nrm) = raw.try_normalize()
                    && nrm.dot(facet[0]) <= band
                    && count < MAX_VERIFY_CANDIDATES
                {
                    candidates[count] = nrm;
                    count += 1;
                }
            }
        } else {
            // The last search direction, unless a simplex point was found
            // along it: the free check above has then measured A − B's reach
            // along it already (measured: this saved a support call on most
            // touching queries that reach the candidates).
            let last = -self.prev_v;
            let measured = (0..n).any(|i| self.simplex.is_exact(i) && self.simplex.directions()[i] == last);
            if !measured && let Some(d) = last.try_normalize() {
                candidates[count] = d;
                count += 1;
            }
            if n == V::DIM
                && let Some(nrm) = V::facet_normal(&w[..n])
            {
                // The side facing the last search direction first: A − B
                // was approached from there, so it is the likelier normal.
                let nrm = if nrm.dot(last) < V::Scalar::ZERO { -nrm } else { nrm };
                candidates[count] = nrm;
                candidates[count + 1] = -nrm;
                count += 2;
            }
        }
        self.normal = (-self.prev_v).try_normalize().unwrap_or(V::X);
        if count == 0 {
            return self.finish(Status::Intersecting);
        }
        self.phase = Phase::Verify { candidates, count: count as u8, next: 0 };
        self.dir = candidates[0];
        Step::Continue
    }

    fn verify_step(
        &mut self,
        p: SupportPoint<V>,
        candidates: [V; MAX_VERIFY_CANDIDATES],
        count: u8,
        next: u8,
    ) -> Step {
        self.iterations += 1;
        if !p.is_finite() {
            return self.finish_invalid();
        }
        self.scale = self.scale.max(p.w.max_abs());
        let n = candidates[next as usize];
        // h(n): how far A − B reaches along n. At most the band: the origin
        // is on the boundary and n separates (touching).
        if n.dot(p.w) <= self.band() {
            self.normal = n;
            return self.finish(Status::Touching);
        }
        let next = next + 1;
        if next >= count {
            // Every candidate is crossed: the shapes overlap.
            return self.finish(Status::Intersecting);
        }
        self.phase = Phase::Verify { candidates, count, next };
        self.dir = candidates[next as usize];
        Step::Continue
    }

    fn finish_converged(&mut self) -> Step {
        let d = self.v.length();
        self.distance = d;
        self.normal = (-self.v).try_normalize().unwrap_or(V::X);
        let status = if d <= self.band() { Status::Touching } else { Status::Separated };
        self.finish(status)
    }

    fn finish_invalid(&mut self) -> Step {
        let it = self.iterations;
        self.reset();
        self.iterations = it;
        self.finish(Status::InvalidInput)
    }

    fn finish(&mut self, status: Status) -> Step {
        if status == Status::IterationLimit {
            self.distance = self.v.length();
            self.normal = (-self.v).try_normalize().unwrap_or(V::X);
        }
        self.phase = Phase::Done(status);
        Step::Done(status)
    }

    /// The status, once done (`None` while running).
    #[inline]
    pub fn status(&self) -> Option<Status> {
        match self.phase {
            Phase::Done(s) => Some(s),
            _ => None,
        }
    }

    /// The answer so far (final once [`Self::is_done`]). While running, the
    /// status reads [`Status::IterationLimit`]: the values are bounds only.
    pub fn result(&self) -> DistanceResult<V> {
        self.result_as(|v| v)
    }

    /// [`Self::result`] in another vector type of the same scalar, built in
    /// place (every point converted by `f`).
    #[inline(always)]
    pub(crate) fn result_as<W: Vector<Scalar = V::Scalar>>(
        &self,
        f: impl Fn(V) -> W + Copy,
    ) -> DistanceResult<W> {
        let status = self.status().unwrap_or(Status::IterationLimit);
        if status == Status::InvalidInput {
            let mut r = DistanceResult::invalid();
            r.iterations = self.iterations;
            return r;
        }
        let (point_a, point_b) = self.simplex.witness_points();
        let distance = match self.phase {
            Phase::Done(_) => self.distance,
            _ => self.v.length(),
        };
        DistanceResult {
            status,
            distance,
            point_a: f(point_a),
            point_b: f(point_b),
            normal: f(self.normal),
            lower_bound: self.lower_bound().min(distance),
            tolerance: self.band(),
            iterations: self.iterations,
            simplex: self.simplex.convert(f),
        }
    }
}
