//! The GJK search, written once.
//!
//! [`Search`] is the descent of van den Bergen ("A fast and robust GJK
//! implementation for collision detection of convex objects", JGT 1999) and
//! Montanari et al. (TOG 2017): search along `−v`, stop when the support
//! point brings no relative improvement, reduce the simplex with the
//! sub-distance solver of the dimension (barycode in 2D, signed volumes in
//! 3D), and stop as soon as the closest point stops shrinking, so every exit
//! is a proof of progress or of convergence and no input can make it loop.
//!
//! It is generic over what it keeps of its simplex ([`Keep`]: the Minkowski
//! points alone for the distance value and the boolean test, the full
//! [`Simplex`] with source points and directions for witness points, warm
//! starts and recording) and over what ends it: the configuration's
//! `max_distance` ([`Exit::Beyond`]), a `reach` added to the zero band at
//! which the origin counts as reached ([`Exit::Origin`]: the boolean test's
//! margin), and `CONE`, the 2D boolean test's early exit on a triangle
//! closed around the origin (the barycode paper, Section III). Every query
//! drives it: [`crate::GjkSolver`] (the full distance, with its contact
//! verification on top), the distance value, the boolean test and the
//! warm-start paths, each through [`drive`] or step by step.
//!
//! # Exits of one step
//! - Exit 0, beyond: the proven lower bound passed `max_distance` plus the
//!   zero band.
//! - Exit 1, converged: the gap between the upper bound `|v|` and the lower
//!   bound `v·w/|v|` is within the relative tolerance.
//! - Exit 2, repeated vertex: the simplex cannot grow, so `|v|` is final
//!   (after a refinement where the distance is unproven to the band).
//! - Exit 3, enclosed: a full-dimensional simplex holds the origin.
//! - Exit 4, no progress: `|v|` must strictly decrease each step; where
//!   rounding stops that, the previous simplex is the answer (after a
//!   refinement, then at most [`MAX_ESCAPES`] tie-breaking escapes).
//! - Exit 5, origin reached: `|v|` within the zero band plus `reach`.
//! - Exit 6, the iteration cap.
//!
//! # Refinements of a stalled descent
//!
//! Exit 4 has one refinement. When `|v|` fails to shrink although the gap is
//! not converged, the true progress was below rounding: typically the closest
//! point sits on an edge where two nearly parallel faces meet, and the
//! support picked a tie on the wrong side. The search then looks once along
//! `−v` tilted by `ESCAPE_TILT` away from the rejected point (at most
//! `MAX_ESCAPES` times a query). Such a support point proves no lower bound,
//! so its step skips Exits 0 and 1 and is kept only if it strictly shrinks
//! `|v|`.
//!
//! Exits 2 and 4 have a second one, tried first. Near contact, `v` summed
//! from the barycentric weights carries rounding of `ε · scale` in each
//! component, which turns its direction by `ε · scale / |v|` (about a
//! thousandth of a radian in `f32` a few zero bands out). The support along
//! that turned direction can return a point already in the simplex, or one
//! that makes no progress, while the true support lies beyond the simplex.
//! So where such an exit leaves the distance unproven to the band (`|v|`
//! minus the step's bound above the band, `unproven`) and the simplex is a
//! facet (`DIM` points), `v` is recomputed as the facet plane's closest point
//! from its normal, `n (n · w₀)` (`facet_point`), whose direction is as
//! accurate as the edges' cross product whatever `|v|`, and the search steps
//! once more along it (at most `MAX_REFINES` times a query). Pinned by
//! `touching_f32_hulls_are_in_contact` (gjk-shapes `adversarial.rs`).
//!
//! A simplex one point short of a facet (a segment in 3D, a point in 2D)
//! has no facet to refine from, and curved shapes stall there: a cylinder's
//! cap nearly parallel to a face makes `A − B` a face whose heights vary by
//! `r · tilt` along its rim, the support points land on the rim at angles set
//! by rounding, and a step towards a point far to the side gains less than an
//! ulp of `|v|²`. At Exit 4 such a simplex keeps the new point and refines on
//! the facet it makes (`refine_facet`): since Exit 1 did not fire, the new
//! point lies beyond `v` along `−v`, so the facet's closest point is nearer
//! than `v`, and where the facet plane's closest point has barycentric
//! weights of at least `−FACET_WEIGHT_ULPS · ε` (`facet_weights`) it is a
//! point of `A − B` and becomes `v`. Each refinement is one support call,
//! taken only by a stall unproven to the band. Pinned by
//! `caps_nearly_parallel_exact_inputs`, `caps_nearly_parallel_sweep` and
//! `nearly_parallel_faces` (docs/reliability.md, *Curved caps nearly
//! parallel to a face*).
//!
//! # Scale
//!
//! `scale` is the largest coordinate magnitude of the Minkowski-difference
//! points seen during a query, and at least `SOURCE_SCALE_WEIGHT` (1/64) of
//! the largest coordinate of the first support point's shape points. Using
//! `A − B` keeps a pair far from the origin nearly as accurate as one at it;
//! the floor covers the rounding of `a − b` and of placing B in A's frame,
//! which a band of Minkowski points at the contact misses (a warm start sees
//! only its cached points, which at a contact can lie within 1e-5 of the
//! origin: `warm_queries_through_contact_keep_the_band`,
//! `far_from_origin_f32_same_answer`). Cold queries seed it with the
//! centres' difference (a point of `A − B`), known before any support call
//! (`touching_first_point_keeps_the_band`). The exits taken on the first
//! point alone use the larger of that point's and the search direction's
//! coordinates (`start_scale`): they only ever stop less often.
//! `GjkSolver::start` (any direction) seeds nothing.
//!
//! Because `|v|` must strictly decrease on every continuing iteration, no
//! input — not even a support function that lies — can loop; the iteration
//! cap is the backstop.

