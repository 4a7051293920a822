//! A tour of gjk-epa: contacts, penetration, manifolds and casts that
//! start in contact.
//! `cargo run -p gjk-epa --example epa_tour`
use gjk_epa::{
    ContactStatus, cast_shape_directional, cast_shape_nonlinear_directional, contact, polygon_manifold,
    polytope_manifold,
};
use gjk_shapes::gjk_core::{CastOptions, CastStatus};
use gjk_shapes::glam::{Quat, Vec2, Vec3};
use gjk_shapes::{Ball, Capsule, ConvexPolygon, Cuboid, Motion, Pose, Rounded};

fn main() {
    let ground = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap();
    let pg = Pose::from_translation(Vec3::new(0.0, -0.5, 0.0));
    let cube = Cuboid::new(Vec3::splat(0.5)).unwrap();
    for (label, y) in [("apart", 0.7), ("touching", 0.5), ("sunk", 0.45)] {
        let pc = Pose::new(Quat::from_rotation_y(0.4), Vec3::new(0.0, y, 0.0));
        let c = contact(&ground, &pg, &cube, &pc);
        println!(
            "{label:>8}: {:?}, distance {:.3}, depth {:.3}, normal {}",
            c.status, c.distance, c.depth, c.normal
        );
        if c.status == ContactStatus::Penetrating {
            let m = polytope_manifold(&ground, &pg, &cube, &pc, &c, 0.02);
            for p in m.points() {
                println!("          manifold point {} depth {:.3}", p.point_b, p.depth);
            }
            assert_eq!(m.len(), 4);
        }
    }
    // Round shapes: the penetration of two balls needs no EPA.
    let b = Ball::new(1.0f32).unwrap();
    let c = contact(&b, &Pose::IDENTITY, &b, &Pose::from_translation(Vec3::new(1.5, 0.0, 0.0)));
    println!("balls: depth {:.3}, EPA calls {}", c.depth, c.epa_iterations);
    assert!((c.depth - 0.5).abs() < 1e-6);
    // Two polygons (2D): the separating-axis test gives the exact depth and
    // normal, with no GJK or EPA calls.
    let hexagon: Vec<Vec2> =
        (0..6).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::FRAC_PI_3)).collect();
    let a = ConvexPolygon::new(&hexagon).unwrap();
    let b = Rounded::new(ConvexPolygon::new(&[Vec2::ZERO, Vec2::X, Vec2::Y]).unwrap(), 0.1).unwrap();
    let c = contact(&a, &Pose::IDENTITY, &b, &Pose::from_translation(Vec2::new(0.8, -0.2)));
    println!(
        "polygons: {:?}, depth {:.3}, normal {}, GJK calls {}, EPA calls {}",
        c.status, c.depth, c.normal, c.gjk_iterations, c.epa_iterations
    );
    assert_eq!(c.status, ContactStatus::Penetrating);
    // A capsule lying on the ground: both ends of its core segment; two
    // boxes crossed edge to edge: the contact's own point and normal.
    let capsule = Capsule::new(0.6f32, 0.2).unwrap();
    let pc = Pose::new(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), Vec3::new(0.0, 0.19, 0.0));
    let c = contact(&ground, &pg, &capsule, &pc);
    let m = polytope_manifold(&ground, &pg, &capsule, &pc, &c, 0.0);
    println!("capsule on the ground: {} points, depth {:.3}", m.len(), m.points()[0].depth);
    assert_eq!(m.len(), 2);
    let h = 0.5 * 2f32.sqrt();
    let (p1, p2) = (
        Pose::new(Quat::from_rotation_x(std::f32::consts::FRAC_PI_4), Vec3::ZERO),
        Pose::new(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4), Vec3::new(0.0, 2.0 * h - 0.01, 0.0)),
    );
    let c = contact(&cube, &p1, &cube, &p2);
    let m = polytope_manifold(&cube, &p1, &cube, &p2, &c, 0.0);
    println!("crossed edges: {} point, normal {}", m.len(), m.normal);
    assert_eq!(m.len(), 1);
    // In 2D: a box on a floor, both bottom corners (Box2D's two points).
    let floor = Cuboid::new(Vec2::new(5.0, 0.5)).unwrap();
    let pf = Pose::from_translation(Vec2::new(0.0, -0.5));
    let square = Cuboid::new(Vec2::splat(0.5)).unwrap();
    let ps = Pose::from_translation(Vec2::new(1.0, 0.49));
    let c = contact(&floor, &pf, &square, &ps);
    let m = polygon_manifold(&floor, &pf, &square, &ps, &c, 0.0);
    println!("2D box on a floor: {} points, depth {:.3}", m.len(), m.points()[0].depth);
    assert_eq!(m.len(), 2);
    // Casts that start in contact: the cube resting on the ground slides
    // and lifts freely, and stops as soon as it would sink; spinning about
    // the ground's normal is free, tipping about a bottom edge is free
    // until the cube has turned over onto its side (a quarter turn).
    let (rest, opts) = (Pose::from_translation(Vec3::new(0.0, 0.5, 0.0)), CastOptions::default());
    for (label, motion) in
        [("slide", Vec3::X), ("lift", Vec3::new(1.0, 1.0, 0.0)), ("sink", Vec3::new(1.0, -1.0, 0.0))]
    {
        match cast_shape_directional(&cube, &rest, motion, &ground, &pg, Vec3::ZERO, &opts) {
            Some(h) => println!("{label:>8}: {:?} at {:.5}", h.status, h.fraction),
            None => println!("{label:>8}: free"),
        }
    }
    let fixed = Motion::fixed(pg);
    let spin = Motion::new(rest, Vec3::X, Vec3::Y * 3.0);
    let h = cast_shape_nonlinear_directional(&cube, &spin, &ground, &fixed, &opts);
    println!("    spin: {}", if h.is_none() { "free" } else { "stopped" });
    assert!(h.is_none());
    let tip = Motion::new(rest, Vec3::ZERO, -Vec3::Z).with_local_center(Vec3::new(0.5, -0.5, 0.0));
    let h = cast_shape_nonlinear_directional(
        &cube,
        &tip,
        &ground,
        &fixed,
        &CastOptions { max_fraction: 3.0, ..opts },
    )
    .expect("it tips over");
    println!("     tip: {:?} after {:.4} rad", h.status, h.fraction);
    assert_eq!(h.status, CastStatus::Hit);
    assert!((h.fraction - std::f32::consts::FRAC_PI_2).abs() < 5e-3);
}
