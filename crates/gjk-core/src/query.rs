//! The queries most users call: distance (with warm starting and optional
//! iteration recording), the distance alone, and the boolean intersection
//! test.

use crate::gjk::{
    DEEP_BAND_FLOOR, DEFAULT_MAX_ITERATIONS, DistanceResult, GjkConfig, GjkSolver, MAX_ESCAPES,
    MAX_VERIFY_CANDIDATES, Status, Step, beyond, converged, escape_direction, facet_point, facet_weights,
    start_bound, start_scale, unproven, wants_refine,
};
use crate::real::Real;
use crate::simplex::{MAX_SIMPLEX_POINTS, NO_INDEX, Reduced, Simplex, SupportPoint};
use crate::support::{InLanes, SupportMap, minkowski_support, minkowski_support_from};
use crate::vector::Vector;

/// The last simplex of a query, kept by the caller between frames to warm
/// start the next query on the same pair (Box2D's `b2SimplexCache`).
///
/// Each vertex keeps the two vertex indices it came from and its search
/// direction: shapes that number their vertices rebuild it by index, all
/// others by one support call per vertex. For a pair that barely moved, the
/// rebuilt simplex already holds the answer and the query ends after one or
/// two support calls.
#[derive(Clone, Copy, Debug)]
pub struct SimplexCache<V: Vector> {
    count: u8,
    index_a: [u32; MAX_SIMPLEX_POINTS],
    index_b: [u32; MAX_SIMPLEX_POINTS],
    dirs: [V; MAX_SIMPLEX_POINTS],
}

impl<V: Vector> Default for SimplexCache<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector> SimplexCache<V> {
    /// The same cache in another vector type of the same scalar (`f`
    /// converts its directions).
    #[inline]
    pub(crate) fn convert<W: Vector<Scalar = V::Scalar>>(&self, f: impl Fn(V) -> W) -> SimplexCache<W> {
        SimplexCache {
            count: self.count,
            index_a: self.index_a,
            index_b: self.index_b,
            dirs: [f(self.dirs[0]), f(self.dirs[1]), f(self.dirs[2]), f(self.dirs[3])],
        }
    }

    /// An empty cache (the next query starts cold).
    pub const fn new() -> Self {
        Self {
            count: 0,
            index_a: [NO_INDEX; MAX_SIMPLEX_POINTS],
            index_b: [NO_INDEX; MAX_SIMPLEX_POINTS],
            dirs: [V::ZERO; MAX_SIMPLEX_POINTS],
        }
    }

    /// Forgets the cached simplex.
    pub fn clear(&mut self) {
        self.count = 0;
    }

    /// Number of cached vertices (0 when empty).
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether the next query will start cold.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The cached search directions.
    pub fn directions(&self) -> &[V] {
        &self.dirs[..self.len()]
    }

    /// The cached vertex indices `(on A, on B)` of vertex `i`.
    pub fn indices(&self, i: usize) -> (u32, u32) {
        (self.index_a[i], self.index_b[i])
    }

    /// Stores a query's final simplex.
    pub fn store(&mut self, simplex: &Simplex<V>) {
        self.store_from(simplex, |v| v);
    }

    /// [`Self::store`] from a simplex in another vector type (`into`
    /// converts its directions).
    #[inline]
    pub(crate) fn store_from<U: Vector>(&mut self, simplex: &Simplex<U>, into: impl Fn(U) -> V) {
        let pts = simplex.points();
        self.count = pts.len() as u8;
        for (i, p) in pts.iter().enumerate() {
            self.index_a[i] = p.index_a;
            self.index_b[i] = p.index_b;
            self.dirs[i] = into(simplex.directions()[i]);
        }
    }

    /// Rebuilds the cached simplex on the shapes' current state (in `U`:
    /// `from` converts the cached directions).
    fn rebuild<U, A, B>(
        &self,
        a: &A,
        b: &B,
        out: &mut [(SupportPoint<U>, U); MAX_SIMPLEX_POINTS],
        from: impl Fn(V) -> U + Copy,
    ) -> usize
    where
        U: Vector,
        A: SupportMap<U> + ?Sized,
        B: SupportMap<U> + ?Sized,
    {
        let n = self.len().min(MAX_SIMPLEX_POINTS);
        for (i, slot) in out.iter_mut().enumerate().take(n) {
            *slot = self.rebuilt(i, a, b, from);
        }
        n
    }

    /// Cached point `i` on the shapes' current state, with its direction:
    /// by vertex index where both shapes give one, else the support point
    /// along the cached direction.
    #[inline]
    fn rebuilt<U, A, B>(&self, i: usize, a: &A, b: &B, from: impl Fn(V) -> U) -> (SupportPoint<U>, U)
    where
        U: Vector,
        A: SupportMap<U> + ?Sized,
        B: SupportMap<U> + ?Sized,
    {
        let d = from(self.dirs[i]);
        let by_index = match (self.index_a[i], self.index_b[i]) {
            (ia, ib) if ia != NO_INDEX && ib != NO_INDEX => match (a.vertex(ia), b.vertex(ib)) {
                (Some(pa), Some(pb)) => Some(SupportPoint::with_indices(pa, ia, pb, ib)),
                _ => None,
            },
            _ => None,
        };
        (by_index.unwrap_or_else(|| minkowski_support(a, b, d)), d)
    }
}

/// One GJK iteration as seen by a debug viewer.
#[derive(Clone, Copy, Debug)]
pub struct Iteration<V: Vector> {
    /// Support calls made so far (1 for the first iteration).
    pub iteration: u32,
    /// The search direction of this iteration.
    pub direction: V,
    /// The support point found along it.
    pub support: SupportPoint<V>,
    /// The simplex after the update (with barycentric weights).
    pub simplex: Simplex<V>,
    /// The closest point of the simplex to the origin after the update.
    pub closest: V,
    /// Proven lower bound on the distance after the update.
    pub lower_bound: V::Scalar,
    /// Upper bound on the distance after the update (`|closest|`).
    pub upper_bound: V::Scalar,
}

/// Receives each iteration of a recorded query.
///
/// `()` records nothing; since its [`ENABLED`](Self::ENABLED) is `false`,
/// the query does not even assemble the records (zero cost when off).
pub trait Recorder<V: Vector> {
    /// Whether records are assembled at all.
    const ENABLED: bool = true;
    /// Called after every iteration.
    fn record(&mut self, it: &Iteration<V>);
}

impl<V: Vector> Recorder<V> for () {
    const ENABLED: bool = false;
    #[inline(always)]
    fn record(&mut self, _: &Iteration<V>) {}
}

/// Records iterations into a caller-provided buffer (no allocation); the
/// iterations past its capacity are counted in [`Self::dropped`].
#[derive(Debug)]
pub struct IterationBuffer<'a, V: Vector> {
    buf: &'a mut [Option<Iteration<V>>],
    len: usize,
    dropped: usize,
}

impl<'a, V: Vector> IterationBuffer<'a, V> {
    /// Wraps a buffer; its previous contents are overwritten.
    pub fn new(buf: &'a mut [Option<Iteration<V>>]) -> Self {
        Self { buf, len: 0, dropped: 0 }
    }
    /// The recorded iterations, in order.
    pub fn iterations(&self) -> impl Iterator<Item = &Iteration<V>> {
        self.buf[..self.len].iter().flatten()
    }
    /// Number of recorded iterations.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Iterations that did not fit.
    pub fn dropped(&self) -> usize {
        self.dropped
    }
}

impl<V: Vector> Recorder<V> for IterationBuffer<'_, V> {
    fn record(&mut self, it: &Iteration<V>) {
        if self.len < self.buf.len() {
            self.buf[self.len] = Some(*it);
            self.len += 1;
        } else {
            self.dropped += 1;
        }
    }
}

#[cfg(feature = "std")]
impl<V: Vector> Recorder<V> for std::vec::Vec<Iteration<V>> {
    fn record(&mut self, it: &Iteration<V>) {
        self.push(*it);
    }
}

