//! `Vec3` queries compute in `Vec3A` (`Vector::Lanes`): the answers are
//! those of the same query computed in `Vec3` itself (the recorded path) and
//! of the same shapes given as `Vec3A` — to the bit on x86, where glam's
//! `Vec3A` rounds each operation as `Vec3` does (same products and sums, in
//! the same order), and to rounding elsewhere. Distance, the distance
//! alone, the boolean test, the continuation from a first support call,
//! ray and shape casts, and warm starts through a `Vec3` cache.

use gjk_core::glam::{DVec3, Vec3, Vec3A};
use gjk_core::internal::{InLanes, distance_from, first_support, intersects_within};
use gjk_core::{
    CastOptions, DistanceResult, GjkConfig, Iteration, SimplexCache, SupportMap, Vector, distance_value_with,
    distance_with,
};
use gjk_testkit::*;

#[path = "common/cast_answer.rs"]
mod cast_answer;
use cast_answer::core::{cast_ray_with, cast_shape_with};

/// A point set with its centroid and enclosing radius (so that the balls'
/// early exits run), or a ball (exact radii: deep overlaps end at the balls).
#[derive(Clone)]
enum Shape<V> {
    Points(Vec<V>, V, f32),
    Ball(V, f32),
}

impl<V: Vector<Scalar = f32>> SupportMap<V> for Shape<V> {
    fn support(&self, d: V) -> V {
        self.support_indexed(d).0
    }
    fn support_indexed(&self, d: V) -> (V, u32) {
        match self {
            Shape::Points(p, ..) => p[..].support_indexed(d),
            Shape::Ball(c, r) => (*c + d.try_normalize().unwrap_or(V::X) * *r, gjk_core::NO_INDEX),
        }
    }
    fn vertex(&self, i: u32) -> Option<V> {
        match self {
            Shape::Points(p, ..) => p[..].vertex(i),
            Shape::Ball(..) => None,
        }
    }
    fn center(&self) -> Option<V> {
        Some(match self {
            Shape::Points(_, c, _) | Shape::Ball(c, _) => *c,
        })
    }
    fn center_radii(&self) -> Option<(f32, f32)> {
        Some(match self {
            Shape::Points(_, _, outer) => (0.0, *outer),
            Shape::Ball(_, r) => (*r, *r),
        })
    }
}

/// The same shape in another vector type.
fn convert<V: Copy, W>(s: &Shape<V>, f: impl Fn(V) -> W) -> Shape<W> {
    match s {
        Shape::Points(p, c, r) => Shape::Points(p.iter().map(|q| f(*q)).collect(), f(*c), *r),
        Shape::Ball(c, r) => Shape::Ball(f(*c), *r),
    }
}

fn points(p: Vec<DVec3>) -> Shape<Vec3> {
    let c = centroid3(&p);
    let r = p.iter().map(|q| (*q - c).length()).fold(0.0, f64::max);
    // Rounded outwards, so the ball encloses the f32 points too.
    Shape::Points(p.iter().map(|q| q.as_vec3()).collect(), c.as_vec3(), (r * 1.001) as f32)
}

/// A random shape: a polyhedron of 4–40 vertices (sometimes a flat or
/// collinear one) or a ball, at scale `s`.
fn shape(rng: &mut Rng, s: f64, at: DVec3) -> Shape<Vec3> {
    match rng.usize(0, 9) {
        0 => Shape::Ball(at.as_vec3(), (s * rng.range(0.3, 1.0)) as f32),
        1 => points((0..rng.usize(2, 6)).map(|_| at + DVec3::X * s * rng.range(-1.0, 1.0)).collect()),
        2 => {
            points((0..rng.usize(3, 9)).map(|_| at + (rng.unit3() * DVec3::new(1.0, 1.0, 0.0)) * s).collect())
        }
        _ => {
            let n = rng.usize(4, 40);
            points(polyhedron(rng, n).iter().map(|p| at + *p * s).collect())
        }
    }
}

/// The result's every number, as bits (and the statuses by name).
fn bits<V: Vector<Scalar = f32>>(r: &DistanceResult<V>, xyz: impl Fn(V) -> [f32; 3]) -> Vec<u32> {
    let mut out = vec![r.status as u32, r.distance.to_bits(), r.lower_bound.to_bits(), r.tolerance.to_bits()];
    out.push(r.iterations);
    let mut vs = vec![r.point_a, r.point_b, r.normal];
    for p in r.simplex.points() {
        vs.extend([p.w, p.a, p.b]);
        out.extend([p.index_a, p.index_b]);
    }
    vs.extend(r.simplex.directions().iter().copied());
    out.extend(r.simplex.barycentric().iter().map(|x| x.to_bits()));
    out.extend(vs.into_iter().flat_map(xyz).map(f32::to_bits));
    out
}

