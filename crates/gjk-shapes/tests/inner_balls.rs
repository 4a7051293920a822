//! Inner and outer balls (`SupportMap::center_radii`) and the queries'
//! exits on them (`gjk_core::internal::ball_test`): the radii against facets found by
//! brute force, and the distance alone and the boolean test against the
//! full query (to the bit) on pairs placed around both thresholds, with
//! independent checks that every pair the balls call overlapping overlaps
//! and every pair they call apart is apart (brute-force distance).

use gjk_shapes::gjk_core::internal::{BallTest, ball_test};
use gjk_shapes::gjk_core::{GjkConfig, Real, Status, SupportMap};
use gjk_shapes::glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};
use gjk_shapes::{
    Ball, Capsule, ConvexHull, ConvexPolygon, CoreOf, Cuboid, Placed, Pose, Rot2, Rounded, Shape, distance,
    distance_value, distance_value_with, distance_with, intersects,
};
use gjk_testkit::{Rng, brute_distance_2d, brute_distance_3d, polygon, polyhedron};

/// Outward facets `(unit normal, offset)` of the hull of `pts` (points in
/// convex position): every pair whose line has all points on one side.
fn brute_facets_2d(pts: &[DVec2]) -> Vec<(DVec2, f64)> {
    let scale = pts.iter().map(|p| p.length()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let mut out = Vec::new();
    for i in 0..pts.len() {
        for j in 0..pts.len() {
            let e = pts[j] - pts[i];
            if i == j || e.length() == 0.0 {
                continue;
            }
            let n = DVec2::new(e.y, -e.x).normalize();
            if pts.iter().all(|p| n.dot(*p - pts[i]) <= 1e-12 * scale) {
                out.push((n, n.dot(pts[i])));
            }
        }
    }
    out
}

/// Outward facets of the hull of `pts`: every triple whose plane has all
/// points on one side.
fn brute_facets_3d(pts: &[DVec3]) -> Vec<(DVec3, f64)> {
    let scale = pts.iter().map(|p| p.length()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let mut out = Vec::new();
    let n = pts.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let c = (pts[j] - pts[i]).cross(pts[k] - pts[i]);
                if c.length() <= 1e-12 * scale * scale {
                    continue;
                }
                let u = c.normalize();
                for s in [u, -u] {
                    if pts.iter().all(|p| s.dot(*p - pts[i]) <= 1e-12 * scale) {
                        out.push((s, s.dot(pts[i])));
                    }
                }
            }
        }
    }
    out
}

/// Checks `(inner, outer)` about `c` against the facets and vertices: the
/// inner ball inside every facet and within `1e-5` of the outer radius of
/// the tightest one, the outer radius at least the farthest vertex and
/// within `1e-5` of it.
/// `None` only for flat shapes (no facet, or the centre within `1e-6` of
/// the outer radius of one).
fn check_radii<P: Copy + Dot>(radii: Option<(f64, f64)>, c: P, facets: &[(P, f64)], pts: &[P], ctx: &str) {
    let true_inner = facets.iter().map(|(n, d)| d - n.dot_(c)).fold(f64::INFINITY, f64::min);
    let true_outer = pts.iter().map(|p| p.dist_(c)).fold(0.0, f64::max);
    let Some((inner, outer)) = radii else {
        assert!(
            !true_inner.is_finite() || true_inner <= 1e-6 * true_outer,
            "{ctx}: no radii, inner {true_inner}"
        );
        return;
    };
    assert!(inner > 0.0 && inner <= true_inner, "{ctx}: inner {inner} vs {true_inner}");
    assert!(inner >= true_inner - 1e-5 * true_outer, "{ctx}: inner {inner} loose vs {true_inner}");
    assert!(
        outer >= true_outer && outer <= true_outer * (1.0 + 1e-5),
        "{ctx}: outer {outer} vs {true_outer}"
    );
}

/// The vector operations [`check_radii`] needs, for `DVec2` and `DVec3`.
trait Dot {
    fn dot_(self, o: Self) -> f64;
    fn dist_(self, o: Self) -> f64;
}
impl Dot for DVec2 {
    fn dot_(self, o: Self) -> f64 {
        self.dot(o)
    }
    fn dist_(self, o: Self) -> f64 {
        self.distance(o)
    }
}
impl Dot for DVec3 {
    fn dot_(self, o: Self) -> f64 {
        self.dot(o)
    }
    fn dist_(self, o: Self) -> f64 {
        self.distance(o)
    }
}

