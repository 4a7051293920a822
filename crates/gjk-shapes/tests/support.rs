//! Every shape's support mapping against a brute-force support over a dense
//! sample of its surface: the support point must lie in the shape and reach
//! at least as far as every sample along the direction (and no further than
//! the sampling error). Also hill climbing against the linear scan, and
//! construction errors.

use gjk_shapes::gjk_core::Vector;
use gjk_shapes::gjk_core::internal::{InLanes, Search, minkowski_support, minkowski_support_from};
use gjk_shapes::glam::{DMat3, DQuat, DVec2, DVec3, Vec2, Vec3};
use gjk_shapes::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, CoreOf, Cuboid, Cylinder, MinkowskiSum, Placed, Point,
    Pose, Rot2, Rounded, Segment, ShapeError, Swept, Transformed, Triangle,
};
use gjk_shapes::{Shape, gjk_core::NO_INDEX, gjk_core::SupportMap};
use gjk_testkit::*;

/// The stepped search's answer along `d` from `hint`: `support_search`,
/// then `climb_step` until the climb stands at a maximiser (within the
/// climb's own step budget), read through `vertex`; with the climb's
/// count of steps (0 for an answer found at once).
fn stepped<V: Vector, S: SupportMap<V> + ?Sized>(shape: &S, d: V, hint: u32) -> (V, u32, u32) {
    match shape.support_search(d, hint) {
        Search::Done(p, i) => (p, i, 0),
        Search::Climbing(mut c) => {
            let mut taken = 1;
            while !shape.climb_step(&mut c) {
                taken += 1;
                assert!(taken <= c.steps, "a climb ran past its budget of {} steps", c.steps);
            }
            (shape.vertex(c.at).expect("a climb ends at a vertex"), c.at, taken)
        }
    }
}

/// Checks `shape` along many directions: `inside(p)` must hold for the
/// support point `p`, and its height must match the sample's maximum to
/// within `slack` (from above: the support is a true maximiser).
fn check_support(
    name: &str,
    shape: &dyn SupportMap<DVec3>,
    sample: &[DVec3],
    inside: &dyn Fn(DVec3) -> bool,
    slack: f64,
    rng: &mut Rng,
) {
    for k in 0..400 {
        let d = rng.unit3() * rng.range(0.01, 10.0);
        let (p, idx) = shape.support_indexed(d);
        assert!(inside(p), "{name}: support {p} along {d} is not in the shape");
        let h = p.dot(d);
        let hs = height3(sample, d);
        assert!(h >= hs - 1e-9 * d.length(), "{name} #{k}: support {h} below sample max {hs}");
        assert!(h <= hs + slack * d.length(), "{name} #{k}: support {h} beyond sample max {hs}");
        assert_eq!(shape.support(d), p, "{name}: support and support_indexed disagree");
        if idx != NO_INDEX {
            assert_eq!(shape.vertex(idx), Some(p), "{name}: vertex({idx}) is not the support point");
        }
        // Searching from any hint (this answer's index, another vertex's,
        // none, one past any vertex) finds a maximiser too.
        let other = shape.support_indexed(rng.unit3()).1;
        for hint in [idx, other, NO_INDEX, u32::MAX - 1, 1 << 20] {
            let (q, j) = shape.support_from(d, hint);
            assert!(inside(q), "{name}: support_from({hint}) {q} is not in the shape");
            let hq = q.dot(d);
            assert!(
                hq >= hs - 1e-9 * d.length() && hq <= hs + slack * d.length(),
                "{name}: from {hint}: {hq} vs {hs}"
            );
            if j != NO_INDEX {
                assert_eq!(shape.vertex(j), Some(q), "{name}: support_from's index {j} is not its point");
            }
            // The stepped search (cold, and from the hint) finds one too.
            for h in [NO_INDEX, hint] {
                let (q, j, _) = stepped(shape, d, h);
                assert!(inside(q), "{name}: stepped search from {h}: {q} is not in the shape");
                let hq = q.dot(d);
                assert!(
                    hq >= hs - 1e-9 * d.length() && hq <= hs + slack * d.length(),
                    "{name}: stepped from {h}: {hq} vs {hs}"
                );
                if j != NO_INDEX {
                    assert_eq!(
                        shape.vertex(j),
                        Some(q),
                        "{name}: stepped search's index {j} is not its point"
                    );
                }
            }
        }
    }
    // A zero direction gives some point of the shape.
    assert!(inside(shape.support(DVec3::ZERO)), "{name}: zero direction");
}