use crate::config::GjkConfig;
use crate::real::Real;
use crate::simplex::{DEEP_BAND_FLOOR, MAX_SIMPLEX_POINTS, NO_INDEX, Reduced, Simplex, SupportPoint};
use crate::support::{SupportMap, minkowski_support, minkowski_support_from};
use crate::vector::Vector;

/// Most tie-breaking escapes per query (Exit 4): each costs one support
/// call.
pub const MAX_ESCAPES: u32 = 2;

/// Most refinements per query (Exits 2 and 4): each costs one support call,
/// and only a stall unproven to the zero band takes one. A polytope's facet
/// needs one or two; a curved shape's cap nearly parallel to a face
/// converges over a few (test `curved_caps`, docs/reliability.md).
pub const MAX_REFINES: u32 = 8;

/// How far below zero, in ulps of 1, a barycentric weight of a facet's
/// truer closest point may fall and still count as within the facet (the
/// rounding of the weights' area ratios; see [`Search::refine_facet`]).
/// A point that far outside lies within `64 ε` of the facet's size of it,
/// well inside the zero band (`256 ε` of the coordinates).
pub(crate) const FACET_WEIGHT_ULPS: f64 = 64.0;

/// Sideways tilt of an escape direction, relative to the unit search
/// direction: large enough to break exact ties between support points on a
/// face, small enough to stay on that face's side of the shape.
pub const ESCAPE_TILT: f64 = 1.0 / 1_048_576.0;

/// The mask of a full simplex of `n` points.
#[inline(always)]
pub(crate) fn full_mask(n: usize) -> u8 {
    0b1111u8 >> (MAX_SIMPLEX_POINTS - n)
}

/// What the search keeps of its simplex: the Minkowski points alone
/// ([`Points`]) or the full [`Simplex`] (source points, directions,
/// weights). Both keep their points in the same order.
pub(crate) trait Keep<V: Vector> {
    /// Whether the search's bookkeeping for a full result is wanted too
    /// (`prev_v`, the lower bound's `v·w` and `v`): the solver's.
    const FULL: bool;
    /// Number of points.
    fn len(&self) -> usize;
    /// `f` of the Minkowski points, padded to four (read in place where
    /// they are stored so).
    fn with_w<R>(&self, f: impl FnOnce(&[V; MAX_SIMPLEX_POINTS]) -> R) -> R;
    /// Whether `w` is one of the points.
    fn contains(&self, w: V) -> bool;
    /// Appends a point found along `dir` (`exact`: the support along it).
    fn push(&mut self, p: SupportPoint<V>, dir: V, exact: bool);
    /// Drops the last point pushed.
    fn pop(&mut self);
    /// Keeps the points named in `r.mask`, in order, with their weights.
    fn reduce(&mut self, r: &Reduced<V::Scalar>);
    /// Makes this the one-point simplex of `p`, the support along `dir`.
    fn set_point(&mut self, p: SupportPoint<V>, dir: V);
    /// The direction the first point came from, where kept (+X otherwise:
    /// only the solver's verification reads it, and it keeps a [`Simplex`]).
    fn first_dir(&self) -> V;
    /// The vertices of the first point, where kept ([`NO_INDEX`] for none):
    /// where a warm start's support calls begin. All its points lie on the
    /// feature nearest the other shape, a climb or two from the answer.
    fn first_indices(&self) -> (u32, u32);
    /// Where the points are a facet (`DIM` of them) whose witness lies on
    /// a face of one shape (`DIM` distinct points of it) or on an edge of
    /// each (3D), the unit normal of that face or of both edges, from the
    /// shapes' own points (`None` otherwise, and where the sources are not
    /// kept). Where both shapes give a face, the one nearer `toward`,
    /// oriented as it.
    #[inline(always)]
    fn source_face_normal(&self, _toward: V) -> Option<V> {
        None
    }
}