/// Random shapes of the test: sizes 1e-6 to 1e6, some flattened 1000:1,
/// some far from their local origin.
fn stretch(rng: &mut Rng, k: usize) -> (f64, f64, f64) {
    let scale = [1e-6, 1.0, 1e6][k % 3];
    let flat = if k % 4 == 3 { 1e-3 } else { 1.0 };
    let offset = if k % 5 == 4 { 1e3 * scale } else { 0.0 };
    let _ = rng;
    (scale, flat, offset)
}

#[test]
fn polygon_radii_bound_the_polygon() {
    let mut rng = Rng::new(7101);
    for k in 0..600 {
        let (scale, flat, offset) = stretch(&mut rng, k);
        let n = rng.usize(3, 24);
        let pts: Vec<DVec2> =
            polygon(&mut rng, n).iter().map(|p| DVec2::new(p.x, p.y * flat) * scale + offset).collect();
        let p64 = ConvexPolygon::new(&pts).unwrap();
        let v64: Vec<DVec2> = p64.vertices().to_vec();
        let c = p64.center().unwrap();
        let r = p64.center_radii();
        assert!(r.is_some(), "f64 polygon {k}");
        check_radii(r, c, &brute_facets_2d(&v64), &v64, &format!("f64 polygon {k}"));
        let p32 = ConvexPolygon::new(&pts.iter().map(|p| p.as_vec2()).collect::<Vec<Vec2>>()).unwrap();
        let v32: Vec<DVec2> = p32.vertices().iter().map(|p| p.as_dvec2()).collect();
        let r32 = p32.center_radii().map(|(i, o)| (i as f64, o as f64));
        let c32 = p32.center().unwrap().as_dvec2();
        check_radii(r32, c32, &brute_facets_2d(&v32), &v32, &format!("f32 polygon {k}"));
    }
    // Fewer than three vertices, or collinear ones: no inner ball.
    for pts in [vec![DVec2::ZERO], vec![DVec2::ZERO, DVec2::X], vec![DVec2::ZERO, DVec2::X, DVec2::X * 2.0]] {
        assert_eq!(ConvexPolygon::new(&pts).unwrap().center_radii(), None);
    }
}

#[test]
fn hull_radii_bound_the_hull() {
    let mut rng = Rng::new(7102);
    for k in 0..300 {
        let (scale, flat, offset) = stretch(&mut rng, k);
        let n = rng.usize(4, 18);
        let pts: Vec<DVec3> = polyhedron(&mut rng, n)
            .iter()
            .map(|p| DVec3::new(p.x, p.y, p.z * flat) * scale + offset)
            .collect();
        let h64 = ConvexHull::new(&pts).unwrap();
        let v64 = h64.vertices().to_vec();
        let r = h64.center_radii();
        assert!(r.is_some(), "f64 hull {k}");
        check_radii(r, h64.center().unwrap(), &brute_facets_3d(&v64), &v64, &format!("f64 hull {k}"));
        let h32 = ConvexHull::new(&pts.iter().map(|p| p.as_vec3()).collect::<Vec<Vec3>>()).unwrap();
        let v32: Vec<DVec3> = h32.vertices().iter().map(|p| p.as_dvec3()).collect();
        let r32 = h32.center_radii().map(|(i, o)| (i as f64, o as f64));
        let c32 = h32.center().unwrap().as_dvec3();
        check_radii(r32, c32, &brute_facets_3d(&v32), &v32, &format!("f32 hull {k}"));
    }
    // Flat, collinear and single-point clouds: no inner ball.
    let flat = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0)];
    assert_eq!(ConvexHull::new(&flat).unwrap().center_radii(), None);
    assert_eq!(ConvexHull::new(&[DVec3::ZERO, DVec3::X]).unwrap().center_radii(), None);
    assert_eq!(ConvexHull::new(&[DVec3::ONE]).unwrap().center_radii(), None);
}

