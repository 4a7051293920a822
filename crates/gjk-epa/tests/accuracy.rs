//! Accuracy where users meet it, in f32 and f64, against closed forms on
//! the very (rounded) inputs the library gets:
//! - a ball, a capsule or a hull cast onto a large box: the time of
//!   impact does not depend on the box's size (`cast_toi_independent_of_target_size`);
//! - the zero band: relative to the pair's size, at most 512 ulps of
//!   it, and the distance, the status and the witness points agree with
//!   each other and with the oracle outside it, over scales 1e-6…1e6 and
//!   size ratios 1e-4…1e4 (`zero_band_follows_the_pair_near_the_contact`);
//! - contacts parallel to a face return that face's normal
//!   (`parallel_contacts_keep_the_face_normal`);
//! - every cast kind says whether the shapes touch at the start, and a
//!   miss frees the whole motion (`cast_start_state_says_contact_at_t0`).
//!
//! Each oracle is the height of A's lowest point over a face of B whose
//! closest point lies inside that face (a plane's distance, exact), or the
//! first root of it along a motion ([`first_root`]: a scan and bisection).
//! The inputs are rounded to the precision under test first and the oracle
//! evaluates those rounded values in f64, so what is left is the library's
//! own error, above a floor of `FLOOR_ULPS` of the coordinates the query
//! rounds in.

use gjk_epa::{ContactStatus, contact};
use gjk_shapes::gjk_core::{CastOptions, Status};
use gjk_shapes::glam::{DQuat, DVec3, Quat, Vec3};
use gjk_shapes::tuning::NONLINEAR_CAST_TOLERANCE;
use gjk_shapes::{Ball, Capsule, ConvexHull, Cuboid, Motion, Pose, Shape, Triangle, distance};
use gjk_testkit::{Rng, first_root};

#[path = "../../gjk-core/tests/common/cast_answer.rs"]
mod cast_answer;
#[path = "common/epa_casts.rs"]
mod epa_casts;
#[path = "../../gjk-shapes/tests/common/shape_casts.rs"]
mod shape_casts;
use cast_answer::CastStatus;
use epa_casts::{cast_shape_directional, cast_shape_nonlinear_directional};
use shape_casts::{cast_ray, cast_shape, cast_shape_nonlinear};

/// Rounding of the inputs themselves, in ulps of their largest coordinate
/// (placing B in A's frame, a rotation, a difference): the floor below
/// which no answer can be checked.
const FLOOR_ULPS: f64 = 8.0;

/// The widest zero band allowed, in ulps of the pair's size (the sum of
/// the shapes' sizes and their centres' distance): the default band, 256
/// ulps of the Minkowski points' largest coordinate, which can reach twice
/// that size.
const BAND_ULPS: f64 = 512.0;

/// A test shape and how to find its lowest point along a direction, in f64
/// from the rounded values the library sees.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Ball,
    Capsule,
    Hull,
    Cuboid,
}

/// The points of a small hull (unit size), fixed so that every run sees
/// the same shape.
fn hull_points() -> Vec<DVec3> {
    let mut rng = Rng::new(55);
    (0..12).map(|_| rng.unit3() * DVec3::new(0.5, 0.35, 0.3)).collect()
}

