//! The full distance query as a caller-driven state machine.
//!
//! [`GjkSolver`] runs the GJK search (`kernel.rs`, the one every query
//! runs) and, once the origin is within the zero band, verifies contact:
//! it tries candidate separating normals to tell touching from overlap.
//! The caller asks it for a search [`direction`](GjkSolver::direction),
//! evaluates the two support mappings (A along `d`, B along `−d`) and hands
//! the result to [`step`](GjkSolver::step), until a step returns
//! [`Step::Done`]. [`crate::distance_with`] runs exactly this loop, so a
//! debug viewer that drives the solver by hand sees the same iterations.
//!
//! # Touching or intersecting
//!
//! When the origin is reached, GJK alone cannot tell touching from overlap.
//! First the free check: a simplex point found as the support along its
//! search direction `d` says how far `A − B` reaches along `d`; if that is
//! within the zero band, `d` already proves touching (no support call; warm
//! start points rebuilt from vertex indices are not used, since the shapes
//! have moved). Before that, a full simplex is tested as a whole: the
//! origin's distance to the facet opposite vertex `i` is `λᵢ · |vol| / |nᵢ|`,
//! and every facet normal is bounded by the points' scale, so
//! `min λ · |vol| > 2 · band · bound` (`Simplex::encloses_origin_deeply`)
//! proves that no part of the boundary of `A − B` is within the band:
//! overlap, at once. Otherwise the solver tries up to `MAX_VERIFY_CANDIDATES`
//! candidate normals (the last search direction, then the facet normals of
//! the simplex, the side facing the last search direction first) with one
//! support call each: if `A − B` reaches no further than the zero band along
//! one, the shapes touch and that normal separates them (`Touching`);
//! otherwise they overlap (`Intersecting`).
//!
//! Where the witness lies on a face of one shape (or on an edge of each in
//! 3D), the converged answer's normal is that face's normal from its own
//! points (`Keep::source_face_normal`), kept where it agrees with `v` to
//! 1e-3 rad: exact to a few ulps whatever the face's size
//! (`parallel_contacts_keep_the_face_normal`).

pub use crate::config::{DEFAULT_MAX_ITERATIONS, GjkConfig};
use crate::kernel::{Driven, Exit, Keep, Search, agreeing};
use crate::real::Real;
use crate::simplex::{Simplex, SupportPoint};
use crate::vector::Vector;

