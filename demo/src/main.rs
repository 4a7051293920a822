//! Placeholder demo: prints a few GJK queries until the Bevy demo lands.
use glam::Vec2;

fn main() {
    let square = [Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0)];
    for dx in [4.0f32, 2.0, 1.0] {
        let other = square.map(|p| p + Vec2::new(dx, 0.5));
        let r = gjk_core::distance(&square, &other);
        println!(
            "offset {dx:>4}: {:?}, distance {:.3}, closest points {:?} / {:?}",
            r.status, r.distance, r.point_a, r.point_b
        );
    }
}
