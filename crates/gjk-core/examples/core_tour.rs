//! A tour of gjk-core: your own support function, distance, the boolean
//! test, warm starting, stepping, and casts. `cargo run -p gjk-core --example core_tour`
use gjk_core::glam::{DVec2, Vec3};
use gjk_core::internal::{distance_warm, minkowski_support};
use gjk_core::{
    CastOptions, GjkConfig, GjkSolver, SimplexCache, Step, SupportMap, cast_ray, cast_shape, distance,
    intersects, support_fn,
};

/// Bring your own shape: one method.
struct Disc {
    centre: DVec2,
    radius: f64,
}
impl SupportMap<DVec2> for Disc {
    fn support(&self, d: DVec2) -> DVec2 {
        self.centre + d.normalize_or_zero() * self.radius
    }
}

fn main() {
    // 1. Point sets are shapes (their convex hulls).
    let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let far = tetra.map(|p| p + Vec3::new(3.0, 0.0, 0.0));
    let r = distance(&tetra, &far);
    println!(
        "distance {:.3} ({:?}), closest points {} / {}, normal {}",
        r.distance, r.status, r.point_a, r.point_b, r.normal
    );
    assert!((r.distance - 2.0).abs() < 1e-6);

    // 2. The boolean test does no distance work.
    let disc = Disc { centre: DVec2::new(1.0, 0.0), radius: 0.5 };
    let square = [DVec2::new(-1.0, -1.0), DVec2::new(1.0, -1.0), DVec2::new(1.0, 1.0), DVec2::new(-1.0, 1.0)];
    println!("disc overlaps square: {}", intersects(&disc, &square));
    assert!(intersects(&disc, &square));

    // 3. Warm starting: keep the cache between frames.
    let mut cache = SimplexCache::new();
    for frame in 0..3 {
        let moved = far.map(|p| p + Vec3::new(0.001 * frame as f32, 0.0, 0.0));
        let r = distance_warm(&tetra, &moved, &mut cache);
        println!("frame {frame}: distance {:.4} in {} support calls", r.distance, r.iterations);
    }

    // 4. Step through GJK yourself (for debug drawing).
    let mut gjk = GjkSolver::new(GjkConfig::default());
    let d0 = Vec3::X;
    let mut step = gjk.start(minkowski_support(&tetra, &far, d0), d0);
    while step == Step::Continue {
        let (lo, hi) = gjk.distance_bounds();
        println!("  simplex of {} points, distance in [{lo:.3}, {hi:.3}]", gjk.simplex().len());
        let d = gjk.direction();
        step = gjk.step(minkowski_support(&tetra, &far, d));
    }

    // 5. Casts: a ray, and a moving shape (time of impact).
    // `None` would mean the ray passes by; the normal is the surface's.
    let hit = cast_ray(&tetra, Vec3::new(-2.0, 0.2, 0.2), Vec3::X, 10.0, 0.0).expect("the ray hits");
    println!("ray hits at t = {:.3}, normal {}", hit.fraction, hit.normal);
    let ball = support_fn(|d: Vec3| d.normalize_or_zero() * 0.25);
    let toi = cast_shape(&ball, Vec3::new(10.0, 0.2, 0.2), &far, Vec3::ZERO, &CastOptions::default())
        .expect("the ball meets it");
    println!("a ball moving 10 units hits the far tetrahedron at t = {:.3}", toi.fraction);
    assert!(toi.is_hit());
}