/// `f` oriented as the unit `unit`, where the two agree to 1e-3 rad (a
/// face's normal checked against GJK's `v`, which rounds further but
/// cannot be that far off unless the face is not the contact's).
#[inline]
pub(crate) fn agreeing<V: Vector>(f: V, unit: V) -> Option<V> {
    let f = if f.dot(unit) < V::Scalar::ZERO { -f } else { f };
    ((f - unit).length_squared() <= V::Scalar::from_f64(1e-6)).then_some(f)
}

/// A kept simplex that starts empty.
pub(crate) trait Empty {
    /// Nothing kept.
    const EMPTY: Self;
}

impl<V: Vector> Empty for Simplex<V> {
    const EMPTY: Self = Simplex::EMPTY;
}

impl<V: Vector> Empty for Points<V> {
    const EMPTY: Self = Points { w: [V::ZERO; MAX_SIMPLEX_POINTS], len: 0 };
}

/// [`Keep`] for a [`Simplex`] held as `$t` (owned, or a caller's searched
/// in place: the warm exit's, its result's).
macro_rules! keep_simplex {
    ($t:ty) => {
        impl<V: Vector> Keep<V> for $t {
            const FULL: bool = true;
            #[inline(always)]
            fn len(&self) -> usize {
                Simplex::len(self)
            }
            #[inline(always)]
            fn with_w<R>(&self, f: impl FnOnce(&[V; MAX_SIMPLEX_POINTS]) -> R) -> R {
                f(&self.w_array())
            }
            #[inline(always)]
            fn contains(&self, w: V) -> bool {
                self.points().iter().any(|q| q.w == w)
            }
            #[inline(always)]
            fn push(&mut self, p: SupportPoint<V>, dir: V, exact: bool) {
                self.push_with(p, dir, exact);
            }
            #[inline(always)]
            fn pop(&mut self) {
                Simplex::pop(self);
            }
            #[inline(always)]
            fn reduce(&mut self, r: &Reduced<V::Scalar>) {
                Simplex::reduce(self, r);
            }
            #[inline(always)]
            fn set_point(&mut self, p: SupportPoint<V>, dir: V) {
                Simplex::set_point(self, p, dir);
            }
            #[inline(always)]
            fn first_dir(&self) -> V {
                self.directions().first().copied().unwrap_or(V::X)
            }
            #[inline(always)]
            fn first_indices(&self) -> (u32, u32) {
                self.points().first().map_or((NO_INDEX, NO_INDEX), |p| (p.index_a, p.index_b))
            }
            #[inline]
            fn source_face_normal(&self, toward: V) -> Option<V> {
                let pts = self.points();
                if pts.len() != V::DIM {
                    return None;
                }
                // The distinct points of each shape (every point kept has a
                // positive weight, so each shape's witness lies inside the
                // hull of its own).
                let distinct = |get: fn(&SupportPoint<V>) -> V| {
                    let mut out = [V::ZERO; MAX_SIMPLEX_POINTS];
                    let mut n = 0;
                    for p in pts {
                        let q = get(p);
                        if !out[..n].contains(&q) {
                            out[n] = q;
                            n += 1;
                        }
                    }
                    (out, n)
                };
                let ((a, na), (b, nb)) = (distinct(|p| p.a), distinct(|p| p.b));
                // A witness inside `DIM` of one shape's points lies on a face
                // of that shape, whose normal the contact's must be; an edge
                // of each (3D) gives theirs.
                let orient = |f: V| if f.dot(toward) < V::Scalar::ZERO { -f } else { f };
                let fb = (nb == V::DIM).then(|| V::facet_normal(&b[..V::DIM])).flatten().map(orient);
                let fa = (na == V::DIM).then(|| V::facet_normal(&a[..V::DIM])).flatten().map(orient);
                match (fa, fb) {
                    (Some(fa), Some(fb)) => Some(if fa.dot(toward) > fb.dot(toward) { fa } else { fb }),
                    (Some(f), None) | (None, Some(f)) => Some(f),
                    (None, None) if V::DIM == 3 && na == 2 && nb == 2 => {
                        // Exit: edges within 1e-3 rad of parallel, whose
                        // cross product is no better than `v`.
                        let (ea, eb) = (a[1] - a[0], b[1] - b[0]);
                        let raw = V::facet_normal_raw(&[V::ZERO, ea, eb]);
                        let floor = V::Scalar::from_f64(1e-6) * ea.length_squared() * eb.length_squared();
                        if raw.length_squared() > floor { raw.try_normalize().map(orient) } else { None }
                    }
                    (None, None) => None,
                }
            }
        }
    };
}