/// The first search direction: from A's centre towards B's when both shapes
/// name one, else +X. With it, the seed of the search's scale: the
/// centres' difference is (negated) a point of `A − B` (centres lie in
/// their shapes), so its largest coordinate is one of `A − B`'s, known
/// before any support call (0 without centres). A touching pair's first
/// support point can lie at the contact, at rounding level: a zero band
/// relative to it alone would call the pair apart by that rounding (the
/// regression test `touching_first_point_keeps_the_band`).
#[inline]
fn initial_direction<V, A, B>(a: &A, b: &B) -> (V, V::Scalar)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    direction_between((a.center(), b.center()))
}

/// [`initial_direction`] from the centres.
#[inline]
fn direction_between<V: Vector>(centres: (Option<V>, Option<V>)) -> (V, V::Scalar) {
    match centres {
        (Some(ca), Some(cb)) => {
            let d = cb - ca;
            if d.length_squared() > V::Scalar::ZERO && d.is_finite() {
                (d, d.max_abs())
            } else {
                (V::X, V::Scalar::ZERO)
            }
        }
        _ => (V::X, V::Scalar::ZERO),
    }
}

/// What the balls of two shapes ([`SupportMap::center_radii`] about
/// [`SupportMap::center`]) prove, as [`ball_test`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BallTest {
    /// The outer balls are apart by more than the margin and any zero band
    /// a search could use: the boolean test is `false`.
    Apart,
    /// The inner balls overlap deeper than any zero band a search could
    /// use: the full query reports [`Status::Intersecting`] (distance 0)
    /// and the boolean test `true`.
    Overlapping,
    /// Neither (or a shape names no centre or radii, or the configuration
    /// caps the search; see [`ball_test`]).
    Unknown,
}

/// The balls' verdict on `a` and `b` within `margin` (as
/// [`intersects_within`] takes it; 0 for the distance), with no support
/// call. Queries that need no witness (the distance alone, the boolean
/// test) end here when it is not [`BallTest::Unknown`].
///
/// With `ball(c_a, r_a) ⊂ A ⊂ ball(c_a, R_a)`, likewise for B, and
/// `d = |c_a − c_b|`: `A − B` holds `ball(c_a − c_b, r_a + r_b)`, so the
/// origin lies at least `r_a + r_b − d` deep inside it; and the distance is
/// at least `d − R_a − R_b`. Every point a search sees is within
/// `d + R_a + R_b` of the origin, which bounds its scale and so its zero
/// band; each verdict asks for its margin to exceed that band (plus
/// `margin` for [`BallTest::Apart`]) and [`BALL_ROUNDING`] `· ε` of that
/// reach plus the centres' magnitudes (the rounding of `d`, and of the
/// points a search sees, shapes far from their frame's origin included).
/// [`BallTest::Unknown`] for shapes that name no centre or radii, and under
/// an iteration cap below [`DEFAULT_MAX_ITERATIONS`] (a capped search may
/// stop before it decides, and the answers keep agreeing with the full
/// query's).
///
/// ```
/// use gjk_core::{BallTest, GjkConfig, SupportMap, ball_test, glam::Vec2};
/// struct Disc(Vec2, f32);
/// impl SupportMap<Vec2> for Disc {
///     fn support(&self, d: Vec2) -> Vec2 {
///         self.0 + d.normalize_or_zero() * self.1
///     }
///     fn center(&self) -> Option<Vec2> {
///         Some(self.0)
///     }
///     fn center_radii(&self) -> Option<(f32, f32)> {
///         Some((self.1, self.1))
///     }
/// }
/// let (cfg, unit) = (GjkConfig::default(), |x: f32| Disc(Vec2::new(x, 0.0), 1.0));
/// assert_eq!(ball_test(&unit(0.0), &unit(1.5), 0.0, &cfg), BallTest::Overlapping);
/// assert_eq!(ball_test(&unit(0.0), &unit(2.0), 0.0, &cfg), BallTest::Unknown); // touching
/// assert_eq!(ball_test(&unit(0.0), &unit(2.5), 0.0, &cfg), BallTest::Apart);
/// assert_eq!(ball_test(&unit(0.0), &unit(2.5), 1.0, &cfg), BallTest::Unknown); // within the margin
/// ```
#[inline]
pub fn ball_test<V, A, B>(a: &A, b: &B, margin: V::Scalar, config: &GjkConfig<V::Scalar>) -> BallTest
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    ball_test_at(a, b, (a.center(), b.center()), margin, config)
}

/// [`ball_test`] with the shapes' centres already found.
#[inline]
fn ball_test_at<V, A, B>(
    a: &A,
    b: &B,
    centres: (Option<V>, Option<V>),
    margin: V::Scalar,
    config: &GjkConfig<V::Scalar>,
) -> BallTest
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (Some(ra), Some(rb)) = (a.center_radii(), b.center_radii()) else {
        return BallTest::Unknown;
    };
    let (Some(ca), Some(cb)) = centres else {
        return BallTest::Unknown;
    };
    ball_test_of((ca, ra), (cb, rb), margin, config)
}

/// [`ball_test`] on the balls themselves: each shape's centre with its
/// `(inner, outer)` radii ([`SupportMap::center`], [`SupportMap::center_radii`]),
/// for callers that hold them already.
#[inline]
pub fn ball_test_of<V: Vector>(
    (ca, (ra, oa)): (V, (V::Scalar, V::Scalar)),
    (cb, (rb, ob)): (V, (V::Scalar, V::Scalar)),
    margin: V::Scalar,
    config: &GjkConfig<V::Scalar>,
) -> BallTest {
    if config.max_iterations < DEFAULT_MAX_ITERATIONS {
        return BallTest::Unknown;
    }
    let d = (cb - ca).length();
    // The search's points lie within `reach` of the origin (its scale, so
    // its zero band). Their coordinates, and the centres', carry rounding
    // of a few `ε` of their magnitudes: at most `|c_a| + |c_b| + R_a + R_b`,
    // with `|c_b| ≤ |c_a| + d` and `|c_a| ≤ 2 |c_a|∞` (in 3D, √3 would do).
    let reach = d + oa + ob;
    let two = V::Scalar::ONE + V::Scalar::ONE;
    let magnitude = two * (reach + two * ca.max_abs());
    let slack =
        config.zero_tolerance * reach + V::Scalar::from_f64(BALL_ROUNDING) * V::Scalar::EPSILON * magnitude;
    // NaN anywhere fails both comparisons.
    if d + slack < ra + rb {
        BallTest::Overlapping
    } else if d - slack > oa + ob + margin {
        BallTest::Apart
    } else {
        BallTest::Unknown
    }
}

/// Rounding allowance of [`ball_test`], in units of `ε` times the pair's
/// reach plus the centres' magnitudes: the centres' distance (a
/// subtraction, a norm) and the posed points are off by a few `ε` of those.
pub const BALL_ROUNDING: f64 = 16.0;

/// Distance between two convex shapes with default settings.
///
/// ```
/// use gjk_core::glam::Vec3;
/// let a = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
/// let b = a.map(|p| p + Vec3::new(3.0, 0.0, 0.0));
/// let r = gjk_core::distance(&a, &b);
/// assert_eq!(r.status, gjk_core::Status::Separated);
/// assert!((r.distance - 2.0).abs() < 1e-6);
/// assert!((r.normal - Vec3::X).length() < 1e-6); // from A towards B
/// ```
pub fn distance<V, A, B>(a: &A, b: &B) -> DistanceResult<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    distance_with(a, b, &GjkConfig::default(), None, &mut ())
}

/// Distance warm-started from (and stored back into) `cache`.
pub fn distance_warm<V, A, B>(a: &A, b: &B, cache: &mut SimplexCache<V>) -> DistanceResult<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    distance_with(a, b, &GjkConfig::default(), Some(cache), &mut ())
}