#[test]
fn primitives_3d_against_dense_samples() {
    let mut rng = Rng::new(100);
    let dirs = sphere_samples(6000);
    // Fibonacci spacing ~ sqrt(4π/n): the sample's height error on a ball of
    // radius r is about r·spacing²/2.
    let sph_err = |r: f64| r * (4.0 * std::f64::consts::PI / 6000.0);
    for _ in 0..20 {
        let r = rng.range(0.1, 3.0);
        let h = rng.range(0.1, 3.0);
        let ball = Ball::new(r).unwrap();
        let sample: Vec<DVec3> = dirs.iter().map(|u| *u * r).collect();
        check_support("ball", &ball, &sample, &|p| p.length() <= r * (1.0 + 1e-12), sph_err(r), &mut rng);

        let cap = Capsule::new(h, r).unwrap();
        let (a, b) = (DVec3::new(0.0, -h, 0.0), DVec3::new(0.0, h, 0.0));
        let sample: Vec<DVec3> = dirs.iter().flat_map(|u| [a + *u * r, b + *u * r]).collect();
        let inside = |p: DVec3| point_segment_sq(p, a, b).sqrt() <= r * (1.0 + 1e-12);
        check_support("capsule", &cap, &sample, &inside, sph_err(r), &mut rng);

        let half = DVec3::new(rng.range(0.1, 2.0), rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let cuboid = Cuboid::new(half).unwrap();
        let corners = box_corners(half, DMat3::IDENTITY, DVec3::ZERO);
        let inside = |p: DVec3| (p.abs() - half).max_element() <= 1e-12;
        check_support("cuboid", &cuboid, &corners, &inside, 1e-12, &mut rng);

        let cyl = Cylinder::new(h, r).unwrap();
        let rim: Vec<DVec3> = (0..4000)
            .flat_map(|i| {
                let t = i as f64 * std::f64::consts::TAU / 4000.0;
                [DVec3::new(r * t.cos(), h, r * t.sin()), DVec3::new(r * t.cos(), -h, r * t.sin())]
            })
            .collect();
        let inside = |p: DVec3| p.y.abs() <= h * (1.0 + 1e-12) && p.x.hypot(p.z) <= r * (1.0 + 1e-12);
        let circ_err = r * (std::f64::consts::TAU / 4000.0).powi(2);
        check_support("cylinder", &cyl, &rim, &inside, circ_err, &mut rng);

        let cone = Cone::new(h, r).unwrap();
        let mut cone_pts: Vec<DVec3> = rim.iter().filter(|p| p.y < 0.0).copied().collect();
        cone_pts.push(DVec3::new(0.0, h, 0.0));
        let inside = |p: DVec3| {
            p.y.abs() <= h * (1.0 + 1e-12)
                && p.x.hypot(p.z) <= r * (h - p.y) / (2.0 * h) * (1.0 + 1e-9) + 1e-12
        };
        check_support("cone", &cone, &cone_pts, &inside, circ_err, &mut rng);

        let (p, q, s) = (rng.unit3(), rng.unit3() * 2.0, rng.unit3() * 3.0);
        let seg = Segment::new(p, q).unwrap();
        check_support("segment", &seg, &[p, q], &|x| x == p || x == q, 0.0, &mut rng);
        let tri = Triangle::new(p, q, s).unwrap();
        check_support("triangle", &tri, &[p, q, s], &|x| x == p || x == q || x == s, 0.0, &mut rng);
        let pt = Point::new(s).unwrap();
        check_support("point", &pt, &[s], &|x| x == s, 0.0, &mut rng);
    }
}

#[test]
fn wrappers_3d_against_dense_samples() {
    let mut rng = Rng::new(101);
    let dirs = sphere_samples(6000);
    for _ in 0..20 {
        let half = DVec3::new(rng.range(0.1, 2.0), rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let corners = box_corners(half, DMat3::IDENTITY, DVec3::ZERO);
        let cuboid = Cuboid::new(half).unwrap();
        let box_dist = |p: DVec3| (p.abs() - half).max(DVec3::ZERO).length();

        // Transformed, with and without scale.
        let pose = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 5.0));
        let scale = DVec3::new(rng.range(0.2, 3.0), rng.range(0.2, 3.0), rng.range(0.2, 3.0));
        let t = Transformed::with_scale(cuboid, pose, scale).unwrap();
        let sample: Vec<DVec3> = corners.iter().map(|c| pose.transform_point(*c * scale)).collect();
        let inside =
            |p: DVec3| ((pose.inverse_transform_point(p) / scale).abs() - half).max_element() <= 1e-9;
        check_support("transformed", &t, &sample, &inside, 1e-9, &mut rng);

        // Rounded: the box grown by r.
        let r = rng.range(0.05, 1.0);
        let rounded = Rounded::new(cuboid, r).unwrap();
        let sample: Vec<DVec3> = corners.iter().flat_map(|c| dirs.iter().map(move |u| *c + *u * r)).collect();
        let err = r * (4.0 * std::f64::consts::PI / 6000.0);
        check_support("rounded", &rounded, &sample, &|p| box_dist(p) <= r * (1.0 + 1e-12), err, &mut rng);
        assert_eq!(Shape::<DVec3>::radius(&rounded), r);

        // Swept: the hull of the box at both ends of the motion.
        let m = rng.unit3() * rng.range(0.0, 4.0);
        let swept = Swept::new(cuboid, m).unwrap();
        let sample: Vec<DVec3> = corners.iter().flat_map(|c| [*c, *c + m]).collect();
        let inside = |p: DVec3| sample.iter().any(|s| (*s - p).length() < 1e-12);
        check_support("swept", &swept, &sample, &inside, 1e-12, &mut rng);

        // Minkowski sum of a box and a ball: the rounded box again.
        let ball = Ball::new(r).unwrap();
        let sum = MinkowskiSum::new(cuboid, ball);
        let sample: Vec<DVec3> = corners.iter().flat_map(|c| dirs.iter().map(move |u| *c + *u * r)).collect();
        check_support("minkowski", &sum, &sample, &|p| box_dist(p) <= r * (1.0 + 1e-12), err, &mut rng);
    }
}

/// The wrappers hand a hint through to a climbing hull (and the core of a
/// rounded one): searches from any hint still find a maximiser.
#[test]
fn wrappers_pass_hints_to_climbing_hulls() {
    let mut rng = Rng::new(105);
    for _ in 0..6 {
        let pts = polyhedron(&mut rng, 300);
        let hull = ConvexHull::new(&pts).unwrap();
        assert!(hull.uses_hill_climbing());
        let v = hull.vertices().to_vec();
        let is_vertex = |set: &[DVec3]| {
            let set = set.to_vec();
            move |p: DVec3| set.iter().any(|s| (*s - p).length() <= 1e-9 * (1.0 + s.length()))
        };
        check_support("hull", &hull, &v, &is_vertex(&v), 1e-9, &mut rng);
        check_support("&hull", &&hull, &v, &is_vertex(&v), 1e-9, &mut rng);

        let pose = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 5.0));
        let scale = DVec3::new(rng.range(0.2, 3.0), rng.range(0.2, 3.0), rng.range(0.2, 3.0));
        for s in [DVec3::ONE, DVec3::splat(scale.x), scale] {
            let t = Transformed::with_scale(&hull, pose, s).unwrap();
            let moved: Vec<DVec3> = v.iter().map(|p| pose.transform_point(*p * s)).collect();
            check_support("transformed hull", &t, &moved, &is_vertex(&moved), 1e-9, &mut rng);
            check_support(
                "core of transformed hull",
                &CoreOf(&t),
                &moved,
                &is_vertex(&moved),
                1e-9,
                &mut rng,
            );
        }
        let placed = Placed::new(&hull, &pose);
        let moved: Vec<DVec3> = v.iter().map(|p| pose.transform_point(*p)).collect();
        check_support("placed hull", &placed, &moved, &is_vertex(&moved), 1e-9, &mut rng);

        let m = rng.unit3() * rng.range(0.0, 4.0);
        let swept = Swept::new(&hull, m).unwrap();
        let both: Vec<DVec3> = v.iter().flat_map(|p| [*p, *p + m]).collect();
        check_support("swept hull", &swept, &both, &is_vertex(&both), 1e-9, &mut rng);
        check_support("core of swept hull", &CoreOf(&swept), &both, &is_vertex(&both), 1e-9, &mut rng);

        // A rounded hull's core climbs from the hint too.
        let rounded = Rounded::new(&hull, 0.25).unwrap();
        check_support("core of rounded hull", &CoreOf(&rounded), &v, &is_vertex(&v), 1e-9, &mut rng);
    }
}

