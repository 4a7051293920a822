//! Ray casts and linear shape casts (time of impact) on any support
//! mapping: the GJK ray cast of van den Bergen ("Ray Casting against
//! General Convex Objects with Application to Continuous Collision
//! Detection", 2004), with a margin so that round shapes are cast exactly as
//! their cores plus a radius.
//!
//! The cast walks a point `x = s + λ r` along the ray. Each iteration finds
//! the support point `p` of the target along `v` (the vector from the
//! target's simplex to `x`). If the plane through `p` normal to `v`
//! (pushed out by the margin) separates `x` from the target, `x` jumps to
//! that plane — a conservative advance that never passes the surface — or
//! the ray misses when it is not heading towards the plane. Otherwise `p`
//! joins the simplex, which shrinks `v` as in GJK. A hit is declared when
//! `x` is within the margin (plus the zero band) of the target. Where the
//! advance stalls short of that, or reaches the iteration cap (near a
//! curved target's tangent it converges linearly), GJK's distance between
//! the segment left and the target decides (`cast_fallback`).
//!
//! # Stalls and the fallback
//!
//! The cast's stall exit ("x did not move and `|v|` cannot shrink", which
//! calls a hit) refines as the search does first, where x is still further
//! from a facet simplex than the margin plus the band
//! (`grazing_rays_that_miss_are_not_hits`); an advance too small to move x
//! counts as none there (`deep_rays_end_before_the_cap`). Where the stall is
//! still unproven after that, and where the cast reaches its iteration cap,
//! GJK's distance between the segment left and the target decides
//! (`cast_fallback`, cold): apart beyond the margin plus its band, a miss;
//! else a hit whose fraction is bisected (at most `CAST_BISECTIONS` halvings)
//! between the advance's fraction and GJK's witness point on the segment.
//! Near a curved target's tangent the advance converges linearly
//! (docs/reliability.md, *Casts grazing curved shapes*;
//! `tangent_rays_exact_inputs`, `tangent_rays_sweep`).
//!
//! # Landing
//!
//! Every hit strictly inside the motion makes a last advance to a supporting
//! plane: along the face normal of the simplex's source points where it
//! agrees with `v`, else the Minkowski facet's, else `v`, by at most
//! `FINAL_ADVANCE_BANDS` zero bands. So the time of impact does not depend on
//! the zero band, which grows with the larger shape
//! (`cast_toi_independent_of_target_size`).

use crate::gjk::{GjkConfig, Status};
use crate::kernel::{Keep, MAX_REFINES, agreeing, facet_point};
use crate::query::SimplexCache;
use crate::real::Real;
use crate::simplex::{MAX_SIMPLEX_POINTS, NO_INDEX, Simplex, SupportPoint};
use crate::support::{InLanes, SupportMap};
use crate::vector::Vector;

/// What a cast found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastStatus {
    /// The ray (or moving shape) reaches the target at `fraction` ≤ the
    /// maximum; `normal` and the points describe the contact there.
    Hit,
    /// Already within the margin of the target at the start (`fraction`
    /// 0). The normal is the best separating direction known (for a ray,
    /// the reverse of its direction when nothing better is known).
    StartsInside,
    /// The iteration cap was reached before a decision: the fraction is a
    /// conservative lower bound of any hit.
    IterationLimit,
    /// NaN or infinity in the input or a support point (`fraction` 0).
    InvalidInput,
}

/// What the cast's core found: a [`CastStatus`], or a miss (the public
/// casts return `None` for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    /// As [`CastStatus::Hit`].
    Hit,
    /// As [`CastStatus::StartsInside`].
    StartsInside,
    /// No contact within the maximum fraction.
    Miss,
    /// As [`CastStatus::IterationLimit`].
    IterationLimit,
    /// As [`CastStatus::InvalidInput`].
    InvalidInput,
}