#[test]
fn primitive_and_wrapper_radii() {
    let mut rng = Rng::new(7103);
    // Analytic shapes: every support point within the outer radius, every
    // support plane at least the inner radius from the centre.
    let half = DVec3::new(0.5, 2.0, 1.0);
    let cube = Cuboid::new(half).unwrap();
    let ball = Ball::new(0.75).unwrap();
    let capsule = Capsule::new(1.5, 0.25).unwrap();
    let hull = ConvexHull::new(&polyhedron(&mut rng, 20)).unwrap();
    let rounded = Rounded::new(hull.clone(), 0.3).unwrap();
    let pose = Pose::new(DQuat::from_rotation_z(0.7), DVec3::new(3.0, -1.0, 2.0));
    let placed = Placed::new(&rounded, &pose);
    assert_eq!(SupportMap::<DVec3>::center_radii(&cube), Some((0.5, half.length())));
    assert_eq!(SupportMap::<DVec3>::center_radii(&ball), Some((0.75, 0.75)));
    assert_eq!(SupportMap::<DVec3>::center_radii(&capsule), Some((0.25, 1.75)));
    let (hi, ho) = hull.center_radii().unwrap();
    assert_eq!(SupportMap::<DVec3>::center_radii(&rounded), Some((hi + 0.3, ho + 0.3)));
    assert_eq!(placed.center_radii(), Some((hi + 0.3, ho + 0.3)));
    // Cores: the hull's own balls through the rounding and the pose; a
    // ball's core is its centre, a capsule's its segment (inner radius 0).
    assert_eq!(CoreOf(&placed).center_radii(), Some((hi, ho)));
    assert_eq!(SupportMap::<DVec3>::center_radii(&CoreOf(&ball)), Some((0.0, 0.0)));
    assert_eq!(SupportMap::<DVec3>::center_radii(&CoreOf(&capsule)), Some((0.0, 1.5)));
    assert_eq!(Shape::<DVec3>::core_center_radii(&cube), SupportMap::<DVec3>::center_radii(&cube));
    let placed_capsule = Placed::new(&capsule, &pose);
    let (ball_core, capsule_core) = (CoreOf(&ball), CoreOf(&placed_capsule));
    let shapes: [(&dyn SupportMap<DVec3>, &str); 7] = [
        (&cube, "cuboid"),
        (&ball, "ball"),
        (&capsule, "capsule"),
        (&rounded, "rounded hull"),
        (&placed, "placed"),
        (&ball_core, "ball's core"),
        (&capsule_core, "placed capsule's core"),
    ];
    for (s, name) in shapes {
        let c = s.center().unwrap();
        let (inner, outer) = s.center_radii().unwrap();
        for _ in 0..2000 {
            let d = rng.unit3();
            let p = s.support(d);
            assert!(d.dot(p - c) >= inner * (1.0 - 1e-12), "{name}: a support plane inside the inner ball");
            assert!(p.distance(c) <= outer * (1.0 + 1e-12), "{name}: a support point outside the outer ball");
        }
    }
}

/// Whether `m` lies in the hull of `facets` (to `tol`).
fn inside<P: Copy + Dot>(facets: &[(P, f64)], m: P, tol: f64) -> bool {
    facets.iter().all(|(n, d)| n.dot_(m) <= d + tol)
}