/// Distance with every option: configuration, an optional warm-start cache
/// (read before, written after) and a [`Recorder`] of iterations (`&mut ()`
/// for none).
pub fn distance_with<V, A, B, R>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
    recorder: &mut R,
) -> DistanceResult<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    R: Recorder<V> + ?Sized,
{
    if V::LANES_DIFFER && !R::ENABLED {
        // Computed in the SIMD-aligned vector type (see `Vector::Lanes`).
        return distance_direct(
            &InLanes::new(a),
            &InLanes::new(b),
            config,
            cache,
            &mut (),
            V::from_lanes,
            V::to_lanes,
        );
    }
    distance_direct(a, b, config, cache, recorder, |v| v, |v| v)
}

/// [`distance_with`] computed in `V`, for callers in `W` (`into` and
/// `from` convert; identities when `W` is `V`).
#[inline(always)]
fn distance_direct<V, W, A, B, R>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<W>>,
    recorder: &mut R,
    into: impl Fn(V) -> W + Copy,
    from: impl Fn(W) -> V + Copy,
) -> DistanceResult<W>
where
    V: Vector,
    W: Vector<Scalar = V::Scalar>,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    R: Recorder<V> + ?Sized,
{
    let mut gjk = GjkSolver::new(*config);
    match &cache {
        Some(c) if !c.is_empty() => {
            let step = gjk
                .start_with::<true>((0..c.len().min(MAX_SIMPLEX_POINTS)).map(|i| c.rebuilt(i, a, b, from)));
            // Each support searches from the vertices found last: the
            // cached ones first (the pair has moved little since).
            let hint = hints(gjk.simplex());
            run::<_, _, _, _, true>(&mut gjk, step, a, b, recorder, hint);
        }
        _ => {
            // Pairs whose inner balls overlap deeply (unrecorded queries):
            // the boolean loop finds a simplex holding the origin, and the
            // balls prove the overlap (see `overlap_result`).
            if !R::ENABLED
                && ball_test(a, b, V::Scalar::ZERO, config) == BallTest::Overlapping
                && let Some(r) = overlap_result(a, b, config)
            {
                if let Some(c) = cache {
                    c.store_from(&r.simplex, into);
                }
                return r.convert(into);
            }
            let (d, seed) = initial_direction(a, b);
            let step = gjk.start_fresh(minkowski_support(a, b, d), d, seed);
            run::<_, _, _, _, false>(&mut gjk, step, a, b, recorder, (NO_INDEX, NO_INDEX));
        }
    }
    if let Some(c) = cache {
        if gjk.status() == Some(Status::InvalidInput) {
            c.clear();
        } else {
            c.store_from(gjk.simplex(), into);
        }
    }
    // The result is the tail expression, built in the caller's slot: a
    // `DistanceResult` is ~300 bytes in 3D, and a local returned after use
    // costs a `memcpy` (~64 instructions measured).
    gjk.result_as(into)
}

/// A warm start's one-call exit, for callers that rebuild the cached
/// points themselves: `cache`'s points are rebuilt from vertices
/// (`vertex_a`, and `vertex_b` already placed in A's frame), solved, one
/// support call `support(−v, hint)` is made from the first point's vertices
/// (`hint`: on A, on B), and where that call ends the search (the
/// [`GjkSolver`]'s Exit 1, converged, or Exit 2, a point already in the
/// simplex, on its first step) `out` receives the solver's answer and the
/// call returns `true`. It returns `false`, `out` holding nothing of use,
/// wherever the solver would go on or verify: an empty or full cache, a
/// point without vertices, a duplicate or non-finite point, a closest point
/// within the zero band, no convergence, a lower bound beyond
/// `max_distance`; the caller then runs the whole query. The same solve,
/// tests and result as the solver's (pinned to the bit by the tests),
/// without its state and written in place: on a frame-coherent sequence
/// nearly every warm query ends here.
#[inline(always)]
pub fn warm_exit<V: Vector>(
    config: &GjkConfig<V::Scalar>,
    cache: &SimplexCache<V>,
    vertex_a: impl Fn(u32) -> Option<V>,
    vertex_b: impl Fn(u32) -> Option<V>,
    support: impl FnOnce(V, (u32, u32)) -> SupportPoint<V>,
    out: &mut DistanceResult<V>,
) -> bool {
    let n = cache.len();
    // Exit: an empty or full cache (a full simplex may hold the origin,
    // which only the solver's verification may claim).
    if n == 0 || n > V::DIM {
        return false;
    }
    let config = config.sanitized();
    let simplex = &mut out.simplex;
    simplex.clear();
    let mut w = [V::ZERO; MAX_SIMPLEX_POINTS];
    let mut scale = V::Scalar::ZERO;
    let z = V::Scalar::ZERO;
    for i in 0..n {
        let (ia, ib) = (cache.index_a[i], cache.index_b[i]);
        let d = cache.dirs[i];
        let (Some(pa), Some(pb)) = (vertex_a(ia), vertex_b(ib)) else {
            // Exit: a point not made from vertices (the solver's start
            // rebuilds it by a support call).
            return false;
        };
        let p = SupportPoint::with_indices(pa, ia, pb, ib);
        // Exit: a non-finite point (the solver reports the invalid input)
        // or a duplicate (the solver drops it).
        if (p.w * z + d * z).length_squared() != z || w[..i].contains(&p.w) {
            return false;
        }
        w[i] = p.w;
        scale = scale.max(p.w.max_abs());
        simplex.push_with(p, d, false);
    }
    // As the solver's warm start: the first point's shape points seed the
    // scale (`SupportPoint::source_scale`).
    let scale = scale.max(simplex.points()[0].source_scale());
    let r = V::solve_simplex(&w, n);
    let v = r.point(&w);
    let vv = v.length_squared();
    let band = config.zero_tolerance * scale;
    // Exit: the closest point is within the zero band (or not finite): the
    // solver verifies contact.
    if vv <= band * band || !vv.is_finite() {
        return false;
    }
    let p = support(-v, (cache.index_a[0], cache.index_b[0]));
    // Exit: a non-finite support point.
    if !p.w_is_finite() {
        return false;
    }
    // The solver's first step: its Exits 0, 1 and 2 (`search_step`).
    let scale = scale.max(p.w.max_abs());
    let vw = v.dot(p.w);
    let lower_sq = if vw > V::Scalar::ZERO { vw * vw / vv } else { V::Scalar::ZERO };
    // Exit: beyond the caller's limit, or neither converged nor a repeated
    // point (the solver goes on).
    let done = converged(&config, scale, vv, vw);
    if beyond(&config, scale, lower_sq) || !(done || w[..n].contains(&p.w)) {
        return false;
    }
    // Exit: a repeated point where the solver refines (its Exit 2 with the
    // distance unproven to the band, on a facet: `facet_point`).
    if !done && solver_refines(&w[..n], r.mask, v, (vv, vw), config.zero_tolerance * scale) {
        return false;
    }
    simplex.reduce(&r);
    // As `GjkSolver::finish_converged` and `result_as`.
    let (point_a, point_b) = simplex.witness_points();
    let distance = v.length();
    let band = config.zero_tolerance * scale;
    let lower = if lower_sq > V::Scalar::ZERO { vw / v.length() } else { V::Scalar::ZERO };
    out.status = if distance <= band { Status::Touching } else { Status::Separated };
    out.distance = distance;
    out.point_a = point_a;
    out.point_b = point_b;
    out.normal = (-v).try_normalize().unwrap_or(V::X);
    out.lower_bound = lower.min(distance);
    out.tolerance = band;
    out.iterations = 1;
    true
}

/// Whether the solver's first step, ending at Exit 2 on the points `w`
/// (weights `mask`, closest point `v`), refines instead (see
/// `GjkSolver::step`): the distance unproven to the band, on a facet whose
/// normal gives another point. Out of line and cold: [`warm_exit`] asks
/// only where its support point repeats one of `w` without converging.
#[cold]
#[inline(never)]
fn solver_refines<V: Vector>(
    w: &[V],
    mask: u8,
    v: V,
    (vv, vw): (V::Scalar, V::Scalar),
    band: V::Scalar,
) -> bool {
    unproven(vv, vw, band)
        && w.len() == V::DIM
        && u32::from(mask) == (1u32 << w.len()) - 1
        && facet_point(w).is_some_and(|t| t != v)
}