keep_simplex!(Simplex<V>);
keep_simplex!(&mut Simplex<V>);

/// The search's simplex as its Minkowski points only.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Points<V> {
    w: [V; MAX_SIMPLEX_POINTS],
    len: usize,
}

impl<V: Vector> Keep<V> for Points<V> {
    const FULL: bool = false;
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn with_w<R>(&self, f: impl FnOnce(&[V; MAX_SIMPLEX_POINTS]) -> R) -> R {
        f(&self.w)
    }
    #[inline(always)]
    fn contains(&self, w: V) -> bool {
        self.w[..self.len].contains(&w)
    }
    #[inline(always)]
    fn push(&mut self, p: SupportPoint<V>, _: V, _: bool) {
        debug_assert!(self.len < MAX_SIMPLEX_POINTS);
        self.w[self.len] = p.w;
        self.len += 1;
    }
    #[inline(always)]
    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }
    /// Branch-free, as [`Simplex`]'s: which points survive is unpredictable.
    #[inline(always)]
    fn reduce(&mut self, r: &Reduced<V::Scalar>) {
        let mut k = 0;
        for i in 0..MAX_SIMPLEX_POINTS {
            self.w[k] = self.w[i];
            k += usize::from((r.mask >> i) & 1);
        }
        self.len = k;
    }
    #[inline(always)]
    fn set_point(&mut self, p: SupportPoint<V>, _: V) {
        self.w[0] = p.w;
        self.len = 1;
    }
    #[inline(always)]
    fn first_dir(&self) -> V {
        V::X
    }
    #[inline(always)]
    fn first_indices(&self) -> (u32, u32) {
        (NO_INDEX, NO_INDEX)
    }
}

/// How a step of the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// Ask for the support point along [`Search::dir`].
    Continue,
    /// Exit 0: the distance is proven beyond `max_distance`.
    Beyond,
    /// Exits 1, 2 and 4: `|v|` is the distance (to the tolerance).
    Converged,
    /// Exit 3 (or the 2D cone exit): a full simplex holds the origin.
    Enclosed,
    /// Exit 5: the origin is within the zero band plus `reach` of `v`.
    Origin,
    /// Exit 6: the iteration cap.
    Limit,
    /// A support point (or the start direction) was not finite.
    Invalid,
}

/// The state of one GJK search (see the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Search<V: Vector, K, const CONE: bool> {
    pub(crate) config: GjkConfig<V::Scalar>,
    /// Added to the zero band at Exit 5 (the boolean test's margin).
    pub(crate) reach: V::Scalar,
    pub(crate) keep: K,
    /// Current closest point of the simplex to the origin.
    pub(crate) v: V,
    pub(crate) vv: V::Scalar,
    /// The closest point before the last update (its direction is the best
    /// guess of a contact normal when the origin is reached; kept where
    /// `K::FULL`).
    pub(crate) prev_v: V,
    /// Largest coordinate magnitude of the Minkowski points seen.
    pub(crate) scale: V::Scalar,
    /// Best proven lower bound on the distance, squared (0 when none), and
    /// the pair `(v·w, v)` it came from (kept where `K::FULL`): the bound is
    /// `v·w / |v|`.
    pub(crate) lower_sq: V::Scalar,
    lower_vw: V::Scalar,
    pub(crate) lower_v: V,
    /// Support calls made since the start.
    pub(crate) iterations: u32,
    /// Escapes made (Exit 4), at most [`MAX_ESCAPES`].
    escapes: u32,
    /// Refinements made (Exits 2 and 4), at most [`MAX_REFINES`].
    refines: u32,
    /// Whether `dir` is an escape direction rather than `−v` (its support
    /// point then proves no lower bound).
    escaping: bool,
    /// The direction to evaluate next.
    pub(crate) dir: V,
    /// How the last step ended (as [`drive`] leaves it).
    pub(crate) last: Exit,
}

