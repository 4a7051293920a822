//! Contact manifolds of polytope pairs against the geometry they describe.

use gjk_epa::{ContactStatus, PolyhedronFaces, contact, polytope_manifold};
use gjk_shapes::glam::{DMat3, DQuat, DVec3};
use gjk_shapes::{ConvexHull, Cuboid, Pose, Transformed};
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

/// Two cubes crossing edge to edge: A turned 45° about x (its top is an
/// edge along x), B turned 45° about z (its bottom is an edge along z),
/// sunk 0.01 into each other. The least push is along +y, across both
/// edges; no face carries the contact (along A's nearest face normal, 45°
/// off, the cubes overlap by 0.36). Before the face test, the manifold was
/// clipped on that face anyway: its normal 45° off the contact's, its
/// points' depths measured along it.
#[test]
fn crossed_edges_give_one_point_along_the_contact_normal() {
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let h = 0.5 * 2f64.sqrt();
    let pa = Pose::new(DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4), DVec3::ZERO);
    let pb =
        Pose::new(DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4), DVec3::new(0.0, 2.0 * h - 0.01, 0.0));
    let c = contact(&cube, &pa, &cube, &pb);
    assert_eq!(c.status, ContactStatus::Penetrating);
    assert!((c.normal - DVec3::Y).length() < 1e-9 && (c.depth - 0.01).abs() < 1e-9, "{c:?}");
    for spec in [0.0, 0.05] {
        let m = polytope_manifold(&cube, &pa, &cube, &pb, &c, spec);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!((m.normal - DVec3::Y).length() < 1e-9, "{m:?}");
        let p = m.points()[0];
        assert!((p.depth - 0.01).abs() < 1e-9, "{p:?}");
        assert!((p.point_a - DVec3::new(0.0, h, 0.0)).length() < 1e-9, "{p:?}");
        assert!((p.point_b - DVec3::new(0.0, h - 0.01, 0.0)).length() < 1e-9, "{p:?}");
    }
}

/// A cube turned 8° about z touches a wide slab above it with its top
/// edge, 0.01 deep: the contact's face is B's (the slab's bottom, normal
/// −y), and the cube's top face is 8° off it. Before, the reference face
/// was chosen by alignment with a bias of 0.98 towards A, and cos 8° =
/// 0.990 kept the cube's face: the manifold's normal was 8° off and its
/// depths were measured along it. Now the overlap along each face's normal
/// decides: 0.01 along the slab's, 0.23 along the cube's.
#[test]
fn the_contact_face_on_b_is_the_reference() {
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let slab = Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap();
    let q = DQuat::from_rotation_z(8f64.to_radians());
    let top = q * DVec3::new(0.5, 0.5, 0.0);
    let pa = Pose::new(q, DVec3::ZERO);
    let pb = Pose::from_translation(DVec3::new(0.0, top.y - 0.01 + 0.5, 0.0));
    let c = contact(&cube, &pa, &slab, &pb);
    assert_eq!(c.status, ContactStatus::Penetrating);
    assert!((c.normal - DVec3::Y).length() < 1e-9 && (c.depth - 0.01).abs() < 1e-9, "{c:?}");
    let m = polytope_manifold(&cube, &pa, &slab, &pb, &c, 0.0);
    assert!((m.normal - DVec3::Y).length() < 1e-9, "{m:?}");
    assert_eq!(m.len(), 2, "{m:?}");
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < 1e-9, "{p:?}");
        // The cube's top edge, on A; its foot on the slab's bottom, on B.
        assert!((p.point_a.x - top.x).abs() < 1e-9 && (p.point_a.y - top.y).abs() < 1e-9, "{p:?}");
        assert!((p.point_a.z.abs() - 0.5).abs() < 1e-9, "{p:?}");
        assert!((p.point_b - (p.point_a - DVec3::Y * 0.01)).length() < 1e-9, "{p:?}");
    }
}

/// Under a non-uniform scale, the face most aligned with a direction is
/// found through the world normals (the inverse scale of the local ones),
/// checked against the facet planes of the world corners. Before, the
/// local direction was scaled the wrong way: a box scaled to a 10 × 0.5 ×
/// 10 slab answered "+x" for a direction 6° off its top.
#[test]
fn scaled_boxes_pick_faces_by_world_normals() {
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let slab = Transformed::with_scale(cube, Pose::IDENTITY, DVec3::new(10.0, 0.5, 10.0)).unwrap();
    let mut face = Vec::new();
    let n = slab.best_face(DVec3::new(0.1, 1.0, 0.0).normalize(), &mut face);
    assert!((n - DVec3::Y).length() < 1e-12, "{n:?}");
    let hull = ConvexHull::new(&box_corners(DVec3::splat(0.5), DMat3::IDENTITY, DVec3::ZERO)).unwrap();
    let mut rng = Rng::new(402);
    for i in 0..2000 {
        let scale = DVec3::new(rng.range(0.1, 10.0), rng.range(0.1, 10.0), rng.range(0.1, 10.0));
        let q = rng.quat();
        let t = Transformed::with_scale(cube, Pose::new(q, DVec3::new(1.0, -2.0, 3.0)), scale).unwrap();
        let planes = hull_planes(&box_corners(scale * 0.5, DMat3::from_quat(q), DVec3::new(1.0, -2.0, 3.0)));
        let dir = rng.unit3();
        let best = planes.iter().map(|(p, _)| p.dot(dir)).fold(f64::NEG_INFINITY, f64::max);
        // The box, and the hull of its corners (faces by a scan).
        let h = Transformed::with_scale(hull.clone(), t.pose(), scale).unwrap();
        for n in [t.best_face(dir, &mut face), h.best_face(dir, &mut face)] {
            assert!(n.dot(dir) >= best - 1e-12, "#{i}: {} < {best}", n.dot(dir));
            let (_, d) = planes.iter().find(|(p, _)| (*p - n).length() < 1e-9).expect("a facet's normal");
            assert_eq!(face.len(), 4, "#{i}");
            assert!(face.iter().all(|p| (p.dot(n) - d).abs() < 1e-9), "#{i}: {face:?}");
        }
    }
}

/// Apart by more than the speculative distance: no point (before, the
/// closest points came back at a depth below `−speculative`). A contact
/// with no geometry (a NaN pose) gives an empty manifold with a finite
/// normal.
#[test]
fn no_points_beyond_the_speculative_distance() {
    let ground = Cuboid::new(DVec3::new(10.0, 1.0, 10.0)).unwrap();
    let pg = Pose::from_translation(DVec3::new(0.0, -1.0, 0.0));
    let b = Cuboid::new(DVec3::splat(0.5)).unwrap();
    for (gap, spec, points) in [(0.1, 0.05, 0), (0.03, 0.05, 4), (0.05, 0.0, 0)] {
        let pb = Pose::from_translation(DVec3::new(0.0, 0.5 + gap, 0.0));
        let c = contact(&ground, &pg, &b, &pb);
        assert_eq!(c.status, ContactStatus::Separated);
        let m = polytope_manifold(&ground, &pg, &b, &pb, &c, spec);
        assert_eq!(m.len(), points, "gap {gap}, speculative {spec}: {m:?}");
        assert!(m.points().iter().all(|p| (p.depth + gap).abs() < 1e-12));
    }
    let bad = Pose::from_translation(DVec3::new(f64::NAN, 0.0, 0.0));
    let c = contact(&ground, &pg, &b, &bad);
    assert_eq!(c.status, ContactStatus::InvalidInput);
    let m = polytope_manifold(&ground, &pg, &b, &bad, &c, 0.05);
    assert!(m.is_empty() && m.normal.is_finite(), "{m:?}");
}