/// Whether the bit patterns agree: exactly on x86, else as numbers to
/// within a few ulps' worth of the scale.
fn same(x: &[u32], y: &[u32], ctx: &str) {
    assert_eq!(x.len(), y.len(), "{ctx}");
    if cfg!(any(target_arch = "x86", target_arch = "x86_64")) {
        assert_eq!(x, y, "{ctx}");
    } else {
        for (p, q) in x.iter().zip(y) {
            let (p, q) = (f32::from_bits(*p), f32::from_bits(*q));
            assert!(p == q || (p - q).abs() <= 1e-4 * (1.0 + p.abs()), "{ctx}: {p} vs {q}");
        }
    }
}

/// A cast's every number, as bits.
fn hit_bits<V: Vector<Scalar = f32>>(h: &cast_answer::Answer<V>, xyz: impl Fn(V) -> [f32; 3]) -> Vec<u32> {
    let mut out = vec![h.status as u32, h.fraction.to_bits(), h.iterations];
    out.extend([h.point_a, h.point_b, h.normal].into_iter().flat_map(xyz).map(f32::to_bits));
    out
}

fn xyz3(v: Vec3) -> [f32; 3] {
    v.to_array()
}

fn xyza(v: Vec3A) -> [f32; 3] {
    v.to_array()
}

/// Cold queries: the `Vec3` query (computed in `Vec3A`) against the same
/// query recorded (computed in `Vec3`) and against `Vec3A` shapes.
#[test]
fn vec3_queries_answer_as_computed_in_vec3() {
    let mut rng = Rng::new(7070);
    let cfg = GjkConfig::default();
    let mut hits = [0usize; 2];
    for i in 0..3000 {
        let s = [1e-3, 1.0, 1e3][i % 3];
        let a = shape(&mut rng, s, DVec3::ZERO);
        // Apart, about touching or overlapping.
        let gap = s * [3.0, 2.0, 1.0, 0.3][rng.usize(0, 3)];
        let at = rng.unit3() * gap;
        let b = shape(&mut rng, s, at);
        let (aa, ba) = (convert(&a, Vec3A::from), convert(&b, Vec3A::from));
        let ctx = format!("pair {i}");

        let lanes = distance_with(&a, &b, &cfg, None, &mut ());
        let mut record: Vec<Iteration<Vec3>> = Vec::new();
        let direct = distance_with(&a, &b, &cfg, None, &mut record);
        let wide = distance_with(&aa, &ba, &cfg, None, &mut ());
        same(&bits(&lanes, xyz3), &bits(&direct, xyz3), &ctx);
        same(&bits(&lanes, xyz3), &bits(&wide, xyza), &ctx);

        let value = |r: Result<f32, _>| r.map(f32::to_bits);
        assert_eq!(
            value(distance_value_with(&a, &b, &cfg)),
            value(distance_value_with(&aa, &ba, &cfg)),
            "{ctx}"
        );
        let margin = (s * rng.range(0.0, 0.5)) as f32;
        assert_eq!(
            intersects_within(&a, &b, margin, &cfg, None),
            intersects_within(&aa, &ba, margin, &cfg, None),
            "{ctx}"
        );
        let from = distance_from(&a, &b, &cfg, first_support(&a, &b), &mut ());
        let from_wide = distance_from(&aa, &ba, &cfg, first_support(&aa, &ba), &mut ());
        same(&bits(&from, xyz3), &bits(&from_wide, xyza), &ctx);

        // A ray from afar at A (sometimes with a radius), and A cast at B.
        let origin = (rng.unit3() * s * 4.0).as_vec3();
        let dir = (DVec3::from(-origin) + rng.unit3() * s * 0.5).as_vec3();
        let radius = (s * [0.0, 0.1][i % 2]) as f32;
        let ray = cast_ray_with(&a, origin, dir, 2.0, radius, &cfg, None);
        let ray_wide = cast_ray_with(&aa, origin.into(), dir.into(), 2.0, radius, &cfg, None);
        same(&hit_bits(&ray, xyz3), &hit_bits(&ray_wide, xyza), &ctx);
        let motion = (at * 1.5).as_vec3();
        let opts = CastOptions { target_distance: radius, max_fraction: 1.0 };
        let cast = cast_shape_with(&a, motion, &b, Vec3::ZERO, &opts, &cfg, None);
        let cast_wide = cast_shape_with(&aa, motion.into(), &ba, Vec3A::ZERO, &opts, &cfg, None);
        same(&hit_bits(&cast, xyz3), &hit_bits(&cast_wide, xyza), &ctx);
        hits[0] += usize::from(ray.is_hit());
        hits[1] += usize::from(cast.is_hit());
    }
    // Most rays and casts hit: the hits' points and normals were compared.
    assert!(hits[0] > 2000 && hits[1] > 2000, "{hits:?}");
}