/// The first support call of a cold query: the support point of A − B
/// along the direction from A's centre to B's (+X when either shape names
/// none), with that direction. [`distance_from`] continues from it.
#[inline]
pub fn first_support<V, A, B>(a: &A, b: &B) -> (SupportPoint<V>, V)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (d, _) = initial_direction(a, b);
    (minkowski_support(a, b, d), d)
}

/// Whether the first support point alone (`start`: the point and the
/// direction it was found along, as [`first_support`] returns them) proves
/// the shapes further apart than `config.max_distance` plus the zero band:
/// the very test a cold [`distance_with`] makes before its first step, which
/// then ends with [`Status::Beyond`]. A caller that wants only "near or
/// not" (contact generation for a broad phase's pairs, most of them far)
/// stops here, and else hands `start` to [`distance_from`].
///
/// ```
/// use gjk_core::{GjkConfig, first_support, start_proves_beyond, glam::Vec2};
/// let a = [Vec2::ZERO, Vec2::X, Vec2::Y];
/// let b = a.map(|p| p + Vec2::new(5.0, 0.0));
/// let start = first_support(&a, &b);
/// assert!(start_proves_beyond(&GjkConfig::within(1.0), start)); // 4 apart
/// assert!(!start_proves_beyond(&GjkConfig::within(4.5), start));
/// ```
#[inline]
pub fn start_proves_beyond<V: Vector>(config: &GjkConfig<V::Scalar>, start: (SupportPoint<V>, V)) -> bool {
    let (p, dir) = start;
    if !p.is_finite() || !dir.is_finite() {
        // Left to the query, which reports the invalid input.
        return false;
    }
    let config = config.sanitized();
    start_bound(p.w, dir).is_some_and(|(_, lower_sq)| beyond(&config, start_scale(p.w, dir), lower_sq))
}

/// [`distance_with`] (cold, nothing recorded in a cache) continuing from the
/// first support call `start`, made by the caller with [`first_support`]
/// (or any support point of A − B with the direction it was found along).
pub fn distance_from<V, A, B, R>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    start: (SupportPoint<V>, V),
    recorder: &mut R,
) -> DistanceResult<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    R: Recorder<V> + ?Sized,
{
    if V::LANES_DIFFER && !R::ENABLED {
        // Computed in the SIMD-aligned vector type (see `Vector::Lanes`).
        let (p, d) = start;
        let p = SupportPoint {
            w: p.w.to_lanes(),
            a: p.a.to_lanes(),
            b: p.b.to_lanes(),
            index_a: p.index_a,
            index_b: p.index_b,
        };
        let (a, b) = (&InLanes::new(a), &InLanes::new(b));
        return distance_from_direct(a, b, config, (p, d.to_lanes()), &mut (), V::from_lanes);
    }
    distance_from_direct(a, b, config, start, recorder, |v| v)
}

/// [`distance_from`] computed in `V`, for callers in `W` (`into`
/// converts; the identity when `W` is `V`).
#[inline(always)]
fn distance_from_direct<V, W, A, B, R>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    start: (SupportPoint<V>, V),
    recorder: &mut R,
    into: impl Fn(V) -> W + Copy,
) -> DistanceResult<W>
where
    V: Vector,
    W: Vector<Scalar = V::Scalar>,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    R: Recorder<V> + ?Sized,
{
    let mut gjk = GjkSolver::new(*config);
    let (_, seed) = initial_direction(a, b);
    let step = gjk.start_fresh(start.0, start.1, seed);
    run::<_, _, _, _, false>(&mut gjk, step, a, b, recorder, (NO_INDEX, NO_INDEX));
    gjk.result_as(into)
}

/// The distance alone (the Barycode paper's "level 2"), with default
/// settings: no witness points, normal or simplex, and no support calls
/// spent telling touching from overlap (both measure 0).
///
/// ```
/// use gjk_core::glam::Vec2;
/// let a = [Vec2::ZERO, Vec2::X, Vec2::Y];
/// let b = a.map(|p| p + Vec2::new(3.0, 0.0));
/// assert!((gjk_core::distance_value(&a, &b).unwrap() - 2.0).abs() < 1e-6);
/// let c = a.map(|p| p + Vec2::new(0.25, 0.25));
/// assert_eq!(gjk_core::distance_value(&a, &c), Ok(0.0));
/// ```
pub fn distance_value<V, A, B>(a: &A, b: &B) -> Result<V::Scalar, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    distance_value_with(a, b, &GjkConfig::default())
}

/// [`distance_value`] with a configuration. The value is exactly the
/// [`DistanceResult::distance`] that [`distance_with`] reports for the same
/// inputs (the search is the same), except that a pair proven further apart
/// than [`GjkConfig::max_distance`] gives infinity. Errors: invalid input,
/// or the iteration cap reached undecided.
pub fn distance_value_with<V, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
) -> Result<V::Scalar, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    distance_value_or(a, b, config, |_| None)
}

/// [`distance_value_with`] with the caller's own exact answer tried first
/// on pairs whose inner balls do not overlap deeply (the ball test
/// [`BallTest::Unknown`] or [`BallTest::Apart`], under the default
/// iteration cap or above): `exact` gets the sanitized configuration and
/// returns the distance where it can prove it (gjk-shapes: the boundary
/// walk or the separating-axis test of two polygons), else `None` and the
/// search runs.
/// Its answer is returned as given, so the value is then the caller's, not
/// the full query's.
///
/// ```
/// use gjk_core::{GjkConfig, distance_value_or, glam::Vec2};
/// let a = [Vec2::ZERO, Vec2::X, Vec2::Y];
/// let b = a.map(|p| p + Vec2::new(1.5, 0.0));
/// let cfg = GjkConfig::default();
/// // No caller's answer: the search's (0.5 between the triangles).
/// assert!((distance_value_or(&a, &b, &cfg, |_| None).unwrap() - 0.5).abs() < 1e-6);
/// ```
#[inline]
pub fn distance_value_or<V, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    exact: impl FnOnce(&GjkConfig<V::Scalar>) -> Option<V::Scalar>,
) -> Result<V::Scalar, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if V::LANES_DIFFER {
        // Computed in the SIMD-aligned vector type (see `Vector::Lanes`).
        return distance_value_direct(&InLanes::new(a), &InLanes::new(b), config, exact);
    }
    distance_value_direct(a, b, config, exact)
}