#[test]
fn shapes_2d_support() {
    let mut rng = Rng::new(102);
    for _ in 0..200 {
        let r = rng.range(0.1, 3.0);
        let h = rng.range(0.1, 3.0);
        let half = DVec2::new(rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let rect = Cuboid::new(half).unwrap();
        let cap = Capsule::new(h, r).unwrap();
        let circle = Ball::new(r).unwrap();
        for _ in 0..50 {
            let d = rng.unit2() * rng.range(0.1, 5.0);
            let p = rect.support(d);
            assert_eq!(p.abs(), half);
            assert!(p.dot(d) >= half.dot(d.abs()) - 1e-12);
            let q: DVec2 = cap.support(d);
            let exact = if d.y >= 0.0 { h } else { -h } * d.y + r * d.length();
            assert!((q.dot(d) - exact).abs() < 1e-9);
            let c: DVec2 = circle.support(d);
            assert!((c.length() - r).abs() < 1e-12 && (c.dot(d) - r * d.length()).abs() < 1e-9);
        }
    }
}

/// Hill climbing gives the linear scan's answer on random hulls of 8 to
/// 2000 vertices, on ellipsoids (all points are vertices) and on clouds
/// (most points inside). At 50 to 150 vertices cold calls scan and hinted
/// calls climb (between `HULL_HINT_CLIMB_LIMIT` and `HULL_SCAN_LIMIT`); at
/// 8 and 25 both scan.
#[test]
fn hill_climbing_equals_scan_3d() {
    let mut rng = Rng::new(103);
    for &n in &[8usize, 25, 50, 100, 150, 300, 1000, 2000] {
        for trial in 0..4 {
            let pts: Vec<DVec3> = if trial % 2 == 0 {
                polyhedron(&mut rng, n)
            } else {
                (0..n)
                    .map(|_| DVec3::new(rng.range(-1.0, 1.0), rng.range(-2.0, 2.0), rng.range(-0.5, 0.5)))
                    .collect()
            };
            let hull = ConvexHull::new(&pts).unwrap();
            if hull.vertices().len() > gjk_shapes::tuning::HULL_SCAN_LIMIT {
                assert!(hull.uses_hill_climbing(), "n={n}: hull graph not valid");
            }
            // The hull contains every input point and keeps only input points.
            for v in hull.vertices() {
                assert!(pts.contains(v));
            }
            for f in hull.faces() {
                let [a, b, c] = f.map(|i| hull.vertices()[i as usize]);
                let nrm = (b - a).cross(c - a).normalize();
                for p in &pts {
                    assert!((*p - a).dot(nrm) <= 1e-9, "n={n}: point outside face");
                }
            }
            let mut last = NO_INDEX;
            for _ in 0..500 {
                let d = rng.unit3();
                let i = hull.support_climb(d);
                let j = hull.support_scan(d);
                let (hi, hj) = (hull.vertices()[i].dot(d), hull.vertices()[j].dot(d));
                assert!((hi - hj).abs() <= 1e-12, "n={n}: climb {hi} vs scan {hj}");
                assert!((height3(&pts, d) - hj).abs() <= 1e-12);
                // Climbing from a hint: the last answer (a direction far
                // off), a random vertex, and a nearby direction's answer.
                let near = hull.support_indexed(d + rng.unit3() * 0.05).1;
                let any = rng.usize(0, hull.vertices().len() - 1) as u32;
                for hint in [last, any, near] {
                    let (p, k) = hull.support_from(d, hint);
                    assert_eq!(p, hull.vertices()[k as usize]);
                    assert!((p.dot(d) - hj).abs() <= 1e-12, "n={n}: from {hint}: {} vs scan {hj}", p.dot(d));
                }
                last = i as u32;
            }
        }
    }
}

/// A hinted support on hulls of `HULL_RING_MIN` to `HULL_RING_LIMIT`
/// vertices first checks the hint against its ring of neighbours and
/// returns it when none beats it. From every vertex as a hint (and no
/// hint, and one past the end), the answer reaches the scan's height
/// exactly, in f64 and f32: on random hulls, on pyramids and bipyramids
/// over 20- and 40-gons (apexes of degree 20 and 40 keep no ring: those
/// hints climb or scan), and on a 16-gon prism, whose caps tie 16 vertices
/// along ±y and whose rim ties four along each side's normal. There a
/// hint on a cap is returned as given (it ties its cap neighbours and
/// beats the rim's), where a scan returns the cap's first vertex: on most
/// of the cap's vertices (those of degree up to `HULL_RING_DEGREE`),
/// which shows the check answered.
#[test]
fn hinted_supports_check_the_ring() {
    let mut rng = Rng::new(109);
    let gon = |k: usize, y: f64| -> Vec<DVec3> {
        (0..k)
            .map(|i| {
                let t = std::f64::consts::TAU * i as f64 / k as f64;
                DVec3::new(t.cos(), y, t.sin())
            })
            .collect()
    };
    let mut clouds: Vec<(String, Vec<DVec3>)> = Vec::new();
    for &n in &[9usize, 12, 20, 32, 48, 64, 65] {
        for trial in 0..3 {
            clouds.push((format!("random {n} #{trial}"), polyhedron(&mut rng, n)));
        }
    }
    for k in [20, 40] {
        let mut pyramid = gon(k, 0.0);
        pyramid.push(DVec3::new(0.1, 1.5, 0.0));
        let mut bipyramid = pyramid.clone();
        bipyramid.push(DVec3::new(0.0, -0.7, 0.2));
        clouds.push((format!("pyramid {k}"), pyramid));
        clouds.push((format!("bipyramid {k}"), bipyramid));
    }
    let mut prism = gon(16, 0.5);
    prism.extend(gon(16, -0.5));
    clouds.push(("prism 16".into(), prism));
    for (name, pts) in &clouds {
        let hull = ConvexHull::new(pts).unwrap();
        let f32_hull = ConvexHull::new(&pts.iter().map(|p| p.as_vec3()).collect::<Vec<_>>()).unwrap();
        let n = hull.vertices().len() as u32;
        assert_eq!(n as usize, f32_hull.vertices().len(), "{name}");
        let mut dirs: Vec<DVec3> = (0..60).map(|_| rng.unit3()).collect();
        dirs.extend([DVec3::Y, -DVec3::Y, DVec3::X, DVec3::new(1.0, 0.0, 1.0)]);
        for d in dirs {
            let top = hull.vertices()[hull.support_scan(d)].dot(d);
            let d32 = d.as_vec3();
            let top32 = f32_hull.vertices()[f32_hull.support_scan(d32)].dot(d32);
            for hint in (0..n).chain([n, NO_INDEX]) {
                let (p, k) = hull.support_from(d, hint);
                assert_eq!(Some(p), hull.vertex(k), "{name}: index {k} from {hint}");
                assert_eq!(p.dot(d), top, "{name}: from {hint} along {d}");
                let (p32, k32) = f32_hull.support_from(d32, hint);
                assert_eq!(Some(p32), f32_hull.vertex(k32), "{name} f32: index {k32} from {hint}");
                assert_eq!(p32.dot(d32), top32, "{name} f32: from {hint} along {d}");
            }
        }
        if name.starts_with("prism") {
            assert!(
                n as usize > gjk_shapes::tuning::HULL_RING_MIN
                    && n as usize <= gjk_shapes::tuning::HULL_RING_LIMIT
            );
            for d in [DVec3::Y, -DVec3::Y] {
                let cap: Vec<u32> = (0..n).filter(|&i| hull.vertices()[i as usize].dot(d) == 0.5).collect();
                assert_eq!(cap.len(), 16, "{name}: cap along {d}");
                let kept = cap.iter().filter(|&&i| hull.support_from(d, i).1 == i).count();
                assert!(kept >= 8, "{name}: {kept} of 16 cap hints kept along {d}");
            }
        }
    }
}

/// Hill climbing over plateaus: on a prism of a regular 120-gon (240
/// vertices, so it climbs) the top and bottom faces tie 120 vertices along
/// ±y, and the rim's edges tie four along their outward normals. Every
/// climb, cold and from every vertex as a hint, must reach the scan's
/// height exactly (a climb that stopped on a plateau's edge, or a tie, short
/// of the maximum would fail).
#[test]
fn hill_climbing_over_plateaus_and_ties() {
    let k = 120;
    let at = |i: usize| std::f64::consts::TAU * i as f64 / k as f64;
    let pts: Vec<DVec3> = (0..2 * k)
        .map(|i| DVec3::new(at(i % k).cos(), if i < k { 0.5 } else { -0.5 }, at(i % k).sin()))
        .collect();
    let hull = ConvexHull::new(&pts).unwrap();
    assert_eq!(hull.vertices().len(), 2 * k);
    assert!(hull.uses_hill_climbing());
    let f32_hull = ConvexHull::new(&pts.iter().map(|p| p.as_vec3()).collect::<Vec<_>>()).unwrap();
    assert!(f32_hull.uses_hill_climbing());
    let mut dirs = vec![DVec3::Y, -DVec3::Y];
    for i in 0..k {
        // Outward normals of the rim's faces (four vertices tie), and
        // the same tilted up and down (two tie).
        let m = 0.5 * (at(i) + at(i + 1));
        let n = DVec3::new(m.cos(), 0.0, m.sin());
        dirs.extend([n, n + DVec3::Y, n - DVec3::Y * 0.25]);
    }
    for d in dirs {
        let top = hull.vertices()[hull.support_scan(d)].dot(d);
        assert_eq!(hull.vertices()[hull.support_climb(d)].dot(d), top, "cold climb along {d}");
        let d32 = d.as_vec3();
        let top32 = f32_hull.vertices()[f32_hull.support_scan(d32)].dot(d32);
        assert_eq!(f32_hull.vertices()[f32_hull.support_climb(d32)].dot(d32), top32, "f32 along {d}");
        for hint in (0..2 * k as u32).chain([NO_INDEX]) {
            if hint != NO_INDEX {
                assert_eq!(hull.support_from(d, hint).0.dot(d), top, "from {hint} along {d}");
                assert_eq!(f32_hull.support_from(d32, hint).0.dot(d32), top32, "f32 from {hint} along {d}");
            }
            assert_eq!(stepped(&hull, d, hint).0.dot(d), top, "stepped from {hint} along {d}");
            assert_eq!(stepped(&f32_hull, d32, hint).0.dot(d32), top32, "f32 stepped from {hint} along {d}");
        }
    }
}

/// Climbs through vertices whose neighbours are not held inline: the two
/// apexes of a bipyramid over a regular 200-gon have degree 200, beyond
/// `HULL_NODE_DEGREE`, so their steps read the adjacency lists. Cold
/// climbs and climbs from every vertex as a hint (the apexes included)
/// must reach the scan's height, in f64 and f32.
#[test]
fn high_degree_vertices_climb_through_their_lists() {
    let k = 200;
    let at = |i: usize| std::f64::consts::TAU * i as f64 / k as f64;
    let mut pts: Vec<DVec3> = (0..k).map(|i| DVec3::new(at(i).cos(), 0.0, at(i).sin())).collect();
    pts.extend([DVec3::new(0.05, 0.7, -0.03), DVec3::new(-0.02, -0.4, 0.04)]);
    let hull = ConvexHull::new(&pts).unwrap();
    let f32_hull = ConvexHull::new(&pts.iter().map(|p| p.as_vec3()).collect::<Vec<_>>()).unwrap();
    assert_eq!(hull.vertices().len(), k + 2);
    assert!(hull.uses_hill_climbing() && f32_hull.uses_hill_climbing());
    let high =
        (0..k + 2).filter(|&i| hull.neighbours(i).len() > gjk_shapes::tuning::HULL_NODE_DEGREE).count();
    assert_eq!(high, 2, "both apexes (and no rim vertex) above the inline degree");
    let mut rng = Rng::new(106);
    let mut dirs: Vec<DVec3> = (0..300).map(|_| rng.unit3()).collect();
    // Along the rim's edge normals, tilted towards either apex: the
    // answers next to the apexes' fans.
    for i in 0..k {
        let m = 0.5 * (at(i) + at(i + 1));
        let n = DVec3::new(m.cos(), 0.0, m.sin());
        dirs.extend([n, n + DVec3::Y * 0.3, n - DVec3::Y * 0.3]);
    }
    dirs.extend([DVec3::Y, -DVec3::Y]);
    for d in dirs {
        let top = hull.vertices()[hull.support_scan(d)].dot(d);
        assert_eq!(hull.vertices()[hull.support_climb(d)].dot(d), top, "cold climb along {d}");
        let d32 = d.as_vec3();
        let top32 = f32_hull.vertices()[f32_hull.support_scan(d32)].dot(d32);
        assert_eq!(f32_hull.vertices()[f32_hull.support_climb(d32)].dot(d32), top32, "f32 along {d}");
        for hint in 0..(k + 2) as u32 {
            assert_eq!(hull.support_from(d, hint).0.dot(d), top, "from {hint} along {d}");
            assert_eq!(f32_hull.support_from(d32, hint).0.dot(d32), top32, "f32 from {hint} along {d}");
            assert_eq!(stepped(&hull, d, hint).0.dot(d), top, "stepped from {hint} along {d}");
            assert_eq!(stepped(&f32_hull, d32, hint).0.dot(d32), top32, "f32 stepped from {hint} along {d}");
        }
    }
}

/// A hull of more vertices than `u16` indices reach (70 000 points on a
/// sphere, every one a vertex) keeps no neighbours inline: every step
/// reads the adjacency lists. Cold and hinted climbs against the scan, and
/// the vertices the supports return are the hull's own.
#[test]
fn hulls_beyond_u16_indices_climb_through_their_lists() {
    let n = 70_000;
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let pts: Vec<DVec3> = (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - y * y).sqrt();
            let a = golden * i as f64;
            DVec3::new(r * a.cos(), y, r * a.sin()) * DVec3::new(1.0, 0.8, 1.3)
        })
        .collect();
    let hull = ConvexHull::new(&pts).unwrap();
    assert!(hull.vertices().len() > usize::from(u16::MAX) + 1, "{} vertices", hull.vertices().len());
    assert!(hull.uses_hill_climbing());
    let mut rng = Rng::new(107);
    for _ in 0..500 {
        let d = rng.unit3() * rng.range(0.1, 10.0);
        let top = hull.vertices()[hull.support_scan(d)].dot(d);
        let (p, i) = hull.support_indexed(d);
        assert_eq!(p.dot(d), top, "cold along {d}");
        assert_eq!(hull.vertices()[i as usize], p);
        let hint = rng.usize(0, hull.vertices().len() - 1) as u32;
        let (q, j) = hull.support_from(d, hint);
        assert_eq!(q.dot(d), top, "from {hint} along {d}");
        assert_eq!(hull.vertex(j), Some(q));
        for h in [NO_INDEX, hint] {
            let (q, j, _) = stepped(&hull, d, h);
            assert_eq!(q.dot(d), top, "stepped from {h} along {d}");
            assert_eq!(hull.vertex(j), Some(q));
        }
    }
}