impl Found {
    /// The public status; `None` for a miss.
    fn status(self) -> Option<CastStatus> {
        match self {
            Found::Hit => Some(CastStatus::Hit),
            Found::StartsInside => Some(CastStatus::StartsInside),
            Found::Miss => None,
            Found::IterationLimit => Some(CastStatus::IterationLimit),
            Found::InvalidInput => Some(CastStatus::InvalidInput),
        }
    }
}

/// A cast's contact (ray or shape): every cast returns `Option<CastHit>`,
/// `None` when nothing is met within the maximum fraction (the whole motion
/// is free). Moving by `fraction` of the motion is always safe: the time of
/// impact, 0 where the cast starts in contact or the input is invalid, a
/// lower bound of any contact at the iteration cap.
///
/// One normal convention: `normal` is the target's outward surface normal
/// at the contact, facing back at what moves (for a ray, the surface normal
/// at the hit; for a shape cast, B's outward normal, from B towards A).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit<V: Vector> {
    /// What was found.
    pub status: CastStatus,
    /// Fraction of the motion (or ray length) at the contact: the time of
    /// impact for shape casts (see the type's docs for the other statuses).
    pub fraction: V::Scalar,
    /// For a ray: the hit point. For a shape cast: the contact point on A at
    /// the time of impact.
    pub point_a: V,
    /// For a ray: the hit point on the target's surface (equal to
    /// `point_a`). For a shape cast: the contact point on B at impact.
    pub point_b: V,
    /// Unit normal: the target's outward surface normal at the contact,
    /// facing the ray or the moving shape A (a shape cast's is from B
    /// towards A).
    pub normal: V,
    /// Support calls made.
    pub iterations: u32,
    /// Whether the shapes (or the ray's origin and the target) touch or
    /// overlap, within the target distance, at the start of the motion.
    pub starts_in_contact: bool,
}

impl<V: Vector> CastHit<V> {
    /// The same hit in another vector type of the same scalar.
    #[inline]
    fn convert<W: Vector<Scalar = V::Scalar>>(&self, f: impl Fn(V) -> W) -> CastHit<W> {
        CastHit {
            status: self.status,
            fraction: self.fraction,
            point_a: f(self.point_a),
            point_b: f(self.point_b),
            normal: f(self.normal),
            iterations: self.iterations,
            starts_in_contact: self.starts_in_contact,
        }
    }

    /// An invalid input: fraction 0, no contact.
    fn invalid(normal: V, iterations: u32) -> Self {
        let (point_a, point_b) = (V::ZERO, V::ZERO);
        let status = CastStatus::InvalidInput;
        Self {
            status,
            fraction: V::Scalar::ZERO,
            point_a,
            point_b,
            normal,
            iterations,
            starts_in_contact: false,
        }
    }

    /// Whether the cast touches the target (`Hit` or `StartsInside`).
    #[inline]
    pub fn is_hit(&self) -> bool {
        matches!(self.status, CastStatus::Hit | CastStatus::StartsInside)
    }
}

/// The cast's core: a point `x = s + λ r` against a convex set `C` given by
/// `support(d) -> SupportPoint` (with `w` the point of `C`), grown by
/// `margin`. Returns the status, `λ`, the final simplex of `C` (with the
/// barycentric weights of its point nearest `x`), the unnormalised normal
/// (from `C` towards `x`) and the support-call count.
struct CastCore<V: Vector> {
    status: Found,
    lambda: V::Scalar,
    simplex: Simplex<V>,
    normal: V,
    iterations: u32,
}

/// The ray of the core: `s + λ r`, `λ ∈ [0, max_lambda]`, against `C`
/// grown by `margin`.
#[derive(Clone, Copy)]
struct CoreRay<V: Vector> {
    s: V,
    r: V,
    max_lambda: V::Scalar,
    margin: V::Scalar,
}