/// [`distance_value_or`] computed in `V` itself.
#[inline(always)]
fn distance_value_direct<V, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    exact: impl FnOnce(&GjkConfig<V::Scalar>) -> Option<V::Scalar>,
) -> Result<V::Scalar, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let config = config.sanitized();
    // The centres once, for the balls and the first direction (the
    // caller's test between them kept the compiler from sharing them).
    let centres = (a.center(), b.center());
    match ball_test_at(a, b, centres, V::Scalar::ZERO, &config) {
        // Exit at the start: the inner balls overlap deeply, with no
        // support call (the outer balls give no distance).
        BallTest::Overlapping => return Ok(V::Scalar::ZERO),
        // Exit at the start: the caller's exact answer (not under a
        // lowered iteration cap, where the balls are not asked either and
        // capped answers stay the capped search's).
        _ if config.max_iterations >= DEFAULT_MAX_ITERATIONS => {
            if let Some(d) = exact(&config) {
                return Ok(d);
            }
        }
        _ => {}
    }
    let (dir, seed) = direction_between(centres);
    let p = minkowski_support(a, b, dir);
    if !p.w_is_finite() || !dir.is_finite() {
        return Err(GjkError::InvalidInput);
    }
    // The search of [`GjkSolver`], exit for exit (the numbers are its
    // `step`'s), on the Minkowski points alone: no source points, search
    // directions or weights are kept, and the verification that tells
    // touching from overlap is skipped (both measure 0). The answer is
    // `|v|` where the solver converges and 0 where it reaches the origin,
    // so it is the full query's distance to the bit (pinned by the tests).
    let mut scale = p.w.max_abs().max(seed).max(p.source_scale());
    let mut pts = Points { w: [p.w; MAX_SIMPLEX_POINTS], len: 1 };
    let mut v = p.w;
    let mut vv = v.length_squared();
    if !vv.is_finite() {
        return Err(GjkError::InvalidInput);
    }
    let mut lower_sq = V::Scalar::ZERO;
    if let Some((_, bound)) = start_bound(p.w, dir) {
        lower_sq = bound;
        // Exit 0 at the start.
        if beyond(&config, start_scale(p.w, dir), lower_sq) {
            return Ok(V::Scalar::INFINITY);
        }
    }
    let band = config.zero_tolerance * scale;
    if vv <= band * band {
        return Ok(V::Scalar::ZERO);
    }
    let mut d = -v;
    let (mut escaping, mut escapes, mut refines) = (false, 0, 0);
    // Bounded like the solver's step budget: each pass is one support call.
    for iteration in 1..=config.max_iterations + MAX_VERIFY_CANDIDATES as u32 + 1 {
        let p = minkowski_support(a, b, d);
        if !p.w_is_finite() {
            return Err(GjkError::InvalidInput);
        }
        scale = scale.max(p.w.max_abs());
        let vw = v.dot(p.w);
        let escaped = core::mem::replace(&mut escaping, false);
        if !escaped {
            if vw > V::Scalar::ZERO {
                lower_sq = lower_sq.max(vw * vw / vv);
            }
            // Exit 0, beyond.
            if beyond(&config, scale, lower_sq) {
                return Ok(V::Scalar::INFINITY);
            }
            // Exit 1, converged.
            if converged(&config, scale, vv, vw) {
                return Ok(v.length());
            }
        }
        let band = config.zero_tolerance * scale;
        // The solver's refinement at Exits 2 and 4: a truer `v` from the
        // facet's normal where the distance is unproven to the band (and
        // `$within` accepts it).
        macro_rules! refine {
            ($within:expr) => {
                if wants_refine(escaped, &mut refines, (vv, vw, lower_sq), band)
                    && let Some(t) = facet_point(&pts.w[..pts.len]).filter(|t| *t != v)
                    && $within(t)
                {
                    v = t;
                    vv = t.length_squared();
                    // Exit 5 for the truer point.
                    if vv <= band * band {
                        return Ok(V::Scalar::ZERO);
                    }
                    d = -v;
                    continue;
                }
            };
        }
        // Exit 2, repeated vertex (with the solver's refinement).
        if pts.contains(p.w) {
            refine!(|_| true);
            return Ok(v.length());
        }
        pts.push(p.w);
        let n = pts.len;
        let r = V::solve_simplex_newest(&pts.w, n);
        // Exit 3, enclosed.
        if n == V::DIM + 1 && r.mask == 0b1111 >> (MAX_SIMPLEX_POINTS - n) {
            return Ok(V::Scalar::ZERO);
        }
        let v2 = r.point(&pts.w);
        let vv2 = v2.length_squared();
        // Exit 4, no progress (with the solver's refinement, then escapes;
        // a simplex one point short of a facet refines on the facet the new
        // point makes, as the solver's `refine_facet`).
        if !vv2.strictly_less(vv) {
            if n == V::DIM {
                refine!(|t| facet_weights(&pts.w, t).is_some());
                pts.len -= 1;
            } else {
                pts.len -= 1;
                refine!(|_| true);
            }
            if !escaped
                && escapes < MAX_ESCAPES
                && let Some(e) = escape_direction(v, p.w)
            {
                escapes += 1;
                escaping = true;
                d = e;
                continue;
            }
            return Ok(v.length());
        }
        pts.reduce(&r);
        v = v2;
        vv = vv2;
        // Exit 5, origin reached.
        if vv <= band * band {
            return Ok(V::Scalar::ZERO);
        }
        // Exit 6, iteration cap.
        if iteration >= config.max_iterations {
            break;
        }
        d = -v;
    }
    Err(GjkError::IterationLimit)
}

/// The vertices a warm start's first support call searches from: those of
/// the rebuilt simplex's first point ([`NO_INDEX`] for an empty simplex or
/// shapes without vertices). All its points lie on the feature nearest the
/// other shape, a climb or two from the answer. (Picking per shape the
/// point furthest along the direction climbed no less, for more work:
/// callgrind, 3D warm queries: 32 vertices 2 165 → 2 116 instructions with
/// the first point, 1 024 vertices 2 254 → 2 200.)
#[inline]
fn hints<V: Vector>(simplex: &Simplex<V>) -> (u32, u32) {
    simplex.points().first().map_or((NO_INDEX, NO_INDEX), |p| (p.index_a, p.index_b))
}

/// Drives a started solver to the end, recording each iteration.
/// `HINTED` (warm starts): each support call searches
/// from `hint` (vertices on A, on B), then from the vertices it found, as
/// [`minkowski_support_from`]; cold queries use the shapes' own starts.
#[inline(always)]
fn run<V, A, B, R, const HINTED: bool>(
    gjk: &mut GjkSolver<V>,
    mut step: Step,
    a: &A,
    b: &B,
    recorder: &mut R,
    mut hint: (u32, u32),
) where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    R: Recorder<V> + ?Sized,
{
    // Bounded: the solver finishes within its step budget.
    for _ in 0..gjk.step_budget() {
        if step != Step::Continue {
            break;
        }
        let d = gjk.direction();
        let p = if HINTED {
            let p = minkowski_support_from(a, b, d, hint);
            hint = (p.index_a, p.index_b);
            p
        } else {
            minkowski_support(a, b, d)
        };
        step = gjk.step(p);
        if R::ENABLED {
            let (lower_bound, upper_bound) = gjk.distance_bounds();
            recorder.record(&Iteration {
                iteration: gjk.iterations(),
                direction: d,
                support: p,
                simplex: *gjk.simplex(),
                closest: gjk.closest_point(),
                lower_bound,
                upper_bound,
            });
        }
    }
}

/// Why a boolean test gave no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GjkError {
    /// A support point held NaN or infinity.
    InvalidInput,
    /// The iteration cap was reached before a separating plane or an
    /// enclosing simplex was found.
    IterationLimit,
}

impl core::fmt::Display for GjkError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GjkError::InvalidInput => f.write_str("a support point was NaN or infinite"),
            GjkError::IterationLimit => f.write_str("GJK reached its iteration cap undecided"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for GjkError {}

/// Whether two convex shapes touch or overlap (the paper's "level 1").
///
/// `false` also for invalid input or an undecided test; use
/// [`try_intersects`] to tell those apart.
///
/// ```
/// use gjk_core::glam::Vec2;
/// let a = [Vec2::ZERO, Vec2::X, Vec2::Y];
/// let b = a.map(|p| p + Vec2::new(0.25, 0.25));
/// assert!(gjk_core::intersects(&a, &b));
/// ```
pub fn intersects<V, A, B>(a: &A, b: &B) -> bool
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    try_intersects(a, b).unwrap_or(false)
}

/// The boolean test, with its failure cases as errors.
pub fn try_intersects<V, A, B>(a: &A, b: &B) -> Result<bool, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    intersects_with(a, b, &GjkConfig::default(), None)
}

/// The boolean test with a configuration and an optional warm-start cache.
///
/// Touching shapes (distance within the zero band) count as intersecting,
/// so this agrees with [`DistanceResult::intersects`] outside a band of
/// `rel_tolerance` around the zero band's edge. It does no distance work:
/// it stops at the first separating plane (a support point on the far side
/// of the plane through the origin normal to `v`) or enclosing simplex, and
/// in 2D also when the new support point closes a triangle around the
/// origin with the current segment (the barycode paper, Section III).
pub fn intersects_with<V, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Result<bool, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    intersects_within(a, b, V::Scalar::ZERO, config, cache)
}