/// `minkowski_support` (and its hinted form) steps the two shapes' climbs
/// in turn where both climb, and one alone where the other answers at once:
/// on pairs of climbing hulls (300 and 1 000 vertices), a climbing and a
/// scanned hull (40 vertices), and a climbing hull against a ball, with B
/// placed at a random pose, through the queries' wrappers (`CoreOf`,
/// `Placed`) and their lanes adapter (f32, `Vec3A`). Each side's point must
/// be a vertex of its shape, its index that vertex's, and its height along
/// the side's direction the scan's (to rounding of the pose's rotation:
/// the brute force rotates the direction its own way).
#[test]
fn minkowski_support_steps_climbs_in_turn() {
    let mut rng = Rng::new(111);
    let mut climbs = [0u32; 2];
    for (na, nb) in [(300, 1000), (1000, 300), (300, 40), (40, 1000), (1000, 0)] {
        let pa = polyhedron(&mut rng, na);
        let a = ConvexHull::new(&pa).unwrap();
        let b = ConvexHull::new(&if nb > 0 { polyhedron(&mut rng, nb) } else { vec![DVec3::ZERO] }).unwrap();
        let ball = Ball::new(0.5).unwrap();
        let (a32, b32) = (to_f32(&a), to_f32(&b));
        for _ in 0..200 {
            let pose = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 5.0));
            let d = rng.unit3() * rng.range(0.01, 10.0);
            let local = pose.rotation.inverse() * -d;
            let placed = Placed::new(&b, &pose);
            let hint =
                (rng.usize(0, a.vertices().len() - 1) as u32, rng.usize(0, b.vertices().len() - 1) as u32);
            for p in [
                minkowski_support(&CoreOf(&a), &CoreOf(&placed), d),
                minkowski_support_from(&CoreOf(&a), &CoreOf(&placed), d, hint),
            ] {
                assert_eq!(p.a, a.vertices()[p.index_a as usize]);
                assert_eq!(p.a.dot(d), a.vertices()[a.support_scan(d)].dot(d), "A along {d}");
                let vb = b.vertices()[p.index_b as usize];
                assert!((p.b - pose.transform_point(vb)).length() <= 1e-12 * (1.0 + p.b.length()));
                let top = b.vertices()[b.support_scan(local)].dot(local);
                assert!((vb.dot(local) - top).abs() <= 1e-12 * (1.0 + top.abs()), "B along {local}");
            }
            // A climbing hull against a ball: A climbs alone.
            let p = minkowski_support(&CoreOf(&a), &CoreOf(Placed::new(&ball, &pose)), d);
            assert_eq!(p.a.dot(d), a.vertices()[a.support_scan(d)].dot(d));
            assert!((p.b - pose.translation).length() <= 1e-12 * (1.0 + pose.translation.length()));
            // f32, through the lanes adapter the queries compute in.
            let (d32, pose32) = (d.as_vec3(), Pose::new(pose.rotation.as_quat(), pose.translation.as_vec3()));
            let placed32 = Placed::new(&b32, &pose32);
            let (ca, cb) = (CoreOf(&a32), CoreOf(&placed32));
            let p =
                minkowski_support(&InLanes::<Vec3, _>::new(&ca), &InLanes::<Vec3, _>::new(&cb), d32.into());
            assert_eq!(Vec3::from(p.a).dot(d32), a32.vertices()[a32.support_scan(d32)].dot(d32));
            let local32 = pose32.rotation.inverse() * -d32;
            let top32 = b32.vertices()[b32.support_scan(local32)].dot(local32);
            let h32 = b32.vertices()[p.index_b as usize].dot(local32);
            assert!((h32 - top32).abs() <= 1e-5 * (1.0 + top32.abs()), "f32 B: {h32} vs {top32}");
            for (k, (hull, dir)) in [(&a, d), (&b, local)].into_iter().enumerate() {
                if let Search::Climbing(_) = hull.support_search(dir, NO_INDEX) {
                    climbs[k] += 1;
                }
            }
        }
    }
    // Both sides climbed often (the start table answers some directions
    // at once): the stepped path ran, not only the answers found at once.
    assert!(climbs.iter().all(|&c| c > 200), "climbs started: {climbs:?}");
}

