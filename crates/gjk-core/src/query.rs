//! The queries most users call: distance (with warm starting and optional
//! iteration recording), the distance alone, and the boolean intersection
//! test.
//!
//! # The start
//!
//! Exit 0 is also tried at the start: the first support point `w`, found
//! along the initial direction `d` (centre of B minus centre of A), proves
//! the distance is at least `−d·w/|d|` when that is positive, so a pair whose
//! centres are far apart stops with `Beyond` (and the boolean test with
//! `false`, when the bound passes the zero band plus margin) after one
//! support call. The start is available as three steps — `first_support`,
//! `start_proves_beyond` and `distance_from` — so that gjk-epa's
//! `contact_within` rejects far pairs before any distance bookkeeping and
//! hands the others on without repeating the call
//! (`split_cold_query_is_the_full_query`).
//!
//! # Bounding balls
//!
//! Before any support call, the boolean test asks `ball_test` (shapes that
//! name their balls): outer balls apart beyond the margin and the largest
//! zero band a search could use give `false`, inner balls overlapping deeper
//! than that band give `true`. The distance alone asks the same and returns
//! 0 on deep overlap (`deep_overlap_needs_no_support_call`). The full query
//! (cold, unrecorded) uses the inner balls only to choose its loop: on a
//! deep overlap it runs the boolean search on the full simplex
//! (`overlap_search`) instead of the solver's search and verification, since
//! the balls already prove what the verification would; it keeps the answer
//! when the loop ends on a full simplex holding the origin, and otherwise
//! runs the solver. The result is the solver's in kind: `Intersecting`,
//! distance 0, the last search direction as `normal`
//! (`deep_overlaps_take_the_boolean_search`,
//! `deep_overlap_full_query_holds_the_origin`; `inner_balls.rs` compares the
//! verdicts with the full query to the bit, and with brute force).
//!
//! # Warm starts
//!
//! Warm starts search from the cached vertices. `SupportMap::support_from(d,
//! hint)` is `support_indexed` starting from vertex `hint` (an index the
//! shape returned before); hulls and polygons climb from it instead of their
//! start tables, and the wrappers pass it through. A warm query's first
//! support call starts from the rebuilt simplex's first point, each later one
//! from the vertices found last; cold queries keep the plain search, and any
//! maximiser is a valid answer, so a warm result may differ from a cold one
//! only on ties (`warm_queries_search_from_cached_vertices`).
//!
//! `warm_exit` is the warm query's one-call answer: the cached points rebuilt
//! from the shapes' vertices and one support call made on the shapes
//! directly (gjk-shapes' posed `distance_with` uses it with B's direction
//! turned into its frame), not through the solver's adapters. It is the warm
//! query itself, result for result (`warm_exit_is_the_warm_query`).
//!
//! # The distance alone
//!
//! `distance_value` runs the same search keeping only the Minkowski points
//! (the Barycode paper's "level 2": `|v|` where the search converges, 0 where
//! it reaches the origin, infinity past `max_distance`); `distance_value.rs`
//! checks it against the full query's `distance` to the bit.

use crate::gjk::{DEFAULT_MAX_ITERATIONS, DistanceResult, GjkConfig, GjkSolver, Status, converged_answer};
use crate::kernel::{Empty, Exit, Keep, Points, Search, beyond, drive, full_mask, start_bound, start_scale};
use crate::real::Real;
use crate::simplex::{MAX_SIMPLEX_POINTS, NO_INDEX, Simplex, SupportPoint};
use crate::support::{InLanes, SupportMap, minkowski_support};
use crate::vector::Vector;