/// The posed queries on one pair: the distance alone equals the full
/// query's distance to the bit (within its zero band for polygon pairs,
/// which the separating-axis test measures near contact), the boolean agrees with an overlap, a pair
/// the inner balls accept is reported intersecting and one the outer balls
/// reject separated. Returns the balls' verdict.
fn agree<V, A, B>(a: &A, pa: &Pose<V>, b: &B, pb: &Pose<V>, ctx: &str) -> BallTest
where
    V: gjk_shapes::Space,
    A: Shape<V>,
    B: Shape<V>,
{
    let full = distance(a, pa, b, pb);
    let value = distance_value(a, pa, b, pb);
    assert!(
        matches!(full.status, Status::Separated | Status::Touching | Status::Intersecting),
        "{ctx}: {:?}",
        full.status
    );
    if a.core_polygon().is_some() && b.core_polygon().is_some() {
        // Polygon pairs near contact: the separating-axis test's exact
        // value, within the full query's zero band of GJK's.
        let v = value.unwrap_or_else(|e| panic!("{ctx}: {e:?}"));
        assert!((v - full.distance).abs() <= full.tolerance, "{ctx}: {v:?} vs {:?}", full.distance);
    } else {
        assert_eq!(value, Ok(full.distance), "{ctx}: {:?}", full.status);
    }
    let boolean = intersects(a, pa, b, pb);
    if full.status == Status::Intersecting {
        assert!(boolean, "{ctx}: overlap missed by the boolean test");
    }
    // Clearly apart (by more than any zero band): the boolean says so too.
    let reach =
        a.center_radii().map_or(0.0, |r| r.1.to_f64()) + b.center_radii().map_or(0.0, |r| r.1.to_f64());
    if full.status == Status::Separated && full.distance.to_f64() > 1e-4 * reach {
        assert!(!boolean, "{ctx}: a separated pair reported intersecting");
    }
    let cfg = GjkConfig::default();
    let margin = a.radius() + b.radius();
    let verdict = ball_test(&CoreOf(Placed::new(a, pa)), &CoreOf(Placed::new(b, pb)), margin, &cfg);
    match verdict {
        BallTest::Overlapping => {
            assert_eq!(full.status, Status::Intersecting, "{ctx}");
            assert!(boolean, "{ctx}");
        }
        BallTest::Apart => {
            assert_eq!(full.status, Status::Separated, "{ctx}");
            assert!(!boolean, "{ctx}");
        }
        BallTest::Unknown => {}
    }
    // Under an iteration cap the exit is off, and the capped search's
    // distance is kept.
    let capped = GjkConfig { max_iterations: 2, ..GjkConfig::default() };
    let (full_c, value_c) =
        (distance_with(a, pa, b, pb, &capped, None), distance_value_with(a, pa, b, pb, &capped));
    if matches!(full_c.status, Status::Separated | Status::Touching | Status::Intersecting) {
        assert_eq!(value_c, Ok(full_c.distance), "{ctx}: capped");
    }
    assert_eq!(
        ball_test(&CoreOf(Placed::new(a, pa)), &CoreOf(Placed::new(b, pb)), margin, &capped),
        BallTest::Unknown
    );
    verdict
}

#[test]
fn deep_overlap_exit_agrees_with_the_full_query_2d() {
    let mut rng = Rng::new(7104);
    let (mut inside_n, mut apart_n) = (0, 0);
    let cases = 2000;
    for k in 0..cases {
        let (scale, flat, offset) = stretch(&mut rng, k);
        let mk = |rng: &mut Rng| -> Vec<DVec2> {
            let n = rng.usize(3, 24);
            polygon(rng, n).iter().map(|p| DVec2::new(p.x, p.y * flat) * scale + offset).collect()
        };
        let (pts_a, pts_b) = (mk(&mut rng), mk(&mut rng));
        let (a, b) = (ConvexPolygon::new(&pts_a).unwrap(), ConvexPolygon::new(&pts_b).unwrap());
        let ((ra, oa), (rb, ob)) = (a.center_radii().unwrap(), b.center_radii().unwrap());
        // B's centre placed at `t (ra + rb)` from A's (t < 1 overlaps the
        // inner balls) or at `t (oa + ob)` (t > 1 parts the outer ones).
        let (t, reach) =
            if k % 2 == 0 { (rng.range(0.0, 1.3), ra + rb) } else { (rng.range(0.7, 1.3), oa + ob) };
        let rot_a = Rot2::from_angle(rng.range(0.0, 6.3));
        let rot_b = Rot2::from_angle(rng.range(0.0, 6.3));
        let pa = Pose::new(rot_a, rng.unit2() * rng.range(0.0, 10.0) * scale);
        let ca = pa.transform_point(a.center().unwrap());
        let cb_rot = Pose::new(rot_b, DVec2::ZERO).transform_point(b.center().unwrap());
        let pb = Pose::new(rot_b, ca + rng.unit2() * t * reach - cb_rot);
        let ctx = format!("2D pair {k} (t {t:.3}, scale {scale:e})");
        let world =
            |p: &Pose<DVec2>, v: &[DVec2]| v.iter().map(|x| p.transform_point(*x)).collect::<Vec<_>>();
        let verdict = agree(&a, &pa, &b, &pb, &ctx);
        if verdict == BallTest::Apart {
            apart_n += 1;
            let gap = brute_distance_2d(&world(&pa, a.vertices()), &world(&pb, b.vertices()));
            assert!(gap > 0.0, "{ctx}: apart by the balls, brute force {gap}");
        }
        if verdict == BallTest::Overlapping {
            inside_n += 1;
            // Independent: the point of the centres' segment where the two
            // inner balls meet lies in both polygons (facets by brute force).
            let cb = pb.transform_point(b.center().unwrap());
            let m = ca + (cb - ca) * (ra / (ra + rb));
            let tol = 1e-9 * (scale + offset + 10.0 * scale);
            assert!(inside(&brute_facets_2d(&world(&pa, a.vertices())), m, tol), "{ctx}: not in A");
            assert!(inside(&brute_facets_2d(&world(&pb, b.vertices())), m, tol), "{ctx}: not in B");
        }
        // The same pair in f32, rounded by a little.
        let (a32, b32) = (
            ConvexPolygon::new(&pts_a.iter().map(|p| p.as_vec2()).collect::<Vec<_>>()).unwrap(),
            ConvexPolygon::new(&pts_b.iter().map(|p| p.as_vec2()).collect::<Vec<_>>()).unwrap(),
        );
        let p32 = |p: &Pose<DVec2>| {
            Pose::new(
                Rot2 { cos: p.rotation.cos as f32, sin: p.rotation.sin as f32 },
                p.translation.as_vec2(),
            )
        };
        let b32r = Rounded::new(b32, (0.01 * scale) as f32).unwrap();
        agree(&a32, &p32(&pa), &b32r, &p32(&pb), &format!("{ctx} f32 rounded"));
    }
    assert!(
        inside_n > cases / 5 && apart_n > cases / 10,
        "exits: {inside_n} overlapping, {apart_n} apart of {cases}"
    );
}

