//! The stepping API reproduces a posed query's GJK run, as `GjkSolver`'s
//! docs say: the cores in A's frame, from the support along the centres'
//! offset, the radii added after.

use gjk_shapes::gjk_core::{
    GjkConfig, GjkSolver, Iteration, Status, Step, SupportMap, internal::minkowski_support,
};
use gjk_shapes::glam::DVec3;
use gjk_shapes::{
    Ball, Capsule, ConvexHull, CoreOf, Cuboid, Cylinder, Placed, Pose, Shape, internal::distance_traced,
};
use gjk_testkit::Rng;

/// Steps the cores of `a` and `b` (B placed in A's frame) as the docs say;
/// the iterations and the cores' distance.
fn step<A: Shape<DVec3>, B: Shape<DVec3>>(
    a: &A,
    pa: &Pose<DVec3>,
    b: &B,
    pb: &Pose<DVec3>,
) -> (u32, f64, Status) {
    let placed = Placed::new(b, &pa.inv_mul(pb));
    let (ca, cb) = (CoreOf(a), CoreOf(&placed));
    let d0 = match (ca.center(), cb.center()) {
        (Some(p), Some(q)) if p != q => q - p,
        _ => DVec3::X,
    };
    let mut gjk = GjkSolver::new(GjkConfig::default());
    let mut s = gjk.start(minkowski_support(&ca, &cb, d0), d0);
    while s == Step::Continue {
        s = gjk.step(minkowski_support(&ca, &cb, gjk.direction()));
    }
    let r = gjk.result();
    (gjk.iterations(), r.distance, r.status)
}

/// Where the cylinder sits in the test's list of shapes.
const CYLINDER: usize = 3;

/// Capsules, balls, boxes, cylinders and hulls at random poses, apart by
/// 1e-3…3 of their size: the stepped search makes as many iterations as
/// the query recorded and finds the cores' distance (the query's distance
/// plus the radii) to rounding; for a curved core (the cylinder's), up to
/// two more iterations and the distance within the query's tolerance.
#[test]
fn stepping_reproduces_the_posed_query() {
    let mut rng = Rng::new(57);
    let hull = ConvexHull::new(&gjk_testkit::polyhedron(&mut rng, 24)).unwrap();
    let shapes: Vec<Box<dyn Shape<DVec3>>> = vec![
        Box::new(Capsule::new(0.6, 0.3).unwrap()),
        Box::new(Ball::new(0.5).unwrap()),
        Box::new(Cuboid::new(DVec3::new(0.5, 0.3, 0.7)).unwrap()),
        Box::new(Cylinder::new(0.5, 0.4).unwrap()),
        Box::new(hull),
    ];
    let mut checked = 0;
    for _ in 0..400 {
        let (i, j) = (rng.usize(0, shapes.len() - 1), rng.usize(0, shapes.len() - 1));
        let (a, b) = (&*shapes[i], &*shapes[j]);
        let pa = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 100.0));
        let dir = rng.unit3();
        let gap = 10f64.powf(rng.range(-3.0, 0.5));
        // B along `dir` from A, far enough for the bounding balls to clear
        // by about `gap`.
        let reach = 1.6;
        let pb = Pose::new(rng.quat(), pa.translation + dir * (reach + gap));
        let mut log: Vec<Iteration<DVec3>> = Vec::new();
        let (_, r) = distance_traced(&a, &pa, &b, &pb, &mut log);
        if r.status != Status::Separated {
            continue;
        }
        let (iterations, core_distance, status) = step(&a, &pa, &b, &pb);
        assert_eq!(status, Status::Separated, "{i} {j}");
        assert_eq!(log.len(), r.iterations as usize, "{i} {j}");
        let expect = r.distance + a.radius() + b.radius();
        if i != CYLINDER && j != CYLINDER {
            // Polytope, segment and point cores: the very same run.
            assert_eq!(iterations, r.iterations, "{i} {j}: {r:?}");
            assert!(
                (core_distance - expect).abs() <= 1e-12 * (1.0 + expect),
                "{i} {j}: {core_distance} vs {expect}"
            );
        } else {
            // A curved core converges to a tolerance scaled by the search's
            // scale, which the query seeds from the centres' offset: a run
            // or two more, the same distance within the query's tolerance.
            assert!(iterations.abs_diff(r.iterations) <= 2, "{i} {j}: {iterations} vs {}", r.iterations);
            assert!(
                (core_distance - expect).abs() <= r.tolerance.max(1e-12 * expect),
                "{i} {j}: {core_distance} vs {expect}"
            );
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked} separated pairs");
}