/// The last simplex of a query, kept by the caller between frames to warm
/// start the next query on the same pair (Box2D's `b2SimplexCache`).
///
/// Each vertex keeps the two vertex indices it came from and its search
/// direction: shapes that number their vertices rebuild it by index, all
/// others by one support call per vertex. For a pair that barely moved, the
/// rebuilt simplex already holds the answer and the query ends after one or
/// two support calls.
#[derive(Clone, Copy, Debug, PartialEq)]
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
#[derive(Clone, Copy, Debug, PartialEq)]
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
/// use gjk_core::{GjkConfig, SupportMap, internal::{BallTest, ball_test}, glam::Vec2};
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
    let warm = matches!(&cache, Some(c) if !c.is_empty());
    // Pairs whose inner balls overlap deeply (cold, unrecorded queries):
    // the boolean search finds a simplex holding the origin, and the balls
    // prove the overlap (see `overlap_search`). Asked before the solver's
    // state is made, which such pairs never need.
    if !warm
        && !R::ENABLED
        && ball_test(a, b, V::Scalar::ZERO, config) == BallTest::Overlapping
        && let Some(s) = overlap_search(a, b, config)
    {
        if let Some(c) = cache {
            c.store_from(&s.keep, into);
        }
        return overlap_result(&s, into);
    }
    let mut gjk = GjkSolver::new(*config);
    match &cache {
        Some(c) if warm => {
            gjk.start_with::<true>((0..c.len().min(MAX_SIMPLEX_POINTS)).map(|i| c.rebuilt(i, a, b, from)));
            // Each support searches from the vertices found last: the
            // cached ones first (the pair has moved little since).
            let hint = gjk.simplex().first_indices();
            run::<_, _, _, _, true>(&mut gjk, a, b, recorder, hint);
        }
        _ => {
            let (d, seed) = initial_direction(a, b);
            gjk.start_fresh(minkowski_support(a, b, d), d, seed);
            run::<_, _, _, _, false>(&mut gjk, a, b, recorder, (NO_INDEX, NO_INDEX));
        }
    }
    if let Some(c) = cache {
        if gjk.status() == Some(Status::InvalidInput) {
            c.clear();
        } else {
            c.store_from(gjk.simplex(), into);
        }
    }
    // The result is the tail expression, built in the caller's slot (a
    // `DistanceResult` is ~300 bytes in 3D).
    gjk.result_as(into)
}

/// A warm query's one-call exit, for callers that rebuild the cached
/// points themselves: `cache`'s points are rebuilt from vertices
/// (`vertex_a`, and `vertex_b` already placed in A's frame) and the search
/// of [`distance_with`] starts on them in `out`'s simplex; its first support
/// call is `support(d, hint)` (`hint`: the first point's vertices on A and
/// on B). Where that step converges (the common end on a frame-coherent
/// sequence of pairs apart) `out` holds the query's answer and the call
/// returns `true`. It returns `false`, `out` holding nothing of use, where
/// the query would go on: an empty or full cache, a point without
/// vertices, a start within the zero band, invalid input, or a first step
/// that does not converge; the caller then runs the whole warm query.
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
    let mut start = [(SupportPoint::default(), V::ZERO); MAX_SIMPLEX_POINTS];
    for (i, slot) in start.iter_mut().enumerate().take(n) {
        let (ia, ib) = cache.indices(i);
        let (Some(pa), Some(pb)) = (vertex_a(ia), vertex_b(ib)) else {
            // Exit: a point not made from vertices (the whole query
            // rebuilds it by a support call).
            return false;
        };
        *slot = (SupportPoint::with_indices(pa, ia, pb, ib), cache.dirs[i]);
    }
    out.simplex.clear();
    // The search itself, on `out`'s simplex in place.
    let mut s =
        Search::<V, &mut Simplex<V>, false>::with_keep(config.sanitized(), V::Scalar::ZERO, &mut out.simplex);
    // Exit: the start ends the search (contact to verify, invalid input).
    if s.start_points::<true>(start[..n].iter().copied()) != Exit::Continue {
        return false;
    }
    let hint = s.keep.first_indices();
    // Exit: the first step does not converge (the query goes on).
    if s.step(support(s.dir, hint)) != Exit::Converged {
        return false;
    }
    let (status, distance, normal) = converged_answer(&s);
    let (point_a, point_b) = s.keep.witness_points();
    let (lower_bound, tolerance, iterations) = (s.lower_bound().min(distance), s.band(), s.iterations);
    out.status = status;
    out.distance = distance;
    out.point_a = point_a;
    out.point_b = point_b;
    out.normal = normal;
    out.lower_bound = lower_bound;
    out.tolerance = tolerance;
    out.iterations = iterations;
    true
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
/// use gjk_core::{GjkConfig, internal::{first_support, start_proves_beyond}, glam::Vec2};
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
    if !start.0.is_finite() {
        return DistanceResult::invalid();
    }
    gjk.start_fresh(start.0, start.1, seed);
    run::<_, _, _, _, false>(&mut gjk, a, b, recorder, (NO_INDEX, NO_INDEX));
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
/// use gjk_core::{GjkConfig, internal::distance_value_or, glam::Vec2};
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
    // The centres once, for the balls and the first direction.
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
    // The full query's search on the Minkowski points alone, without the
    // verification that tells touching from overlap (both measure 0): its
    // distance to the bit.
    let mut s = Search::<V, Points<V>, false>::new(config, V::Scalar::ZERO);
    s.last = s.start(minkowski_support(a, b, dir), dir, seed);
    if s.last == Exit::Continue {
        drive::<_, _, _, _, false>(&mut s, a, b, (NO_INDEX, NO_INDEX), |_, _, _| {});
    }
    match s.last {
        Exit::Beyond => Ok(V::Scalar::INFINITY),
        Exit::Converged => Ok(s.v.length()),
        Exit::Enclosed | Exit::Origin => Ok(V::Scalar::ZERO),
        Exit::Invalid => Err(GjkError::InvalidInput),
        Exit::Limit | Exit::Continue => Err(GjkError::IterationLimit),
    }
}