/// A hull's points in f32.
fn to_f32(h: &ConvexHull<DVec3>) -> ConvexHull<Vec3> {
    ConvexHull::new(&h.vertices().iter().map(|p| p.as_vec3()).collect::<Vec<_>>()).unwrap()
}

#[test]
fn hill_climbing_equals_scan_2d() {
    let mut rng = Rng::new(104);
    // Both sides of `POLYGON_SCAN_LIMIT`: the default support scans up to
    // it and climbs above it.
    let (mut scanned, mut climbed) = (false, false);
    for &n in &[8usize, 13, 40, 48, 49, 60, 200, 2000] {
        for _ in 0..4 {
            let pts = polygon(&mut rng, n);
            let poly = ConvexPolygon::new(&pts).unwrap();
            // Every input point lies inside (left of each CCW edge).
            let v = poly.vertices();
            scanned |= v.len() <= gjk_shapes::tuning::POLYGON_SCAN_LIMIT;
            climbed |= v.len() > gjk_shapes::tuning::POLYGON_SCAN_LIMIT;
            for i in 0..v.len() {
                let (a, b) = (v[i], v[(i + 1) % v.len()]);
                for p in &pts {
                    assert!((b - a).perp_dot(*p - a) >= -1e-12, "n={n}: not CCW or point outside");
                }
            }
            let mut last = NO_INDEX;
            for _ in 0..500 {
                let d = rng.unit2() * rng.range(0.1, 3.0);
                let (hi, hj) = (v[poly.support_climb(d)].dot(d), v[poly.support_scan(d)].dot(d));
                assert!((hi - hj).abs() <= 1e-12, "n={n}");
                assert!((height2(&pts, d) - hj).abs() <= 1e-12);
                let (p, k) = poly.support_indexed(d);
                assert_eq!(p, v[k as usize]);
                assert!((p.dot(d) - hj).abs() <= 1e-12, "n={n}: default support");
                // Climbing along the boundary from any hint.
                let any = rng.usize(0, v.len() - 1) as u32;
                for hint in [last, any, NO_INDEX, v.len() as u32] {
                    let (p, k) = poly.support_from(d, hint);
                    assert_eq!(p, v[k as usize]);
                    assert!((p.dot(d) - hj).abs() <= 1e-12, "n={n}: from {hint}");
                }
                last = poly.support_scan(d) as u32;
            }
        }
    }
    assert!(scanned && climbed, "both sides of the scan limit");
}

/// Flat, collinear, single-point and duplicated clouds still give exact
/// supports.
#[test]
fn degenerate_hulls() {
    let mut rng = Rng::new(105);
    let q = DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    let flat: Vec<DVec3> =
        (0..200).map(|_| q * DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0)).collect();
    let line: Vec<DVec3> = (0..50).map(|_| q * DVec3::new(rng.range(-1.0, 1.0), 0.0, 0.0)).collect();
    let single = vec![DVec3::new(1.0, 2.0, 3.0); 10];
    let dup: Vec<DVec3> = polyhedron(&mut rng, 30).into_iter().flat_map(|p| [p; 4]).collect();
    for (name, pts) in [("flat", flat), ("line", line), ("single", single), ("dup", dup)] {
        let hull = ConvexHull::new(&pts).unwrap();
        for _ in 0..300 {
            let d = rng.unit3();
            assert!((hull.support(d).dot(d) - height3(&pts, d)).abs() < 1e-12, "{name}");
        }
    }
    let poly = ConvexPolygon::new(&[DVec2::ONE; 5]).unwrap();
    assert_eq!(poly.vertices().len(), 1);
    let poly = ConvexPolygon::new(&[DVec2::ZERO, DVec2::ONE, DVec2::splat(0.5), DVec2::splat(2.0)]).unwrap();
    assert_eq!(poly.vertices().len(), 2);
}