#[test]
fn deep_overlap_exit_agrees_with_the_full_query_3d() {
    let mut rng = Rng::new(7105);
    let (mut inside_n, mut apart_n) = (0, 0);
    let cases = 1000;
    for k in 0..cases {
        let (scale, flat, offset) = stretch(&mut rng, k);
        let mk = |rng: &mut Rng| -> Vec<DVec3> {
            let n = rng.usize(4, 40);
            polyhedron(rng, n).iter().map(|p| DVec3::new(p.x, p.y, p.z * flat) * scale + offset).collect()
        };
        let (pts_a, pts_b) = (mk(&mut rng), mk(&mut rng));
        let (a, b) = (ConvexHull::new(&pts_a).unwrap(), ConvexHull::new(&pts_b).unwrap());
        let ((ra, oa), (rb, ob)) = (a.center_radii().unwrap(), b.center_radii().unwrap());
        let (t, reach) =
            if k % 2 == 0 { (rng.range(0.0, 1.3), ra + rb) } else { (rng.range(0.7, 1.3), oa + ob) };
        let (qa, qb) = (rng.quat(), rng.quat());
        let pa = Pose::new(qa, rng.unit3() * rng.range(0.0, 10.0) * scale);
        let ca = pa.transform_point(a.center().unwrap());
        let pb = Pose::new(qb, ca + rng.unit3() * t * reach - qb * b.center().unwrap());
        let ctx = format!("3D pair {k} (t {t:.3}, scale {scale:e})");
        let world =
            |p: &Pose<DVec3>, v: &[DVec3]| v.iter().map(|x| p.transform_point(*x)).collect::<Vec<_>>();
        let verdict = agree(&a, &pa, &b, &pb, &ctx);
        if verdict == BallTest::Apart {
            apart_n += 1;
            let gap = brute_distance_3d(&world(&pa, a.vertices()), &world(&pb, b.vertices()));
            assert!(gap > 0.0, "{ctx}: apart by the balls, brute force {gap}");
        }
        if verdict == BallTest::Overlapping {
            inside_n += 1;
            let cb = pb.transform_point(b.center().unwrap());
            let m = ca + (cb - ca) * (ra / (ra + rb));
            let tol = 1e-9 * (scale + offset + 10.0 * scale);
            if a.vertices().len() <= 24 && b.vertices().len() <= 24 {
                assert!(inside(&brute_facets_3d(&world(&pa, a.vertices())), m, tol), "{ctx}: not in A");
                assert!(inside(&brute_facets_3d(&world(&pb, b.vertices())), m, tol), "{ctx}: not in B");
            }
        }
        let (a32, b32) = (
            ConvexHull::new(&pts_a.iter().map(|p| p.as_vec3()).collect::<Vec<_>>()).unwrap(),
            ConvexHull::new(&pts_b.iter().map(|p| p.as_vec3()).collect::<Vec<_>>()).unwrap(),
        );
        let p32 = |p: &Pose<DVec3>| Pose::new(p.rotation.as_quat().normalize(), p.translation.as_vec3());
        let a32r = Rounded::new(a32, (0.01 * scale) as f32).unwrap();
        agree(&a32r, &p32(&pa), &b32, &p32(&pb), &format!("{ctx} f32 rounded"));
    }
    assert!(
        inside_n > cases / 5 && apart_n > cases / 10,
        "exits: {inside_n} overlapping, {apart_n} apart of {cases}"
    );
}