/// Drives a started solver to the end, recording each iteration.
/// `HINTED` (warm starts): each support call searches from `hint`
/// (vertices on A, on B), then from the vertices it found, as
/// [`minkowski_support_from`]; cold queries use the shapes' own starts.
#[inline(always)]
fn run<V, A, B, R, const HINTED: bool>(
    gjk: &mut GjkSolver<V>,
    a: &A,
    b: &B,
    recorder: &mut R,
    hint: (u32, u32),
) where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    R: Recorder<V> + ?Sized,
{
    // Exit: the start itself finished the query.
    if gjk.is_done() {
        return;
    }
    drive::<_, _, _, _, HINTED>(gjk, a, b, hint, |gjk: &GjkSolver<V>, direction, support| {
        if R::ENABLED {
            let (lower_bound, upper_bound) = gjk.distance_bounds();
            recorder.record(&Iteration {
                iteration: gjk.iterations(),
                direction,
                support,
                simplex: *gjk.simplex(),
                closest: gjk.closest_point(),
                lower_bound,
                upper_bound,
            });
        }
    });
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
    // The search ends on a separating plane beyond the margin (Exit 0), or
    // once the origin is within the margin of the simplex (Exit 5).
    let config = GjkConfig { max_distance: margin, ..config.sanitized() };
    match cache {
        None => {
            // Exit before any support call: the balls decide.
            match ball_test(a, b, margin, &config) {
                BallTest::Apart => return Ok(false),
                BallTest::Overlapping => return Ok(true),
                BallTest::Unknown => {}
            }
            // The Minkowski points alone: nothing to store.
            boolean::<V, Points<V>, W, A, B>(a, b, &config, margin, None, from).0
        }
        Some(c) => {
            // The full simplex, to be stored; a warm start searches from
            // the cached vertices, as the warm distance does.
            let warm = (!c.is_empty()).then_some(&*c);
            let (outcome, simplex) = boolean::<V, Simplex<V>, W, A, B>(a, b, &config, margin, warm, from);
            match outcome {
                Err(GjkError::InvalidInput) => c.clear(),
                _ => c.store_from(&simplex, into),
            }
            outcome
        }
    }
}