/// The 2D manifold of posed rectangles and polygons, with exact answers.
mod polygons {
    use gjk_epa::{ContactStatus, PolygonEdges, contact, polygon_manifold};
    use gjk_shapes::glam::DVec2;
    use gjk_shapes::{ConvexPolygon, Cuboid, Pose, Rot2, Transformed};
    use gjk_testkit::{Rng, hull_lines, polygon};

    fn at(angle: f64, x: f64, y: f64) -> Pose<DVec2> {
        Pose::new(Rot2::from_angle(angle), DVec2::new(x, y))
    }

    /// A square resting 0.01 deep on a floor: its two bottom corners, as
    /// Box2D's `b2CollidePolygons` gives; lifted 0.03 with a speculative
    /// distance of 0.05 the same corners at depth −0.03, and none with 0.02.
    #[test]
    fn a_square_on_the_floor_has_two_points() {
        let floor = Cuboid::new(DVec2::new(10.0, 1.0)).unwrap();
        let square = Cuboid::new(DVec2::splat(0.5)).unwrap();
        let pf = at(0.0, 0.0, -1.0);
        for (lift, spec, points) in [(-0.01, 0.0, 2), (0.03, 0.05, 2), (0.03, 0.02, 0)] {
            let ps = at(0.0, 1.0, 0.5 + lift);
            let c = contact(&floor, &pf, &square, &ps);
            let m = polygon_manifold(&floor, &pf, &square, &ps, &c, spec);
            assert_eq!(m.len(), points, "lift {lift}: {m:?}");
            assert!((m.normal - DVec2::Y).length() < 1e-12, "{m:?}");
            for p in m.points() {
                assert!((p.depth + lift).abs() < 1e-12, "{p:?}");
                assert!(
                    (p.point_b.y - lift).abs() < 1e-12 && ((p.point_b.x - 1.0).abs() - 0.5).abs() < 1e-12,
                    "{p:?}"
                );
                assert!(p.point_a.y.abs() < 1e-12 && p.point_a.x == p.point_b.x, "{p:?}");
            }
        }
    }

    /// A square turned 8° pokes a corner 0.01 into a slab above it: the
    /// slab's (B's) edge is the reference, one point at the corner.
    #[test]
    fn a_corner_under_a_slab_is_on_the_slab() {
        let square = Cuboid::new(DVec2::splat(0.5)).unwrap();
        let slab = Cuboid::new(DVec2::new(3.0, 0.5)).unwrap();
        let q = Rot2::from_angle(8f64.to_radians());
        let pa = Pose::new(q, DVec2::ZERO);
        let corner = pa.transform_point(DVec2::new(0.5, 0.5));
        let pb = at(0.0, 0.0, corner.y - 0.01 + 0.5);
        let c = contact(&square, &pa, &slab, &pb);
        assert_eq!(c.status, ContactStatus::Penetrating);
        let m = polygon_manifold(&square, &pa, &slab, &pb, &c, 0.0);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!((m.normal - DVec2::Y).length() < 1e-12, "{m:?}");
        let p = m.points()[0];
        assert!((p.depth - 0.01).abs() < 1e-12 && (p.point_a - corner).length() < 1e-12, "{p:?}");
        assert!((p.point_b - (corner - DVec2::Y * 0.01)).length() < 1e-12, "{p:?}");
    }

    /// A square overhanging an acute corner of a wide triangle's top edge
    /// (the edge beyond the corner leans in below it): the point past the
    /// corner moves onto the triangle's sloping edge, inside the triangle,
    /// where clipping to the top edge's end alone left it outside.
    #[test]
    fn acute_corners_clip_on_the_edge_beyond() {
        let tri = [DVec2::new(0.0, -0.2), DVec2::new(1.0, 0.0), DVec2::new(-1.0, 0.0)];
        let a = ConvexPolygon::new(&tri).unwrap();
        let square = Cuboid::new(DVec2::splat(0.5)).unwrap();
        for (shift, angle) in [(1.0, 0.0), (1.1, 0.03), (-1.05, -0.02)] {
            let pb = at(angle, shift, 0.5 - 0.05);
            let c = contact(&a, &Pose::IDENTITY, &square, &pb);
            let m = polygon_manifold(&a, &Pose::IDENTITY, &square, &pb, &c, 0.0);
            assert_eq!(m.len(), 2, "{m:?}");
            assert!((m.normal - DVec2::Y).length() < 1e-12, "{m:?}");
            let lines = hull_lines(&tri);
            for p in m.points() {
                let outside = lines.iter().map(|(n, d)| n.dot(p.point_b) - d).fold(f64::MIN, f64::max);
                assert!(outside <= 1e-12, "{p:?} outside the triangle by {outside}");
                assert!(
                    p.depth > 0.0 && ((p.point_a - p.point_b) - m.normal * p.depth).length() < 1e-12,
                    "{p:?}"
                );
            }
            // The outer point lies on the sloping edge (x = 0.75 at y = −0.05 unturned).
            let outer = m.points().iter().map(|p| p.point_b.x.abs()).fold(0.0, f64::max);
            let on_slope = m.points().iter().any(|p| {
                lines.iter().filter(|(n, _)| n.y < 0.0).any(|(n, d)| (n.dot(p.point_b) - d).abs() < 1e-12)
            });
            assert!(outer < 1.0 && on_slope, "{m:?}");
        }
    }