/// Capsules and balls against hulls: their cores (a segment, a point)
/// name an inner radius 0 and an outer radius of half the segment, and the
/// core balls' verdicts (margin: the radii) agree with the full queries;
/// a pair they call apart is apart by brute force.
#[test]
fn round_primitive_cores_agree_with_the_full_query() {
    let mut rng = Rng::new(7107);
    let (mut inside_n, mut apart_n, mut round_n) = (0, 0, 0);
    let cases = 1500;
    for k in 0..cases {
        let n = rng.usize(4, 24);
        let hull = ConvexHull::new(&polyhedron(&mut rng, n)).unwrap();
        let (hi, ho) = hull.center_radii().unwrap();
        let (hh, r) = (if k % 3 == 0 { 0.0 } else { rng.range(0.0, 1.5) }, rng.range(0.01, 0.5));
        let capsule = Capsule::new(hh, r).unwrap();
        // The capsule's centre at `t hi` (t < 1: the centre deep inside the
        // hull's inner ball) or at `t (ho + hh + r)` (t > 1: the outer
        // balls apart by more than the radius).
        let t = rng.range(0.0, 1.3);
        let reach = if k % 2 == 0 { hi } else { ho + hh + r };
        let pa = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 5.0));
        let ca = pa.transform_point(hull.center().unwrap());
        // Every other capsule lies beyond the hull's farthest vertex and
        // points an end at the hull's centre: both reach all of their outer
        // radii along the centres' line.
        let aligned = k % 4 == 1 || k % 4 == 3;
        let far = hull.vertices().iter().map(|p| *p - hull.center().unwrap());
        let far = far.fold(DVec3::ZERO, |m, p| if p.length() > m.length() { p } else { m });
        let u = if aligned { pa.rotation * far.normalize() } else { rng.unit3() };
        let rot = if aligned { DQuat::from_rotation_arc(DVec3::Y, -u) } else { rng.quat() };
        let pb = Pose::new(rot, ca + u * t * reach);
        let ctx = format!("capsule pair {k} (t {t:.3}, half height {hh:.3}, radius {r:.3})");
        // The shapes' own balls (radii included) overlap where the cores'
        // cannot tell: the posed queries' exit for round shapes.
        let own =
            ball_test(&Placed::new(&hull, &pa), &Placed::new(&capsule, &pb), 0.0, &GjkConfig::default());
        let core = ball_test(
            &CoreOf(Placed::new(&hull, &pa)),
            &CoreOf(Placed::new(&capsule, &pb)),
            0.0,
            &GjkConfig::default(),
        );
        round_n += usize::from(own == BallTest::Overlapping && core != BallTest::Overlapping);
        let verdict = if k % 4 < 2 {
            agree(&hull, &pa, &capsule, &pb, &ctx)
        } else {
            agree(&capsule, &pb, &hull, &pa, &format!("{ctx} swapped"))
        };
        let ball = Ball::new(r).unwrap();
        if hh == 0.0 {
            assert_eq!(agree(&ball, &pb, &hull, &pa, &format!("{ctx} ball")), verdict, "{ctx}");
        }
        match verdict {
            BallTest::Apart => {
                apart_n += 1;
                let (s0, s1) = capsule.segment::<DVec3>();
                let seg = [pb.transform_point(s0), pb.transform_point(s1)];
                let world: Vec<DVec3> = hull.vertices().iter().map(|p| pa.transform_point(*p)).collect();
                let gap = brute_distance_3d(&world, &seg[..if hh == 0.0 { 1 } else { 2 }]);
                assert!(gap > r, "{ctx}: apart by the balls, brute force {gap} within the radius");
            }
            BallTest::Overlapping => inside_n += 1,
            BallTest::Unknown => {}
        }
    }
    assert!(
        inside_n > cases / 10 && apart_n > cases / 10 && round_n > cases / 10,
        "exits: {inside_n} overlapping, {apart_n} apart, {round_n} by the round balls of {cases}"
    );
}

