//! Support mappings: the one thing GJK needs to know about a shape.
//!
//! # Stepped searches
//!
//! Every Minkowski support call (`minkowski_support`,
//! `minkowski_support_from`) begins both shapes' searches with
//! `SupportMap::support_search(d, hint)` (`hint` = `NO_INDEX` on cold calls).
//! A shape answers at once (`Search::Done`: the default) or returns a hill
//! climb standing at its first vertex (`Search::Climbing`: climbing hulls).
//! Where a side climbs, the call steps the climbs in turn — one `climb_step`
//! of A's, one of B's, until both stand at maximisers — and reads each answer
//! as `vertex(at)`. A climb is a chain of dependent loads; stepped in turn,
//! the two chains' loads overlap instead of one waiting for the other
//! (docs/decisions.md). A climb's fields (`Climb`) are in the climbing
//! shape's own frame, so a wrapper that overrides `support_search` overrides
//! `climb_step` and `vertex` to match. Every loop is bounded by the climbs'
//! step budgets (the vertex count: each step that does not finish moves to a
//! strictly better vertex); a climb that ends off the shape's vertices gives
//! NaN, which the queries report as invalid input
//! (`minkowski_support_steps_climbs_in_turn`).

use crate::simplex::{NO_INDEX, SupportPoint};
use crate::vector::Vector;

/// A convex shape described by its support mapping.
///
/// `support(d)` returns a point of the shape that is furthest along `d`
/// (any maximiser of `p · d`). The direction need not be unit length and may
/// be zero, in which case any point of the shape is a valid answer.
///
/// Only [`support`](Self::support) is required. Shapes with numbered
/// vertices can also implement [`support_indexed`](Self::support_indexed)
/// and [`vertex`](Self::vertex), which let a warm-start cache rebuild the
/// last simplex by index instead of by repeated support calls, and
/// [`support_from`](Self::support_from), which lets a warm query's support
/// calls start their search at the cached vertices. Shapes that hill-climb
/// over their vertices can also implement
/// [`support_search`](Self::support_search) and
/// [`climb_step`](Self::climb_step), which let a Minkowski support call
/// step both shapes' climbs in turn.
///
/// ```
/// use gjk_core::{SupportMap, glam::Vec2};
/// struct Disc { centre: Vec2, radius: f32 }
/// impl SupportMap<Vec2> for Disc {
///     fn support(&self, d: Vec2) -> Vec2 {
///         self.centre + d.normalize_or_zero() * self.radius
///     }
/// }
/// let p = Disc { centre: Vec2::ZERO, radius: 2.0 }.support(Vec2::new(0.0, 5.0));
/// assert_eq!(p, Vec2::new(0.0, 2.0));
/// ```
pub trait SupportMap<V: Vector> {
    /// A point of the shape furthest along `dir`.
    fn support(&self, dir: V) -> V;

    /// The support point and its vertex index ([`NO_INDEX`] when the shape
    /// has no numbered vertices).
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        (self.support(dir), NO_INDEX)
    }

    /// [`support_indexed`](Self::support_indexed), searching from vertex
    /// `hint`: an index this shape returned before, as a warm start has
    /// cached. Shapes that hill-climb over their vertices start the climb
    /// there, so when the answer has moved by a vertex or two since, they
    /// check a few neighbours instead of every vertex. Any maximiser is a
    /// valid answer (it may differ from `support_indexed`'s on ties). The
    /// default ignores the hint; so should a shape for an index it never
    /// returned (such as [`NO_INDEX`]).
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let _ = hint;
        self.support_indexed(dir)
    }

    /// The vertex with the given index, for shapes with numbered vertices.
    #[inline]
    fn vertex(&self, _index: u32) -> Option<V> {
        None
    }

    /// Any point of the shape, ideally near its middle. Queries start their
    /// search along the line between the two shapes' centres when both give
    /// one, which saves iterations; `None` (the default) starts along +X.
    #[inline]
    fn center(&self) -> Option<V> {
        None
    }

    /// Radii `(inner, outer)` about [`Self::center`]: the ball of radius
    /// `inner` around the centre lies inside the shape, and the shape inside
    /// the ball of radius `outer`. Queries that need no witness (the
    /// distance alone, the boolean test) settle pairs whose inner balls
    /// overlap deeply, or (the boolean) whose outer balls are apart,
    /// without a GJK iteration ([`crate::internal::ball_test`]).
    /// `None` (the default): unknown. A value that overstates `inner` or
    /// understates `outer` gives wrong answers.
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        None
    }

    /// Begins a support search along `dir` that may go on in steps, from
    /// vertex `hint` as [`support_from`](Self::support_from) takes it
    /// ([`NO_INDEX`] for none): the answer found ([`Search::Done`], as
    /// `support_from` gives it), or a hill climb over the shape's vertices
    /// standing at its first vertex ([`Search::Climbing`]), which
    /// [`climb_step`](Self::climb_step) goes on with and whose answer is
    /// [`vertex`](Self::vertex) of its last vertex. [`minkowski_support`]
    /// steps two shapes' climbs in turn, so that their chains of dependent
    /// loads overlap. The default is `Done`. A shape (or wrapper) that
    /// overrides this overrides `climb_step` and `vertex` to match.
    #[inline(always)]
    fn support_search(&self, dir: V, hint: u32) -> Search<V> {
        let (p, i) = if hint == NO_INDEX { self.support_indexed(dir) } else { self.support_from(dir, hint) };
        Search::Done(p, i)
    }

    /// One step of a climb begun by [`support_search`](Self::support_search):
    /// moves `climb` to a vertex further along its direction when one of its
    /// vertex's neighbours is, and returns whether it stands at a maximiser
    /// (no neighbour is further: on a convex polytope, a support vertex).
    /// The default, for shapes that never climb, returns `true`.
    #[inline(always)]
    fn climb_step(&self, climb: &mut Climb<V>) -> bool {
        let _ = climb;
        true
    }
}