    /// A segment (a two-vertex polygon) lying 0.01 deep on a floor: both
    /// ends. A one-vertex polygon: the contact's own point.
    #[test]
    fn degenerate_polygons() {
        let floor = Cuboid::new(DVec2::new(10.0, 1.0)).unwrap();
        let pf = at(0.0, 0.0, -1.0);
        let segment = ConvexPolygon::new(&[DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0)]).unwrap();
        let ps = at(0.0, 0.5, -0.01);
        let c = contact(&floor, &pf, &segment, &ps);
        let m = polygon_manifold(&floor, &pf, &segment, &ps, &c, 0.0);
        assert_eq!(m.len(), 2, "{c:?} {m:?}");
        assert!(m.points().iter().all(|p| (p.depth - 0.01).abs() < 1e-12), "{m:?}");
        let point = ConvexPolygon::new(&[DVec2::new(0.3, 0.0)]).unwrap();
        let c = contact(&floor, &pf, &point, &ps);
        let m = polygon_manifold(&floor, &pf, &point, &ps, &c, 0.0);
        assert_eq!(m.len(), 1, "{c:?} {m:?}");
        assert!(
            (m.points()[0].depth - 0.01).abs() < 1e-12 && (m.normal - DVec2::Y).length() < 1e-12,
            "{m:?}"
        );
    }

    /// Under a non-uniform scale the edge most aligned with a direction is
    /// found through the world normals, checked against the edge lines of
    /// the world vertices.
    #[test]
    fn scaled_polygons_pick_edges_by_world_normals() {
        let mut rng = Rng::new(403);
        for i in 0..2000 {
            let n = rng.usize(3, 10);
            let local = polygon(&mut rng, n);
            let scale = DVec2::new(rng.range(0.1, 10.0), rng.range(0.1, 10.0));
            let pose = at(rng.range(0.0, 6.3), 1.0, -2.0);
            let t = Transformed::with_scale(ConvexPolygon::new(&local).unwrap(), pose, scale).unwrap();
            let world: Vec<DVec2> = local.iter().map(|p| pose.transform_point(*p * scale)).collect();
            let lines = hull_lines(&world);
            let dir = rng.unit2();
            let best = lines.iter().map(|(n, _)| n.dot(dir)).fold(f64::NEG_INFINITY, f64::max);
            let (e, n) = t.best_edge(dir);
            assert!(n.dot(dir) >= best - 1e-12, "#{i}: {} < {best}", n.dot(dir));
            let (_, d) = lines.iter().find(|(l, _)| (*l - n).length() < 1e-9).expect("an edge's normal");
            assert!(e.iter().all(|p| (p.dot(n) - d).abs() < 1e-9), "#{i}: {e:?}");
            // Counter-clockwise: the edge runs along the normal turned +90°.
            assert!((e[1] - e[0]).dot(n.perp()) > 0.0, "#{i}");
        }
    }
}

/// Round shapes (capsules, balls, rounded boxes) against flat faces: the
/// faces are their cores', the points their radii out along the normal
/// (the core-and-radius convention of Box2D's rounded polygons).
mod round {
    use gjk_epa::{ContactStatus, contact, polytope_manifold};
    use gjk_shapes::glam::{DQuat, DVec3};
    use gjk_shapes::{Ball, Capsule, Cuboid, Pose, Rounded, Transformed};

    /// A shape as the manifold and the contact take it, and its pose.
    type Case<'a> = (&'a dyn gjk_epa::PolyhedronFaces<DVec3>, &'a dyn gjk_shapes::Shape<DVec3>, Pose<DVec3>);

    fn floor() -> (Cuboid<DVec3>, Pose<DVec3>) {
        (Cuboid::new(DVec3::new(2.0, 1.0, 2.0)).unwrap(), Pose::from_translation(DVec3::new(0.0, -1.0, 0.0)))
    }

    /// A capsule lying along x, 0.01 deep: both ends of its segment; with
    /// one end hanging past the floor's rim, that end is cut at the rim.
    #[test]
    fn a_capsule_lying_on_a_floor_has_two_points() {
        let (f, pf) = floor();
        let cap = Capsule::new(0.5, 0.2).unwrap();
        let lying = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
        for (x, ends) in [(0.0, [-0.5, 0.5]), (1.8, [1.3, 2.0])] {
            let pc = Pose::new(lying, DVec3::new(x, 0.19, 0.3));
            let c = contact(&f, &pf, &cap, &pc);
            assert_eq!(c.status, ContactStatus::Penetrating);
            let m = polytope_manifold(&f, &pf, &cap, &pc, &c, 0.0);
            assert_eq!(m.len(), 2, "{m:?}");
            assert!((m.normal - DVec3::Y).length() < 1e-12, "{m:?}");
            let mut xs: Vec<f64> = m.points().iter().map(|p| p.point_b.x).collect();
            xs.sort_by(f64::total_cmp);
            assert!((xs[0] - ends[0]).abs() < 1e-12 && (xs[1] - ends[1]).abs() < 1e-12, "{xs:?}");
            for p in m.points() {
                assert!((p.depth - 0.01).abs() < 1e-12, "{p:?}");
                assert!((p.point_b - DVec3::new(p.point_b.x, -0.01, 0.3)).length() < 1e-12, "{p:?}");
                assert!((p.point_a - DVec3::new(p.point_b.x, 0.0, 0.3)).length() < 1e-12, "{p:?}");
            }
        }
    }

    /// A capsule lying across the floor's rim at any heading: at most two
    /// points, never the same point twice. Clipped as a polygon, its
    /// segment met the rim's side plane twice (once from each end), and
    /// the manifold kept both crossings, a rounding apart.
    #[test]
    fn a_capsule_across_the_rim_has_distinct_points() {
        let (f, pf) = floor();
        let cap = Capsule::new(0.5, 0.2).unwrap();
        for i in 0..200 {
            let yaw = i as f64 * 0.0314;
            let q = DQuat::from_rotation_y(yaw) * DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
            let pc = Pose::new(q, DVec3::new(1.8, 0.19, 0.1 + 0.003 * i as f64));
            let c = contact(&f, &pf, &cap, &pc);
            let m = polytope_manifold(&f, &pf, &cap, &pc, &c, 0.0);
            assert!(m.len() <= 2, "#{i}: {m:?}");
            if m.len() == 2 {
                let (p, q) = (m.points()[0], m.points()[1]);
                assert!((p.point_b - q.point_b).length() > 1e-9, "#{i}: the same point twice: {m:?}");
            }
        }
    }

