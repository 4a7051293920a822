//! The `serde` feature: shapes, wrappers and poses written and read back
//! unchanged, hand-written files read as their fields say, and bad files
//! refused with the constructors' errors.
#![cfg(feature = "serde")]

use gjk_shapes::glam::{DQuat, DVec2, DVec3, Quat, Vec3};
use gjk_shapes::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, MinkowskiSum, Point, Pose, Rot2,
    Rounded, Segment, Swept, Transformed, Triangle, distance,
};
use gjk_testkit::Rng;
use serde::{Serialize, de::DeserializeOwned};

/// Written to JSON and read back.
fn again<T: Serialize + DeserializeOwned>(x: &T) -> T {
    serde_json::from_str(&serde_json::to_string(x).unwrap()).unwrap()
}

/// The error a JSON text gives when read as `T`.
fn refused<T: DeserializeOwned + std::fmt::Debug>(json: &str) -> String {
    match serde_json::from_str::<T>(json) {
        Ok(t) => panic!("{json} read as {t:?}"),
        Err(e) => e.to_string(),
    }
}

/// Every shape and wrapper, f32 and f64, 2D and 3D, written and read back:
/// equal to what was written.
#[test]
fn shapes_and_poses_read_back_unchanged() {
    let mut rng = Rng::new(9900);
    for _ in 0..200 {
        let v = |rng: &mut Rng| DVec3::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        let (a, b, c) = (v(&mut rng), v(&mut rng), v(&mut rng));
        let pose = Pose::new(rng.quat(), a);
        assert_eq!(again(&pose), pose);
        assert_eq!(again(&Point::new(a).unwrap()), Point::new(a).unwrap());
        let r = rng.range(0.1, 2.0);
        assert_eq!(again(&Ball::new(r).unwrap()), Ball::new(r).unwrap());
        assert_eq!(again(&Capsule::new(r, 0.3).unwrap()), Capsule::new(r, 0.3).unwrap());
        assert_eq!(again(&Cylinder::new(r, 0.3).unwrap()), Cylinder::new(r, 0.3).unwrap());
        assert_eq!(again(&Cone::new(r, 0.3).unwrap()), Cone::new(r, 0.3).unwrap());
        let cube = Cuboid::new(a.abs() + DVec3::splat(0.1)).unwrap();
        assert_eq!(again(&cube), cube);
        assert_eq!(again(&Segment::new(a, b).unwrap()), Segment::new(a, b).unwrap());
        assert_eq!(again(&Triangle::new(a, b, c).unwrap()), Triangle::new(a, b, c).unwrap());
        let placed = Transformed::with_scale(cube, pose, DVec3::new(1.0, 2.0, 0.5)).unwrap();
        assert_eq!(again(&placed), placed);
        let rounded = Rounded::new(placed, 0.25).unwrap();
        assert_eq!(again(&rounded), rounded);
        let swept = Swept::new(Capsule::new(r, 0.3).unwrap(), b).unwrap();
        assert_eq!(again(&swept), swept);
        let sum = MinkowskiSum::new(cube, Ball::new(r).unwrap());
        assert_eq!(again(&sum), sum);
        // f32 and 2D.
        let pose32 = Pose::new(Quat::from_rotation_x(r as f32), Vec3::new(1.0, -2.0, 3.5));
        assert_eq!(again(&pose32), pose32);
        let pose2 = Pose::from_angle_translation(rng.range(-3.0, 3.0), DVec2::new(a.x, a.y));
        assert_eq!(again(&pose2), pose2);
        let rect = Cuboid::new(DVec2::new(r, 0.5)).unwrap();
        assert_eq!(again(&Transformed::new(rect, pose2).unwrap()), Transformed::new(rect, pose2).unwrap());
    }
}

/// Hulls and polygons are rebuilt from their vertices: the same vertices
/// in the same order (so a warm start's cached indices still hold), and
/// every query the same, bit for bit.
#[test]
fn hulls_and_polygons_are_rebuilt_the_same() {
    let mut rng = Rng::new(9901);
    for n in [4, 8, 30, 200, 1_000] {
        for _ in 0..5 {
            let hull = ConvexHull::new(&gjk_testkit::polyhedron(&mut rng, n)).unwrap();
            let back: ConvexHull<DVec3> = again(&hull);
            assert_eq!(back.vertices(), hull.vertices(), "{n} points");
            let other = ConvexHull::new(&gjk_testkit::polyhedron(&mut rng, 16)).unwrap();
            for _ in 0..50 {
                let at = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 4.0));
                let (r0, r1) = (
                    distance(&hull, &Pose::IDENTITY, &other, &at),
                    distance(&back, &Pose::IDENTITY, &other, &at),
                );
                assert_eq!((r0.distance, r0.point_a, r0.status), (r1.distance, r1.point_a, r1.status));
            }
            let poly = ConvexPolygon::new(&gjk_testkit::polygon(&mut rng, n.min(64))).unwrap();
            let back: ConvexPolygon<DVec2> = again(&poly);
            assert_eq!(back.vertices(), poly.vertices(), "{n} points");
        }
    }
}