/// Shapes far from their own local origin (vertices 10⁴–10⁶ sizes away,
/// in f32, where the centres carry rounding of `ε` times that offset):
/// the balls' verdicts still agree with the full query.
#[test]
fn ball_verdicts_hold_far_from_the_local_origin() {
    let mut rng = Rng::new(7106);
    for k in 0..3000 {
        let offset = [1e4, 1e5, 1e6][k % 3];
        let n = rng.usize(3, 12);
        let shift = rng.unit2() * offset;
        let pts_a: Vec<Vec2> = polygon(&mut rng, n).iter().map(|p| (*p + shift).as_vec2()).collect();
        let pts_b: Vec<Vec2> = polygon(&mut rng, n).iter().map(|p| (*p + shift).as_vec2()).collect();
        let (a, b) = (ConvexPolygon::new(&pts_a).unwrap(), ConvexPolygon::new(&pts_b).unwrap());
        let (Some((ra, oa)), Some((rb, ob))) = (a.center_radii(), b.center_radii()) else { continue };
        // B's centre placed near either threshold, both shapes posed by the
        // identity (their vertices are already far out).
        let reach = if k % 2 == 0 { ra + rb } else { oa + ob };
        let t = rng.range(0.9, 1.1);
        let pb = Pose::from_translation(
            a.center().unwrap() - b.center().unwrap() + (rng.unit2() * (t * reach as f64)).as_vec2(),
        );
        agree(&a, &Pose::IDENTITY, &b, &pb, &format!("far pair {k} (offset {offset:e}, t {t:.3})"));
        let (h_a, h_b) = (
            ConvexHull::new(
                &polyhedron(&mut rng, 12).iter().map(|p| (*p + offset).as_vec3()).collect::<Vec<_>>(),
            )
            .unwrap(),
            ConvexHull::new(
                &polyhedron(&mut rng, 12).iter().map(|p| (*p + offset).as_vec3()).collect::<Vec<_>>(),
            )
            .unwrap(),
        );
        let (Some((ra, oa)), Some((rb, ob))) = (h_a.center_radii(), h_b.center_radii()) else { continue };
        let reach = if k % 2 == 0 { ra + rb } else { oa + ob };
        let pb3 = Pose::new(
            Quat::IDENTITY,
            h_a.center().unwrap() - h_b.center().unwrap() + (rng.unit3() * (t * reach as f64)).as_vec3(),
        );
        agree(&h_a, &Pose::IDENTITY, &h_b, &pb3, &format!("far 3D pair {k} (offset {offset:e}, t {t:.3})"));
    }
}

