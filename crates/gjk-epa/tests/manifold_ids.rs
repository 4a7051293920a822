//! Feature ids of manifold points (`ManifoldPoint::id`): a point keeps its
//! id while the same features make it, wherever the pair is placed, and
//! gets a new one when its features change, so that a physics engine can
//! carry each point's impulses from frame to frame (Box2D's point ids).

use gjk_epa::{
    ContactManifold, ContactStatus, ManifoldPoint, PolygonEdges, PolyhedronFaces, SINGLE_POINT_ID, contact,
    polygon_manifold, polytope_manifold,
};
use gjk_shapes::glam::{DQuat, DVec2, DVec3};
use gjk_shapes::{Ball, Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, Rounded, Shape, Transformed};
use gjk_testkit::Rng;

/// The manifold of a penetrating pair (speculative distance 0).
fn manifold<A, B>(a: &A, pa: &Pose<DVec3>, b: &B, pb: &Pose<DVec3>) -> ContactManifold<DVec3>
where
    A: Shape<DVec3> + PolyhedronFaces<DVec3> + ?Sized,
    B: Shape<DVec3> + PolyhedronFaces<DVec3> + ?Sized,
{
    let c = contact(a, pa, b, pb);
    assert_eq!(c.status, ContactStatus::Penetrating, "{c:?}");
    polytope_manifold(a, pa, b, pb, &c, 0.0)
}

/// The ids, sorted.
fn ids<V: gjk_core::Vector>(m: &ContactManifold<V>) -> Vec<u32> {
    let mut ids: Vec<u32> = m.points().iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids
}

/// Whether the ids are distinct.
fn distinct<V: gjk_core::Vector>(m: &ContactManifold<V>) -> bool {
    let ids = ids(m);
    ids.windows(2).all(|w| w[0] != w[1])
}

/// Whether no id is one above another: `distinct_ids` moves a repeated id
/// up by one, so such a pair is a collision of two features' keys (which
/// should happen about once in 2³² pairs, not by construction).
fn unbumped<V: gjk_core::Vector>(m: &ContactManifold<V>) -> bool {
    let ids = ids(m);
    ids.windows(2).all(|w| w[1] != w[0].wrapping_add(1))
}

/// The point of `m` with id `id`.
fn by_id<V: gjk_core::Vector>(m: &ContactManifold<V>, id: u32) -> Option<ManifoldPoint<V>> {
    m.points().iter().copied().find(|p| p.id == id)
}

/// The floor's top at y = 0, its rim at x = ±2 and z = ±2.
fn floor() -> (Cuboid<DVec3>, Pose<DVec3>) {
    (Cuboid::new(DVec3::new(2.0, 1.0, 2.0)).unwrap(), Pose::from_translation(DVec3::new(0.0, -1.0, 0.0)))
}

/// A box resting on a floor at any heading, slid by up to 0.05: the same
/// four ids, each on the corner it was on, moved by the slide. With the
/// box as A (B's face the reference) the same. Before, points had no ids
/// and a solver matched them by distance, which a fast slide defeats.
#[test]
fn a_box_sliding_on_a_floor_keeps_its_ids() {
    let mut rng = Rng::new(9100);
    let (f, pf) = floor();
    for i in 0..2_000 {
        let half = DVec3::new(rng.range(0.1, 0.6), rng.range(0.1, 0.6), rng.range(0.1, 0.6));
        let b = Cuboid::new(half).unwrap();
        let pen = rng.range(1e-4, 0.03);
        let turn = DQuat::from_rotation_y(rng.range(0.0, 6.3));
        let at = DVec3::new(rng.range(-1.0, 1.0), half.y - pen, rng.range(-1.0, 1.0));
        let slide = DVec3::new(rng.range(-0.05, 0.05), 0.0, rng.range(-0.05, 0.05));
        let (p0, p1) = (Pose::new(turn, at), Pose::new(turn, at + slide));
        let flip = i % 2 == 1;
        let (m0, m1) = if flip {
            (manifold(&b, &p0, &f, &pf), manifold(&b, &p1, &f, &pf))
        } else {
            (manifold(&f, &pf, &b, &p0), manifold(&f, &pf, &b, &p1))
        };
        let ctx = format!("#{i}: {m0:?} then {m1:?}");
        assert_eq!((m0.len(), m1.len()), (4, 4), "{ctx}");
        assert!(distinct(&m0) && unbumped(&m0), "{ctx}");
        assert_eq!(ids(&m0), ids(&m1), "{ctx}");
        for p in m0.points() {
            let q = by_id(&m1, p.id).unwrap();
            let on_box = |p: &ManifoldPoint<DVec3>| if flip { p.point_a } else { p.point_b };
            assert!((on_box(&q) - on_box(p) - slide).length() < 1e-12, "{ctx}");
        }
    }
}