/// Whether the shapes are within `margin` of each other: the boolean test
/// on `A ⊕ ball(margin)` and `B`, without building the rounded shape. This
/// is how round shapes (a core plus a radius) are tested exactly. A negative
/// or NaN margin counts as zero.
pub fn intersects_within<V, A, B>(
    a: &A,
    b: &B,
    margin: V::Scalar,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Result<bool, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if V::LANES_DIFFER {
        // Computed in the SIMD-aligned vector type (see `Vector::Lanes`).
        let (a, b) = (&InLanes::new(a), &InLanes::new(b));
        return intersects_direct(a, b, margin, config, cache, V::from_lanes, V::to_lanes);
    }
    intersects_direct(a, b, margin, config, cache, |v| v, |v| v)
}

/// [`intersects_within`] computed in `V`, for callers in `W` (`into` and
/// `from` convert; identities when `W` is `V`).
#[inline(always)]
fn intersects_direct<V, W, A, B>(
    a: &A,
    b: &B,
    margin: V::Scalar,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<W>>,
    into: impl Fn(V) -> W + Copy,
    from: impl Fn(W) -> V + Copy,
) -> Result<bool, GjkError>
where
    V: Vector,
    W: Vector<Scalar = V::Scalar>,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !margin.is_finite() && margin > V::Scalar::ZERO {
        return Err(GjkError::InvalidInput);
    }
    let margin = margin.max(V::Scalar::ZERO);
    let config = config.sanitized();
    let mut start = [(SupportPoint::default(), V::ZERO); MAX_SIMPLEX_POINTS];
    let n = match &cache {
        Some(c) if !c.is_empty() => c.rebuild(a, b, &mut start, from),
        _ => 0,
    };
    // The scale's seed (see `initial_direction`): cold starts only.
    let mut seed = V::Scalar::ZERO;
    if n == 0 {
        // Exit before any support call: the balls decide. (With a cache to
        // fill, the search runs: the cache wants its simplex.)
        if cache.is_none() {
            match ball_test(a, b, margin, &config) {
                BallTest::Apart => return Ok(false),
                BallTest::Overlapping => return Ok(true),
                BallTest::Unknown => {}
            }
        }
        let d;
        (d, seed) = initial_direction(a, b);
        let p = minkowski_support(a, b, d);
        start[0] = (p, d);
        // Exit at the start: the first support already separates. Every x
        // of A − B has d·x ≤ d·w, so the distance is at least −d·w/|d|;
        // beyond the zero band (plus margin) that is a separating plane.
        // Far-apart centres (the common broad-phase case) end here after
        // one support call.
        let dw = d.dot(p.w);
        if p.w_is_finite() && dw < V::Scalar::ZERO {
            let band = config.zero_tolerance * start_scale(p.w, d) + margin;
            if dw * dw > band * band * d.length_squared() {
                if let Some(c) = cache {
                    c.store_from(&Simplex::from_point(p, d), into);
                }
                return Ok(false);
            }
        }
    }
    let start = &start[..n.max(1)];
    // The full simplex (source points, directions) is kept only to be
    // stored in a cache; the loop itself needs the Minkowski points alone
    // (measured: the full simplex's bookkeeping was ~20 % of a 2D test).
    match cache {
        Some(c) => {
            let mut simplex = Simplex::<V>::default();
            // A warm start (points rebuilt from the cache) searches from
            // the cached vertices, as the warm distance does.
            let outcome = if n > 0 {
                boolean_start::<_, _, _, _, true, true>(a, b, &config, start, margin, seed, &mut simplex)
            } else {
                boolean_start::<_, _, _, _, false, true>(a, b, &config, start, margin, seed, &mut simplex)
            };
            match outcome {
                Err(GjkError::InvalidInput) => c.clear(),
                _ => c.store_from(&simplex, into),
            }
            outcome
        }
        None => boolean_start::<_, _, _, _, false, true>(a, b, &config, start, margin, seed, &mut ()),
    }
}

/// The full result of a pair whose inner balls overlap deeply
/// ([`BallTest::Overlapping`]): [`Status::Intersecting`], found by the
/// boolean loop (Minkowski points only, the full simplex tracked beside
/// them) instead of the solver's search and verification. The balls
/// already prove that no direction separates the shapes within any zero
/// band a search could use (what the solver's verification would find),
/// so only a simplex holding the origin is wanted, for EPA. `None` (the
/// solver runs) unless the loop ends on a full simplex (`DIM + 1` points)
/// holding the origin, the common end for such pairs: its barycentric
/// coordinates of the origin (one solve) make the witness points one point
/// of both shapes, as the solver's do.
#[inline]
fn overlap_result<V, A, B>(a: &A, b: &B, config: &GjkConfig<V::Scalar>) -> Option<DistanceResult<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let config = config.sanitized();
    let (d, seed) = initial_direction(a, b);
    let p = minkowski_support(a, b, d);
    let mut track = Counted { simplex: Simplex::default(), pushes: 0 };
    let hit = boolean_start::<_, _, _, _, false, false>(
        a,
        b,
        &config,
        &[(p, d)],
        V::Scalar::ZERO,
        seed,
        &mut track,
    );
    let simplex = &mut track.simplex;
    let n = simplex.len();
    if hit != Ok(true) || n != V::DIM + 1 {
        return None;
    }
    // The origin's weights in the final simplex (the 2D exit on a closed
    // triangle leaves its new point unweighted).
    let w = simplex.w_array();
    let r = V::solve_simplex(&w, n);
    if u32::from(r.mask) != (1u32 << n) - 1 {
        return None;
    }
    simplex.reduce(&r);
    let scale = w.iter().fold(seed.max(p.source_scale()), |m, x| m.max(x.max_abs()));
    let (point_a, point_b) = simplex.witness_points();
    let last = simplex.directions()[n - 1];
    Some(DistanceResult {
        status: Status::Intersecting,
        distance: V::Scalar::ZERO,
        point_a,
        point_b,
        // The last search direction, as the solver reports for an overlap.
        normal: last.try_normalize().unwrap_or(V::X),
        lower_bound: V::Scalar::ZERO,
        tolerance: config.zero_tolerance * scale,
        // Support calls after the start: every one the loop made was kept
        // (the loop's other exits return `false` or stop short of a full
        // simplex).
        iterations: track.pushes.saturating_sub(1),
        simplex: track.simplex,
    })
}

/// A [`Simplex`] tracked by the boolean loop, with its pushes counted.
struct Counted<V: Vector> {
    simplex: Simplex<V>,
    pushes: u32,
}

impl<V: Vector> Track<V> for Counted<V> {
    #[inline(always)]
    fn push(&mut self, p: SupportPoint<V>, d: V) {
        self.simplex.push(p, d);
        self.pushes += 1;
    }
    #[inline(always)]
    fn pop(&mut self) {
        self.simplex.pop();
    }
    #[inline(always)]
    fn reduce(&mut self, r: &Reduced<V::Scalar>) {
        self.simplex.reduce(r);
    }
}

/// What the boolean loop keeps beside its Minkowski points: the full
/// [`Simplex`] when a warm-start cache is to be written, nothing (`()`)
/// otherwise. Each call mirrors the same call on [`Points`].
trait Track<V: Vector> {
    fn push(&mut self, p: SupportPoint<V>, d: V);
    fn pop(&mut self);
    fn reduce(&mut self, r: &Reduced<V::Scalar>);
}

impl<V: Vector> Track<V> for () {
    #[inline(always)]
    fn push(&mut self, _: SupportPoint<V>, _: V) {}
    #[inline(always)]
    fn pop(&mut self) {}
    #[inline(always)]
    fn reduce(&mut self, _: &Reduced<V::Scalar>) {}
}

impl<V: Vector> Track<V> for Simplex<V> {
    #[inline(always)]
    fn push(&mut self, p: SupportPoint<V>, d: V) {
        Simplex::push(self, p, d);
    }
    #[inline(always)]
    fn pop(&mut self) {
        Simplex::pop(self);
    }
    #[inline(always)]
    fn reduce(&mut self, r: &Reduced<V::Scalar>) {
        Simplex::reduce(self, r);
    }
}