/// The full query's deep-overlap path (`gjk_core::distance_with` on pairs
/// whose inner balls overlap deeply, unrecorded: the boolean loop's
/// simplex, the balls' proof of overlap) against the solver's own search
/// (the same query recorded, which takes the solver): both `Intersecting`
/// at distance 0, and the path's simplex full, holding the origin (its
/// weights non-negative, summing to 1, their point the origin), its
/// witness points one point inside both shapes (brute-force facets), its
/// vertex indices naming its points, at least `DIM` support calls after
/// the start. 2D polygons and 3D hulls, f64, sizes 1e-6 to 1e6.
#[test]
fn deep_overlap_full_query_holds_the_origin() {
    use gjk_shapes::gjk_core::Iteration;
    fn check<V: gjk_shapes::Space, A: Shape<V>, B: Shape<V>>(
        a: &A,
        b: &B,
        inside_both: impl Fn(V) -> bool,
        size: f64,
        ctx: &str,
    ) -> bool {
        let (ca, cb) = (CoreOf(a), CoreOf(b));
        let cfg = GjkConfig::default();
        if ball_test(&ca, &cb, V::Scalar::ZERO, &cfg) != BallTest::Overlapping {
            return false;
        }
        let fast = gjk_shapes::gjk_core::distance_with(&ca, &cb, &cfg, None, &mut ());
        let mut log: Vec<Iteration<V>> = Vec::new();
        let slow = gjk_shapes::gjk_core::distance_with(&ca, &cb, &cfg, None, &mut log);
        assert_eq!(slow.status, Status::Intersecting, "{ctx}: the solver");
        assert_eq!(fast.status, Status::Intersecting, "{ctx}");
        assert_eq!(fast.distance, V::Scalar::ZERO, "{ctx}");
        let s = &fast.simplex;
        assert_eq!(s.len(), V::DIM + 1, "{ctx}: a full simplex");
        let weights = s.barycentric();
        assert!(weights.iter().all(|&l| l.to_f64() >= 0.0), "{ctx}: weights {weights:?}");
        let sum: f64 = weights.iter().map(|l| l.to_f64()).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{ctx}: weights sum to {sum}");
        assert!(s.closest_point().max_abs().to_f64() <= 1e-9 * size, "{ctx}: the origin");
        assert!((fast.point_a - fast.point_b).max_abs().to_f64() <= 1e-9 * size, "{ctx}: witnesses");
        assert!(inside_both(fast.point_a), "{ctx}: the witness is not in both shapes");
        for p in s.points() {
            assert_eq!(ca.vertex(p.index_a), Some(p.a), "{ctx}: A's index");
            assert_eq!(cb.vertex(p.index_b), Some(p.b), "{ctx}: B's index");
        }
        assert!(fast.iterations as usize >= V::DIM, "{ctx}: {} iterations", fast.iterations);
        true
    }
    let mut rng = Rng::new(7413);
    let mut used = [0usize; 2];
    for k in 0..3000 {
        let size = [1e-6, 1e-3, 1.0, 1e3, 1e6][k % 5];
        // B's centre within a quarter of A's inner radius or so: mostly
        // deep overlaps, some left to the solver by the balls.
        if k % 2 == 0 {
            let (n, m) = (rng.usize(3, 30), rng.usize(3, 30));
            let pa: Vec<DVec2> = polygon(&mut rng, n).iter().map(|p| *p * size).collect();
            let pb: Vec<DVec2> = polygon(&mut rng, m).iter().map(|p| *p * size).collect();
            let (a, b) = (ConvexPolygon::new(&pa).unwrap(), ConvexPolygon::new(&pb).unwrap());
            let pose =
                Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2)), rng.unit2() * rng.range(0.0, 0.6) * size);
            let placed = Placed::new(&b, &pose);
            let wb: Vec<DVec2> = b.vertices().iter().map(|v| pose.transform_point(*v)).collect();
            let (fa, fb) = (brute_facets_2d(a.vertices()), brute_facets_2d(&wb));
            let tol = 1e-9 * size;
            let inside = |m: DVec2| inside(&fa, m, tol) && inside(&fb, m, tol);
            used[0] += usize::from(check(&a, &placed, inside, size, &format!("2D pair {k}")));
        } else {
            let (n, m) = (rng.usize(8, 60), rng.usize(8, 60));
            let pa: Vec<DVec3> = polyhedron(&mut rng, n).iter().map(|p| *p * size).collect();
            let pb: Vec<DVec3> = polyhedron(&mut rng, m).iter().map(|p| *p * size).collect();
            let (a, b) = (ConvexHull::new(&pa).unwrap(), ConvexHull::new(&pb).unwrap());
            let pose = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 0.6) * size);
            let placed = Placed::new(&b, &pose);
            let wb: Vec<DVec3> = b.vertices().iter().map(|v| pose.transform_point(*v)).collect();
            let (fa, fb) = (brute_facets_3d(a.vertices()), brute_facets_3d(&wb));
            let tol = 1e-9 * size;
            let inside = |m: DVec3| inside(&fa, m, tol) && inside(&fb, m, tol);
            used[1] += usize::from(check(&a, &placed, inside, size, &format!("3D pair {k}")));
        }
    }
    assert!(used[0] > 500 && used[1] > 500, "deep overlaps checked: {used:?}");
}
