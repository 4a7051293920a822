//! A tour of gjk-shapes: shapes, poses, round shapes, wrappers, casts and
//! batches. `cargo run -p gjk-shapes --example shapes_tour`
use gjk_shapes::gjk_core::CastOptions;
use gjk_shapes::glam::{Quat, Vec2, Vec3};
use gjk_shapes::{
    Ball, Capsule, ConvexHull, ConvexPolygon, Cuboid, Motion, Pose, PosedPair, Rounded, Swept, cast_ray,
    cast_shape, cast_shape_nonlinear, distance, distance_batch, intersects,
};

fn main() {
    // Shapes live in their local frames; poses place them.
    let crate_box = Cuboid::new(Vec3::new(1.0, 0.5, 0.5)).unwrap();
    let pill = Capsule::new(0.5, 0.25).unwrap();
    let at = Pose::new(Quat::from_rotation_z(0.3), Vec3::new(0.0, 2.0, 0.0));
    let r = distance(&crate_box, &Pose::IDENTITY, &pill, &at);
    println!("box–capsule: {:.4} apart, closest points {} / {}", r.distance, r.point_a, r.point_b);

    // Round shapes are exact: the ball's witness point is on its surface.
    let ball = Ball::new(0.5).unwrap();
    let r = distance(&ball, &Pose::from_translation(Vec3::new(3.0, 0.0, 0.0)), &crate_box, &Pose::IDENTITY);
    println!("ball–box: {:.6}, point on the ball {}", r.distance, r.point_a);

    // Hulls from point clouds; 2D polygons.
    let cloud: Vec<Vec3> = (0..200)
        .map(|i| {
            let t = i as f32 * 0.7;
            Vec3::new(t.cos(), (t * 1.3).sin(), (t * 0.4).cos()) * (1.0 + 0.1 * (i % 3) as f32)
        })
        .collect();
    let hull = ConvexHull::new(&cloud).unwrap();
    println!("hull of 200 points: {} vertices, {} faces", hull.vertices().len(), hull.polygons().len());
    let hex =
        ConvexPolygon::new(&(0..6).map(|i| Vec2::from_angle(i as f32 * 1.047)).collect::<Vec<_>>()).unwrap();
    println!(
        "hexagon overlaps a circle: {}",
        intersects(
            &hex,
            &Pose::IDENTITY,
            &Ball::new(0.5).unwrap(),
            &Pose::from_angle_translation(0.0, Vec2::new(1.2, 0.0))
        )
    );

    // Wrappers: rounded and swept.
    let rounded = Rounded::new(crate_box, 0.1).unwrap();
    let swept = Swept::new(ball, Vec3::new(0.0, -3.0, 0.0)).unwrap();
    let r = distance(&rounded, &Pose::IDENTITY, &swept, &Pose::from_translation(Vec3::new(0.0, 5.0, 0.0)));
    println!("rounded box to the ball's sweep: {:.3}", r.distance);

    // Casts.
    // Casts return `None` where nothing is met (the whole motion is free).
    let hit = cast_ray(&hull, &Pose::IDENTITY, Vec3::new(-5.0, 0.0, 0.0), Vec3::X, 100.0).expect("a hit");
    println!("ray hits the hull at t = {:.3}", hit.fraction);
    let toi = cast_shape(
        &ball,
        &Pose::from_translation(Vec3::new(-5.0, 0.0, 0.0)),
        Vec3::new(10.0, 0.0, 0.0),
        &hull,
        &Pose::IDENTITY,
        Vec3::ZERO,
        &CastOptions::default(),
    )
    .expect("a hit");
    println!("ball moving into the hull: time of impact {:.3}", toi.fraction);
    // A plank spinning in place above the hull: its centre never moves, but
    // its end swings down into it.
    let plank = Cuboid::new(Vec3::new(3.0, 0.1, 0.1)).unwrap();
    let spin = Motion::new(Pose::from_translation(Vec3::new(0.0, 2.5, 0.0)), Vec3::ZERO, Vec3::Z * 3.0);
    let swing =
        cast_shape_nonlinear(&plank, &spin, &hull, &Motion::fixed(Pose::IDENTITY), &CastOptions::default())
            .expect("a hit");
    println!("spinning plank meets the hull: {:?} at t = {:.3}", swing.status, swing.fraction);
    assert_eq!(swing.status, gjk_shapes::gjk_core::CastStatus::Hit);

    // Batches (parallel with the `rayon` feature).
    let pairs: Vec<_> = (0..4)
        .map(|k| PosedPair {
            a: &ball,
            pose_a: Pose::IDENTITY,
            b: &hull,
            pose_b: Pose::from_translation(Vec3::X * (3.0 + k as f32)),
        })
        .collect();
    let d: Vec<f32> = distance_batch(&pairs).iter().map(|r| r.distance).collect();
    println!("batch distances {d:?}");
    assert!(d.windows(2).all(|w| w[0] < w[1]));
}