macro_rules! precision {
    ($m:ident, $s:ty, $v:ty, $q:ty) => {
        mod $m {
            use super::*;

            pub type S = $s;
            pub type V = $v;
            pub type Q = $q;
            pub const EPS: f64 = <$s>::EPSILON as f64;

            pub fn v(p: DVec3) -> V {
                V::new(p.x as S, p.y as S, p.z as S)
            }
            pub fn d(p: V) -> DVec3 {
                DVec3::new(p.x as f64, p.y as f64, p.z as f64)
            }
            pub fn q(r: DQuat) -> Q {
                Q::from_xyzw(r.x as S, r.y as S, r.z as S, r.w as S).normalize()
            }
            pub fn dq(r: Q) -> DQuat {
                DQuat::from_xyzw(r.x as f64, r.y as f64, r.z as f64, r.w as f64).normalize()
            }

            /// A shape of `kind` and size `size`, and its lowest height
            /// along `n` at `pose` (f64, from the rounded values).
            pub struct Body {
                pub kind: Kind,
                pub size: S,
                pub hull: Option<ConvexHull<V>>,
            }

            impl Body {
                pub fn new(kind: Kind, size: f64) -> Self {
                    let size = size as S;
                    let hull = match kind {
                        Kind::Hull => Some(
                            ConvexHull::new(
                                &hull_points().iter().map(|p| v(*p * size as f64)).collect::<Vec<_>>(),
                            )
                            .expect("a valid hull"),
                        ),
                        _ => None,
                    };
                    Self { kind, size, hull }
                }

                pub fn shape(&self) -> Box<dyn Shape<V> + '_> {
                    let s = self.size;
                    match self.kind {
                        Kind::Ball => Box::new(Ball::new(s).unwrap()),
                        Kind::Capsule => Box::new(Capsule::new(s, s * 0.5).unwrap()),
                        Kind::Hull => Box::new(self.hull.clone().unwrap()),
                        Kind::Cuboid => Box::new(Cuboid::new(V::new(s, s * 0.7, s * 0.4)).unwrap()),
                    }
                }

                /// The least `n · x` over the shape at `pose`.
                pub fn lowest(&self, pose: &Pose<V>, n: DVec3) -> f64 {
                    n.dot(d(pose.translation) + self.lowest_point(dq(pose.rotation), n))
                }

                /// The shape's lowest point along `n` under `rot`, from its
                /// centre (on the surface: a ball's, a capsule's cap, a
                /// vertex).
                pub fn lowest_point(&self, rot: DQuat, n: DVec3) -> DVec3 {
                    let s = self.size as f64;
                    let low = |pts: &[DVec3]| {
                        pts.iter().map(|p| rot * *p).fold(DVec3::splat(f64::MAX), |best, p| {
                            if best.x == f64::MAX || n.dot(p) < n.dot(best) { p } else { best }
                        })
                    };
                    match self.kind {
                        Kind::Ball => -n * s,
                        Kind::Capsule => low(&[DVec3::Y * s, -DVec3::Y * s]) - n * (s as S * 0.5) as f64,
                        Kind::Hull => low(&self.hull.as_ref().unwrap().vertices().iter().map(|p| d(*p)).collect::<Vec<_>>()),
                        Kind::Cuboid => {
                            let h = DVec3::new(s, (s as S * 0.7) as f64, (s as S * 0.4) as f64);
                            let sign = |i: usize, b: usize| if i >> b & 1 == 1 { 1.0 } else { -1.0 };
                            low(&(0..8).map(|i| h * DVec3::new(sign(i, 0), sign(i, 1), sign(i, 2))).collect::<Vec<_>>())
                        }
                    }
                }
            }

            /// Balls, capsules and hulls cast down (and obliquely) onto the
            /// top face of a box `(h, 0.5, h)` for `h` from 1 to 1e4: the
            /// time of impact against the first root of the exact height.
            pub fn casts_onto_large_boxes(nonlinear: bool) -> usize {
                let mut rng = Rng::new(5501 + nonlinear as u64);
                let mut checked = 0;
                for e in 0..=8 {
                    let h = 10f64.powf(e as f64 * 0.5);
                    let target = Cuboid::new(V::new(h as S, 0.5, h as S)).unwrap();
                    for kind in [Kind::Ball, Kind::Capsule, Kind::Hull] {
                        let body = Body::new(kind, rng.range(0.3, 0.7));
                        let a = body.shape();
                        for _ in 0..50 {
                            // A ball as users place one (no turn), moving as A:
                            // the query's frame is the ball's, the face stays
                            // axis-aligned. Turned shapes move as B: in a turned
                            // A's frame a box 1e4 wide in f32 has corners (and the
                            // face's plane) rounded by 1e-3, the inputs' own floor.
                            let ball = matches!(kind, Kind::Ball);
                            let rot = if ball { Q::IDENTITY } else { q(rng.quat()) };
                            let gap = rng.range(1.0, 3.0);
                            let centre = DVec3::new(rng.range(-0.4, 0.4) * h, 0.0, rng.range(-0.4, 0.4) * h);
                            let mut pose = Pose::new(rot, v(centre));
                            let low = body.lowest(&pose, DVec3::Y);
                            pose.translation.y = (0.5 + gap - low) as S;
                            let down = rng.range(1.2, 3.0) * gap;
                            let side = rng.unit3() * DVec3::new(1.0, 0.0, 1.0) * rng.range(0.0, 1.0) * gap;
                            let motion = v(side - DVec3::Y * down);
                            let m = d(motion);
                            // The lowest point moves with the motion: its height
                            // over the face, along the exact path.
                            let low = body.lowest(&pose, DVec3::Y);
                            let height = |t: f64| low + m.y * t - 0.5;
                            let exact = first_root(&height, 1.0, 64).expect("the motion reaches the face");
                            // The plane's height is the distance only over the face.
                            let at = d(pose.translation) + body.lowest_point(dq(pose.rotation), DVec3::Y) + m * exact;
                            if at.x.abs().max(at.z.abs()) > 0.95 * h {
                                continue;
                            }
                            let opts = CastOptions::default();
                            let (id, still) = (Pose::IDENTITY, V::ZERO);
                            let (ma, mb) = (Motion::new(pose, motion, still), Motion::new(id, V::ZERO, still));
                            let (hit, on_box) = match (nonlinear, ball) {
                                (true, true) => {
                                    let h = cast_shape_nonlinear(&*a, &ma, &target, &mb, &opts);
                                    (h, h.point_b)
                                }
                                (true, false) => {
                                    let h = cast_shape_nonlinear(&target, &mb, &*a, &ma, &opts);
                                    (h, h.point_a)
                                }
                                (false, true) => {
                                    let h = cast_shape(&*a, &pose, motion, &target, &id, V::ZERO, &opts);
                                    (h, h.point_b)
                                }
                                (false, false) => {
                                    let h = cast_shape(&target, &id, V::ZERO, &*a, &pose, motion, &opts);
                                    (h, h.point_a)
                                }
                            };
                            assert_eq!(hit.status, CastStatus::Hit, "{kind:?} h {h} {pose:?} {motion:?}");
                            assert!(!hit.starts_in_contact);
                            // The bound: 1e-6 of the motion (the fraction's own
                            // rounding and the bisection), plus the cast's
                            // tolerance relative to the smaller shape: 64 ulps of
                            // its size for the linear cast, and for the nonlinear
                            // one its stated NONLINEAR_CAST_TOLERANCE of its reach
                            // (early only), over the closing speed.
                            let size = body.size as f64;
                            let len = m.length();
                            let early = (exact - hit.fraction as f64) * -m.y;
                            let tol = if nonlinear { NONLINEAR_CAST_TOLERANCE * 2.0 * size } else { 64.0 * EPS * size };
                            // And the rounding of the query's frame: the moving
                            // shape's coordinates there (its start), FLOOR_ULPS of
                            // them, whatever the target's size.
                            let start = d(pose.translation).abs().max_element();
                            let floor = FLOOR_ULPS * EPS * (start + size);
                            let lo = -(1e-6 * len + 64.0 * EPS * size + floor);
                            let hi = 1e-6 * len + tol + floor;
                            assert!(
                                early >= lo && early <= hi,
                                "{kind:?} h {h}: early by {early:e} (bounds {lo:e}..{hi:e}) {pose:?} {motion:?}"
                            );
                            // The contact point on the box lies on its face.
                            assert!((on_box.y as f64 - 0.5).abs() <= hi + 4.0 * EPS, "{hit:?}");
                            checked += 1;
                        }
                    }
                }
                checked
            }

            /// A over a face of a rotated box B (at scale `s`, B's size
            /// `s · ratio`), apart or overlapping by a fraction of the
            /// smaller size: the distance query and the contact against
            /// the plane's distance.
            pub fn band_family() -> usize {
                let mut rng = Rng::new(5502);
                let mut checked = 0;
                for se in [-6, -3, 0, 3, 6] {
                    for re in [-4, -2, 0, 2, 4] {
                        let s = 10f64.powi(se);
                        let l = s * 10f64.powi(re);
                        let hb = v(DVec3::new(1.0, 0.8, 0.6) * l);
                        let b = Cuboid::new(hb).unwrap();
                        let hb = d(hb);
                        for kind in [Kind::Ball, Kind::Cuboid] {
                            let body = Body::new(kind, s);
                            let a = body.shape();
                            for _ in 0..40 {
                                for frac in [0.3, 0.03, -0.03, -0.3] {
                                    let pose_b = Pose::new(q(rng.quat()), v(rng.unit3() * l));
                                    let (rb, tb) = (dq(pose_b.rotation), d(pose_b.translation));
                                    let n = rb * DVec3::Y;
                                    let on_face = DVec3::new(rng.range(-0.5, 0.5) * hb.x, hb.y, rng.range(-0.5, 0.5) * hb.z);
                                    let f = rb * on_face + tb;
                                    let g = frac * s.min(l);
                                    let rot = rng.quat();
                                    let centre = f + n * g - body.lowest_point(rot, n);
                                    let pose_a = Pose::new(q(rot), v(centre));
                                    // The oracle on the rounded inputs: A's lowest point
                                    // over the face's plane.
                                    let gap = body.lowest(&pose_a, n) - (n.dot(tb) + hb.y);
                                    let coords = d(pose_a.translation).abs().max_element() + tb.abs().max_element() + l + s;
                                    let floor = FLOOR_ULPS * EPS * coords;
                                    let r = distance(&*a, &pose_a, &b, &pose_b);
                                    let tol = r.tolerance as f64;
                                    let what = format!("{kind:?} s {s:e} l {l:e} gap {gap:e} A {pose_a:?} B {pose_b:?}: {r:?}");
                                    let size = s + l + (d(pose_a.translation) - tb).length();
                                    assert!(tol <= BAND_ULPS * EPS * size, "band wider than {BAND_ULPS} ulps: {what}");
                                    let dist = r.distance as f64;
                                    assert!((dist - gap.max(0.0)).abs() <= tol + floor, "distance off: {what}");
                                    let apart = (d(r.point_b) - d(r.point_a)).length();
                                    if gap > tol + floor {
                                        assert_eq!(r.status, Status::Separated, "{what}");
                                        assert!((apart - dist).abs() <= tol + floor, "witnesses disagree: {what}");
                                    } else if gap < -(tol + floor) {
                                        assert_eq!(r.status, Status::Intersecting, "{what}");
                                    }
                                    // Touching apart: the witnesses are the closest points.
                                    if r.status == Status::Touching && gap >= 0.0 {
                                        assert!(apart <= tol + floor, "touching witnesses apart: {what}");
                                    }
                                    // The contact query's band is its own (the separating-axis
                                    // test's scale): past a few of the distance's bands.
                                    if matches!(kind, Kind::Ball) && gap < -(4.0 * tol + floor) {
                                        let c = contact(&*a, &pose_a, &b, &pose_b);
                                        assert_eq!(c.status, ContactStatus::Penetrating, "{what} {c:?}");
                                        assert!((c.depth as f64 + gap).abs() <= 4.0 * tol + floor, "depth off: {what} {c:?}");
                                    }
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
                checked
            }

            /// A capsule, a box and a hull lying across a large triangle
            /// at small tilts, apart and overlapping: the contact's and the
            /// distance's normals against the triangle's own (computed the
            /// same way, in this precision).
            pub fn parallel_contacts() -> usize {
                let mut rng = Rng::new(5503);
                let mut checked = 0;
                for size in [10.0, 100.0, 1000.0] {
                    let corners = [DVec3::new(-1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, -0.8), DVec3::new(0.1, 0.0, 1.0)];
                    for _ in 0..80 {
                        let tr = rng.quat();
                        let tt = rng.unit3() * size * 0.1;
                        let [p0, p1, p2] = corners.map(|c| v(tr * (c * size) + tt));
                        let tri = Triangle::new(p0, p1, p2).unwrap();
                        let face = (p1 - p0).cross(p2 - p0).normalize();
                        let n = d(face);
                        let centroid = (d(p0) + d(p1) + d(p2)) / 3.0;
                        for kind in [Kind::Capsule, Kind::Cuboid, Kind::Hull] {
                            let body = Body::new(kind, 0.5);
                            let a = body.shape();
                            // Lying in the face's plane: the body's long axis
                            // turned into it, then tilted by a small angle.
                            let tilt = 10f64.powf(rng.range(-6.0, -2.0));
                            let lie = DQuat::from_rotation_arc(DVec3::Y, tr * DVec3::X);
                            let rot = DQuat::from_axis_angle(tr * DVec3::Z, tilt) * lie;
                            let gap = rng.range(-0.2, 0.2);
                            let at = centroid + tr * DVec3::new(rng.range(-0.1, 0.1), 0.0, rng.range(-0.1, 0.1)) * size;
                            let centre = at + n * gap - body.lowest_point(rot, n);
                            let pose = Pose::new(q(rot), v(centre));
                            let c = contact(&*a, &pose, &tri, &Pose::IDENTITY);
                            let r = distance(&*a, &pose, &tri, &Pose::IDENTITY);
                            // A few ulps: the normal's own rounding and its turn
                            // through A's frame and back, not the face's size
                            // over the gap.
                            let ok = |m: V| d(m).normalize().cross(n).length() <= 4.0 * EPS;
                            let what = format!("{kind:?} size {size} tilt {tilt:e} gap {gap}: face {face:?} tri {tri:?} pose {pose:?}");
                            if matches!(c.status, ContactStatus::Penetrating | ContactStatus::Separated) {
                                assert!(ok(c.normal), "{what} {c:?}");
                            }
                            if r.status == Status::Separated {
                                assert!(ok(r.normal), "{what} {r:?}");
                            }
                            checked += 1;
                        }
                    }
                }
                checked
            }

            /// Every cast kind from contact (touching, 0.2 deep) and from
            /// apart, moving in, along and out: the start flag against the
            /// signed distance at t = 0, and a miss's fraction.
            pub fn start_states() -> usize {
                let mut rng = Rng::new(5504);
                let mut checked = 0;
                let floor = Cuboid::new(V::new(5.0, 0.5, 5.0)).unwrap();
                let opts = CastOptions::<S> { max_fraction: 1.0, ..Default::default() };
                for kind in [Kind::Ball, Kind::Capsule, Kind::Cuboid, Kind::Hull] {
                    let body = Body::new(kind, 0.5);
                    let a = body.shape();
                    for _ in 0..40 {
                        for start_gap in [0.0, -0.2, 0.3] {
                            let rot = q(rng.quat());
                            let mut pose = Pose::new(rot, v(DVec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0))));
                            let low = body.lowest(&pose, DVec3::Y);
                            pose.translation.y = (0.5 + start_gap - low) as S;
                            let gap0 = body.lowest(&pose, DVec3::Y) - 0.5;
                            let in_contact = gap0 <= 1e-5;
                            for dir in [DVec3::new(0.3, -1.0, 0.0), DVec3::new(1.0, 0.0, 0.5), DVec3::new(0.2, 1.0, 0.0)] {
                                let motion = v(dir);
                                let still = V::ZERO;
                                let (ma, mb) =
                                    (Motion::new(pose, motion, still), Motion::new(Pose::IDENTITY, V::ZERO, still));
                                let id = Pose::IDENTITY;
                                let hits = [
                                    ("linear", cast_shape(&*a, &pose, motion, &floor, &id, V::ZERO, &opts)),
                                    ("nonlinear", cast_shape_nonlinear(&*a, &ma, &floor, &mb, &opts)),
                                    ("directional", cast_shape_directional(&*a, &pose, motion, &floor, &id, V::ZERO, &opts)),
                                    ("nonlinear directional", cast_shape_nonlinear_directional(&*a, &ma, &floor, &mb, &opts)),
                                ];
                                for (name, h) in hits {
                                    let what = format!("{name} {kind:?} gap {gap0:e} dir {dir:?}: {h:?}");
                                    if h.status == CastStatus::Miss {
                                        // A miss is `None`, with no start state: only a
                                        // directional cast that slides free of its
                                        // starting contact misses from contact.
                                        assert!(!in_contact || name.contains("directional"), "{what}");
                                    } else {
                                        assert_eq!(h.starts_in_contact, in_contact, "{what}");
                                    }
                                    if h.status == CastStatus::StartsInside {
                                        assert!(in_contact, "{what}");
                                    }
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
                // Rays from inside, from the surface and from outside.
                for (origin, inside) in [(DVec3::ZERO, true), (DVec3::new(0.0, 0.5, 0.0), true), (DVec3::new(0.0, 2.0, 0.0), false)] {
                    for dir in [DVec3::Y, -DVec3::Y, DVec3::X] {
                        let h = cast_ray(&floor, &Pose::IDENTITY, v(origin), v(dir), 1.0);
                        // A ray from inside never misses; one from outside that misses has no start state.
                        if h.status == CastStatus::Miss {
                            assert!(!inside, "ray from {origin:?} along {dir:?}: {h:?}");
                        } else {
                            assert_eq!(h.starts_in_contact, inside, "ray from {origin:?} along {dir:?}: {h:?}");
                        }
                        checked += 1;
                    }
                }
                checked
            }
        }
    };
}

precision!(p32, f32, Vec3, Quat);
precision!(p64, f64, DVec3, DQuat);

#[test]
fn cast_toi_independent_of_target_size() {
    assert!(p32::casts_onto_large_boxes(false) >= 400);
    assert!(p64::casts_onto_large_boxes(false) >= 400);
}

#[test]
fn zero_band_follows_the_pair_near_the_contact() {
    assert!(p32::band_family() >= 8000);
    assert!(p64::band_family() >= 8000);
}

#[test]
fn parallel_contacts_keep_the_face_normal() {
    assert!(p32::parallel_contacts() >= 700);
    assert!(p64::parallel_contacts() >= 700);
}

#[test]
fn cast_start_state_says_contact_at_t0() {
    assert!(p32::start_states() >= 1400);
    assert!(p64::start_states() >= 1400);
}