impl<V: Vector, K: Keep<V> + Empty, const CONE: bool> Search<V, K, CONE> {
    /// A search under `config` (sanitized by the caller), not yet started.
    #[inline(always)]
    pub(crate) fn new(config: GjkConfig<V::Scalar>, reach: V::Scalar) -> Self {
        Self::with_keep(config, reach, K::EMPTY)
    }
}

impl<V: Vector, K: Keep<V>, const CONE: bool> Search<V, K, CONE> {
    /// A search under `config` (sanitized by the caller) keeping `keep`
    /// (empty), not yet started.
    #[inline(always)]
    pub(crate) fn with_keep(config: GjkConfig<V::Scalar>, reach: V::Scalar, keep: K) -> Self {
        Self {
            config,
            reach,
            keep,
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
            last: Exit::Continue,
        }
    }

    /// The zero band, `zero_tolerance · scale`.
    #[inline(always)]
    pub(crate) fn band(&self) -> V::Scalar {
        self.config.zero_tolerance * self.scale
    }

    /// Whether `vv` puts the origin within the zero band plus `reach`.
    #[inline(always)]
    pub(crate) fn at_origin(&self, vv: V::Scalar) -> bool {
        let band = self.band() + self.reach;
        vv <= band * band
    }

    /// The best proven lower bound on the distance.
    #[inline]
    pub(crate) fn lower_bound(&self) -> V::Scalar {
        if self.lower_sq > V::Scalar::ZERO { self.lower_vw / self.lower_v.length() } else { V::Scalar::ZERO }
    }

    /// Steps that surely reach an exit: the cap, plus the escapes and
    /// refinements (which do not count against it before their next step).
    #[inline(always)]
    pub(crate) fn budget(&self) -> u32 {
        self.config.max_iterations + MAX_ESCAPES + MAX_REFINES + 1
    }

    /// Starts from one support point `p`, found along `dir`. `seed`: a
    /// coordinate magnitude of `A − B` known before the first support call
    /// (the centres' difference; 0 for none), the least scale. `p` must
    /// have been made by [`SupportPoint::new`] or
    /// [`SupportPoint::with_indices`] (its finiteness is that of `w`).
    #[inline(always)]
    pub(crate) fn start(&mut self, p: SupportPoint<V>, dir: V, seed: V::Scalar) -> Exit {
        if !p.w_is_finite() || !dir.is_finite() {
            return Exit::Invalid;
        }
        self.scale = p.w.max_abs().max(seed).max(p.source_scale());
        self.keep.set_point(p, dir);
        self.v = p.w;
        self.vv = p.w.length_squared();
        self.prev_v = -dir;
        if !self.vv.is_finite() {
            return Exit::Invalid;
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
            // Exit 0 at the start, on the start point's own scale.
            if beyond(&self.config, start_scale(p.w, dir), lower_sq) {
                return Exit::Beyond;
            }
        }
        // Exit 5 at the start.
        if self.at_origin(self.vv) {
            return Exit::Origin;
        }
        self.dir = -self.v;
        Exit::Continue
    }