    /// A capsule standing on its end, a ball, and a capsule tilted 0.3 rad:
    /// one point, the lowest, at the contact's depth.
    #[test]
    fn ends_and_balls_have_one_point() {
        let (f, pf) = floor();
        let cap = Capsule::new(0.5, 0.2).unwrap();
        let ball = Ball::new(0.3).unwrap();
        let tilted = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2 - 0.3);
        let low = 0.5 * 0.3f64.sin() + 0.2;
        let cases: [Case; 3] = [
            (&cap, &cap, Pose::from_translation(DVec3::new(0.2, 0.69, 0.0))),
            (&ball, &ball, Pose::from_translation(DVec3::new(0.2, 0.29, 0.0))),
            (&cap, &cap, Pose::new(tilted, DVec3::new(0.2, low - 0.01, 0.0))),
        ];
        for (i, (faces, shape, pose)) in cases.into_iter().enumerate() {
            let c = contact(&f, &pf, shape, &pose);
            assert_eq!(c.status, ContactStatus::Penetrating, "#{i}");
            let m = polytope_manifold(&f, &pf, faces, &pose, &c, 0.0);
            assert_eq!(m.len(), 1, "#{i}: {m:?}");
            let p = m.points()[0];
            assert!((p.depth - 0.01).abs() < 1e-12 && (m.normal - DVec3::Y).length() < 1e-12, "#{i}: {m:?}");
            assert!((p.point_b.y + 0.01).abs() < 1e-12 && p.point_a.y.abs() < 1e-12, "#{i}: {p:?}");
        }
    }

    /// A rounded box resting 0.01 deep: the four corners of its core's
    /// bottom face, the radius below; as reference (B above A's corner),
    /// its core face the radius out.
    #[test]
    fn rounded_boxes_rest_on_their_core_faces() {
        let (f, pf) = floor();
        let rb = Rounded::new(Cuboid::new(DVec3::splat(0.4)).unwrap(), 0.1).unwrap();
        let pr = Pose::new(DQuat::from_rotation_y(0.3), DVec3::new(0.1, 0.49, -0.2));
        let c = contact(&f, &pf, &rb, &pr);
        let m = polytope_manifold(&f, &pf, &rb, &pr, &c, 0.0);
        assert_eq!(m.len(), 4, "{m:?}");
        assert!((m.normal - DVec3::Y).length() < 1e-12, "{m:?}");
        for p in m.points() {
            assert!((p.depth - 0.01).abs() < 1e-12 && (p.point_b.y + 0.01).abs() < 1e-12, "{p:?}");
            let core = pr.inverse_transform_point(p.point_b + DVec3::Y * 0.1);
            assert!((core.abs() - DVec3::splat(0.4)).abs().max_element() < 1e-12, "a core corner: {core:?}");
        }
        // A wide rounded slab above a small box's top face, 0.01 deep: the
        // box's face is the reference (A's preferred; both overlap the
        // least along ±y), the box's top corners the points.
        let slab = Rounded::new(Cuboid::new(DVec3::new(2.0, 0.3, 2.0)).unwrap(), 0.1).unwrap();
        let small = Cuboid::new(DVec3::splat(0.5)).unwrap();
        let ps = Pose::from_translation(DVec3::new(0.0, 0.5 + 0.4 - 0.01, 0.0));
        let c = contact(&small, &Pose::IDENTITY, &slab, &ps);
        let m = polytope_manifold(&small, &Pose::IDENTITY, &slab, &ps, &c, 0.0);
        assert_eq!(m.len(), 4, "{m:?}");
        assert!((m.normal - DVec3::Y).length() < 1e-12, "{m:?}");
        for p in m.points() {
            assert!((p.depth - 0.01).abs() < 1e-12, "{p:?}");
            assert!((p.point_a.y - 0.5).abs() < 1e-12 && (p.point_b.y - 0.49).abs() < 1e-12, "{p:?}");
        }
    }

    /// A capsule under a non-uniform scale is no capsule: its support point
    /// stands in for a face, no radius is added, and the manifold is the
    /// one point at the contact's depth.
    #[test]
    fn a_scaled_capsule_is_one_support_point() {
        let (f, pf) = floor();
        let cap = Capsule::new(0.5, 0.2).unwrap();
        let t = Transformed::with_scale(cap, Pose::IDENTITY, DVec3::new(1.0, 1.0, 3.0)).unwrap();
        let pc = Pose::from_translation(DVec3::new(0.0, 0.69, 0.0));
        let c = contact(&f, &pf, &t, &pc);
        assert_eq!(c.status, ContactStatus::Penetrating);
        let m = polytope_manifold(&f, &pf, &t, &pc, &c, 0.0);
        assert_eq!(m.len(), 1, "{m:?}");
        let p = m.points()[0];
        assert!((p.depth - 0.01).abs() < 1e-9 && (p.point_b.y + 0.01).abs() < 1e-9, "{p:?}");
    }
}

/// Lines side by side (`line_pair`): parallel capsules and cylinders
/// lying along each other get the two ends of their common stretch (as
/// Box2D's capsules in 2D); lines that cross, or lie off a common plane
/// with the normal by more than the face slack, the contact's one point.
mod lines {
    use gjk_epa::tuning::FACE_CONTACT_TOLERANCE;
    use gjk_epa::{ContactManifold, ContactStatus, PolyhedronFaces, contact, polytope_manifold};
    use gjk_shapes::glam::{DQuat, DVec3};
    use gjk_shapes::{Capsule, Cylinder, Pose, Shape};
    use gjk_testkit::Rng;

    fn manifold<A, B>(a: &A, pa: &Pose<DVec3>, b: &B, pb: &Pose<DVec3>) -> ContactManifold<DVec3>
    where
        A: Shape<DVec3> + PolyhedronFaces<DVec3>,
        B: Shape<DVec3> + PolyhedronFaces<DVec3>,
    {
        let c = contact(a, pa, b, pb);
        assert_eq!(c.status, ContactStatus::Penetrating, "{c:?}");
        polytope_manifold(a, pa, b, pb, &c, 0.0)
    }

    /// A capsule lying on another along x, sunk 1e-3 – 0.03, slid along
    /// it: two points at the ends of their common stretch, at the depth,
    /// on both surfaces (closed form). Before, the contact's one point.
    #[test]
    fn parallel_capsules_have_the_ends_of_their_common_stretch() {
        let mut rng = Rng::new(8300);
        let onto_x = DQuat::from_rotation_z(-std::f64::consts::FRAC_PI_2);
        for i in 0..300 {
            let (ha, ra, hb, rb) =
                (rng.range(0.2, 1.5), rng.range(0.1, 0.5), rng.range(0.2, 1.5), rng.range(0.1, 0.5));
            let pen = rng.range(1e-3, 0.03);
            let slide = rng.range(-0.9, 0.9) * (ha + hb);
            let (a, b) = (Capsule::new(ha, ra).unwrap(), Capsule::new(hb, rb).unwrap());
            let pa = Pose::new(onto_x, DVec3::ZERO);
            let pb = Pose::new(onto_x, DVec3::new(slide, ra + rb - pen, 0.0));
            let m = manifold(&a, &pa, &b, &pb);
            let ctx = format!("#{i}: {m:?}");
            assert_eq!(m.len(), 2, "{ctx}");
            assert!((m.normal - DVec3::Y).length() < 1e-12, "{ctx}");
            let (lo, hi) = ((-ha).max(slide - hb), ha.min(slide + hb));
            let mut xs: Vec<f64> = m.points().iter().map(|p| p.point_b.x).collect();
            xs.sort_by(f64::total_cmp);
            assert!((xs[0] - lo).abs() < 1e-12 && (xs[1] - hi).abs() < 1e-12, "{ctx}: {xs:?} vs {lo}, {hi}");
            for p in m.points() {
                assert!((p.depth - pen).abs() < 1e-12, "{ctx}");
                assert!((p.point_a - DVec3::new(p.point_b.x, ra, 0.0)).length() < 1e-12, "{ctx}");
                assert!((p.point_b - DVec3::new(p.point_b.x, ra - pen, 0.0)).length() < 1e-12, "{ctx}");
            }
        }
    }