/// A hill climb over a shape's vertices in progress (see
/// [`SupportMap::support_search`]). Its fields are in the frame of the
/// shape that climbs (wrappers pass the direction inwards): a caller hands
/// it back to the same shape's [`SupportMap::climb_step`] and reads the
/// answer as that shape's [`SupportMap::vertex`]`(at)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Climb<V: Vector> {
    /// The search direction, in the climbing shape's frame.
    pub dir: V,
    /// The vertex the climb stands at.
    pub at: u32,
    /// `dir · vertex(at)`.
    pub best: V::Scalar,
    /// The most steps the climb can take (the vertex count: every step that
    /// does not finish moves to a strictly better vertex).
    pub steps: u32,
}

impl<V: Vector> Climb<V> {
    /// The same climb with its direction in another vector type.
    #[inline(always)]
    pub fn map<W: Vector<Scalar = V::Scalar>>(self, f: impl Fn(V) -> W) -> Climb<W> {
        Climb { dir: f(self.dir), at: self.at, best: self.best, steps: self.steps }
    }
}

/// What [`SupportMap::support_search`] returns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Search<V: Vector> {
    /// The support point and its vertex index ([`NO_INDEX`] for none).
    Done(V, u32),
    /// A climb for [`SupportMap::climb_step`] to go on with.
    Climbing(Climb<V>),
}

impl<V: Vector> Search<V> {
    /// The answer's point moved by `f` (a wrapper's map to its own frame);
    /// a climb as it is (its fields stay in the climbing shape's frame).
    #[inline(always)]
    pub fn map_done(self, f: impl Fn(V) -> V) -> Self {
        match self {
            Search::Done(p, i) => Search::Done(f(p), i),
            c => c,
        }
    }
}

impl<V: Vector, T: SupportMap<V> + ?Sized> SupportMap<V> for &T {
    #[inline]
    fn support(&self, dir: V) -> V {
        (**self).support(dir)
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        (**self).support_indexed(dir)
    }
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        (**self).support_from(dir, hint)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        (**self).vertex(index)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        (**self).center()
    }
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        (**self).center_radii()
    }
    #[inline(always)]
    fn support_search(&self, dir: V, hint: u32) -> Search<V> {
        (**self).support_search(dir, hint)
    }
    #[inline(always)]
    fn climb_step(&self, climb: &mut Climb<V>) -> bool {
        (**self).climb_step(climb)
    }
}