fn cast_core<V: Vector>(
    support: &dyn Fn(V) -> SupportPoint<V>,
    vertex: &dyn Fn(u32, u32) -> Option<SupportPoint<V>>,
    ray: CoreRay<V>,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> CastCore<V> {
    let CoreRay { s, r, max_lambda, margin } = ray;
    let config = config.sanitized();
    let bad = |it| CastCore {
        status: Found::InvalidInput,
        lambda: V::Scalar::ZERO,
        simplex: Simplex::default(),
        normal: V::X,
        iterations: it,
    };
    if !s.is_finite() || !r.is_finite() || !max_lambda.is_finite() || !margin.is_finite() {
        return bad(0);
    }
    let mut simplex = Simplex::<V>::default();
    let mut iterations = 0u32;
    // Start from the cached simplex (points of C) or one support point.
    if let Some(c) = cache.as_deref() {
        for (i, d) in c.directions().iter().enumerate() {
            let (ia, ib) = c.indices(i);
            let p = if ia != NO_INDEX && ib != NO_INDEX { vertex(ia, ib) } else { None }
                .unwrap_or_else(|| support(*d));
            if p.is_finite() && !simplex.points().iter().any(|q| q.w == p.w) {
                simplex.push(p, *d);
            }
        }
    }
    if simplex.is_empty() {
        let d = -r;
        let p = support(d);
        iterations += 1;
        if !p.is_finite() {
            return bad(iterations);
        }
        simplex.push(p, d);
    }
    let mut lambda = V::Scalar::ZERO;
    let mut x = s;
    let mut normal = V::ZERO;
    let mut scale = s.max_abs().max(r.max_abs());
    for p in simplex.points() {
        scale = scale.max(p.w.max_abs());
    }
    let (mut v, _) = solve_from(&mut simplex, x);
    let mut status = Found::IterationLimit;
    // Refinements of a stalled `v` made so far (at most `MAX_REFINES`).
    let mut refines = 0;
    // Bounded by the iteration cap; each pass advances x, shrinks |v|
    // strictly, refines (at most `MAX_REFINES` times), or exits.
    for _ in 0..config.max_iterations {
        let band = config.zero_tolerance * scale;
        let reach = margin + band;
        let vv = v.length_squared();
        // Exit: x is within the margin (plus the zero band) of C.
        if vv <= reach * reach {
            status = Found::Hit;
            break;
        }
        let p = support(v);
        iterations += 1;
        if !p.is_finite() {
            return bad(iterations);
        }
        scale = scale.max(p.w.max_abs());
        let vw = v.dot(x - p.w);
        let vlen = v.length();
        let mut advanced = false;
        if vw > margin * vlen {
            // The plane through p, pushed out by the margin, separates x.
            let vr = v.dot(r);
            // Exit: heading away from (or parallel to) that plane: a miss.
            if vr >= V::Scalar::ZERO {
                return CastCore { status: Found::Miss, lambda, simplex, normal: v, iterations };
            }
            lambda -= (vw - margin * vlen) / vr;
            // Exit: the plane lies beyond the end of the motion by more than
            // the zero band (a plane within the band at the end is a hit
            // there).
            if lambda > max_lambda {
                let over = (lambda - max_lambda) * (-vr) / vlen;
                if over > band {
                    return CastCore { status: Found::Miss, lambda, simplex, normal: v, iterations };
                }
                lambda = max_lambda;
            }
            // An advance too small to move x (below its rounding) is none:
            // counted as one, it kept the loop from its stall exit, and a ray
            // in f32 passing 700 bands deep through an 8-point hull ran to
            // the iteration cap (`deep_rays_end_before_the_cap`).
            let moved = s + r * lambda;
            if moved != x {
                x = moved;
                normal = v;
                advanced = true;
            }
        }
        let repeated = simplex.points().iter().any(|q| q.w == p.w);
        if !repeated {
            // A solved simplex never holds more than DIM points here (a full
            // one ends the cast), so there is room.
            simplex.push(p, v);
        }
        let (nv, full) = solve_from(&mut simplex, x);
        // Exit: x lies inside the simplex, so inside C.
        if full {
            status = Found::Hit;
            break;
        }
        // Exit: x did not move and |v| cannot shrink: the distance from x to
        // C is |v|, while its lower bound is within the margin — x is on
        // the grown surface to within rounding.
        if !advanced && (repeated || !nv.length_squared().strictly_less(vv)) {
            // Before it, as GJK's Exits 2 and 4 (`facet_point`): where x
            // is still further from the simplex than the margin plus the
            // band and the simplex is a facet, the stall can be rounding
            // in `v`'s direction, summed from the barycentric weights
            // (a ray passing 2 – 6 bands beside a hull's edge was called a
            // hit, `grazing_rays_that_miss_are_not_hits`). `v` is then
            // recomputed from the facet's normal and the cast steps again.
            if refines < MAX_REFINES && nv.length_squared() > reach * reach && simplex.len() == V::DIM {
                let mut w = [V::ZERO; MAX_SIMPLEX_POINTS];
                for (wi, p) in w.iter_mut().zip(simplex.points()) {
                    *wi = x - p.w;
                }
                if let Some(f) = facet_point(&w[..V::DIM]).filter(|f| *f != nv) {
                    refines += 1;
                    v = f;
                    continue;
                }
            }
            // Still unproven (x further from the simplex than the margin
            // plus the band): a curved target grazed, whose supports at
            // `|v|` below ~1e-8 of the scale land by rounding. The segment
            // left decides (`cast_fallback`).
            if nv.length_squared() > reach * reach {
                let ray = CoreRay { s, r, max_lambda, margin };
                match cast_fallback(support, &ray, lambda, &config) {
                    Some((Found::Miss, _)) => {
                        return CastCore { status: Found::Miss, lambda, simplex, normal: v, iterations };
                    }
                    Some((_, at)) => lambda = at,
                    None => {}
                }
            }
            status = Found::Hit;
            break;
        }
        v = nv;
    }
    if status == Found::IterationLimit {
        // The cap: near a curved target's tangent the advance converges
        // linearly, over thousands of steps in f64. The segment left
        // decides (`cast_fallback`).
        let ray = CoreRay { s, r, max_lambda, margin };
        match cast_fallback(support, &ray, lambda, &config) {
            Some((Found::Miss, _)) => {
                return CastCore { status: Found::Miss, lambda, simplex, normal: v, iterations };
            }
            Some((found, at)) => {
                status = found;
                lambda = at;
            }
            None => {}
        }
    }
    if status == Found::Hit && lambda > V::Scalar::ZERO && lambda < max_lambda {
        // Every exit to a hit ends within the zero band of the grown
        // surface, which grows with C (a large target's): landed on it
        // (`land`), from the simplex's closest point to `x`.
        let away = s + r * lambda - simplex.closest_point();
        let band = config.zero_tolerance * scale;
        lambda = land(support, &simplex, away, &ray, lambda, band, &mut iterations);
    }
    if status == Found::Hit && lambda == V::Scalar::ZERO {
        status = Found::StartsInside;
    }
    if status != Found::IterationLimit
        && let Some(c) = cache
    {
        c.store(&simplex);
    }
    // The normal: with a margin, x − (closest point) has the margin's
    // length and is exact; without one it has shrunk to rounding noise, so
    // use the plane normal of the last advance (a supporting plane at the
    // hit, exact for face hits).
    let nrm = if margin > V::Scalar::ZERO && v.length_squared() > V::Scalar::ZERO {
        v
    } else if normal.length_squared() > V::Scalar::ZERO {
        normal
    } else {
        v
    };
    CastCore { status, lambda, simplex, normal: nrm, iterations }
}

/// A cast's last advance, from a hit within the zero band at `lambda`
/// onto the grown surface: to the supporting plane along the simplex's
/// face (from the shapes' own points where it is one shape's face or an
/// edge of each, else from its Minkowski points) or along `v`. The band
/// grows with C (a large target's), and on a large face `v` tilts by its
/// rounding, and the plane through the far vertex with it, by the tilt
/// times the face's size (`cast_toi_independent_of_target_size`). Only
/// where `x` moves no more than `FINAL_ADVANCE_BANDS` bands: further
/// along a grazing motion the plane may lie past the face's edge, away
/// from C (`f32_walks_on_wide_tilted_floors`).
#[inline]
fn land<V: Vector>(
    support: &dyn Fn(V) -> SupportPoint<V>,
    simplex: &Simplex<V>,
    v: V,
    ray: &CoreRay<V>,
    lambda: V::Scalar,
    band: V::Scalar,
    iterations: &mut u32,
) -> V::Scalar {
    let CoreRay { s, r, max_lambda, margin } = *ray;
    let x = s + r * lambda;
    // The Minkowski facet's normal only where it agrees with `v` (the
    // hit's simplex need not be the closest feature yet). Any normal's
    // support plane is a supporting plane, so the advance stays safe.
    let unit = v.try_normalize().unwrap_or(V::X);
    let facet = || (simplex.len() == V::DIM).then(|| V::facet_normal(&simplex.w_array()[..V::DIM]))?;
    let n = simplex.source_face_normal(unit).or_else(|| facet().and_then(|f| agreeing(f, unit))).unwrap_or(v);
    let p = support(n);
    *iterations += 1;
    let nlen = n.length();
    let (nw, nr) = (n.dot(x - p.w), n.dot(r));
    let step = -(nw - margin * nlen) / nr;
    let most = V::Scalar::from_f64(FINAL_ADVANCE_BANDS) * band;
    if p.is_finite() && nw > margin * nlen && nr < V::Scalar::ZERO && step * r.length() <= most {
        (lambda + step).min(max_lambda)
    } else {
        lambda
    }
}

/// How far a cast's last advance onto the surface may move the ray's point
/// at most, in zero bands (`cast_core`'s hit exit).
pub(crate) const FINAL_ADVANCE_BANDS: f64 = 4.0;

/// Most halvings of the interval holding a hit's fraction in
/// `cast_fallback` (the cast's last resort, docs/reliability.md, *Casts
/// grazing curved shapes*): enough to reach an ulp of an `f64` fraction.
pub const CAST_BISECTIONS: u32 = 64;

/// The target `C` of a cast as a support mapping (the points `w` of its
/// support points), for [`cast_fallback`]'s GJK queries.
struct Target<'a, V: Vector>(&'a dyn Fn(V) -> SupportPoint<V>);