/// Warm starts: a `Vec3` cache carried over frames (its directions
/// converted on each query) gives the answers a `Vec3A` cache gives.
#[test]
fn vec3_warm_starts_answer_as_computed_in_vec3() {
    let mut rng = Rng::new(7071);
    let cfg = GjkConfig::default();
    for i in 0..600 {
        let a = shape(&mut rng, 1.0, DVec3::ZERO);
        let dir = rng.unit3();
        let mut at = dir * rng.range(0.5, 3.0);
        let (mut c3, mut ca) = (SimplexCache::<Vec3>::new(), SimplexCache::<Vec3A>::new());
        let (mut b3, mut ba) = (SimplexCache::<Vec3>::new(), SimplexCache::<Vec3A>::new());
        let (mut s3, mut sa) = (SimplexCache::<Vec3>::new(), SimplexCache::<Vec3A>::new());
        let mut b_rng = Rng::new(i as u64);
        let b = shape(&mut b_rng, 1.0, DVec3::ZERO);
        for frame in 0..6 {
            let moved = match &b {
                Shape::Points(p, c, r) => {
                    let t = at.as_vec3();
                    Shape::Points(p.iter().map(|q| *q + t).collect(), *c + t, *r)
                }
                Shape::Ball(c, r) => Shape::Ball(*c + at.as_vec3(), *r),
            };
            let (aa, mb) = (convert(&a, Vec3A::from), convert(&moved, Vec3A::from));
            let ctx = format!("pair {i} frame {frame}");
            let r3 = distance_with(&a, &moved, &cfg, Some(&mut c3), &mut ());
            let ra = distance_with(&aa, &mb, &cfg, Some(&mut ca), &mut ());
            same(&bits(&r3, xyz3), &bits(&ra, xyza), &ctx);
            assert_eq!(c3.len(), ca.len(), "{ctx}");
            for (p, q) in c3.directions().iter().zip(ca.directions()) {
                same(&xyz3(*p).map(f32::to_bits), &xyza(*q).map(f32::to_bits), &ctx);
            }
            assert_eq!(
                intersects_within(&a, &moved, 0.0, &cfg, Some(&mut b3)),
                intersects_within(&aa, &mb, 0.0, &cfg, Some(&mut ba)),
                "{ctx}"
            );
            // A cast of A along the way to B, from a cache of each type.
            let m = (at * 1.2).as_vec3();
            let opts = CastOptions::default();
            let h3 = cast_shape_with(&a, m, &moved, Vec3::ZERO, &opts, &cfg, Some(&mut s3));
            let ha = cast_shape_with(&aa, m.into(), &mb, Vec3A::ZERO, &opts, &cfg, Some(&mut sa));
            same(&hit_bits(&h3, xyz3), &hit_bits(&ha, xyza), &ctx);
            at -= dir * 0.2;
        }
    }
}

/// The adapter itself: each call answers what the wrapped shape answers,
/// converted, with the same vertex index.
#[test]
fn in_lanes_forwards_every_call() {
    let mut rng = Rng::new(7072);
    for _ in 0..200 {
        let at = rng.unit3();
        let s = shape(&mut rng, 1.0, at);
        let l = InLanes::<Vec3, _>::new(&s);
        for _ in 0..10 {
            let d = rng.unit3().as_vec3();
            let (p, i) = s.support_indexed(d);
            assert_eq!(l.support_indexed(Vec3A::from(d)), (Vec3A::from(p), i));
            assert_eq!(l.support(Vec3A::from(d)), Vec3A::from(s.support(d)));
            assert_eq!(l.support_from(Vec3A::from(d), i), (Vec3A::from(p), i));
            assert_eq!(l.vertex(i), s.vertex(i).map(Vec3A::from));
        }
        assert_eq!(l.center(), s.center().map(Vec3A::from));
        assert_eq!(l.center_radii(), s.center_radii());
    }
    // The lanes of the other types are the types themselves.
    const { assert!(!<DVec3 as Vector>::LANES_DIFFER && !<Vec3A as Vector>::LANES_DIFFER) };
    const { assert!(<Vec3 as Vector>::LANES_DIFFER) };
}