#[test]
fn bad_input_is_a_clear_error() {
    assert_eq!(ConvexHull::<DVec3>::new(&[]).unwrap_err(), ShapeError::EmptyPointSet);
    assert_eq!(ConvexPolygon::<Vec2>::new(&[]).unwrap_err(), ShapeError::EmptyPointSet);
    assert_eq!(
        ConvexHull::new(&[DVec3::ZERO, DVec3::new(f64::NAN, 0.0, 0.0)]).unwrap_err(),
        ShapeError::NonFinite
    );
    assert_eq!(
        ConvexPolygon::new(&[Vec2::ZERO, Vec2::new(0.0, f32::INFINITY)]).unwrap_err(),
        ShapeError::NonFinite
    );
    assert_eq!(Ball::new(-1.0f32).unwrap_err(), ShapeError::NegativeRadius);
    assert_eq!(Ball::new(f64::NAN).unwrap_err(), ShapeError::NonFinite);
    assert_eq!(Capsule::new(1.0, -0.1f64).unwrap_err(), ShapeError::NegativeRadius);
    assert_eq!(Capsule::new(-1.0, 0.1f64).unwrap_err(), ShapeError::NonPositiveSize);
    assert_eq!(Cuboid::new(Vec3::new(1.0, 0.0, 1.0)).unwrap_err(), ShapeError::NonPositiveSize);
    assert_eq!(Cuboid::new(DVec2::new(-1.0, 1.0)).unwrap_err(), ShapeError::NonPositiveSize);
    assert_eq!(Cylinder::new(0.0, 1.0f32).unwrap_err(), ShapeError::NonPositiveSize);
    assert_eq!(Cone::new(1.0, f32::NAN).unwrap_err(), ShapeError::NonFinite);
    assert_eq!(Segment::new(DVec3::ZERO, DVec3::NAN).unwrap_err(), ShapeError::NonFinite);
    assert_eq!(Rounded::new(Ball::new(1.0f32).unwrap(), -0.5).unwrap_err(), ShapeError::NegativeRadius);
    let bad_rot = Pose { rotation: DQuat::from_xyzw(0.0, 0.0, 0.0, 2.0), translation: DVec3::ZERO };
    assert_eq!(Transformed::new(Ball::new(1.0).unwrap(), bad_rot).unwrap_err(), ShapeError::InvalidRotation);
    let bad_t = Pose::from_translation(DVec3::new(0.0, f64::NAN, 0.0));
    assert_eq!(Transformed::new(Ball::new(1.0).unwrap(), bad_t).unwrap_err(), ShapeError::NonFinite);
    let bad_rot2 = Pose::new(Rot2 { cos: 0.0f32, sin: 0.0 }, Vec2::ZERO);
    assert_eq!(
        Transformed::new(Ball::new(1.0f32).unwrap(), bad_rot2).unwrap_err(),
        ShapeError::InvalidRotation
    );
    assert_eq!(
        Transformed::with_scale(Ball::new(1.0).unwrap(), Pose::IDENTITY, DVec3::new(1.0, 0.0, 1.0))
            .unwrap_err(),
        ShapeError::NonPositiveSize
    );
    assert_eq!(Swept::new(Ball::new(1.0f32).unwrap(), Vec3::INFINITY).unwrap_err(), ShapeError::NonFinite);
    assert!(!ShapeError::EmptyPointSet.to_string().is_empty());
}

/// The start table's pure cells (returned without climbing) give a true
/// maximiser in f32 too: random directions, directions on cube-map cell
/// corners and edges, and the cube's axes and diagonals, against the scan.
#[test]
fn pure_start_cells_match_scan_f32() {
    let mut rng = Rng::new(105);
    for &n in &[200usize, 300, 1500] {
        let pts: Vec<Vec3> = polyhedron(&mut rng, n).iter().map(|p| p.as_vec3()).collect();
        let hull = ConvexHull::new(&pts).unwrap();
        assert!(hull.uses_hill_climbing());
        let v = hull.vertices();
        let size = v.iter().map(|p| p.abs().max_element()).fold(0.0f32, f32::max);
        let mut dirs: Vec<Vec3> =
            (0..20_000).map(|_| rng.unit3().as_vec3() * rng.range(0.01, 100.0) as f32).collect();
        // Cell corners and edges lie on multiples of 2/g; every g up to the cap.
        for g in 4..=gjk_shapes::tuning::MAX_START_GRID {
            for k in 0..=g {
                let u = -1.0 + 2.0 * k as f32 / g as f32;
                for w in [-1.0f32, -0.5, 0.0, 0.5, 1.0] {
                    dirs.extend([Vec3::new(1.0, u, w), Vec3::new(u, -1.0, w), Vec3::new(w, u, 1.0)]);
                }
            }
        }
        for x in [-1.0f32, 0.0, 1.0] {
            for y in [-1.0f32, 0.0, 1.0] {
                for z in [-1.0f32, 0.0, 1.0] {
                    dirs.push(Vec3::new(x, y, z));
                }
            }
        }
        for d in dirs {
            let (i, j) = (hull.support_climb(d), hull.support_scan(d));
            let (hi, hj) = (v[i].dot(d), v[j].dot(d));
            assert!(hj - hi <= 1e-6 * size * d.length().max(1e-30), "n={n} d={d}: climb {hi} vs scan {hj}");
        }
    }
}