impl<V: Vector> SupportMap<V> for Target<'_, V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        (self.0)(dir).w
    }
}

/// The cast's last resort, where its conservative advance stalls unproven
/// or reaches the iteration cap from `lambda` (a fraction not past the
/// hit): GJK's distance between the segment left, `s + r·[lambda, max]`,
/// and the target decides. Apart by more than the margin plus the zero
/// band, a miss; else a hit, whose fraction is bisected
/// ([`CAST_BISECTIONS`]) between `lambda` and the segment's witness point
/// (GJK's point of contact on it) on whether the ray's point lies within
/// the margin of the target, by GJK's distance. `None` where GJK reports
/// invalid input. Rays tangent to a curved target (a cylinder's side, a
/// cone's) ran to the cap or stalled 1e-10 from it in f64, and the stall
/// was called a hit for rays passing 30 bands outside (docs/reliability.md,
/// *Casts grazing curved shapes*).
#[cold]
#[inline(never)]
fn cast_fallback<V: Vector>(
    support: &dyn Fn(V) -> SupportPoint<V>,
    ray: &CoreRay<V>,
    lambda: V::Scalar,
    config: &GjkConfig<V::Scalar>,
) -> Option<(Found, V::Scalar)> {
    let CoreRay { s, r, max_lambda, margin } = *ray;
    let target = Target(support);
    let (from, to) = (s + r * lambda, s + r * max_lambda);
    let seg = [from, to];
    let limit = GjkConfig { max_distance: margin, ..*config };
    let d = crate::query::distance_with(&seg[..], &target, &limit, None, &mut ());
    match d.status {
        Status::InvalidInput => return None,
        Status::Beyond => return Some((Found::Miss, lambda)),
        Status::Separated | Status::IterationLimit if d.distance > margin + d.tolerance => {
            return Some((Found::Miss, lambda));
        }
        _ => {}
    }
    // The fraction of GJK's witness point on the segment.
    let along = to - from;
    let ll = along.length_squared();
    let t = if ll > V::Scalar::ZERO { (d.point_a - from).dot(along) / ll } else { V::Scalar::ZERO };
    let t = t.max(V::Scalar::ZERO).min(V::Scalar::ONE);
    // By the distance, not the boolean test: a point a few bands inside
    // the margin of a target whose `A − B` holds a thin face (a capsule's
    // segment nearly parallel to a cylinder's side) tested outside now and
    // then, and the bisection, which takes any outside answer as the
    // boundary, landed up to 89 bands late (`side_casts_land_at_their_gap`).
    let within = |l: V::Scalar| {
        let q = [s + r * l];
        let d = crate::query::distance_with(&q[..], &target, &limit, None, &mut ());
        match d.status {
            Status::Separated | Status::IterationLimit => d.distance <= margin + d.tolerance,
            Status::Beyond | Status::InvalidInput => false,
            _ => true,
        }
    };
    let (mut lo, mut hi) = (lambda, lambda + (max_lambda - lambda) * t);
    if within(lo) {
        return Some((Found::Hit, lo));
    }
    if !within(hi) {
        // Within the band of the target but no point of the segment tests
        // inside (rounding): the hit at GJK's witness point.
        return Some((Found::Hit, hi));
    }
    for _ in 0..CAST_BISECTIONS {
        let mid = lo + (hi - lo) * V::Scalar::from_f64(0.5);
        // Exit: the interval is an ulp wide.
        if mid <= lo || mid >= hi {
            break;
        }
        if within(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some((Found::Hit, hi))
}

/// Recomputes the simplex relative to `x`, keeps the minimal subset and
/// returns `(x − closest point of the simplex, full)`.
fn solve_from<V: Vector>(simplex: &mut Simplex<V>, x: V) -> (V, bool) {
    let n = simplex.len();
    let mut w = [V::ZERO; MAX_SIMPLEX_POINTS];
    for (i, p) in simplex.points().iter().enumerate() {
        w[i] = x - p.w;
    }
    let r = V::solve_simplex(&w, n);
    let full = n == V::DIM + 1 && r.mask == 0b1111 >> (MAX_SIMPLEX_POINTS - n);
    let v = if full { V::ZERO } else { r.point(&w) };
    simplex.reduce(&r);
    (v, full)
}

/// Casts the ray `origin + t · dir`, `t ∈ [0, max_fraction]`, against a
/// shape. The fraction is in units of `dir` (a unit `dir` gives distances).
/// A `radius` grows the shape (round shapes cast exactly as core + radius).
///
/// ```
/// use gjk_core::{CastStatus, cast_ray, glam::Vec3};
/// let cube = [-1.0f32, 1.0].iter().flat_map(|&x| [-1.0f32, 1.0].iter().flat_map(move |&y|
///     [-1.0f32, 1.0].iter().map(move |&z| Vec3::new(x, y, z)))).collect::<Vec<_>>();
/// let hit = cast_ray(cube.as_slice(), Vec3::new(-5.0, 0.2, 0.3), Vec3::X, 100.0, 0.0).unwrap();
/// assert_eq!(hit.status, CastStatus::Hit);
/// assert!((hit.fraction - 4.0).abs() < 1e-5);
/// assert!((hit.normal + Vec3::X).length() < 1e-5); // the face's, facing the ray
/// // A ray that passes by meets nothing.
/// assert!(cast_ray(cube.as_slice(), Vec3::new(-5.0, 3.0, 0.0), Vec3::X, 100.0, 0.0).is_none());
/// ```
pub fn cast_ray<V, S>(
    shape: &S,
    origin: V,
    dir: V,
    max_fraction: V::Scalar,
    radius: V::Scalar,
) -> Option<CastHit<V>>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    cast_ray_with(shape, origin, dir, max_fraction, radius, &GjkConfig::default(), None)
}

/// [`cast_ray`] with a configuration and an optional warm-start cache.
pub fn cast_ray_with<V, S>(
    shape: &S,
    origin: V,
    dir: V,
    max_fraction: V::Scalar,
    radius: V::Scalar,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Option<CastHit<V>>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    if V::LANES_DIFFER {
        // Computed in the SIMD-aligned vector type (see `Vector::Lanes`).
        let shape = &InLanes::new(shape);
        let (origin, dir) = (origin.to_lanes(), dir.to_lanes());
        return in_lanes(cache, |c| cast_ray_direct(shape, origin, dir, max_fraction, radius, config, c));
    }
    cast_ray_direct(shape, origin, dir, max_fraction, radius, config, cache)
}

/// A cast computed in `V::Lanes` with the caller's cache (converted in and
/// out), its hit converted back.
#[inline(always)]
fn in_lanes<V: Vector>(
    cache: Option<&mut SimplexCache<V>>,
    cast: impl FnOnce(Option<&mut SimplexCache<V::Lanes>>) -> Option<CastHit<V::Lanes>>,
) -> Option<CastHit<V>> {
    match cache {
        Some(c) => {
            let mut lanes = c.convert(V::to_lanes);
            let hit = cast(Some(&mut lanes));
            *c = lanes.convert(V::from_lanes);
            hit.map(|h| h.convert(V::from_lanes))
        }
        None => cast(None).map(|h| h.convert(V::from_lanes)),
    }
}

/// [`cast_ray_with`] computed in `V` itself.
#[inline(always)]
fn cast_ray_direct<V, S>(
    shape: &S,
    origin: V,
    dir: V,
    max_fraction: V::Scalar,
    radius: V::Scalar,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Option<CastHit<V>>
where
    V: Vector,
    S: SupportMap<V> + ?Sized,
{
    if radius < V::Scalar::ZERO {
        return Some(CastHit::invalid(V::X, 0));
    }
    let support = |d: V| {
        let (p, i) = shape.support_indexed(d);
        SupportPoint { w: p, a: p, b: V::ZERO, index_a: i, index_b: 0 }
    };
    let vertex = |ia: u32, _ib: u32| {
        shape.vertex(ia).map(|p| SupportPoint { w: p, a: p, b: V::ZERO, index_a: ia, index_b: 0 })
    };
    let ray = CoreRay { s: origin, r: dir, max_lambda: max_fraction, margin: radius };
    let c = cast_core(&support, &vertex, ray, config, cache);
    let back = (-dir).try_normalize().unwrap_or(V::X);
    let status = c.status.status()?;
    if status == CastStatus::InvalidInput {
        return Some(CastHit::invalid(back, c.iterations));
    }
    let n = c.normal.try_normalize().unwrap_or(back);
    let core = c.simplex.witness_points().0;
    let point = if status == CastStatus::StartsInside { origin } else { core + n * radius };
    Some(CastHit {
        status,
        fraction: c.lambda,
        point_a: point,
        point_b: point,
        normal: n,
        iterations: c.iterations,
        starts_in_contact: status == CastStatus::StartsInside,
    })
}

/// Options of a shape cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOptions<S> {
    /// Stop when the shapes come within this distance (≥ 0), e.g. a
    /// contact skin, or the sum of radii of shapes cast as cores.
    pub target_distance: S,
    /// The largest fraction of the motions considered (1 for one step).
    pub max_fraction: S,
}

impl<S: Real> Default for CastOptions<S> {
    fn default() -> Self {
        Self { target_distance: S::ZERO, max_fraction: S::ONE }
    }
}

/// Linear shape cast: A moves by `motion_a` and B by `motion_b` over one
/// step; finds the first time `t ∈ [0, max_fraction]` at which they come
/// within `target_distance`, with the contact points (at that time) and
/// B's outward normal there (from B towards A); `None` if they never do.
///
/// ```
/// use gjk_core::{CastOptions, CastStatus, cast_shape, glam::Vec2};
/// let square = [Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0)];
/// let far = square.map(|p| p + Vec2::new(10.0, 0.0));
/// let hit = cast_shape(&square, Vec2::new(16.0, 0.0), &far, Vec2::ZERO, &CastOptions::default()).unwrap();
/// assert_eq!(hit.status, CastStatus::Hit);
/// assert!((hit.fraction - 0.5).abs() < 1e-5); // 8 units of a 16-unit move
/// assert!((hit.normal + Vec2::X).length() < 1e-5); // B's face, facing A
/// ```
pub fn cast_shape<V, A, B>(
    a: &A,
    motion_a: V,
    b: &B,
    motion_b: V,
    options: &CastOptions<V::Scalar>,
) -> Option<CastHit<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    cast_shape_with(a, motion_a, b, motion_b, options, &GjkConfig::default(), None)
}