/// The boolean loop's simplex: its Minkowski points only, in the order
/// [`Simplex`] keeps them (so a tracked simplex stays index for index the
/// same).
#[derive(Clone, Copy)]
struct Points<V> {
    w: [V; MAX_SIMPLEX_POINTS],
    len: usize,
}

impl<V: Vector> Points<V> {
    #[inline(always)]
    fn push(&mut self, w: V) {
        debug_assert!(self.len < MAX_SIMPLEX_POINTS);
        self.w[self.len] = w;
        self.len += 1;
    }

    #[inline(always)]
    fn contains(&self, w: V) -> bool {
        self.w[..self.len].contains(&w)
    }

    /// Keeps the points named in `r.mask`, in order (branch-free, as
    /// [`Simplex`]'s reduce: which points survive is unpredictable).
    #[inline(always)]
    fn reduce(&mut self, r: &Reduced<V::Scalar>) {
        let mut k = 0;
        for i in 0..MAX_SIMPLEX_POINTS {
            self.w[k] = self.w[i];
            k += usize::from((r.mask >> i) & 1);
        }
        self.len = k;
    }
}

/// Loads the start points (duplicates dropped) and runs the boolean loop.
#[inline(always)]
fn boolean_start<V, A, B, T, const HINTED: bool, const REFINE: bool>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    start: &[(SupportPoint<V>, V)],
    margin: V::Scalar,
    seed: V::Scalar,
    track: &mut T,
) -> Result<bool, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    T: Track<V>,
{
    let mut pts = Points { w: [V::ZERO; MAX_SIMPLEX_POINTS], len: 0 };
    // The first point's shape points seed the scale, as in the solver.
    let mut scale = start.first().map_or(seed, |(p, _)| seed.max(p.source_scale()));
    for &(p, d) in start {
        if !p.w_is_finite() {
            return Err(GjkError::InvalidInput);
        }
        if !pts.contains(p.w) {
            scale = scale.max(p.w.max_abs());
            pts.push(p.w);
            track.push(p, d);
        }
    }
    let hint = start.first().map_or((NO_INDEX, NO_INDEX), |(p, _)| (p.index_a, p.index_b));
    boolean_loop::<_, _, _, _, HINTED, REFINE>(a, b, config, &mut pts, track, scale, margin, hint)
}

/// The boolean loop's refinement (the solver's, see `GjkSolver::step`'s
/// Exits 2 and 4): where its search stops short of the band unproven, a
/// fresh search from the truer closest point of the facet of `pts`
/// ([`facet_point`]); `None` (the exit stands) where none is wanted or
/// found. Out of line and cold, so that the search's hot loop keeps one
/// way round: it runs only where a search stalls.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn boolean_refine<V, A, B, T, const HINTED: bool, const REFINE: bool>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    pts: &mut Points<V>,
    track: &mut T,
    (scale, margin): (V::Scalar, V::Scalar),
    hint: (u32, u32),
    (v, vv, vw): (V, V::Scalar, V::Scalar),
    (mut refines, budget): (u32, u32),
) -> Option<Result<bool, GjkError>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    T: Track<V>,
{
    let band = config.zero_tolerance * scale + margin;
    if !wants_refine(false, &mut refines, (vv, vw, V::Scalar::ZERO), band) {
        return None;
    }
    let t = facet_point(&pts.w[..pts.len]).filter(|t| *t != v)?;
    let tt = t.length_squared();
    Some(boolean_search::<_, _, _, _, HINTED, REFINE>(
        (a, b, config),
        (pts, track),
        (scale, margin),
        hint,
        (t, tt),
        (refines, budget),
    ))
}

/// The boolean loop's last resort, where a stall leaves its answer
/// unproven: the search stopped (converged, a repeated vertex, no progress,
/// its refinements spent) more than twice the zero band from the origin
/// without a separating plane, so the shapes may overlap or lie apart. Seen
/// on curved shapes nearly parallel to a face (a cylinder's cap tilted
/// 1e-9 on another's: an overlap of 1 900 bands answered `false`,
/// docs/reliability.md, *Curved caps nearly parallel to a face*). The
/// distance solver's verdict, with `margin` as its early-out limit: contact
/// (touching or intersecting) or a distance within `margin` and the band.
/// Out of line and cold: it runs only on such stalls.
#[cold]
#[inline(never)]
fn boolean_fallback<V, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    margin: V::Scalar,
) -> Result<bool, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut gjk = GjkSolver::new(GjkConfig { max_distance: margin, ..*config });
    let (d, seed) = initial_direction(a, b);
    let step = gjk.start_fresh(minkowski_support(a, b, d), d, seed);
    run::<_, _, _, _, false>(&mut gjk, step, a, b, &mut (), (NO_INDEX, NO_INDEX));
    let r = gjk.result();
    match r.status {
        Status::InvalidInput => Err(GjkError::InvalidInput),
        Status::Touching | Status::Intersecting => Ok(true),
        Status::Beyond => Ok(false),
        Status::Separated | Status::IterationLimit => Ok(r.distance <= margin + r.tolerance),
    }
}

/// The boolean GJK loop on started points (`track` mirrors every change).
/// `HINTED`: support calls search from `hint`, then from the vertices found
/// last (as [`run`]'s). `REFINE`: stalls unproven to the band take the
/// solver's refinement (`boolean_refine`); `overlap_result`, a fast path
/// that the solver backs, goes without (its code stays out of the
/// distance query).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn boolean_loop<V, A, B, T, const HINTED: bool, const REFINE: bool>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    pts: &mut Points<V>,
    track: &mut T,
    scale: V::Scalar,
    margin: V::Scalar,
    hint: (u32, u32),
) -> Result<bool, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    T: Track<V>,
{
    let full_mask = |n: usize| 0b1111u8 >> (MAX_SIMPLEX_POINTS - n);
    let mut r = V::solve_simplex(&pts.w, pts.len);
    let mut v = r.point(&pts.w);
    if pts.len == V::DIM + 1 && r.mask == full_mask(pts.len) {
        // An enclosure puts the weighted sum at the origin, to rounding; a
        // warm start's simplex too thin for its distance from the origin
        // can claim one by rounding (as in `GjkSolver::start_from`): then
        // the search goes on from its point nearest the origin.
        let floor = V::Scalar::from_f64(DEEP_BAND_FLOOR) * V::Scalar::EPSILON * scale;
        let band = (config.zero_tolerance * scale + margin).max(floor);
        if v.length_squared() <= band * band {
            track.reduce(&r);
            return Ok(true);
        }
        let w = &pts.w;
        let near = |k: usize, i: usize| if w[i].length_squared() < w[k].length_squared() { i } else { k };
        let k = (1..pts.len).fold(0, near);
        r = Reduced::vertex(k);
        v = w[k];
    }
    pts.reduce(&r);
    track.reduce(&r);
    let vv = v.length_squared();
    boolean_search::<_, _, _, _, HINTED, REFINE>(
        (a, b, config),
        (pts, track),
        (scale, margin),
        hint,
        (v, vv),
        (0, config.max_iterations),
    )
}