    /// Cylinders lying side by side along z (their sides' lines touch),
    /// across a random direction in the x–y plane: two points, at the
    /// depth.
    #[test]
    fn cylinders_lying_side_by_side_have_two_points() {
        let mut rng = Rng::new(8301);
        let onto_z = DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2);
        for i in 0..200 {
            let (ha, ra, hb, rb) =
                (rng.range(0.2, 1.5), rng.range(0.1, 0.5), rng.range(0.2, 1.5), rng.range(0.1, 0.5));
            let pen = rng.range(1e-3, 0.03);
            let phi = rng.range(-3.1, 3.1);
            let across = DVec3::new(phi.cos(), phi.sin(), 0.0);
            let slide = rng.range(-0.9, 0.9) * (ha + hb);
            let (a, b) = (Cylinder::new(ha, ra).unwrap(), Cylinder::new(hb, rb).unwrap());
            let spin = |rng: &mut Rng| DQuat::from_rotation_y(rng.range(0.0, 6.3));
            let pa = Pose::new(onto_z * spin(&mut rng), DVec3::ZERO);
            let pb = Pose::new(onto_z * spin(&mut rng), across * (ra + rb - pen) + DVec3::Z * slide);
            let m = manifold(&a, &pa, &b, &pb);
            let ctx = format!("#{i}: {m:?}");
            assert_eq!(m.len(), 2, "{ctx}");
            assert!((m.normal - across).length() < 1e-6, "{ctx}");
            for p in m.points() {
                assert!((p.depth - pen).abs() < 1e-6, "{ctx}");
            }
        }
    }

    /// Turned about the normal between them: by 1e-6 rad still two points
    /// (the ends lie off a common plane by far less than the face slack),
    /// each depth within the slack of the contact's; by 0.05 rad (capsules
    /// crossing), the contact's one point.
    #[test]
    fn lines_that_cross_have_one_point() {
        let onto_x = DQuat::from_rotation_z(-std::f64::consts::FRAC_PI_2);
        let cap = Capsule::new(1.0, 0.2).unwrap();
        let pa = Pose::new(onto_x, DVec3::ZERO);
        for (turn, count) in [(1e-6, 2), (0.05, 1), (0.5, 1)] {
            let pb = Pose::new(DQuat::from_rotation_y(turn) * onto_x, DVec3::new(0.1, 0.39, 0.0));
            let c = contact(&cap, &pa, &cap, &pb);
            let m = polytope_manifold(&cap, &pa, &cap, &pb, &c, 0.0);
            assert_eq!(m.len(), count, "turn {turn}: {m:?}");
            let slack = FACE_CONTACT_TOLERANCE * c.depth + 1e-12;
            assert!(m.points().iter().all(|p| (p.depth - c.depth).abs() <= slack), "turn {turn}: {m:?}");
        }
    }
}

/// 2D round shapes: a capsule's flat sides are edges (its core segment,
/// the radius out), a disc has none.
mod round_2d {
    use gjk_epa::{ContactStatus, PolygonEdges, contact, polygon_manifold};
    use gjk_shapes::glam::DVec2;
    use gjk_shapes::{Ball, Capsule, Cuboid, Pose, Rot2, Shape};

    fn at(angle: f64, x: f64, y: f64) -> Pose<DVec2> {
        Pose::new(Rot2::from_angle(angle), DVec2::new(x, y))
    }

    /// The manifold of `b` at `pb` on a floor whose top is y = 0.
    fn on_floor<B: Shape<DVec2> + PolygonEdges<DVec2>>(
        b: &B,
        pb: &Pose<DVec2>,
    ) -> gjk_epa::ContactManifold<DVec2> {
        let floor = Cuboid::new(DVec2::new(3.0, 1.0)).unwrap();
        let pf = at(0.0, 0.0, -1.0);
        let c = contact(&floor, &pf, b, pb);
        assert_eq!(c.status, ContactStatus::Penetrating);
        polygon_manifold(&floor, &pf, b, pb, &c, 0.0)
    }

    /// A capsule lying 0.01 deep: both ends of its segment, the radius
    /// below; on its end, or a disc: one point.
    #[test]
    fn capsules_and_discs_on_a_floor() {
        let cap = Capsule::new(0.5, 0.2).unwrap();
        let m = on_floor(&cap, &at(std::f64::consts::FRAC_PI_2, 0.4, 0.19));
        assert_eq!(m.len(), 2, "{m:?}");
        assert!((m.normal - DVec2::Y).length() < 1e-12, "{m:?}");
        for p in m.points() {
            assert!((p.depth - 0.01).abs() < 1e-12 && (p.point_b.y + 0.01).abs() < 1e-12, "{p:?}");
            assert!(((p.point_b.x - 0.4).abs() - 0.5).abs() < 1e-12 && p.point_a.y.abs() < 1e-12, "{p:?}");
        }
        for m in
            [on_floor(&cap, &at(0.0, 0.4, 0.69)), on_floor(&Ball::new(0.3).unwrap(), &at(0.0, 0.4, 0.29))]
        {
            assert_eq!(m.len(), 1, "{m:?}");
            let p = m.points()[0];
            assert!(
                (p.depth - 0.01).abs() < 1e-12 && (p.point_b - DVec2::new(0.4, -0.01)).length() < 1e-12,
                "{p:?}"
            );
        }
    }

    /// Two capsules side by side, overlapping by 0.02 along half their
    /// length: two points, where the shorter segment's ends fall within
    /// the longer's and the radii meet (Box2D's `b2CollideCapsules`).
    #[test]
    fn parallel_capsules_have_two_points() {
        let long = Capsule::new(1.0, 0.2).unwrap();
        let short = Capsule::new(0.5, 0.3).unwrap();
        let pa = at(std::f64::consts::FRAC_PI_2, 0.0, 0.0);
        let pb = at(std::f64::consts::FRAC_PI_2, 0.8, 0.48);
        let c = contact(&long, &pa, &short, &pb);
        assert_eq!(c.status, ContactStatus::Penetrating);
        let m = polygon_manifold(&long, &pa, &short, &pb, &c, 0.0);
        assert_eq!(m.len(), 2, "{m:?}");
        assert!((m.normal - DVec2::Y).length() < 1e-12, "{m:?}");
        let mut xs: Vec<f64> = m.points().iter().map(|p| p.point_a.x).collect();
        xs.sort_by(f64::total_cmp);
        assert!((xs[0] - 0.3).abs() < 1e-12 && (xs[1] - 1.0).abs() < 1e-12, "{xs:?}");
        for p in m.points() {
            assert!((p.depth - 0.02).abs() < 1e-12, "{p:?}");
            assert!((p.point_a.y - 0.2).abs() < 1e-12 && (p.point_b.y - 0.18).abs() < 1e-12, "{p:?}");
        }
    }
}

/// A NaN speculative distance counts as 0: the resting box's four points,
/// the lifted one's none; never a NaN.
#[test]
fn a_nan_speculative_distance_counts_as_zero() {
    let ground = Cuboid::new(DVec3::new(10.0, 1.0, 10.0)).unwrap();
    let pg = Pose::from_translation(DVec3::new(0.0, -1.0, 0.0));
    let b = Cuboid::new(DVec3::splat(0.5)).unwrap();
    for (y, points) in [(0.49, 4), (0.52, 0)] {
        let pb = Pose::from_translation(DVec3::new(0.0, y, 0.0));
        let c = contact(&ground, &pg, &b, &pb);
        let m = polytope_manifold(&ground, &pg, &b, &pb, &c, f64::NAN);
        assert_eq!(m.len(), points, "{m:?}");
        assert!(m.normal.is_finite() && m.points().iter().all(|p| p.depth.is_finite()), "{m:?}");
    }
}

