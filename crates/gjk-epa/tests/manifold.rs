//! Contact manifolds of polytope pairs against the geometry they describe.

use gjk_epa::{ContactStatus, contact, polytope_manifold};
use gjk_shapes::glam::{DMat3, DQuat, DVec3};
use gjk_shapes::{ConvexHull, Cuboid, Pose};
use gjk_testkit::*;

/// Whether `p` lies in the posed box (within `tol`).
fn in_box(p: DVec3, half: DVec3, pose: &Pose<DVec3>, tol: f64) -> bool {
    (pose.inverse_transform_point(p).abs() - half).max_element() <= tol
}

#[test]
fn box_resting_on_ground_has_four_points() {
    let mut rng = Rng::new(400);
    let ground = Cuboid::new(DVec3::new(10.0, 1.0, 10.0)).unwrap();
    let pg = Pose::from_translation(DVec3::new(0.0, -1.0, 0.0));
    for i in 0..500 {
        let half = DVec3::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0), rng.range(0.2, 1.0));
        let pen = rng.range(1e-4, 0.05);
        let pb = Pose::new(
            DQuat::from_rotation_y(rng.range(0.0, 6.3)),
            DVec3::new(rng.range(-3.0, 3.0), half.y - pen, rng.range(-3.0, 3.0)),
        );
        let b = Cuboid::new(half).unwrap();
        let c = contact(&ground, &pg, &b, &pb);
        assert_eq!(c.status, ContactStatus::Penetrating, "#{i}");
        let m = polytope_manifold(&ground, &pg, &b, &pb, &c, 0.0);
        assert_eq!(m.len(), 4, "#{i}: {m:?}");
        assert!((m.normal - DVec3::Y).length() < 1e-9, "#{i}");
        for p in m.points() {
            assert!((p.depth - pen).abs() < 1e-9, "#{i}: depth {} vs {pen}", p.depth);
            assert!((p.point_a.y).abs() < 1e-9, "#{i}: point on the ground's top face");
            assert!(in_box(p.point_b, half, &pb, 1e-9), "#{i}: point on the box");
            assert!(((p.point_a - p.point_b) - m.normal * p.depth).length() < 1e-9, "#{i}");
        }
    }
}

#[test]
fn box_on_edge_has_two_points() {
    let ground = Cuboid::new(DVec3::new(10.0, 1.0, 10.0)).unwrap();
    let pg = Pose::from_translation(DVec3::new(0.0, -1.0, 0.0));
    let b = Cuboid::new(DVec3::splat(0.5)).unwrap();
    // Rotated 45° about z: resting on an edge, sunk by 0.01.
    let pb = Pose::new(
        DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4),
        DVec3::new(0.0, 0.5 * 2f64.sqrt() - 0.01, 0.0),
    );
    let c = contact(&ground, &pg, &b, &pb);
    let m = polytope_manifold(&ground, &pg, &b, &pb, &c, 0.0);
    assert_eq!(m.len(), 2, "{m:?}");
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < 1e-9);
        assert!(p.point_b.x.abs() < 1e-9 && (p.point_b.z.abs() - 0.5).abs() < 1e-9, "{p:?}");
    }
    // A speculative margin keeps points still apart by less than it.
    let lifted = Pose::new(pb.rotation, pb.translation + DVec3::Y * 0.02);
    let c = contact(&ground, &pg, &b, &lifted);
    assert_eq!(c.status, ContactStatus::Separated);
    let m = polytope_manifold(&ground, &pg, &b, &lifted, &c, 0.05);
    assert_eq!(m.len(), 2);
    assert!(m.points().iter().all(|p| (p.depth + 0.01).abs() < 1e-9));
}

/// Random overlapping box pairs: every manifold point lies in both boxes'
/// surfaces' neighbourhood, depths never exceed the contact depth, and the
/// deepest equals it for face contacts.
#[test]
fn random_box_pairs() {
    let mut rng = Rng::new(401);
    let mut multi = 0;
    for i in 0..2000 {
        let ha = DVec3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5));
        let hb = DVec3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5));
        let pa = Pose::new(rng.quat(), DVec3::ZERO);
        let pb = Pose::new(rng.quat(), rng.unit3() * rng.range(0.5, 2.5));
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let c = contact(&a, &pa, &b, &pb);
        if c.status != ContactStatus::Penetrating {
            continue;
        }
        let m = polytope_manifold(&a, &pa, &b, &pb, &c, 0.0);
        assert!(!m.is_empty() && m.len() <= 4, "#{i}");
        assert!(m.normal.dot(c.normal) > 0.5, "#{i}: manifold normal far from contact normal");
        let tol = 1e-6 + c.depth;
        for p in m.points() {
            assert!(in_box(p.point_a, ha, &pa, tol) && in_box(p.point_b, hb, &pb, tol), "#{i}: {p:?}");
            assert!(
                p.depth <= c.depth / m.normal.dot(c.normal) + 1e-6,
                "#{i}: depth {} > {}",
                p.depth,
                c.depth
            );
            assert!(p.depth >= -1e-9);
        }
        if m.len() > 1 {
            multi += 1;
        }
    }
    assert!(multi > 200, "{multi}");
}

/// A hull built from a box's corners gives the same manifold as the box.
#[test]
fn hull_faces_match_box() {
    let half = DVec3::new(0.5, 0.3, 0.7);
    let hull = ConvexHull::new(&box_corners(half, DMat3::IDENTITY, DVec3::ZERO)).unwrap();
    assert_eq!(hull.polygons().len(), 6);
    assert!(hull.polygons().iter().all(|f| f.vertices.len() == 4));
    let ground = Cuboid::new(DVec3::new(5.0, 1.0, 5.0)).unwrap();
    let pg = Pose::from_translation(DVec3::new(0.0, -1.0, 0.0));
    let pb = Pose::new(DQuat::from_rotation_y(0.4), DVec3::new(0.1, 0.29, 0.2));
    let c1 = contact(&ground, &pg, &hull, &pb);
    let m1 = polytope_manifold(&ground, &pg, &hull, &pb, &c1, 0.0);
    let c2 = contact(&ground, &pg, &Cuboid::new(half).unwrap(), &pb);
    let m2 = polytope_manifold(&ground, &pg, &Cuboid::new(half).unwrap(), &pb, &c2, 0.0);
    assert_eq!(m1.len(), 4);
    assert_eq!(m2.len(), 4);
    for p in m1.points() {
        assert!(
            m2.points()
                .iter()
                .any(|q| (q.point_b - p.point_b).length() < 1e-9 && (q.depth - p.depth).abs() < 1e-9)
        );
    }
}