/// [`cast_shape`] with a configuration and an optional warm-start cache.
pub fn cast_shape_with<V, A, B>(
    a: &A,
    motion_a: V,
    b: &B,
    motion_b: V,
    options: &CastOptions<V::Scalar>,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Option<CastHit<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if V::LANES_DIFFER {
        // Computed in the SIMD-aligned vector type (see `Vector::Lanes`).
        let (a, b) = (&InLanes::new(a), &InLanes::new(b));
        let (ma, mb) = (motion_a.to_lanes(), motion_b.to_lanes());
        return in_lanes(cache, |c| cast_shape_direct(a, ma, b, mb, options, config, c));
    }
    cast_shape_direct(a, motion_a, b, motion_b, options, config, cache)
}

/// [`cast_shape_with`] computed in `V` itself.
#[inline(always)]
fn cast_shape_direct<V, A, B>(
    a: &A,
    motion_a: V,
    b: &B,
    motion_b: V,
    options: &CastOptions<V::Scalar>,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Option<CastHit<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if options.target_distance < V::Scalar::ZERO || !options.target_distance.is_finite() {
        return Some(CastHit::invalid(V::X, 0));
    }
    // A + t·m_a meets B + t·m_b  ⇔  t·(m_a − m_b) ∈ B − A: a ray from the
    // origin along the relative motion against C = B − A.
    let r = motion_a - motion_b;
    let support = |d: V| {
        let (pa, ia) = a.support_indexed(-d);
        let (pb, ib) = b.support_indexed(d);
        SupportPoint { w: pb - pa, a: pa, b: pb, index_a: ia, index_b: ib }
    };
    let vertex = |ia: u32, ib: u32| match (a.vertex(ia), b.vertex(ib)) {
        (Some(pa), Some(pb)) => Some(SupportPoint { w: pb - pa, a: pa, b: pb, index_a: ia, index_b: ib }),
        _ => None,
    };
    let ray = CoreRay { s: V::ZERO, r, max_lambda: options.max_fraction, margin: options.target_distance };
    let c = cast_core(&support, &vertex, ray, config, cache);
    let back = (-r).try_normalize().unwrap_or(V::X);
    let status = c.status.status()?;
    if status == CastStatus::InvalidInput {
        return Some(CastHit::invalid(back, c.iterations));
    }
    // C's outward normal points towards x, from B towards A: B's outward
    // normal at the contact.
    let n = c.normal.try_normalize().unwrap_or(back);
    let (pa, pb) = c.simplex.witness_points();
    let t = c.lambda;
    Some(CastHit {
        status,
        fraction: t,
        point_a: pa + motion_a * t,
        point_b: pb + motion_b * t,
        normal: n,
        iterations: c.iterations,
        starts_in_contact: status == CastStatus::StartsInside,
    })
}