/// A box overhanging the rim of an inverted frustum (its sides lean in
/// below its top face: dihedral angles under 90°): the box's bottom face
/// is clipped on the frustum's side face too, so every point lies inside
/// the frustum (its facet planes by brute force), where clipping to the
/// top face's side planes alone left the points past the rim outside it.
#[test]
fn overhanging_rims_clip_on_the_face_beyond() {
    let mut frustum = Vec::new();
    for (h, y) in [(1.0, 0.0), (0.3, -1.0)] {
        for (x, z) in [(-h, -h), (h, -h), (h, h), (-h, h)] {
            frustum.push(DVec3::new(x, y, z));
        }
    }
    let a = ConvexHull::new(&frustum).unwrap();
    let planes = hull_planes(&frustum);
    let b = Cuboid::new(DVec3::splat(0.5)).unwrap();
    for (x, turn) in [(1.0, 0.0), (1.2, 0.1), (-0.9, 0.4)] {
        let pb = Pose::new(DQuat::from_rotation_y(turn), DVec3::new(x, 0.45, 0.1));
        let c = contact(&a, &Pose::IDENTITY, &b, &pb);
        assert_eq!(c.status, ContactStatus::Penetrating);
        let m = polytope_manifold(&a, &Pose::IDENTITY, &b, &pb, &c, 0.0);
        assert!(m.len() >= 3 && (m.normal - DVec3::Y).length() < 1e-12, "{m:?}");
        for p in m.points() {
            let outside = planes.iter().map(|(n, d)| n.dot(p.point_b) - d).fold(f64::MIN, f64::max);
            assert!(outside <= 1e-12, "x {x}: {p:?} outside the frustum by {outside}");
            assert!(
                p.depth > 0.0 && ((p.point_a - p.point_b) - m.normal * p.depth).length() < 1e-12,
                "{p:?}"
            );
        }
        // Past the rim the points sit on a sloping side: |x| < 1 at depth 0.05.
        assert!(m.points().iter().all(|p| p.point_b.x.abs() < 1.0 - 1e-3), "{m:?}");
    }
}

/// A square antiprism narrowing downwards: below each corner of its top
/// face a triangle meets the face only at that vertex and leans in. A box
/// overhanging a corner is clipped on it too (the hull names its top
/// face's neighbours), so every point lies inside the antiprism; the
/// faces across the edges alone left the corner's point outside.
#[test]
fn faces_meeting_a_corner_clip_too() {
    let mut prism = vec![
        DVec3::new(-1.0, 0.0, -1.0),
        DVec3::new(1.0, 0.0, -1.0),
        DVec3::new(1.0, 0.0, 1.0),
        DVec3::new(-1.0, 0.0, 1.0),
    ];
    prism.extend([(0.6, 0.0), (-0.6, 0.0), (0.0, 0.6), (0.0, -0.6)].map(|(x, z)| DVec3::new(x, -1.0, z)));
    let a = ConvexHull::new(&prism).unwrap();
    let planes = hull_planes(&prism);
    let b = Cuboid::new(DVec3::splat(0.5)).unwrap();
    for (x, z, turn) in [(1.1, 1.1, 0.0), (-1.15, 1.05, 0.2), (1.2, -1.1, -0.3)] {
        let pb = Pose::new(DQuat::from_rotation_y(turn), DVec3::new(x, 0.45, z));
        let c = contact(&a, &Pose::IDENTITY, &b, &pb);
        let m = polytope_manifold(&a, &Pose::IDENTITY, &b, &pb, &c, 0.0);
        assert!(m.len() >= 3 && (m.normal - DVec3::Y).length() < 1e-12, "{m:?}");
        for p in m.points() {
            let outside = planes.iter().map(|(n, d)| n.dot(p.point_b) - d).fold(f64::MIN, f64::max);
            assert!(outside <= 1e-12, "({x}, {z}): {p:?} outside the antiprism by {outside}");
        }
    }
}

/// A flat hull (a plate: its points in one plane) is one face seen from
/// either side: lying 0.01 deep on a floor, its four corners (before, its
/// support point alone); a box resting on it, upside down, the box's
/// corners on the plate's face. A hull of collinear points (a rod) lying on
/// the floor: both ends.
#[test]
fn flat_hulls_are_faces() {
    let ground = Cuboid::new(DVec3::new(5.0, 0.5, 5.0)).unwrap();
    let pg = Pose::from_translation(DVec3::new(0.0, -0.5, 0.0));
    let corners = [
        DVec3::new(-0.5, 0.0, -0.5),
        DVec3::new(0.5, 0.0, -0.5),
        DVec3::new(0.0, 0.0, 0.1),
        DVec3::new(0.5, 0.0, 0.5),
        DVec3::new(-0.5, 0.0, 0.5),
    ];
    let plate = ConvexHull::new(&corners).unwrap();
    assert!(plate.polygons().is_empty());
    let pp = Pose::new(DQuat::from_rotation_y(0.3), DVec3::new(0.2, -0.01, 0.1));
    let c = contact(&ground, &pg, &plate, &pp);
    let m = polytope_manifold(&ground, &pg, &plate, &pp, &c, 0.0);
    assert_eq!(m.len(), 4, "{m:?}");
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < 1e-12 && (m.normal - DVec3::Y).length() < 1e-12, "{m:?}");
        let local = pp.inverse_transform_point(p.point_b);
        assert!(
            (local.x.abs() - 0.5).abs() < 1e-12 && (local.z.abs() - 0.5).abs() < 1e-12,
            "a corner: {local:?}"
        );
    }
    // The plate as the reference: a small box sunk 0.01 into it from above.
    let b = Cuboid::new(DVec3::splat(0.2)).unwrap();
    let pb = Pose::from_translation(DVec3::new(0.1, 0.19, 0.0));
    let c = contact(&plate, &Pose::IDENTITY, &b, &pb);
    let m = polytope_manifold(&plate, &Pose::IDENTITY, &b, &pb, &c, 0.0);
    assert_eq!(m.len(), 4, "{c:?} {m:?}");
    assert!((m.normal - DVec3::Y).length() < 1e-12, "{m:?}");
    assert!(m.points().iter().all(|p| (p.depth - 0.01).abs() < 1e-12 && p.point_a.y.abs() < 1e-12), "{m:?}");
    // A rod.
    let rod =
        ConvexHull::new(&[DVec3::new(-0.4, 0.0, 0.0), DVec3::new(0.0, 0.0, 0.0), DVec3::new(0.4, 0.0, 0.0)])
            .unwrap();
    let pr = Pose::new(DQuat::from_rotation_y(0.7), DVec3::new(0.0, -0.01, 0.0));
    let c = contact(&ground, &pg, &rod, &pr);
    let m = polytope_manifold(&ground, &pg, &rod, &pr, &c, 0.0);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(m.points().iter().all(|p| (p.depth - 0.01).abs() < 1e-12), "{m:?}");
}

/// Cylinders and cones on a floor: their caps (a cone's base) are faces
/// of `DISC_FACE_POINTS` rim points, their sides lines (two points,
/// clipped, never a reference face). Closed forms: the rim, the lowest
/// point (`revolved_lowest`), the ends of the lowest line.
mod revolved {
    use gjk_epa::tuning::DISC_FACE_POINTS;
    use gjk_epa::{ContactManifold, ContactStatus, PolyhedronFaces, contact, polytope_manifold};
    use gjk_shapes::glam::{DQuat, DVec3};
    use gjk_shapes::{Cone, Cuboid, Cylinder, Pose, Rounded, Shape, Transformed};
    use gjk_testkit::{Revolved, Rng, revolved_lowest};