/// A box straddling the floor's rim (x = 2) at a slant: its corners on the
/// floor and the crossings of its edges with the rim. Slid along the rim,
/// every point keeps its id (a corner moves with the box, a crossing stays
/// on the rim). Slid wholly onto the floor, the corners keep their ids and
/// the crossings' ids are gone: new features, new ids.
#[test]
fn crossings_of_the_rim_keep_their_ids_until_the_corner_comes_in() {
    let mut rng = Rng::new(9200);
    let (f, pf) = floor();
    let b = Cuboid::new(DVec3::splat(0.5)).unwrap();
    for i in 0..1_000 {
        // Away from 45°, so that one corner of each pair across the box
        // lies on each side of the rim.
        let angle = if i % 2 == 0 { rng.range(0.2, 0.7) } else { rng.range(0.87, 1.3) };
        let turn = DQuat::from_rotation_y(angle);
        let at = DVec3::new(2.0 + rng.range(-0.02, 0.02), 0.5 - 0.01, rng.range(-1.0, 1.0));
        let slide = DVec3::new(0.0, 0.0, rng.range(-0.05, 0.05));
        let m0 = manifold(&f, &pf, &b, &Pose::new(turn, at));
        let m1 = manifold(&f, &pf, &b, &Pose::new(turn, at + slide));
        let ctx = format!("#{i}: {m0:?} then {m1:?}");
        assert!(distinct(&m0) && unbumped(&m0) && m0.len() >= 3, "{ctx}");
        assert_eq!(ids(&m0), ids(&m1), "{ctx}");
        let on_rim = |p: &ManifoldPoint<DVec3>| (p.point_b.x - 2.0).abs() < 1e-9;
        let crossings = m0.points().iter().filter(|p| on_rim(p)).count();
        assert_eq!(crossings, 2, "{ctx}");
        for p in m0.points() {
            let q = by_id(&m1, p.id).unwrap();
            if on_rim(p) {
                assert!(on_rim(&q), "{ctx}");
            } else {
                assert!((q.point_b - p.point_b - slide).length() < 1e-12, "{ctx}");
            }
        }
        // Wholly on the floor: four corners.
        let inside = manifold(&f, &pf, &b, &Pose::new(turn, at - DVec3::X));
        assert_eq!(inside.len(), 4, "{ctx}");
        for p in m0.points() {
            assert_eq!(by_id(&inside, p.id).is_some(), !on_rim(p), "#{i}: {m0:?} then {inside:?}");
        }
    }
}

/// The whole scene placed by a random rigid motion: the same ids, each on
/// the point moved with the scene (ids name features of the shapes' own
/// frames, not places).
#[test]
fn ids_do_not_depend_on_where_the_pair_is() {
    let mut rng = Rng::new(9300);
    let hull_points: Vec<DVec3> = gjk_testkit::polyhedron(&mut rng, 24);
    let hull = ConvexHull::new(&hull_points).unwrap();
    let (f, pf) = floor();
    for i in 0..1_000 {
        let half = DVec3::new(rng.range(0.1, 0.6), rng.range(0.1, 0.6), rng.range(0.1, 0.6));
        let b = Cuboid::new(half).unwrap();
        let pb = Pose::new(
            DQuat::from_rotation_y(rng.range(0.0, 6.3)),
            DVec3::new(rng.range(-1.0, 1.0), half.y - rng.range(1e-3, 0.03), rng.range(-1.0, 1.0)),
        );
        let motion = Pose::new(rng.quat(), DVec3::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0), 3.0));
        let (qf, qb) = (motion.mul(&pf), motion.mul(&pb));
        let (m0, m1) = if i % 2 == 0 {
            (manifold(&f, &pf, &b, &pb), manifold(&f, &qf, &b, &qb))
        } else {
            // A hull on the box instead: whatever faces meet.
            let ph = Pose::new(rng.quat(), pb.translation + DVec3::Y * (half.y + 0.3));
            let c = contact(&b, &pb, &hull, &ph);
            if c.status != ContactStatus::Penetrating {
                continue;
            }
            let qh = motion.mul(&ph);
            let c1 = contact(&b, &qb, &hull, &qh);
            (
                polytope_manifold(&b, &pb, &hull, &ph, &c, 0.0),
                polytope_manifold(&b, &qb, &hull, &qh, &c1, 0.0),
            )
        };
        let ctx = format!("#{i}: {m0:?} then {m1:?}");
        assert!(distinct(&m0), "{ctx}");
        if m0.len() != m1.len() {
            // A face chosen on a tie may change with rounding; then the
            // ids may too. Only equal manifolds are compared.
            continue;
        }
        assert_eq!(ids(&m0), ids(&m1), "{ctx}");
        for p in m0.points() {
            let q = by_id(&m1, p.id).unwrap();
            assert!((motion.transform_point(p.point_b) - q.point_b).length() < 1e-9, "{ctx}");
        }
    }
}