    /// Starts from several points (a warm-start simplex), each with the
    /// direction it came from, none of them the support along it.
    /// Duplicates are dropped; at most `DIM + 1` are used; no point at all
    /// is invalid input. `BUILT`: every point was made by [`SupportPoint::new`] or
    /// [`SupportPoint::with_indices`] (finite where `w` is); a caller's
    /// points may not be, and are checked whole. A full simplex holds the
    /// origin only where its solve puts the origin within the zero band
    /// (at least [`DEEP_BAND_FLOOR`] `ε · scale`); one too thin for its
    /// distance from the origin (its solve is rounding) goes on from its
    /// point nearest the origin.
    #[inline(always)]
    pub(crate) fn start_points<const BUILT: bool>(
        &mut self,
        points: impl Iterator<Item = (SupportPoint<V>, V)>,
    ) -> Exit {
        for (p, d) in points.take(V::DIM + 1) {
            // `0 · x` is ±0 for finite `x`, NaN otherwise: one test for the
            // point and `d`.
            let z = V::Scalar::ZERO;
            let finite =
                if BUILT { (p.w * z + d * z).length_squared() == z } else { p.is_finite() && d.is_finite() };
            if !finite {
                return Exit::Invalid;
            }
            if self.keep.contains(p.w) {
                continue;
            }
            if self.keep.len() == 0 {
                // The first point's shape points seed the scale, as a cold
                // start's do: the cached points lie near the contact, where
                // `w` alone can be far smaller than the coordinates' rounding.
                self.scale = p.source_scale();
            }
            self.scale = self.scale.max(p.w.max_abs());
            self.keep.push(p, d, false);
        }
        let n = self.keep.len();
        if n == 0 {
            return Exit::Invalid;
        }
        let w = self.keep.with_w(|w| *w);
        let mut r = V::solve_simplex(&w, n);
        let mut v = r.point(&w);
        let mut enclosed = false;
        if n == V::DIM + 1 && r.mask == full_mask(n) {
            // An enclosure puts the weighted sum at the origin, to rounding;
            // a simplex too thin for its distance from the origin claims one
            // by rounding, with weights that sum elsewhere: no proof.
            let floor = V::Scalar::from_f64(DEEP_BAND_FLOOR) * V::Scalar::EPSILON * self.scale;
            let band = (self.band() + self.reach).max(floor);
            enclosed = v.length_squared() <= band * band;
            if !enclosed {
                // The search goes on from the point nearest the origin.
                let near =
                    |k: usize, i: usize| if w[i].length_squared() < w[k].length_squared() { i } else { k };
                let k = (1..n).fold(0, near);
                r = Reduced::vertex(k);
                v = w[k];
            }
        }
        self.keep.reduce(&r);
        self.v = v;
        self.vv = v.length_squared();
        self.prev_v = -self.keep.first_dir();
        // Exit 3 at the start: the full simplex holds the origin.
        if enclosed {
            return Exit::Enclosed;
        }
        if !self.vv.is_finite() {
            return Exit::Invalid;
        }
        // Exit 5 at the start.
        if self.at_origin(self.vv) {
            return Exit::Origin;
        }
        self.dir = -self.v;
        Exit::Continue
    }