/// The hull's polygons are exactly its facets, found by brute force over
/// every triple of hull vertices: a triple spans a facet when no vertex is
/// above its plane, and the facet's vertices are those on the plane. Each
/// polygon must hold exactly one facet's vertices, counter-clockwise seen
/// from outside, with the facet's normal; and every facet must appear once.
/// Clouds in general position (triangles only), and boxes, prisms and
/// lattices with many coplanar points (merged polygons).
#[test]
fn hull_polygons_are_the_brute_force_facets() {
    let mut rng = Rng::new(0x9017);
    let mut clouds: Vec<(String, Vec<DVec3>)> = Vec::new();
    for k in 0..40 {
        let n = rng.usize(4, 24);
        clouds.push((format!("ellipsoid {k} ({n} points)"), polyhedron(&mut rng, n)));
    }
    for k in 0..20 {
        // A rotated box with extra points on its faces and inside.
        let half = DVec3::new(rng.range(0.2, 2.0), rng.range(0.2, 2.0), rng.range(0.2, 2.0));
        let rot = DMat3::from_quat(rng.quat());
        let mut pts = box_corners(half, rot, DVec3::ZERO);
        for _ in 0..rng.usize(0, 12) {
            let mut q = DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * half;
            if rng.f64() < 0.5 {
                let axis = rng.usize(0, 2);
                q[axis] = if rng.f64() < 0.5 { -half[axis] } else { half[axis] };
            }
            pts.push(rot * q);
        }
        clouds.push((format!("box {k}"), pts));
    }
    for k in 3..12 {
        // A prism over a regular k-gon, with a duplicate of every point.
        let h = rng.range(0.3, 2.0);
        let mut pts: Vec<DVec3> = (0..k)
            .flat_map(|i| {
                let a = std::f64::consts::TAU * i as f64 / k as f64;
                [DVec3::new(a.cos(), a.sin(), -h), DVec3::new(a.cos(), a.sin(), h)]
            })
            .collect();
        pts.extend(pts.clone());
        clouds.push((format!("prism {k}"), pts));
    }
    // A 4 × 4 × 4 lattice: 8 corners, six square facets.
    let lattice: Vec<DVec3> =
        (0..64).map(|i| DVec3::new((i % 4) as f64, (i / 4 % 4) as f64, (i / 16) as f64)).collect();
    clouds.push(("lattice".into(), lattice));

    for (name, pts) in &clouds {
        let hull = ConvexHull::new(pts).unwrap();
        let v = hull.vertices();
        let size = v.iter().map(|p| p.abs().max_element()).fold(0.0, f64::max);
        let tol = 1e-9 * size;
        // Brute-force facets: sorted vertex sets with their outward normals.
        let mut facets: Vec<(Vec<u32>, DVec3)> = Vec::new();
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                for k in j + 1..v.len() {
                    let Some(mut n) = (v[j] - v[i]).cross(v[k] - v[i]).try_normalize() else { continue };
                    let off = |q: DVec3| (q - v[i]).dot(n);
                    if v.iter().all(|&q| off(q) >= -tol) {
                        n = -n;
                    } else if !v.iter().all(|&q| off(q) <= tol) {
                        continue;
                    }
                    let on: Vec<u32> =
                        (0..v.len() as u32).filter(|&m| (v[m as usize] - v[i]).dot(n).abs() <= tol).collect();
                    if !facets.iter().any(|(s, _)| *s == on) {
                        facets.push((on, n));
                    }
                }
            }
        }
        let polys = hull.polygons();
        assert_eq!(polys.len(), facets.len(), "{name}: {} polygons, {} facets", polys.len(), facets.len());
        for f in polys {
            let mut sorted = f.vertices.clone();
            sorted.sort_unstable();
            let Some((_, n)) = facets.iter().find(|(s, _)| *s == sorted) else {
                panic!("{name}: polygon {:?} is not a facet", f.vertices)
            };
            assert!((f.normal - *n).length() < 1e-9, "{name}: normal {} against {n}", f.normal);
            // Counter-clockwise seen from outside: no turn is to the right
            // about the outward normal (points on an edge make no turn),
            // and the polygon's area vector points along it.
            let m = f.vertices.len();
            let mut area = 0.0;
            for t in 0..m {
                let [a, b, c] = [t, (t + 1) % m, (t + 2) % m].map(|s| v[f.vertices[s] as usize]);
                let turn = (b - a).cross(c - b).dot(*n);
                assert!(turn >= -tol * size, "{name}: polygon {:?} turns clockwise", f.vertices);
                area += a.cross(b).dot(*n);
            }
            assert!(area > 0.0, "{name}: polygon {:?} is clockwise", f.vertices);
        }
    }
}

/// Points given in f32 are coplanar only to their rounding: a rotated box's
/// faces and a scaled dodecahedron's pentagons must still merge into one
/// polygon each (found by the demo: with an f64-sized merge tolerance the
/// dodecahedron hull kept 8 of its 12 pentagons as triangles, its contact
/// manifolds lost points and a resting hull sank into the ground).
#[test]
fn f32_hull_faces_merge_despite_rounding() {
    let mut rng = Rng::new(0xf32);
    for k in 0..50 {
        let half = DVec3::new(rng.range(0.1, 3.0), rng.range(0.1, 3.0), rng.range(0.1, 3.0));
        let rot = DMat3::from_quat(rng.quat());
        let centre = rng.unit3() * rng.range(0.0, 100.0);
        let pts: Vec<Vec3> = box_corners(half, rot, centre).iter().map(|p| p.as_vec3()).collect();
        let hull = ConvexHull::new(&pts).unwrap();
        let polys = hull.polygons();
        assert_eq!(polys.len(), 6, "box {k}: {} polygons", polys.len());
        assert!(polys.iter().all(|f| f.vertices.len() == 4), "box {k}: not all quadrilaterals");
    }
    // The demo's default hull: a dodecahedron scaled per axis (planar
    // pentagons in exact arithmetic).
    let phi = (1.0 + 5f32.sqrt()) / 2.0;
    let mut pts: Vec<Vec3> = (0..8)
        .map(|i| Vec3::new([-1.0, 1.0][i & 1], [-1.0, 1.0][(i >> 1) & 1], [-1.0, 1.0][(i >> 2) & 1]))
        .collect();
    for (a, b) in [(1.0 / phi, phi), (-1.0 / phi, phi), (1.0 / phi, -phi), (-1.0 / phi, -phi)] {
        pts.extend([Vec3::new(0.0, a, b), Vec3::new(a, b, 0.0), Vec3::new(b, 0.0, a)]);
    }
    let scaled: Vec<Vec3> = pts.iter().map(|p| *p * Vec3::new(0.45, 0.55, 0.5)).collect();
    let hull = ConvexHull::new(&scaled).unwrap();
    assert_eq!(hull.polygons().len(), 12);
    assert!(hull.polygons().iter().all(|f| f.vertices.len() == 5));
}