/// Most extra support calls spent deciding between touching and
/// intersecting once the origin is found on the simplex: one per facet of a
/// full simplex (4 in 3D), or the last search direction plus both sides of a
/// facet (3).
pub const MAX_VERIFY_CANDIDATES: usize = 4;

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
    /// A support point (or the configuration, or a pose) held NaN or
    /// infinity. `distance` is infinite (never read as contact), the other
    /// outputs zero.
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
#[derive(Clone, Copy, Debug, PartialEq)]
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

    /// The result reported for invalid input: infinite distance, the rest
    /// zero.
    pub fn invalid() -> Self {
        Self {
            status: Status::InvalidInput,
            distance: V::Scalar::INFINITY,
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

/// What a search that converged (Exits 1, 2 and 4) answers: the distance
/// `|v|`, the normal `−v / |v|`, and touching where the distance is within
/// the zero band.
#[inline(always)]
pub(crate) fn converged_answer<V: Vector, K: Keep<V>, const CONE: bool>(
    s: &Search<V, K, CONE>,
) -> (Status, V::Scalar, V) {
    let d = s.v.length();
    let status = if d <= s.band() { Status::Touching } else { Status::Separated };
    let normal = (-s.v).try_normalize().unwrap_or(V::X);
    (status, d, face_normal_of(s, normal).unwrap_or(normal))
}

/// Where the final simplex's witness lies on a face of one shape or on an
/// edge of each, the normal from the shapes' own points (oriented as
/// `normal`): `v` is a sum of
/// Minkowski points `b − a`, each rounded by the pair's coordinates, so
/// its direction is off by them over the gap, while the face's normal
/// from its own points is exact to a few ulps (a capsule lying across a
/// triangle 100 wide came 1.7e-6 rad off in f32,
/// `parallel_contacts_keep_the_face_normal`). `None` where the simplex is
/// no such face, or the face disagrees with `v` beyond its rounding (the
/// closest point is not over the face after all).
#[inline]
fn face_normal_of<V: Vector, K: Keep<V>, const CONE: bool>(s: &Search<V, K, CONE>, normal: V) -> Option<V> {
    agreeing(s.keep.source_face_normal(normal)?, normal)
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

/// GJK distance as a state machine driven by the caller: the queries' own
/// search (see [`crate::distance_with`]) with the verification that tells
/// touching from overlap once the origin is reached.
///
/// ```
/// use gjk_core::{GjkSolver, GjkConfig, Step, SupportMap, internal::minkowski_support, glam::Vec2};
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
///
/// # Stepping what a posed query runs
///
/// `gjk_shapes::distance` does not run GJK on the shapes as given: it
/// works in A's frame, with B placed there (`Placed::new(b,
/// &pose_a.inv_mul(pose_b))`), on the shapes' *cores* (`CoreOf`: a
/// capsule's segment, a ball's centre, a rounded shape's inner shape), and
/// adds the radii to the result afterwards (`add_radii`). Some pairs never
/// reach GJK (2D polygon pairs apart or touching: the boundary walk;
/// `gjk trace` names the route). To step the same search, step the cores
/// from the support point along the centres' offset, `cb − ca`
/// ([`crate::SupportMap::center`]; +X where a shape names no centre). On
/// polytope, segment and point cores the iterations and the core distance
/// are the query's; the query also seeds its tolerances' scale from that
/// offset, so on curved cores (cylinders, cones) and touching pairs a
/// stepped run can take an iteration or two more and agree within the
/// result's tolerance. The test `stepping_reproduces_the_posed_query`
/// (gjk-shapes) pins this. To watch the query itself, give it a
/// [`crate::Recorder`] (`gjk trace` does).
#[derive(Clone, Copy, Debug)]
pub struct GjkSolver<V: Vector> {
    search: Search<V, Simplex<V>, false>,
    phase: Phase<V>,
    normal: V,
    distance: V::Scalar,
}

impl<V: Vector> GjkSolver<V> {
    /// A solver with the given configuration (sanitized), not yet started.
    #[inline(always)]
    pub fn new(config: GjkConfig<V::Scalar>) -> Self {
        Self {
            search: Search::new(config.sanitized(), V::Scalar::ZERO),
            phase: Phase::Done(Status::InvalidInput),
            normal: V::X,
            distance: V::Scalar::ZERO,
        }
    }

    /// Starts from one support point `p`, found along `dir`.
    pub fn start(&mut self, p: SupportPoint<V>, dir: V) -> Step {
        *self = Self::new(self.search.config);
        if !p.is_finite() {
            return self.finish(Status::InvalidInput);
        }
        self.start_fresh(p, dir, V::Scalar::ZERO)
    }

    /// [`Self::start`] on a solver just made by [`Self::new`], for points
    /// made by [`SupportPoint::new`] (the queries' own). `seed`: a
    /// coordinate magnitude of `A − B` known before the first support call
    /// (the queries' centres; 0 for none), the least scale.
    #[inline(always)]
    pub(crate) fn start_fresh(&mut self, p: SupportPoint<V>, dir: V, seed: V::Scalar) -> Step {
        self.phase = Phase::Search;
        let exit = self.search.start(p, dir, seed);
        self.on_exit(exit)
    }

    /// Starts from several support points (a warm-start simplex), each with
    /// the direction it came from. Duplicates are dropped; at most
    /// [`MAX_SIMPLEX_POINTS`](crate::internal::MAX_SIMPLEX_POINTS) are used. An empty slice is invalid input. A
    /// full simplex counts as holding the origin only where its
    /// barycentric weights put the origin within the zero band (at least
    /// [`DEEP_BAND_FLOOR`](crate::simplex::DEEP_BAND_FLOOR) `ε · scale`); otherwise (one too thin for its
    /// distance from the origin, whose solve is rounding) the search goes
    /// on from its point nearest the origin.
    pub fn start_from(&mut self, points: &[(SupportPoint<V>, V)]) -> Step {
        *self = Self::new(self.search.config);
        self.start_with::<false>(points.iter().copied())
    }

    /// [`Self::start_from`] on a solver just made by [`Self::new`], on
    /// points made as they are read (`BUILT`: by [`SupportPoint::new`] or
    /// [`SupportPoint::with_indices`], so finite where `w` is).
    #[inline(always)]
    pub(crate) fn start_with<const BUILT: bool>(
        &mut self,
        points: impl Iterator<Item = (SupportPoint<V>, V)>,
    ) -> Step {
        self.phase = Phase::Search;
        let exit = self.search.start_points::<BUILT>(points);
        self.on_exit(exit)
    }

    /// The direction to evaluate next: A's support along it, B's along its
    /// negation.
    #[inline]
    pub fn direction(&self) -> V {
        self.search.dir
    }

    /// Whether the query has finished.
    #[inline]
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done(_))
    }

    /// The current simplex (with barycentric weights of the closest point).
    #[inline]
    pub fn simplex(&self) -> &Simplex<V> {
        &self.search.keep
    }

    /// The current closest point of the simplex to the origin (`v`).
    #[inline]
    pub fn closest_point(&self) -> V {
        self.search.v
    }

    /// Proven bounds `(lower, upper)` on the distance so far.
    #[inline]
    pub fn distance_bounds(&self) -> (V::Scalar, V::Scalar) {
        (self.search.lower_bound(), self.search.v.length())
    }

    /// Support calls made since the start.
    #[inline]
    pub fn iterations(&self) -> u32 {
        self.search.iterations
    }

    /// The budget of `step` calls that surely reaches [`Step::Done`].
    #[inline]
    pub fn step_budget(&self) -> u32 {
        self.search.budget() + MAX_VERIFY_CANDIDATES as u32
    }

    /// Feeds the support point found along [`Self::direction`]. A point
    /// with a NaN or infinite coordinate ends the query as invalid input.
    #[inline]
    pub fn step(&mut self, p: SupportPoint<V>) -> Step {
        if !p.is_finite() && !self.is_done() {
            self.search.iterations += 1;
            return self.finish(Status::InvalidInput);
        }
        self.step_built(p)
    }

    /// [`Self::step`] for points made by [`SupportPoint::new`] (finite
    /// where `w` is): the queries' own loops.
    #[inline(always)]
    pub(crate) fn step_built(&mut self, p: SupportPoint<V>) -> Step {
        match self.phase {
            Phase::Search => {
                let exit = self.search.step(p);
                self.on_exit(exit)
            }
            Phase::Verify { candidates, count, next } => self.verify_step(p, candidates, count, next),
            Phase::Done(s) => Step::Done(s),
        }
    }

    /// What an exit of the search means for the full query.
    #[inline(always)]
    fn on_exit(&mut self, exit: Exit) -> Step {
        match exit {
            Exit::Continue => Step::Continue,
            Exit::Beyond => {
                self.distance = self.search.v.length();
                self.normal = (-self.search.lower_v).try_normalize().unwrap_or(V::X);
                self.finish(Status::Beyond)
            }
            Exit::Converged => self.finish_converged(),
            Exit::Enclosed => self.enter_verify(true),
            Exit::Origin => self.enter_verify(false),
            Exit::Limit => {
                self.distance = self.search.v.length();
                self.normal = (-self.search.v).try_normalize().unwrap_or(V::X);
                self.finish(Status::IterationLimit)
            }
            Exit::Invalid => self.finish(Status::InvalidInput),
        }
    }

    /// The origin is within the zero band of the simplex: collect candidate
    /// separating normals to tell touching from overlap.
    fn enter_verify(&mut self, full: bool) -> Step {
        let mut candidates = [V::ZERO; MAX_VERIFY_CANDIDATES];
        let mut count = 0usize;
        let s = &self.search;
        let simplex = &s.keep;
        let pts = simplex.points();
        let n = pts.len();
        let w = simplex.w_array();
        let band = s.band();
        let prev_v = s.prev_v;
        self.distance = V::Scalar::ZERO;
        self.normal = (-prev_v).try_normalize().unwrap_or(V::X);
        // Exit: no facet is within the band, so neither is the boundary of
        // `A − B` (which holds the simplex): no candidate could pass.
        if full && simplex.encloses_origin_deeply(band) {
            return self.finish(Status::Intersecting);
        }
        // Free candidates first: a point found as the support along `d`
        // says how far A − B reaches along `d`; within the band, `d` is
        // already a proven separating normal (no support call needed).
        // `x·n ≤ band·|n|` for an unnormalised `n`, without the square root
        // unless it is close (most candidates are far beyond the band).
        let within = |x: V::Scalar, n: V| x <= V::Scalar::ZERO || x * x <= band * band * n.length_squared();
        for (i, (p, d)) in pts.iter().zip(simplex.directions()).enumerate() {
            if simplex.is_exact(i)
                && within(d.dot(p.w), *d)
                && let Some(d) = d.try_normalize()
                && d.dot(p.w) <= band
            {
                // Exit: a simplex point's own direction separates.
                self.normal = d;
                return self.finish(Status::Touching);
            }
        }
        if full {
            debug_assert_eq!(n, V::DIM + 1);
            // Facets the origin lies within the band of; the others are
            // farther than the band, which proves penetration across them.
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
            // along it already.
            let last = -prev_v;
            let measured = (0..n).any(|i| simplex.is_exact(i) && simplex.directions()[i] == last);
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
        // Exit: no candidate normal left to try.
        if count == 0 {
            return self.finish(Status::Intersecting);
        }
        self.phase = Phase::Verify { candidates, count: count as u8, next: 0 };
        self.search.dir = candidates[0];
        Step::Continue
    }

    fn verify_step(
        &mut self,
        p: SupportPoint<V>,
        candidates: [V; MAX_VERIFY_CANDIDATES],
        count: u8,
        next: u8,
    ) -> Step {
        let s = &mut self.search;
        s.iterations += 1;
        if !p.w_is_finite() {
            return self.finish(Status::InvalidInput);
        }
        s.scale = s.scale.max(p.w.max_abs());
        let n = candidates[next as usize];
        // Exit: h(n), how far A − B reaches along n, is at most the band:
        // the origin is on the boundary and n separates (touching).
        if n.dot(p.w) <= s.band() {
            self.normal = n;
            return self.finish(Status::Touching);
        }
        let next = next + 1;
        // Exit: every candidate is crossed, the shapes overlap.
        if next >= count {
            return self.finish(Status::Intersecting);
        }
        self.phase = Phase::Verify { candidates, count, next };
        s.dir = candidates[next as usize];
        Step::Continue
    }

    fn finish_converged(&mut self) -> Step {
        let (status, distance, normal) = converged_answer(&self.search);
        self.distance = distance;
        self.normal = normal;
        self.finish(status)
    }

    fn finish(&mut self, status: Status) -> Step {
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
    #[inline(always)]
    pub fn result(&self) -> DistanceResult<V> {
        // The simplex copied whole (a conversion goes point by point).
        self.result_with(|v| v, self.search.keep)
    }

    /// [`Self::result`] in another vector type of the same scalar, built in
    /// place (every point converted by `f`).
    #[inline(always)]
    pub(crate) fn result_as<W: Vector<Scalar = V::Scalar>>(
        &self,
        f: impl Fn(V) -> W + Copy,
    ) -> DistanceResult<W> {
        self.result_with(f, self.search.keep.convert(f))
    }

    /// The result with `f` converting its points and `simplex` already
    /// converted.
    #[inline(always)]
    fn result_with<W: Vector<Scalar = V::Scalar>>(
        &self,
        f: impl Fn(V) -> W + Copy,
        simplex: Simplex<W>,
    ) -> DistanceResult<W> {
        let status = self.status().unwrap_or(Status::IterationLimit);
        if status == Status::InvalidInput {
            let mut r = DistanceResult::invalid();
            r.iterations = self.search.iterations;
            return r;
        }
        let (point_a, point_b) = self.search.keep.witness_points();
        let (distance, normal) = match self.phase {
            Phase::Done(_) => (self.distance, self.normal),
            _ => (self.search.v.length(), (-self.search.v).try_normalize().unwrap_or(V::X)),
        };
        DistanceResult {
            status,
            distance,
            point_a: f(point_a),
            point_b: f(point_b),
            normal: f(normal),
            lower_bound: self.search.lower_bound().min(distance),
            tolerance: self.search.band(),
            iterations: self.search.iterations,
            simplex,
        }
    }
}

impl<V: Vector> Driven<V> for GjkSolver<V> {
    #[inline(always)]
    fn direction(&self) -> V {
        self.search.dir
    }
    #[inline(always)]
    fn feed(&mut self, p: SupportPoint<V>) -> bool {
        self.step_built(p) != Step::Continue
    }
    #[inline(always)]
    fn budget(&self) -> u32 {
        self.step_budget()
    }
}