    /// Feeds the support point found along [`Self::dir`] (made by
    /// [`SupportPoint::new`] or [`SupportPoint::with_indices`]).
    #[inline(always)]
    pub(crate) fn step(&mut self, p: SupportPoint<V>) -> Exit {
        self.iterations += 1;
        if !p.w_is_finite() {
            return Exit::Invalid;
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
                    if K::FULL {
                        self.lower_vw = vw;
                        self.lower_v = self.v;
                    }
                }
            }
            // Exit 0, beyond: the lower bound passed the caller's limit (plus
            // the zero band, so that touching pairs are never cut off).
            if beyond(&self.config, self.scale, self.lower_sq) {
                return Exit::Beyond;
            }
        }
        // The 2D boolean test's exit: the new point, beyond the origin as
        // seen from the segment, closes a triangle around it.
        if CONE
            && self.keep.len() == 2
            && vw < V::Scalar::ZERO
            && self.keep.with_w(|w| V::segment_cone_encloses_origin(w[0], w[1], p.w))
        {
            self.keep.push(p, self.dir, true);
            return Exit::Enclosed;
        }
        // Exit 1, converged (see `converged`).
        if !escaping && converged(&self.config, self.scale, self.vv, vw) {
            return Exit::Converged;
        }
        let band = self.band();
        // Exit 2, repeated vertex: the simplex cannot grow, so |v| is final,
        // unless the distance is unproven to the band and a facet's normal
        // gives a truer `v` (see `facet_point`).
        if self.keep.contains(p.w) {
            if wants_refine(escaping, &mut self.refines, (self.vv, vw, self.lower_sq), band)
                && let Some(exit) = self.refine()
            {
                return exit;
            }
            return Exit::Converged;
        }
        self.keep.push(p, self.dir, true);
        let n = self.keep.len();
        let r = self.keep.with_w(|w| V::solve_simplex_newest(w, n));
        if n == V::DIM + 1 && r.mask == full_mask(n) {
            // Exit 3, enclosed: a full-dimensional simplex holds the origin.
            self.keep.reduce(&r);
            if K::FULL {
                self.prev_v = self.v;
            }
            self.v = V::ZERO;
            self.vv = V::Scalar::ZERO;
            return Exit::Enclosed;
        }
        let v = self.keep.with_w(|w| r.point(w));
        let vv = v.length_squared();
        // Exit 4, no progress: |v| must strictly decrease each iteration;
        // when rounding stops that, the previous simplex is the answer.
        if !vv.strictly_less(self.vv) {
            // Not converged (Exit 1 did not fire), so the true progress was
            // below rounding. Near contact that is rounding in `v`'s
            // direction: a truer `v` from the facet's normal first
            // (`facet_point`). A simplex one point short of a facet (a
            // segment in 3D) makes its facet with the new point instead
            // (`refine_facet`).
            let open = wants_refine(escaping, &mut self.refines, (self.vv, vw, self.lower_sq), band);
            if n == V::DIM {
                if open && let Some(exit) = self.refine_facet() {
                    return exit;
                }
                self.keep.pop();
            } else {
                self.keep.pop();
                if open && let Some(exit) = self.refine() {
                    return exit;
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
                return Exit::Continue;
            }
            return Exit::Converged;
        }
        self.keep.reduce(&r);
        if K::FULL {
            self.prev_v = self.v;
        }
        self.v = v;
        self.vv = vv;
        // Exit 5, origin reached: within the zero band (plus `reach`).
        if self.at_origin(vv) {
            return Exit::Origin;
        }
        // Exit 6, iteration cap.
        if self.iterations >= self.config.max_iterations {
            return Exit::Limit;
        }
        self.dir = -v;
        Exit::Continue
    }

    /// The refinement of Exits 2 and 4 (the distance unproven to the band):
    /// `v` recomputed from the facet's normal ([`facet_point`]) and one more
    /// search step along it. `None` (the exit goes on as without it) for
    /// other simplices or where the facet gives the same point.
    /// Inline, its geometry out of line: a method out of line would take
    /// the search's state by reference and keep it out of registers on
    /// every step.
    #[inline(always)]
    fn refine(&mut self) -> Option<Exit> {
        let n = self.keep.len();
        let v = self.keep.with_w(|w| facet_point(&w[..n])).filter(|v| *v != self.v)?;
        Some(self.refine_to(v))
    }

    /// Takes the truer closest point `t` of a refinement as `v`: Exit 5
    /// where it lies within the band, else one more step along `−t`.
    #[inline(always)]
    fn refine_to(&mut self, t: V) -> Exit {
        self.prev_v = self.v;
        self.v = t;
        self.vv = t.length_squared();
        if self.at_origin(self.vv) {
            return Exit::Origin;
        }
        self.dir = -t;
        Exit::Continue
    }

    /// The refinement for a simplex one point short of a facet (a segment
    /// in 3D, a point in 2D) that the new support point `p` (last in the
    /// simplex) did not visibly improve: the facet's truer closest point
    /// ([`facet_point`]), where it lies within the facet, becomes `v`, with
    /// `p` kept. Since Exit 1 did not fire, `p` lies beyond `v` along `−v`,
    /// so the facet's closest point is mathematically not `v`; rounding hid
    /// the step, which is below an ulp of `|v|²` where `p` lies far to the
    /// side (test `curved_caps`). Its barycentric weights must be
    /// non-negative to rounding, so that `v` stays a point of `A − B`.
    /// `None` for a degenerate facet, a point outside it or the same `v`.
    /// Inline for the same reason as [`Self::refine`].
    #[inline(always)]
    fn refine_facet(&mut self) -> Option<Exit> {
        let w = self.keep.with_w(|w| *w);
        let t = facet_point(&w[..V::DIM]).filter(|t| *t != self.v)?;
        let lambda = facet_weights(&w, t)?;
        self.keep.reduce(&Reduced { mask: full_mask(V::DIM), lambda });
        Some(self.refine_to(t))
    }
}

/// A search that can be driven by [`drive`]: the kernel itself, or the
/// solver that verifies contact on top of it.
pub(crate) trait Driven<V: Vector> {
    /// The direction to evaluate next.
    fn direction(&self) -> V;
    /// Feeds the support point found along it; `true` once finished.
    fn feed(&mut self, p: SupportPoint<V>) -> bool;
    /// Steps that surely finish it.
    fn budget(&self) -> u32;
}