    /// The floor's top at y = 0.
    fn floor() -> (Cuboid<DVec3>, Pose<DVec3>) {
        (
            Cuboid::new(DVec3::new(10.0, 1.0, 10.0)).unwrap(),
            Pose::from_translation(DVec3::new(0.0, -1.0, 0.0)),
        )
    }

    /// The manifold of `b` at `pose` on the floor, its contact penetrating.
    fn on_floor<B: Shape<DVec3> + PolyhedronFaces<DVec3>>(
        b: &B,
        pose: &Pose<DVec3>,
    ) -> ContactManifold<DVec3> {
        let (f, pf) = floor();
        let c = contact(&f, &pf, b, pose);
        assert_eq!(c.status, ContactStatus::Penetrating, "{c:?}");
        polytope_manifold(&f, &pf, b, pose, &c, 0.0)
    }

    /// Twice the area of the quadrilateral `p` (in order or not: the
    /// largest over the three orders), projected on the floor.
    fn quad_area(p: &[DVec3]) -> f64 {
        let flat = |v: DVec3| DVec3::new(v.x, 0.0, v.z);
        let area = |a: DVec3, b: DVec3, c: DVec3, d: DVec3| {
            (flat(c) - flat(a)).cross(flat(d) - flat(b)).length() / 2.0
        };
        area(p[0], p[1], p[2], p[3]).max(area(p[0], p[2], p[1], p[3])).max(area(p[0], p[1], p[3], p[2]))
    }

    /// Standing on a cap (a cone on its base), sunk 1e-3 – 0.05 at any
    /// heading: four rim points at the depth, spanning the largest square
    /// the rim polygon holds (area 2 r²). Rounded cylinders the same, their
    /// core's rim the radius out along the normal.
    #[test]
    fn standing_on_a_cap_gives_four_rim_points() {
        assert_eq!(DISC_FACE_POINTS, 8, "the square below is the octagon's");
        let mut rng = Rng::new(8200);
        for i in 0..300 {
            let (h, r, pen) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(1e-3, 0.05));
            let round = [0.0, rng.range(0.01, 0.1)][i % 2];
            let yaw = DQuat::from_rotation_y(rng.range(0.0, 6.3));
            let at = DVec3::new(rng.range(-3.0, 3.0), h + round - pen, rng.range(-3.0, 3.0));
            let pose = Pose::new(yaw, at);
            let ms = if round == 0.0 {
                [on_floor(&Cylinder::new(h, r).unwrap(), &pose), on_floor(&Cone::new(h, r).unwrap(), &pose)]
            } else {
                let cyl = Rounded::new(Cylinder::new(h, r).unwrap(), round).unwrap();
                let cone = Rounded::new(Cone::new(h, r).unwrap(), round).unwrap();
                [on_floor(&cyl, &pose), on_floor(&cone, &pose)]
            };
            for m in ms {
                let ctx = format!("#{i} h {h} r {r} round {round} pen {pen}: {m:?}");
                assert_eq!(m.len(), 4, "{ctx}");
                assert!((m.normal - DVec3::Y).length() < 1e-12, "{ctx}");
                for p in m.points() {
                    assert!((p.depth - pen).abs() < 1e-12, "{ctx}");
                    assert!((p.point_b.y + pen).abs() < 1e-12 && p.point_a.y.abs() < 1e-12, "{ctx}");
                    let rho = (p.point_b - DVec3::new(at.x, p.point_b.y, at.z)).length();
                    assert!((rho - r).abs() < 1e-12, "{ctx}: {rho}");
                }
                let b: Vec<DVec3> = m.points().iter().map(|p| p.point_b).collect();
                assert!((quad_area(&b) - 2.0 * r * r).abs() < 1e-9, "{ctx}: {}", quad_area(&b));
            }
        }
    }

    /// Tilted 0.02 – 0.6 rad onto a cap's rim (a cone's base rim): the
    /// deepest point is the closed-form lowest point at the depth (the
    /// rim polygon starts at the rim's support point); no point deeper.
    #[test]
    fn a_tilted_cap_keeps_its_lowest_rim_point() {
        let mut rng = Rng::new(8201);
        for i in 0..400 {
            let kind = [Revolved::Cylinder, Revolved::Cone][i % 2];
            let (h, r, pen) = (rng.range(0.2, 1.0), rng.range(0.2, 1.0), rng.range(1e-3, 0.02));
            let q = DQuat::from_rotation_y(rng.range(0.0, 6.3))
                * DQuat::from_axis_angle(DVec3::X, rng.range(0.02, 0.6))
                * DQuat::from_rotation_y(rng.range(0.0, 6.3));
            let low = revolved_lowest(kind, h, r, q, DVec3::ZERO);
            let at = DVec3::new(rng.range(-3.0, 3.0), -low.y - pen, rng.range(-3.0, 3.0));
            let pose = Pose::new(q, at);
            let m = match kind {
                Revolved::Cylinder => on_floor(&Cylinder::new(h, r).unwrap(), &pose),
                Revolved::Cone => on_floor(&Cone::new(h, r).unwrap(), &pose),
            };
            let ctx = format!("#{i} {kind:?} h {h} r {r} pen {pen}: {m:?}");
            assert!((m.normal - DVec3::Y).length() < 1e-12, "{ctx}");
            let deepest = m.points().iter().max_by(|a, b| a.depth.total_cmp(&b.depth)).unwrap();
            assert!((deepest.depth - pen).abs() < 1e-12, "{ctx}");
            assert!((deepest.point_b - (at + low)).length() < 1e-9, "{ctx}: lowest {}", at + low);
        }
    }

    /// Lying on the side (a cone on a line of its side), sunk 1e-3 – 0.05:
    /// the two ends of the lowest line at the depth (a cylinder's caps'
    /// lowest points; a cone's apex and its base's lowest point).
    #[test]
    fn lying_on_the_side_gives_the_lowest_line_s_ends() {
        let mut rng = Rng::new(8202);
        for i in 0..300 {
            let kind = [Revolved::Cylinder, Revolved::Cone][i % 2];
            let (h, r, pen) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(1e-3, 0.05));
            let lie = match kind {
                Revolved::Cylinder => std::f64::consts::FRAC_PI_2,
                Revolved::Cone => std::f64::consts::FRAC_PI_2 + (r / (2.0 * h)).atan(),
            };
            let q = DQuat::from_rotation_y(rng.range(0.0, 6.3)) * DQuat::from_rotation_z(lie);
            let axis = q * DVec3::Y;
            // The lowest line's ends, in the shape's frame turned by `q`.
            let down = DVec3::new(0.0, -1.0, 0.0);
            let across = (down - axis * down.dot(axis)).normalize();
            let ends = match kind {
                Revolved::Cylinder => [across * r - axis * h, across * r + axis * h],
                Revolved::Cone => [across * r - axis * h, axis * h],
            };
            let lift = -ends[0].y;
            let at = DVec3::new(rng.range(-3.0, 3.0), lift - pen, rng.range(-3.0, 3.0));
            let pose = Pose::new(q, at);
            let m = match kind {
                Revolved::Cylinder => on_floor(&Cylinder::new(h, r).unwrap(), &pose),
                Revolved::Cone => on_floor(&Cone::new(h, r).unwrap(), &pose),
            };
            let ctx = format!("#{i} {kind:?} h {h} r {r} pen {pen}: {m:?}");
            assert_eq!(m.len(), 2, "{ctx}");
            assert!((m.normal - DVec3::Y).length() < 1e-12, "{ctx}");
            for p in m.points() {
                assert!((p.depth - pen).abs() < 1e-9, "{ctx}");
                let near =
                    ends.iter().map(|e| (p.point_b - (at + *e)).length()).fold(f64::INFINITY, f64::min);
                assert!(near < 1e-9, "{ctx}: {near}");
            }
        }
    }

    /// A wide box sunk 0.02 onto an upturned cone's base (radius 1, half
    /// height 0.25, apex down): the base's rim polygon clips the box's
    /// face, and the side's tangent planes (the base's faces around, which
    /// lean in below it) clip it again, so every point lies within the
    /// cone's section 0.02 down (radius 0.96) but for the tangent planes'
    /// polygon (32 planes: 0.96 / cos(π / 32)). The rim polygon alone left
    /// its corners at radius 1, 0.04 outside the cone.
    #[test]
    fn a_box_on_an_upturned_cone_is_clipped_to_its_side() {
        let cone = Cone::new(0.25, 1.0).unwrap();
        let upturned = Pose::new(DQuat::from_rotation_x(std::f64::consts::PI), DVec3::new(0.3, -0.25, -0.2));
        let lid = Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap();
        for yaw in [0.0, 0.2, 0.7, 1.3] {
            let pose = Pose::new(DQuat::from_rotation_y(yaw), DVec3::new(0.3, 0.48, -0.2));
            let c = contact(&cone, &upturned, &lid, &pose);
            assert_eq!(c.status, ContactStatus::Penetrating, "{c:?}");
            let m = polytope_manifold(&cone, &upturned, &lid, &pose, &c, 0.0);
            assert_eq!(m.len(), 4, "yaw {yaw}: {m:?}");
            assert!((m.normal - DVec3::Y).length() < 1e-12, "yaw {yaw}: {m:?}");
            let bound = 0.96 / (std::f64::consts::PI / 32.0).cos();
            for p in m.points() {
                assert!((p.depth - 0.02).abs() < 1e-12, "yaw {yaw}: {m:?}");
                let rho = (p.point_b - DVec3::new(0.3, p.point_b.y, -0.2)).length();
                assert!(rho <= bound + 1e-12 && rho > 0.9, "yaw {yaw}: radius {rho}: {m:?}");
            }
        }
    }

    /// An elliptic cylinder (a cylinder under the scale (2, 1, 0.5):
    /// `best_face_by` picks its faces by world normals) standing on its
    /// cap: four points at the depth, on the ellipse of its rim.
    #[test]
    fn a_scaled_cylinder_stands_on_its_elliptic_cap() {
        let mut rng = Rng::new(8203);
        for i in 0..100 {
            let (h, r, pen) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(1e-3, 0.05));
            let scale = DVec3::new(2.0, 1.0, 0.5);
            let place = Pose::from_rotation(DQuat::IDENTITY);
            let s = Transformed::with_scale(Cylinder::new(h, r).unwrap(), place, scale).unwrap();
            let at = DVec3::new(rng.range(-3.0, 3.0), h - pen, rng.range(-3.0, 3.0));
            let pose = Pose::new(DQuat::from_rotation_y(rng.range(0.0, 6.3)), at);
            let m = on_floor(&s, &pose);
            let ctx = format!("#{i} h {h} r {r} pen {pen}: {m:?}");
            assert_eq!(m.len(), 4, "{ctx}");
            for p in m.points() {
                assert!((p.depth - pen).abs() < 1e-12, "{ctx}");
                let local = pose.inverse_transform_point(p.point_b);
                let e = (local.x / 2.0).hypot(local.z / 0.5);
                assert!((e - r).abs() < 1e-9, "{ctx}: {local}");
            }
        }
    }
}