/// A random tilt of at most `angle`.
fn wobble(rng: &mut Rng, angle: f64) -> DQuat {
    DQuat::from_axis_angle(DVec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)).normalize(), angle)
}

/// Cylinders and cones standing on a cap, or cylinders lying on their
/// side, with the normal wobbling by 1e-7 rad between calls: their faces'
/// rim points turn with the direction asked (the first follows it), so a
/// key by coordinates would change every frame; keyed by their place in
/// the face (`PolyhedronFaces::face_keys`), the ids hold. A lying shape's
/// points stay put; a standing one's turn about its axis with the wobble's
/// direction (its cap's rim points are the largest square from the
/// lowest). Plain, rounded and scaled (`Transformed`, uniform) shapes.
#[test]
fn curved_faces_keep_their_ids_as_the_normal_wobbles() {
    let mut rng = Rng::new(9400);
    let (f, pf) = floor();
    let cyl = Cylinder::new(0.4, 0.3).unwrap();
    let cone = Cone::new(0.4, 0.3).unwrap();
    let round = Rounded::new(cyl, 0.05).unwrap();
    let scaled = Transformed::with_scale(cyl, Pose::IDENTITY, DVec3::splat(1.5)).unwrap();
    let lying = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
    let shapes: [(&dyn ShapeWithFaces, f64, DQuat); 6] = [
        (&cyl, 0.4, DQuat::IDENTITY),
        (&cone, 0.4, DQuat::IDENTITY),
        (&round, 0.45, DQuat::IDENTITY),
        (&scaled, 0.6, DQuat::IDENTITY),
        (&cyl, 0.3, lying),
        (&scaled, 0.45, lying),
    ];
    for i in 0..1_200 {
        let (shape, low, rest) = shapes[i % shapes.len()];
        let heading = DQuat::from_rotation_y(rng.range(0.0, 6.3));
        let at = DVec3::new(rng.range(-1.0, 1.0), low - rng.range(1e-3, 0.02), rng.range(-1.0, 1.0));
        let pose = |q: DQuat| Pose::new(q * heading * rest, at);
        let m0 = manifold(&f, &pf, shape, &pose(wobble(&mut rng, 1e-7)));
        let m1 = manifold(&f, &pf, shape, &pose(wobble(&mut rng, 1e-7)));
        let ctx = format!("#{i}: {m0:?} then {m1:?}");
        assert!(m0.len() >= 2 && distinct(&m0) && unbumped(&m0), "{ctx}");
        assert_eq!(ids(&m0), ids(&m1), "{ctx}");
        for p in m0.points() {
            let q = by_id(&m1, p.id).unwrap();
            if rest != DQuat::IDENTITY {
                // Each id on the point it was on, moved by the wobble alone.
                assert!((q.point_b - p.point_b).length() < 1e-5, "{ctx}");
            }
        }
    }
}

/// A shape the manifold and the contact both take.
trait ShapeWithFaces: Shape<DVec3> + PolyhedronFaces<DVec3> {}
impl<T: Shape<DVec3> + PolyhedronFaces<DVec3>> ShapeWithFaces for T {}