/// Files written by hand read as their fields say: glam's vectors and
/// quaternions as arrays (`[x, y, z, w]`), 2D rotations as cosine and
/// sine, a left-out scale as ones.
#[test]
fn hand_written_files_read_as_written() {
    let ball: Ball<f64> = serde_json::from_str(r#"{"radius": 0.5}"#).unwrap();
    assert_eq!(ball.radius(), 0.5);
    let capsule: Capsule<f32> = serde_json::from_str(r#"{"half_height": 1, "radius": 0.25}"#).unwrap();
    assert_eq!((capsule.half_height(), capsule.radius()), (1.0, 0.25));
    let cube: Cuboid<DVec3> = serde_json::from_str(r#"{"half_extents": [1, 2, 3]}"#).unwrap();
    assert_eq!(cube.half_extents(), DVec3::new(1.0, 2.0, 3.0));
    let half_turn = r#"{"rotation": [0, 0, 1, 0], "translation": [1, 2, 3]}"#;
    let pose: Pose<DVec3> = serde_json::from_str(half_turn).unwrap();
    assert!((pose.transform_point(DVec3::X) - DVec3::new(0.0, 2.0, 3.0)).length() < 1e-15, "{pose:?}");
    let quarter: Pose<DVec2> =
        serde_json::from_str(r#"{"rotation": {"cos": 0, "sin": 1}, "translation": [0, 0]}"#).unwrap();
    assert!((quarter.transform_point(DVec2::X) - DVec2::Y).length() < 1e-15);
    assert_eq!(quarter.rotation, Rot2 { cos: 0.0, sin: 1.0 });
    let t: Transformed<Ball<f64>, DVec3> =
        serde_json::from_str(&format!(r#"{{"shape": {{"radius": 2}}, "pose": {half_turn}}}"#)).unwrap();
    assert_eq!(t.scale(), DVec3::ONE);
    let hull: ConvexHull<DVec3> =
        serde_json::from_str(r#"{"points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1],[0.1,0.1,0.1]]}"#).unwrap();
    assert_eq!(hull.vertices().len(), 4, "the interior point is not a vertex");
    let seg: Segment<DVec2> = serde_json::from_str(r#"{"points": [[0, 0], [1, 1]]}"#).unwrap();
    assert_eq!(seg.points(), [DVec2::ZERO, DVec2::ONE]);
    let q: Pose<DVec3> =
        serde_json::from_str(r#"{"rotation": [0, 0, 0, 1], "translation": [0, 0, 0]}"#).unwrap();
    assert_eq!(q.rotation, DQuat::IDENTITY);
}

/// What the constructors refuse, a file cannot build: the constructors'
/// errors come back as the reader's, and unknown or missing fields and
/// wrong counts are refused too.
#[test]
fn bad_files_are_refused_with_the_constructors_errors() {
    assert!(refused::<Ball<f64>>(r#"{"radius": -1}"#).contains("a radius is negative"));
    assert!(refused::<Cylinder<f64>>(r#"{"half_height": 0, "radius": 1}"#).contains("zero or negative"));
    assert!(refused::<Cone<f32>>(r#"{"half_height": 1, "radius": -2}"#).contains("zero or negative"));
    // JSON has no infinity: out of range is the reader's own error.
    assert!(refused::<Capsule<f64>>(r#"{"half_height": 1e400, "radius": 1}"#).contains("out of range"));
    assert!(refused::<Cuboid<DVec3>>(r#"{"half_extents": [1, 0, 1]}"#).contains("zero or negative"));
    assert!(refused::<ConvexHull<DVec3>>(r#"{"points": []}"#).contains("at least one point"));
    assert!(refused::<ConvexPolygon<DVec2>>(r#"{"points": []}"#).contains("at least one point"));
    let stretched = r#"{"rotation": [0, 0, 0, 2], "translation": [0, 0, 0]}"#;
    assert!(refused::<Pose<DVec3>>(stretched).contains("not a unit rotation"));
    let skewed = r#"{"rotation": {"cos": 1, "sin": 1}, "translation": [0, 0]}"#;
    assert!(refused::<Pose<DVec2>>(skewed).contains("not a unit rotation"));
    let rounded = r#"{"shape": {"radius": 1}, "radius": -0.5}"#;
    assert!(refused::<Rounded<Ball<f64>, f64>>(rounded).contains("a radius is negative"));
    let flat = r#"{"shape": {"radius": 1}, "pose": {"rotation": [0,0,0,1], "translation": [0,0,0]}, "scale": [1, 0, 1]}"#;
    assert!(refused::<Transformed<Ball<f64>, DVec3>>(flat).contains("zero or negative"));
    assert!(refused::<Ball<f64>>(r#"{"radius": 1, "colour": "red"}"#).contains("unknown field"));
    assert!(refused::<Ball<f64>>(r#"{}"#).contains("missing field"));
    assert!(refused::<Triangle<DVec3>>(r#"{"points": [[0,0,0],[1,0,0]]}"#).contains("invalid length"));
}