/// A point set is the support mapping of its convex hull (linear scan).
///
/// Dot products are taken relative to the first point, so a small shape far
/// from the origin picks its support vertex as accurately as near it.
///
/// An empty slice has no points: its support is NaN, which every query
/// reports as [`crate::Status::InvalidInput`]. A NaN or infinite coordinate
/// anywhere in the slice is likewise passed on, never silently skipped.
impl<V: Vector> SupportMap<V> for [V] {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.support_indexed(dir).0
    }

    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let Some((&first, rest)) = self.split_first() else {
            return (nan_vector(), NO_INDEX);
        };
        let mut best_dot = V::Scalar::ZERO;
        let mut best_i = 0usize;
        // A NaN or infinite coordinate anywhere makes some dot product
        // non-finite (an infinity times a zero component is NaN), and so
        // their sum: one addition per vertex instead of a test.
        let mut sum = V::Scalar::ZERO;
        for (k, &p) in rest.iter().enumerate() {
            let d = (p - first).dot(dir);
            sum += d;
            // The index alone, the point read once at the end.
            let better = d > best_dot;
            best_dot = if better { d } else { best_dot };
            best_i = if better { k + 1 } else { best_i };
        }
        let best = self[best_i];
        // Finite dots (so a finite `first` and `dir`: a non-finite one makes
        // every dot non-finite) have a finite sum but where it overflows:
        // the exact test then, and for a single point (no dot at all).
        let unproven = !sum.is_finite() || rest.is_empty();
        if unproven && !all_finite(self, dir) {
            // Report a bad coordinate instead of ignoring that vertex.
            return (nan_vector(), NO_INDEX);
        }
        (best, best_i as u32)
    }

    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.get(index as usize).copied()
    }

    /// The first point: a point of the hull, found in O(1).
    #[inline]
    fn center(&self) -> Option<V> {
        self.first().copied()
    }
}

impl<V: Vector, const N: usize> SupportMap<V> for [V; N] {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.as_slice().support(dir)
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        self.as_slice().support_indexed(dir)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.as_slice().vertex(index)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        self.as_slice().center()
    }
}

/// Whether every point and `dir` are finite, with every dot product of a
/// point less the first along `dir` (the slice support's exact test).
#[cold]
#[inline(never)]
fn all_finite<V: Vector>(points: &[V], dir: V) -> bool {
    let first = points[0];
    dir.is_finite() && points.iter().all(|&p| p.is_finite() && (p - first).dot(dir).is_finite())
}

/// A vector whose coordinates are all NaN.
#[inline]
fn nan_vector<V: Vector>() -> V {
    V::X * V::Scalar::NAN
}

use crate::real::Real;

/// A support mapping given by a closure; see [`support_fn`].
#[derive(Clone, Copy, Debug)]
pub struct SupportFn<F>(pub F);

impl<V: Vector, F: Fn(V) -> V> SupportMap<V> for SupportFn<F> {
    #[inline]
    fn support(&self, dir: V) -> V {
        (self.0)(dir)
    }
}

/// Wraps a closure `|direction| -> furthest point` as a [`SupportMap`].
///
/// ```
/// use gjk_core::{support_fn, glam::DVec3};
/// let ball = support_fn(|d: DVec3| d.normalize_or_zero() * 0.5);
/// let far = support_fn(|d: DVec3| DVec3::new(3.0, 0.0, 0.0) + d.normalize_or_zero());
/// let r = gjk_core::distance(&ball, &far);
/// assert!((r.distance - 1.5).abs() < 1e-6);
/// ```
#[inline]
pub fn support_fn<V: Vector, F: Fn(V) -> V>(f: F) -> SupportFn<F> {
    SupportFn(f)
}

/// The support point of the Minkowski difference `A − B` along `dir`:
/// `a = s_A(dir)`, `b = s_B(−dir)`.
#[inline]
pub fn minkowski_support<V, A, B>(a: &A, b: &B, dir: V) -> SupportPoint<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    match (a.support_search(dir, NO_INDEX), b.support_search(-dir, NO_INDEX)) {
        (Search::Done(pa, ia), Search::Done(pb, ib)) => SupportPoint::with_indices(pa, ia, pb, ib),
        (sa, sb) => climbs(a, b, sa, sb),
    }
}

/// The climbs of [`minkowski_support`], stepped in turn: a step of A's,
/// then one of B's. Each step waits on its vertex's record and then its
/// neighbours' (dependent loads): run one after the other, each climb's
/// loads wait alone; in turn, the two chains' loads overlap (the
/// 256-vertex rows of `gjk-bench compare`; docs/decisions.md).
#[inline(always)]
fn climbs<V, A, B>(a: &A, b: &B, sa: Search<V>, sb: Search<V>) -> SupportPoint<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (pa, ia, pb, ib) = match (sa, sb) {
        (Search::Climbing(mut ca), Search::Climbing(mut cb)) => {
            // Bounded by the longer climb's step budget.
            for _ in 0..ca.steps.max(cb.steps) {
                // Both steps every time, with no branch between them (a
                // finished climb's step leaves it where it is).
                let done_a = a.climb_step(&mut ca);
                let done_b = b.climb_step(&mut cb);
                if done_a & done_b {
                    // Exit: both stand at maximisers.
                    break;
                }
            }
            let (pa, pb) = (a.vertex(ca.at), b.vertex(cb.at));
            (pa.unwrap_or_else(nan_vector), ca.at, pb.unwrap_or_else(nan_vector), cb.at)
        }
        (Search::Climbing(ca), Search::Done(pb, ib)) => {
            let ca = climb_alone(a, ca);
            (a.vertex(ca.at).unwrap_or_else(nan_vector), ca.at, pb, ib)
        }
        (Search::Done(pa, ia), Search::Climbing(cb)) => {
            let cb = climb_alone(b, cb);
            (pa, ia, b.vertex(cb.at).unwrap_or_else(nan_vector), cb.at)
        }
        (Search::Done(pa, ia), Search::Done(pb, ib)) => (pa, ia, pb, ib),
    };
    // A vertex a climb cannot read (an index out of range) is NaN: the
    // query then reports invalid input.
    SupportPoint::with_indices(pa, ia, pb, ib)
}