/// One workspace kept across thousands of pairs of every kind (boxes,
/// hulls with overhanging rims, capsules side by side, cylinders, balls;
/// faces of 1 to 12 points, clipped or not, reduced or not) gives exactly
/// the manifold a fresh one gives: it holds no state between calls.
#[test]
fn a_reused_workspace_gives_the_same_manifolds() {
    use gjk_epa::{ManifoldWorkspace, polytope_manifold_with};
    use gjk_shapes::{Ball, Capsule, Cylinder, Shape};
    let mut rng = Rng::new(9950);
    let mut ws = ManifoldWorkspace::new();
    let shapes: Vec<Box<dyn FacedShape>> = vec![
        Box::new(Cuboid::new(DVec3::new(1.0, 0.3, 0.6)).unwrap()),
        Box::new(ConvexHull::new(&polyhedron(&mut rng, 12)).unwrap()),
        Box::new(ConvexHull::new(&polyhedron(&mut rng, 40)).unwrap()),
        Box::new(Capsule::new(0.8, 0.2).unwrap()),
        Box::new(Cylinder::new(0.5, 0.4).unwrap()),
        Box::new(Ball::new(0.5).unwrap()),
    ];
    let (mut compared, mut points, mut pairs_of_two) = (0, 0, 0);
    for i in 0..3_000 {
        let (a, b) = (&shapes[rng.usize(0, shapes.len() - 1)], &shapes[rng.usize(0, shapes.len() - 1)]);
        let pa = Pose::new(rng.quat(), DVec3::ZERO);
        let mut pb = Pose::new(rng.quat(), rng.unit3() * rng.range(0.3, 2.0));
        let (a, b) = if i % 4 == 3 {
            // Two capsules lying along each other: a line pair.
            pb = Pose::new(pa.rotation, pa.transform_vector(DVec3::new(0.38, rng.range(-1.0, 1.0), 0.0)));
            (&shapes[3], &shapes[3])
        } else {
            (a, b)
        };
        let c = contact(a.as_ref() as &dyn Shape<DVec3>, &pa, b.as_ref() as &dyn Shape<DVec3>, &pb);
        let (fa, fb) = (a.as_ref() as &dyn PolyhedronFaces<DVec3>, b.as_ref() as &dyn PolyhedronFaces<DVec3>);
        let fresh = polytope_manifold(fa, &pa, fb, &pb, &c, 0.1);
        let reused = polytope_manifold_with(&mut ws, fa, &pa, fb, &pb, &c, 0.1);
        assert_eq!(fresh, reused, "#{i}");
        compared += 1;
        points += fresh.len();
        pairs_of_two += usize::from(i % 4 == 3 && fresh.len() == 2);
    }
    assert!(compared == 3_000 && points > 1_500 && pairs_of_two > 500, "{points} points, {pairs_of_two}");
}

/// A shape the manifold and the contact both take.
trait FacedShape: gjk_shapes::Shape<DVec3> + PolyhedronFaces<DVec3> {}
impl<T: gjk_shapes::Shape<DVec3> + PolyhedronFaces<DVec3>> FacedShape for T {}