/// The 195 distinct points of fuzz seed 430042471's first cloud, in units
/// of 250 000: a unit sphere snapped to a grid of quarters, scaled by 1e6.
/// Its top face (y = 4) holds vertices inside it.
#[rustfmt::skip]
const FLAT_TOPPED_GRID_SPHERE: &[[i32; 3]] = &[
    [-4, -2, 0], [-4, -2, 1], [-4, -1, -2], [-4, -1, -1], [-4, -1, 0], [-4, -1, 1], [-4, -1, 2], [-4, 0, -2],
    [-4, 0, -1], [-4, 0, 0], [-4, 0, 1], [-4, 0, 2], [-4, 1, -1], [-4, 1, 0], [-4, 1, 1], [-4, 2, -1],
    [-3, -3, -1], [-3, -3, 0], [-3, -3, 1], [-3, -2, -2], [-3, -2, -1], [-3, -2, 0], [-3, -2, 1], [-3, -1, -3],
    [-3, -1, -2], [-3, -1, 2], [-3, -1, 3], [-3, 0, -3], [-3, 0, 2], [-3, 0, 3], [-3, 1, -2], [-3, 1, 3],
    [-3, 2, -2], [-3, 2, -1], [-3, 2, 0], [-3, 2, 1], [-3, 2, 2], [-3, 3, -1], [-3, 3, 0], [-3, 3, 1],
    [-2, -4, 0], [-2, -3, -2], [-2, -3, -1], [-2, -3, 0], [-2, -3, 1], [-2, -3, 2], [-2, -2, -3], [-2, -2, 2],
    [-2, -2, 3], [-2, -1, -4], [-2, -1, 3], [-2, -1, 4], [-2, 0, -4], [-2, 0, -3], [-2, 1, -3], [-2, 1, 3],
    [-2, 2, -3], [-2, 2, -2], [-2, 2, 2], [-2, 2, 3], [-2, 3, -1], [-2, 3, 0], [-2, 3, 1], [-2, 3, 2],
    [-1, -4, -1], [-1, -4, 0], [-1, -4, 1], [-1, -4, 2], [-1, -3, -3], [-1, -3, -2], [-1, -3, 2], [-1, -2, -3],
    [-1, -1, 4], [-1, 0, -4], [-1, 0, 4], [-1, 1, -4], [-1, 1, 4], [-1, 2, -3], [-1, 2, 3], [-1, 3, -3],
    [-1, 3, -2], [-1, 3, 2], [-1, 4, -2], [-1, 4, -1], [-1, 4, 0], [-1, 4, 1], [0, -4, -2], [0, -4, -1],
    [0, -4, 0], [0, -4, 1], [0, -4, 2], [0, -3, -3], [0, -3, -2], [0, -3, 2], [0, -3, 3], [0, -2, 4],
    [0, -1, 4], [0, 0, -4], [0, 0, 4], [0, 1, -4], [0, 1, 4], [0, 2, -3], [0, 2, 3], [0, 3, -3],
    [0, 3, -2], [0, 3, 3], [0, 4, -2], [0, 4, -1], [0, 4, 0], [0, 4, 1], [0, 4, 2], [1, -4, -2],
    [1, -4, -1], [1, -4, 0], [1, -4, 1], [1, -3, -3], [1, -3, 2], [1, -3, 3], [1, -2, -3], [1, -2, 3],
    [1, -2, 4], [1, -1, -4], [1, -1, 4], [1, 0, -4], [1, 0, 4], [1, 1, -4], [1, 1, 4], [1, 2, -3],
    [1, 3, -2], [1, 3, 3], [1, 4, -1], [1, 4, 0], [1, 4, 1], [2, -4, 0], [2, -3, -2], [2, -3, -1],
    [2, -3, 0], [2, -3, 2], [2, -2, -3], [2, -2, -2], [2, -2, 3], [2, -1, -3], [2, -1, 4], [2, 0, -3],
    [2, 0, 3], [2, 0, 4], [2, 1, -3], [2, 1, 3], [2, 2, -3], [2, 2, 2], [2, 2, 3], [2, 3, -2],
    [2, 3, -1], [2, 3, 0], [2, 3, 1], [2, 3, 2], [2, 4, -1], [2, 4, 0], [2, 4, 1], [3, -3, 0],
    [3, -2, -3], [3, -2, -2], [3, -2, -1], [3, -2, 0], [3, -2, 1], [3, -2, 2], [3, -2, 3], [3, -1, -3],
    [3, -1, 3], [3, 1, -3], [3, 1, -2], [3, 1, 2], [3, 1, 3], [3, 2, -2], [3, 2, -1], [3, 2, 0],
    [3, 2, 1], [3, 2, 2], [3, 3, -1], [3, 3, 0], [4, -2, 0], [4, -2, 1], [4, -1, -1], [4, -1, 0],
    [4, -1, 1], [4, -1, 2], [4, 0, -1], [4, 0, 0], [4, 0, 1], [4, 0, 2], [4, 1, -1], [4, 1, 0],
    [4, 1, 1], [4, 1, 2], [4, 2, 0],
];

/// Hinted climbs on hulls with vertices inside flat faces (grid-snapped
/// spheres; a prism whose caps keep their centres). Along a direction into
/// such a face (the face the lowest) a vertex inside it ties with all its
/// neighbours, and a climb that moves only upwards stopped there: fuzz seed
/// 430042471 (f32, 1e6) measured a pair 1e6 apart that overlapped, from a
/// warm start's hint on the top face of `FLAT_TOPPED_GRID_SPHERE` along
/// (0.0625, −1e6, −0.156). Every hint, along the faces' inward normals and
/// random directions, must reach the scan's height, in f64 and f32, at
/// sizes 1e-6, 1 and 1e6.
#[test]
fn climbs_leave_flat_faces() {
    let mut rng = Rng::new(4300);
    let mut clouds: Vec<(String, Vec<DVec3>)> = Vec::new();
    let fuzz: Vec<DVec3> = FLAT_TOPPED_GRID_SPHERE
        .iter()
        .map(|p| DVec3::new(p[0] as f64, p[1] as f64, p[2] as f64) * 250_000.0)
        .collect();
    clouds.push(("fuzz 430042471".into(), fuzz));
    for k in [3i32, 4, 6] {
        let r = k as f64;
        let mut pts = Vec::new();
        for x in -k - 1..=k + 1 {
            for y in -k - 1..=k + 1 {
                for z in -k - 1..=k + 1 {
                    let p = DVec3::new(x as f64, y as f64, z as f64);
                    if (r - 0.6..=r + 0.7).contains(&p.length()) {
                        pts.push(p / r);
                    }
                }
            }
        }
        for size in [1e-6, 1.0, 1e6] {
            clouds.push((format!("grid sphere {k} × {size:e}"), pts.iter().map(|p| *p * size).collect()));
        }
    }
    let mut prism: Vec<DVec3> = (0..40)
        .flat_map(|i| {
            let t = std::f64::consts::TAU * i as f64 / 40.0;
            [DVec3::new(t.cos(), 0.5, t.sin()), DVec3::new(t.cos(), -0.5, t.sin())]
        })
        .collect();
    prism.extend([DVec3::new(0.0, 0.5, 0.0), DVec3::new(0.0, -0.5, 0.0)]);
    clouds.push(("40-gon prism with cap centres".into(), prism));
    for (name, pts) in &clouds {
        let hull = ConvexHull::new(pts).unwrap();
        let f32_hull = ConvexHull::new(&pts.iter().map(|p| p.as_vec3()).collect::<Vec<_>>()).unwrap();
        let n = hull.vertices().len() as u32;
        assert!(
            n as usize > gjk_shapes::tuning::HULL_HINT_CLIMB_LIMIT,
            "{name}: {n} vertices do not climb from hints"
        );
        let mut dirs: Vec<DVec3> = (0..40).map(|_| rng.unit3()).collect();
        dirs.extend(hull.polygons().iter().map(|f| -f.normal));
        dirs.push(DVec3::new(0.0625, -1_000_000.4, -0.15625));
        // Heights on a face across `d` differ by rounding: a few ulps of
        // `|d|` times the reach (a climb stuck inside the lowest face falls
        // short by the shape's whole width along `d`).
        let reach = pts.iter().fold(0.0f64, |r, p| r.max(p.length()));
        for d in dirs {
            let top = hull.vertices()[hull.support_scan(d)].dot(d);
            let d32 = d.as_vec3();
            let top32 = f32_hull.vertices()[f32_hull.support_scan(d32)].dot(d32);
            let slack = 4.0 * d.length() * reach;
            for hint in 0..n {
                let h = hull.support_from(d, hint).0.dot(d);
                assert!(top - h <= slack * f64::EPSILON, "{name}: from {hint} along {d}: {h} of {top}");
                let h32 = f32_hull.support_from(d32, hint).0.dot(d32);
                let short = f64::from(top32 - h32);
                assert!(
                    short <= slack * f64::from(f32::EPSILON),
                    "{name} f32: from {hint} along {d}: {h32} of {top32}"
                );
            }
        }
    }
}