/// Balls on balls and edges crossing edges: one point, the contact's own,
/// with [`SINGLE_POINT_ID`].
#[test]
fn single_points_have_the_single_id() {
    let mut rng = Rng::new(9500);
    let ball = Ball::new(0.5).unwrap();
    let bar = Cuboid::new(DVec3::new(1.0, 0.1, 0.1)).unwrap();
    for i in 0..500 {
        let d = rng.unit3() * rng.range(0.9, 0.999);
        let m = manifold(&ball, &Pose::IDENTITY, &ball, &Pose::from_translation(d));
        assert_eq!((m.len(), m.points()[0].id), (1, SINGLE_POINT_ID), "#{i}: {m:?}");
        // Two bars crossed edge on edge (each turned 45° about its length),
        // the upper one across the lower at a random angle.
        let edge_up = DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4);
        let across = DQuat::from_rotation_y(rng.range(0.3, 2.8));
        let reach = 0.1 * 2f64.sqrt();
        let upper = Pose::new(across * edge_up, DVec3::Y * (2.0 * reach - rng.range(1e-3, 0.02)));
        let m = manifold(&bar, &Pose::from_rotation(edge_up), &bar, &upper);
        assert_eq!((m.len(), m.points()[0].id), (1, SINGLE_POINT_ID), "#{i}: {m:?}");
    }
}

/// Capsules lying along each other (two points: the ends of the common
/// stretch), the upper one slid along the lower within its length: an
/// end of the upper core keeps its id and moves with it; an end cut at
/// the lower one's end keeps its id and stays there.
#[test]
fn capsules_side_by_side_keep_their_ids_as_one_slides() {
    let mut rng = Rng::new(9600);
    let onto_x = DQuat::from_rotation_z(-std::f64::consts::FRAC_PI_2);
    let (a, b) = (Capsule::new(1.0, 0.2).unwrap(), Capsule::new(0.5, 0.2).unwrap());
    let pa = Pose::new(onto_x, DVec3::ZERO);
    for i in 0..500 {
        let x = rng.range(-1.3, 1.3);
        let slide = DVec3::X * rng.range(-0.02, 0.02);
        let at = DVec3::new(x, 0.4 - rng.range(1e-3, 0.02), 0.0);
        let m0 = manifold(&a, &pa, &b, &Pose::new(onto_x, at));
        let m1 = manifold(&a, &pa, &b, &Pose::new(onto_x, at + slide));
        let ctx = format!("#{i}: {m0:?} then {m1:?}");
        assert!(m0.len() == 2 && distinct(&m0) && unbumped(&m0), "{ctx}");
        let cut = |p: &ManifoldPoint<DVec3>| (p.point_b.x.abs() - 1.0).abs() < 1e-9;
        if m0.points().iter().zip(m1.points()).any(|(p, q)| cut(p) != cut(q)) {
            // An end crossed the lower one's end: new features.
            continue;
        }
        assert_eq!(ids(&m0), ids(&m1), "{ctx}");
        for p in m0.points() {
            let q = by_id(&m1, p.id).unwrap();
            let moved = if cut(p) { DVec3::ZERO } else { slide };
            assert!((q.point_b - p.point_b - moved).length() < 1e-12, "{ctx}");
        }
    }
}

/// 2D: a box on a floor slid along it keeps its two ids; hanging over the
/// floor's end, the crossing keeps its id until the corner comes in.
#[test]
fn polygons_keep_their_ids_as_they_slide() {
    let mut rng = Rng::new(9700);
    let floor = Cuboid::new(DVec2::new(2.0, 0.5)).unwrap();
    let pf = Pose::from_translation(DVec2::new(0.0, -0.5));
    let b = Cuboid::new(DVec2::new(0.3, 0.2)).unwrap();
    let m = |x: f64, pen: f64| {
        let pb = Pose::from_translation(DVec2::new(x, 0.2 - pen));
        let c = contact(&floor, &pf, &b, &pb);
        polygon_manifold(&floor, &pf, &b, &pb, &c, 0.0)
    };
    for i in 0..1_000 {
        let (x, pen, slide) = (rng.range(-2.2, 2.2), rng.range(1e-3, 0.02), rng.range(-0.02, 0.02));
        let (m0, m1) = (m(x, pen), m(x + slide, pen));
        let ctx = format!("#{i}: {m0:?} then {m1:?}");
        assert!(m0.len() == 2 && distinct(&m0) && unbumped(&m0), "{ctx}");
        let cut = |p: &ManifoldPoint<DVec2>| (p.point_b.x.abs() - 2.0).abs() < 1e-9;
        if m0.points().iter().filter(|p| cut(p)).count() != m1.points().iter().filter(|p| cut(p)).count() {
            // A corner crossed the floor's end: new features.
            continue;
        }
        assert_eq!(ids(&m0), ids(&m1), "{ctx}");
        for p in m0.points() {
            let q = by_id(&m1, p.id).unwrap();
            let moved = if cut(p) { 0.0 } else { slide };
            assert!((q.point_b - p.point_b - DVec2::X * moved).length() < 1e-12, "{ctx}");
        }
        // Over the end and then wholly on the floor: the crossing's id is
        // gone, the corner's stays.
        let (over, on) = (m(2.0, pen), m(1.0, pen));
        assert_eq!(over.points().iter().filter(|p| cut(p)).count(), 1, "#{i}: {over:?}");
        for p in over.points() {
            assert_eq!(by_id(&on, p.id).is_some(), !cut(p), "#{i}: {over:?} then {on:?}");
        }
    }
}

