//! Pins the conventions written in ARCHITECTURE.md.

use gjk_core::glam::{DVec2, DVec3};
use gjk_core::{NO_INDEX, Status, distance, support_fn};

/// `A − B`, normal from A to B, `v = point_a − point_b`, real distances.
#[test]
fn minkowski_order_and_normal_direction() {
    let a = [DVec3::ZERO, DVec3::new(1.0, 0.0, 0.0), DVec3::new(0.0, 1.0, 0.0)];
    let b = a.map(|p| p + DVec3::new(4.0, 0.0, 0.0));
    let r = distance(&a, &b);
    assert_eq!(r.status, Status::Separated);
    assert_eq!(r.distance, 3.0); // not squared
    assert_eq!(r.normal, DVec3::X); // from A towards B
    assert_eq!(r.point_a.x, 1.0);
    assert_eq!(r.point_b.x, 4.0);
    // Each simplex point is a − b, taken from A and B respectively.
    for p in r.simplex.points() {
        assert_eq!(p.w, p.a - p.b);
        assert!(a.contains(&p.a) && b.contains(&p.b));
        assert_ne!(p.index_a, NO_INDEX); // slices number their vertices
    }
    // Swapping the shapes flips the normal.
    assert_eq!(distance(&b, &a).normal, -DVec3::X);
}

/// Outputs stay in the frame the supports answer in, and closures carry no
/// vertex indices.
#[test]
fn frames_and_indices() {
    let a = support_fn(|d: DVec2| DVec2::new(10.0, 10.0) + d.normalize_or_zero());
    let r = distance(&a, &[DVec2::new(10.0, 13.0)]);
    assert!((r.distance - 2.0).abs() < 1e-12, "{r:?}");
    // On a curved surface GJK's witness point converges like the square root
    // of the distance accuracy (round shapes are exact through their cores).
    assert!((r.point_a - DVec2::new(10.0, 11.0)).length() < 1e-6, "{r:?}");
    assert!((r.normal - DVec2::Y).length() < 1e-6);
    assert!(r.simplex.points().iter().all(|p| p.index_a == NO_INDEX));
}