impl<V: Vector, K: Keep<V>, const CONE: bool> Driven<V> for Search<V, K, CONE> {
    #[inline(always)]
    fn direction(&self) -> V {
        self.dir
    }
    #[inline(always)]
    fn feed(&mut self, p: SupportPoint<V>) -> bool {
        self.last = self.step(p);
        self.last != Exit::Continue
    }
    #[inline(always)]
    fn budget(&self) -> u32 {
        Search::budget(self)
    }
}

/// Drives a started search to its end: one support call of `A − B` per
/// step, each searching from `hint` and then from the vertices found last
/// where `HINTED` (warm starts), from the shapes' own starts otherwise.
/// `each` sees every step (a recorder). Bounded by the search's budget.
#[inline(always)]
pub(crate) fn drive<V, D, A, B, const HINTED: bool>(
    s: &mut D,
    a: &A,
    b: &B,
    mut hint: (u32, u32),
    mut each: impl FnMut(&D, V, SupportPoint<V>),
) where
    V: Vector,
    D: Driven<V>,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    for _ in 0..s.budget() {
        let d = s.direction();
        let p = if HINTED {
            let p = minkowski_support_from(a, b, d, hint);
            hint = (p.index_a, p.index_b);
            p
        } else {
            minkowski_support(a, b, d)
        };
        let done = s.feed(p);
        each(s, d, p);
        // Exit: the search (or its verification) has finished.
        if done {
            return;
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
/// the centres' difference, whose negation is a point of `A − B`, so its
/// magnitude is one of `A − B`'s. It only ever widens these exits' band.
#[inline]
pub(crate) fn start_scale<V: Vector>(w: V, dir: V) -> V::Scalar {
    w.max_abs().max(dir.max_abs())
}

/// Whether a proven squared lower bound passes the caller's limit plus the
/// zero band of `scale` (so that touching pairs are never cut off): Exit 0.
#[inline]
pub(crate) fn beyond<S: Real>(config: &GjkConfig<S>, scale: S, lower_sq: S) -> bool {
    let limit = config.max_distance + config.zero_tolerance * scale;
    lower_sq > limit * limit
}

/// Exit 1: the gap between the upper bound `|v|` and the lower bound
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
/// band, the case the refinement (Exits 2 and 4) looks at again.
#[inline(always)]
fn unproven<S: Real>(vv: S, vw: S, band: S) -> bool {
    let gap = vv - vw;
    gap > S::ZERO && gap * gap > vv * band * band
}

/// Whether the best proven lower bound `√lower_sq` leaves the distance
/// `|v|` unproven to the zero band `band`: `|v| − √lower_sq > band`, in
/// squares (`|v| > l + b` ⇔ `vv − l² − b² > 2 l b`).
#[inline]
fn unproven_by<S: Real>(vv: S, lower_sq: S, band: S) -> bool {
    let x = vv - lower_sq - band * band;
    let two = S::ONE + S::ONE;
    x > S::ZERO && x * x > two * two * lower_sq * band * band
}

/// Whether a search stopping at Exit 2 or 4 should refine: within
/// [`MAX_REFINES`] (counted here) and only where the distance is unproven
/// to the band, by this step's support point ([`unproven`]) or, after an
/// escape (whose support point proves no bound), by the best bound so far
/// ([`unproven_by`]).
#[inline(always)]
fn wants_refine<S: Real>(escaping: bool, refines: &mut u32, (vv, vw, lower_sq): (S, S, S), band: S) -> bool {
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
/// component, which turns its direction by `ε · scale / |v|`, a thousandth
/// of a radian in `f32` a few hundred ulps from contact. A search along that
/// turned direction can return a vertex already in the simplex while the
/// true support lies beyond the facet (test `touching_sets_are_proven`).
/// `None` for other simplices or a degenerate facet.
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

/// The escape direction of Exit 4: `−v` tilted by [`ESCAPE_TILT`] away from
/// the rejected support point `w`, or `None` when `w − v` is parallel to
/// `v` (no sideways direction). Cold and out of line, so that its `v / |v|`
/// is not hoisted into every step.
#[cold]
#[inline(never)]
fn escape_direction<V: Vector>(v: V, w: V) -> Option<V> {
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
fn facet_weights<V: Vector>(w: &[V; MAX_SIMPLEX_POINTS], t: V) -> Option<[V::Scalar; MAX_SIMPLEX_POINTS]> {
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