/// A wrapped box (`Transformed`, turned and offset in its own frame) keys
/// its face mapped back to the box's frame: the same ids as it slides.
/// Rectangles key their edges by their ends (the default `edge_keys`).
#[test]
fn wrapped_boxes_have_the_boxes_ids() {
    let mut rng = Rng::new(9800);
    let (f, pf) = floor();
    let b = Cuboid::new(DVec3::new(0.3, 0.2, 0.4)).unwrap();
    for i in 0..500 {
        let offset = Pose::new(DQuat::from_rotation_y(rng.range(0.0, 6.3)), DVec3::new(0.1, 0.0, -0.2));
        let wrapped = Transformed::new(b, offset).unwrap();
        let at = Pose::from_translation(DVec3::new(rng.range(-1.0, 1.0), 0.2 - 0.01, rng.range(-1.0, 1.0)));
        let slid = Pose::from_translation(at.translation + DVec3::new(0.01, 0.0, -0.02));
        let (m0, m1) = (manifold(&f, &pf, &wrapped, &at), manifold(&f, &pf, &wrapped, &slid));
        let ctx = format!("#{i}: {m0:?}, {m1:?}");
        assert!(m0.len() == 4 && distinct(&m0) && unbumped(&m0), "{ctx}");
        assert_eq!(ids(&m0), ids(&m1), "{ctx}");
    }
    // 2D: a rectangle's edge keys are its ends' (the default).
    let r = Cuboid::new(DVec2::new(0.5, 0.25)).unwrap();
    let (e, n) = r.best_edge(DVec2::Y);
    assert_ne!(PolygonEdges::edge_keys(&r, e, n)[0], PolygonEdges::edge_keys(&r, e, n)[1]);
}

/// A shape of one's own whose `face_keys` writes too few keys (here none)
/// is keyed by its vertices' coordinates instead: no panic, four distinct
/// ids that hold as it slides.
#[test]
fn faces_keyed_wrongly_fall_back_to_their_coordinates() {
    use gjk_epa::internal::FaceScore;
    use gjk_shapes::gjk_core::SupportMap;
    struct Careless(Cuboid<DVec3>);
    impl SupportMap<DVec3> for Careless {
        fn support(&self, d: DVec3) -> DVec3 {
            self.0.support(d)
        }
    }
    impl Shape<DVec3> for Careless {}
    impl PolyhedronFaces<DVec3> for Careless {
        fn best_face(&self, dir: DVec3, out: &mut Vec<DVec3>) -> DVec3 {
            self.0.best_face(dir, out)
        }
        fn best_face_by(&self, score: FaceScore<'_, DVec3>, out: &mut Vec<DVec3>) -> DVec3 {
            self.0.best_face_by(score, out)
        }
        fn face_keys(&self, _face: &[DVec3], _normal: DVec3, keys: &mut Vec<u64>) {
            keys.clear();
        }
    }
    let (f, pf) = floor();
    let b = Careless(Cuboid::new(DVec3::new(0.3, 0.2, 0.4)).unwrap());
    for flip in [false, true] {
        let at = |x: f64| Pose::new(DQuat::from_rotation_y(0.4), DVec3::new(x, 0.19, 0.1));
        let m = |x: f64| if flip { manifold(&b, &at(x), &f, &pf) } else { manifold(&f, &pf, &b, &at(x)) };
        let (m0, m1) = (m(0.0), m(0.03));
        assert!(m0.len() == 4 && distinct(&m0), "{m0:?}");
        assert_eq!(ids(&m0), ids(&m1), "{m0:?} then {m1:?}");
    }
}