/// The boolean test's search (see [`intersects_within`]) from the cached
/// points where `warm` has some, cold otherwise, with what it kept.
#[inline(always)]
fn boolean<V, K, W, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    margin: V::Scalar,
    warm: Option<&SimplexCache<W>>,
    from: impl Fn(W) -> V + Copy,
) -> (Result<bool, GjkError>, K)
where
    V: Vector,
    K: Keep<V> + Empty,
    W: Vector<Scalar = V::Scalar>,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut s = Search::<V, K, true>::new(*config, margin);
    match warm {
        Some(c) => {
            s.last = s
                .start_points::<true>((0..c.len().min(MAX_SIMPLEX_POINTS)).map(|i| c.rebuilt(i, a, b, from)));
            if s.last == Exit::Continue {
                let hint = s.keep.first_indices();
                drive::<_, _, _, _, true>(&mut s, a, b, hint, |_, _, _| {});
            }
        }
        None => {
            let (d, seed) = initial_direction(a, b);
            s.last = s.start(minkowski_support(a, b, d), d, seed);
            if s.last == Exit::Continue {
                drive::<_, _, _, _, false>(&mut s, a, b, (NO_INDEX, NO_INDEX), |_, _, _| {});
            }
        }
    }
    let outcome = match s.last {
        Exit::Beyond => Ok(false),
        // Converged: the distance is |v|, in contact within the margin.
        Exit::Converged => Ok(s.at_origin(s.vv)),
        Exit::Enclosed | Exit::Origin => Ok(true),
        Exit::Invalid => Err(GjkError::InvalidInput),
        Exit::Limit | Exit::Continue => Err(GjkError::IterationLimit),
    };
    (outcome, s.keep)
}

/// The search for a pair whose inner balls overlap deeply
/// ([`BallTest::Overlapping`]): the boolean search (which ends on the first
/// simplex holding the origin) instead of the solver's search and
/// verification. The balls already prove that no direction separates the
/// shapes within any zero band a search could use (what the solver's
/// verification would find), so only a simplex holding the origin is
/// wanted, for EPA. `None` (the solver runs) unless the search ends on a
/// full simplex (`DIM + 1` points) holding the origin, the common end for
/// such pairs, whose barycentric coordinates of the origin (one more
/// solve) it then holds: the witness points are one point of both shapes,
/// as the solver's are.
#[inline]
fn overlap_search<V, A, B>(a: &A, b: &B, config: &GjkConfig<V::Scalar>) -> Option<Search<V, Simplex<V>, true>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut s = Search::<V, Simplex<V>, true>::new(config.sanitized(), V::Scalar::ZERO);
    let (d, seed) = initial_direction(a, b);
    s.last = s.start(minkowski_support(a, b, d), d, seed);
    if s.last == Exit::Continue {
        drive::<_, _, _, _, false>(&mut s, a, b, (NO_INDEX, NO_INDEX), |_, _, _| {});
    }
    let n = s.keep.len();
    // Exit: no full simplex holding the origin.
    if s.last != Exit::Enclosed || n != V::DIM + 1 {
        return None;
    }
    // The origin's weights in the final simplex (the 2D exit on a closed
    // triangle leaves its new point unweighted).
    let r = V::solve_simplex(&s.keep.w_array(), n);
    if r.mask != full_mask(n) {
        return None;
    }
    s.keep.reduce(&r);
    Some(s)
}

/// The full result of [`overlap_search`]'s search, in `W` (`into`
/// converts): [`Status::Intersecting`], distance 0, the last search
/// direction as the normal (as the solver reports for an overlap).
#[inline(always)]
fn overlap_result<V, W>(s: &Search<V, Simplex<V>, true>, into: impl Fn(V) -> W + Copy) -> DistanceResult<W>
where
    V: Vector,
    W: Vector<Scalar = V::Scalar>,
{
    let (point_a, point_b) = s.keep.witness_points();
    let last = s.keep.directions()[s.keep.len() - 1];
    DistanceResult {
        status: Status::Intersecting,
        distance: V::Scalar::ZERO,
        point_a: into(point_a),
        point_b: into(point_b),
        normal: into(last.try_normalize().unwrap_or(V::X)),
        lower_bound: V::Scalar::ZERO,
        tolerance: s.band(),
        iterations: s.iterations,
        simplex: s.keep.convert(into),
    }
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

    /// Deep overlaps take the boolean search's path (`overlap_search`
    /// answers, and the unrecorded query returns its answer), and the
    /// recorded query, which takes the solver, agrees that they overlap.
    #[test]
    fn deep_overlaps_take_the_boolean_search() {
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
            if let Some(fast) = overlap_search(&a, &b, &cfg).map(|s| overlap_result(&s, |v| v)) {
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
            if let Some(fast) = overlap_search(&a3, &b3, &cfg).map(|s| overlap_result(&s, |v| v)) {
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
