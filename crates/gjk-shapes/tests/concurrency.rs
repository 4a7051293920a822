//! Shapes, results and caches are `Send + Sync`; queries from many threads
//! at once agree with the same queries on one thread; the batch API keeps
//! order.

use gjk_shapes::gjk_core::{DistanceResult, GjkConfig, SimplexCache};
use gjk_shapes::glam::{DVec3, Vec2, Vec3};
use gjk_shapes::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, MinkowskiSum, Pose, PosedPair, Rounded,
    Swept, Transformed, distance, distance_batch, intersects_batch,
};
use gjk_testkit::*;

fn send_sync<T: Send + Sync>() {}

#[test]
fn everything_is_send_and_sync() {
    send_sync::<Ball<f32>>();
    send_sync::<Capsule<f64>>();
    send_sync::<Cuboid<Vec3>>();
    send_sync::<Cylinder<f32>>();
    send_sync::<Cone<f64>>();
    send_sync::<ConvexHull<DVec3>>();
    send_sync::<ConvexPolygon<Vec2>>();
    send_sync::<Transformed<Cuboid<Vec3>, Vec3>>();
    send_sync::<Rounded<ConvexHull<Vec3>, f32>>();
    send_sync::<Swept<Ball<f32>, Vec3>>();
    send_sync::<MinkowskiSum<Cuboid<Vec3>, Ball<f32>>>();
    send_sync::<Pose<Vec3>>();
    send_sync::<DistanceResult<DVec3>>();
    send_sync::<SimplexCache<Vec3>>();
    send_sync::<GjkConfig<f32>>();
}

#[test]
fn threads_agree_with_one_thread_and_batches_keep_order() {
    let mut rng = Rng::new(800);
    let hulls: Vec<ConvexHull<DVec3>> =
        (0..16).map(|_| ConvexHull::new(&polyhedron(&mut rng, 20)).unwrap()).collect();
    let poses: Vec<Pose<DVec3>> =
        (0..400).map(|_| Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 5.0))).collect();
    let pairs: Vec<PosedPair<'_, DVec3, ConvexHull<DVec3>, ConvexHull<DVec3>>> = (0..400)
        .map(|k| PosedPair {
            a: &hulls[k % 16],
            pose_a: Pose::IDENTITY,
            b: &hulls[(k * 7) % 16],
            pose_b: poses[k],
        })
        .collect();
    let serial: Vec<f64> = pairs.iter().map(|p| distance(p.a, &p.pose_a, p.b, &p.pose_b).distance).collect();
    let batch: Vec<f64> = distance_batch(&pairs).iter().map(|r| r.distance).collect();
    assert_eq!(serial, batch);
    let hits = intersects_batch(&pairs);
    assert!(hits.iter().zip(&serial).all(|(h, d)| *h == (*d == 0.0)));
    // Four threads sharing the same shapes.
    let threaded: Vec<f64> = std::thread::scope(|s| {
        let chunks: Vec<_> = pairs.chunks(100).map(|c| s.spawn(move || distance_batch(c))).collect();
        chunks.into_iter().flat_map(|h| h.join().unwrap()).map(|r| r.distance).collect()
    });
    assert_eq!(serial, threaded);
}

/// Without the `rayon` feature a batch asks nothing of its shapes beyond
/// `Shape`: a shape that is not `Sync` (it counts its support calls in a
/// `Cell`) runs, in order, with the answers of one query at a time.
#[cfg(not(feature = "rayon"))]
#[test]
fn batches_without_rayon_take_shapes_that_are_not_sync() {
    use gjk_shapes::gjk_core::SupportMap;
    use gjk_shapes::{Ball, Shape};
    use std::cell::Cell;
    struct Counted(Ball<f64>, Cell<u32>);
    impl SupportMap<DVec3> for Counted {
        fn support(&self, d: DVec3) -> DVec3 {
            self.1.set(self.1.get() + 1);
            SupportMap::<DVec3>::support(&self.0, d)
        }
    }
    impl Shape<DVec3> for Counted {}
    let ball = Ball::new(0.5).unwrap();
    let counted = Counted(ball, Cell::new(0));
    let pairs: Vec<_> = (1..=20)
        .map(|k| PosedPair {
            a: &counted,
            pose_a: Pose::IDENTITY,
            b: &ball,
            pose_b: Pose::from_translation(DVec3::new(0.1 * k as f64, 0.3, 0.0)),
        })
        .collect();
    let one_by_one: Vec<f64> =
        pairs.iter().map(|p| distance(p.a, &p.pose_a, p.b, &p.pose_b).distance).collect();
    let batch: Vec<f64> = distance_batch(&pairs).iter().map(|r| r.distance).collect();
    assert_eq!(one_by_one, batch);
    assert!(counted.1.get() > 0);
    let hits = intersects_batch(&pairs);
    assert!(hits.iter().zip(&one_by_one).all(|(h, d)| *h == (*d == 0.0)));
}