/// One shape's climb to its end (the other shape's search was done).
#[inline(always)]
fn climb_alone<V: Vector, A: SupportMap<V> + ?Sized>(a: &A, mut c: Climb<V>) -> Climb<V> {
    // Bounded by the climb's step budget.
    for _ in 0..c.steps {
        if a.climb_step(&mut c) {
            // Exit: a maximiser.
            break;
        }
    }
    c
}

/// [`minkowski_support`] with each shape searched from a vertex it returned
/// before (`hint`: on A, on B; see [`SupportMap::support_from`]). Warm-started
/// queries pass their cached vertices.
#[inline]
pub fn minkowski_support_from<V, A, B>(a: &A, b: &B, dir: V, hint: (u32, u32)) -> SupportPoint<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    match (a.support_search(dir, hint.0), b.support_search(-dir, hint.1)) {
        (Search::Done(pa, ia), Search::Done(pb, ib)) => SupportPoint::with_indices(pa, ia, pb, ib),
        (sa, sb) => climbs(a, b, sa, sb),
    }
}

/// A support mapping in `V` seen in `V::Lanes`: the queries' adapter when
/// they compute in the SIMD-aligned type (see [`Vector::Lanes`]). Each call
/// converts the direction to `V` and the answer back.
///
/// ```
/// use gjk_core::{SupportMap, internal::InLanes, glam::{Vec3, Vec3A}};
/// let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
/// let lanes = InLanes::<Vec3, _>::new(&tetra[..]);
/// assert_eq!(lanes.support(Vec3A::new(0.0, 2.0, 1.0)), Vec3A::Y);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct InLanes<'a, V, T: ?Sized>(&'a T, core::marker::PhantomData<V>);

impl<'a, V, T: ?Sized> InLanes<'a, V, T> {
    /// Wraps `shape`.
    #[inline(always)]
    pub fn new(shape: &'a T) -> Self {
        Self(shape, core::marker::PhantomData)
    }
}

impl<V: Vector, T: SupportMap<V> + ?Sized> SupportMap<V::Lanes> for InLanes<'_, V, T> {
    #[inline(always)]
    fn support(&self, dir: V::Lanes) -> V::Lanes {
        self.0.support(V::from_lanes(dir)).to_lanes()
    }
    #[inline(always)]
    fn support_indexed(&self, dir: V::Lanes) -> (V::Lanes, u32) {
        let (p, i) = self.0.support_indexed(V::from_lanes(dir));
        (p.to_lanes(), i)
    }
    #[inline(always)]
    fn support_from(&self, dir: V::Lanes, hint: u32) -> (V::Lanes, u32) {
        let (p, i) = self.0.support_from(V::from_lanes(dir), hint);
        (p.to_lanes(), i)
    }
    #[inline(always)]
    fn vertex(&self, index: u32) -> Option<V::Lanes> {
        self.0.vertex(index).map(V::to_lanes)
    }
    #[inline(always)]
    fn center(&self) -> Option<V::Lanes> {
        self.0.center().map(V::to_lanes)
    }
    #[inline(always)]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        self.0.center_radii()
    }
    #[inline(always)]
    fn support_search(&self, dir: V::Lanes, hint: u32) -> Search<V::Lanes> {
        match self.0.support_search(V::from_lanes(dir), hint) {
            Search::Done(p, i) => Search::Done(p.to_lanes(), i),
            Search::Climbing(c) => Search::Climbing(c.map(V::to_lanes)),
        }
    }
    #[inline(always)]
    fn climb_step(&self, climb: &mut Climb<V::Lanes>) -> bool {
        let mut c = climb.map(V::from_lanes);
        let done = self.0.climb_step(&mut c);
        *climb = c.map(V::to_lanes);
        done
    }
}
