//! A tour of gjk-epa: contacts, penetration and manifolds.
//! `cargo run -p gjk-epa --example epa_tour`
use gjk_epa::{ContactStatus, contact, polytope_manifold};
use gjk_shapes::glam::{Quat, Vec2, Vec3};
use gjk_shapes::{Ball, ConvexPolygon, Cuboid, Pose, Rounded};

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
}