/// The boolean loop's search from the closest point `v` (`vv = |v|²`) of
/// the reduced points, with `refines` refinements made and `budget` passes
/// left of the iteration cap.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn boolean_search<V, A, B, T, const HINTED: bool, const REFINE: bool>(
    (a, b, config): (&A, &B, &GjkConfig<V::Scalar>),
    (pts, track): (&mut Points<V>, &mut T),
    (mut scale, margin): (V::Scalar, V::Scalar),
    mut hint: (u32, u32),
    (mut v, mut vv): (V, V::Scalar),
    (refines, budget): (u32, u32),
) -> Result<bool, GjkError>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    T: Track<V>,
{
    let full_mask = |n: usize| 0b1111u8 >> (MAX_SIMPLEX_POINTS - n);
    // Bounded by the iteration cap; every pass either exits or strictly
    // shrinks |v| (a refinement resumes in a fresh search with the passes
    // left, at most `MAX_REFINES` times).
    for pass in 0..budget {
        let band = config.zero_tolerance * scale + margin;
        // Exit: the origin is within the zero band (plus margin) of the simplex.
        if vv <= band * band {
            return Ok(true);
        }
        let d = -v;
        let p = if HINTED {
            let p = minkowski_support_from(a, b, d, hint);
            hint = (p.index_a, p.index_b);
            p
        } else {
            minkowski_support(a, b, d)
        };
        if !p.w_is_finite() {
            return Err(GjkError::InvalidInput);
        }
        scale = scale.max(p.w.max_abs());
        let band = config.zero_tolerance * scale + margin;
        let vw = v.dot(p.w);
        // Exit: separating plane. Every point of A − B has x·v ≥ v·w, so
        // the distance is at least v·w/|v|, beyond the zero band.
        if vw > V::Scalar::ZERO && vw * vw > band * band * vv {
            return Ok(false);
        }
        // Exit (2D): the new point closes a triangle around the origin.
        if pts.len == 2 && vw < V::Scalar::ZERO && V::segment_cone_encloses_origin(pts.w[0], pts.w[1], p.w) {
            track.push(p, d);
            return Ok(true);
        }
        // Where the search stalls (converged, a repeated vertex, no
        // progress) |v| is the distance; where it is unproven to the band,
        // after the solver's refinement: a fresh search from the facet's
        // truer point (`boolean_refine`, out of line).
        macro_rules! stall {
            () => {{
                if REFINE
                    && vv > band * band
                    && let Some(resumed) = boolean_refine::<_, _, _, _, HINTED, REFINE>(
                        a,
                        b,
                        config,
                        pts,
                        track,
                        (scale, margin),
                        hint,
                        (v, vv, vw),
                        (refines, budget - pass - 1),
                    )
                {
                    return resumed;
                }
                // Stalled at least twice the band away with no separating
                // plane found (`vw ≤ band·|v|`): neither answer is proven.
                // The solver decides, with its escapes and refinements
                // (`boolean_fallback`, out of line).
                if REFINE && vv > (band + band) * (band + band) {
                    return boolean_fallback(a, b, config, margin);
                }
                return Ok(vv <= band * band);
            }};
        }
        // Exit: converged or repeated vertex.
        let gap = vv - vw;
        if gap <= config.rel_tolerance * vv || pts.contains(p.w) {
            stall!();
        }
        let before = pts.len;
        pts.push(p.w);
        track.push(p, d);
        let n = pts.len;
        let r = V::solve_simplex_newest(&pts.w, n);
        // Exit: a full simplex encloses the origin.
        if n == V::DIM + 1 && r.mask == full_mask(n) {
            track.reduce(&r);
            return Ok(true);
        }
        let v2 = r.point(&pts.w);
        let vv2 = v2.length_squared();
        // Exit: no progress.
        if !vv2.strictly_less(vv) {
            track.pop();
            pts.len = before;
            stall!();
        }
        pts.reduce(&r);
        track.reduce(&r);
        v = v2;
        vv = vv2;
    }
    Err(GjkError::IterationLimit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3};

    /// A regular polygon (2D) or a polytope of points on a sphere (3D)
    /// around `c` with radius `r`, with its inner and outer balls.
    struct Round<V> {
        pts: [V; 16],
        c: V,
        radii: (f64, f64),
    }

    impl<V: Vector<Scalar = f64>> SupportMap<V> for Round<V> {
        fn support(&self, dir: V) -> V {
            self.support_indexed(dir).0
        }
        fn support_indexed(&self, dir: V) -> (V, u32) {
            let mut best = 0;
            for (i, p) in self.pts.iter().enumerate() {
                if p.dot(dir) > self.pts[best].dot(dir) {
                    best = i;
                }
            }
            (self.pts[best], best as u32)
        }
        fn vertex(&self, i: u32) -> Option<V> {
            self.pts.get(i as usize).copied()
        }
        fn center(&self) -> Option<V> {
            Some(self.c)
        }
        fn center_radii(&self) -> Option<(f64, f64)> {
            Some(self.radii)
        }
    }

    fn round2(c: DVec2, r: f64, turn: f64) -> Round<DVec2> {
        let pts = core::array::from_fn(|i| {
            let t = turn + i as f64 * core::f64::consts::TAU / 16.0;
            c + DVec2::new(t.cos(), t.sin()) * r
        });
        // The inradius of the regular 16-gon, a little less.
        Round { pts, c, radii: (r * (core::f64::consts::PI / 16.0).cos() * (1.0 - 1e-9), r) }
    }

    fn round3(c: DVec3, r: f64) -> Round<DVec3> {
        // The octahedron's six vertices and the cube's eight, scaled onto
        // the sphere, two more on the axes: inradius of the octahedron.
        let s = 1.0 / 3f64.sqrt();
        let dirs = [
            DVec3::X,
            -DVec3::X,
            DVec3::Y,
            -DVec3::Y,
            DVec3::Z,
            -DVec3::Z,
            DVec3::new(s, s, s),
            DVec3::new(s, s, -s),
            DVec3::new(s, -s, s),
            DVec3::new(s, -s, -s),
            DVec3::new(-s, s, s),
            DVec3::new(-s, s, -s),
            DVec3::new(-s, -s, s),
            DVec3::new(-s, -s, -s),
            DVec3::X,
            DVec3::Y,
        ];
        Round { pts: dirs.map(|d| c + d * r), c, radii: (r * s * (1.0 - 1e-9), r) }
    }

    /// Deep overlaps take the boolean loop's path (`overlap_result` answers,
    /// and the unrecorded query returns its answer), and the recorded query,
    /// which takes the solver, agrees that they overlap.
    #[test]
    fn deep_overlaps_take_the_boolean_loop() {
        let (mut taken, mut taken2) = (0, 0);
        for k in 0..400 {
            let f = k as f64;
            let r = 10f64.powi(k % 7 - 3);
            let off = DVec2::new((f * 0.37).sin(), (f * 0.73).cos()) * r * 0.5;
            let (a, b) = (round2(DVec2::ZERO, r, f * 0.1), round2(off, r * 0.8, f * 0.3));
            let cfg = GjkConfig::default();
            assert_eq!(ball_test(&a, &b, 0.0, &cfg), BallTest::Overlapping, "2D pair {k}");
            // (Declined where the origin lands on a segment of the simplex,
            // as symmetric placements can make it: the solver answers.)
            if let Some(fast) = overlap_result(&a, &b, &cfg) {
                taken2 += 1;
                let q = distance_with(&a, &b, &cfg, None, &mut ());
                assert_eq!((q.status, q.iterations, q.point_a), (fast.status, fast.iterations, fast.point_a));
            }
            let mut buf = [None; 8];
            let mut log = IterationBuffer::new(&mut buf);
            assert_eq!(distance_with(&a, &b, &cfg, None, &mut log).status, Status::Intersecting);
            let off3 = DVec3::new((f * 0.37).sin(), (f * 0.73).cos(), (f * 0.11).sin()) * r * 0.4;
            let (a3, b3) = (round3(DVec3::ZERO, r), round3(off3, r * 0.9));
            assert_eq!(ball_test(&a3, &b3, 0.0, &cfg), BallTest::Overlapping, "3D pair {k}");
            if let Some(fast) = overlap_result(&a3, &b3, &cfg) {
                taken += 1;
                let q = distance_with(&a3, &b3, &cfg, None, &mut ());
                assert_eq!((q.status, q.iterations, q.point_a), (fast.status, fast.iterations, fast.point_a));
            }
            let mut buf = [None; 8];
            let mut log = IterationBuffer::new(&mut buf);
            assert_eq!(distance_with(&a3, &b3, &cfg, None, &mut log).status, Status::Intersecting);
        }
        assert!(taken > 300 && taken2 > 300, "deep overlaps answered by the loop: 2D {taken2}, 3D {taken}");
    }
}
