//! The explain mode's model, without a window: its GJK iterations are
//! GJK's on the pair's cores, EPA's steps appear exactly for overlaps and
//! close in on the contact query's depth, and the shaded barycode region
//! holds the origin.

use bevy::prelude::*;
use demo::explain::{Body2, Kind2, Step, explain, hull, origin_region};
use gjk_shapes::gjk_core::Status;

/// Every pair of kinds at a few offsets, apart and overlapping.
fn pairs() -> Vec<[Body2; 2]> {
    let mut out = Vec::new();
    for a in Kind2::ALL {
        for b in Kind2::ALL {
            for (k, x) in [3.0f32, 1.7, 1.0, 0.4, 0.05].into_iter().enumerate() {
                out.push([
                    Body2 { kind: a, at: Vec2::ZERO, angle: 0.3 * k as f32 },
                    Body2 { kind: b, at: Vec2::new(x, 0.2 * k as f32), angle: 1.1 - 0.2 * k as f32 },
                ]);
            }
        }
    }
    out
}

#[test]
fn explain_follows_gjk_and_epa() {
    let (mut apart, mut overlapping) = (0, 0);
    for bodies in pairs() {
        let e = explain(&bodies);
        let what = format!("{bodies:?}");
        assert!(e.gjk_steps > 0 && e.gjk_steps <= e.steps.len(), "{what}");
        assert!(e.steps[..e.gjk_steps].iter().all(|s| matches!(s, Step::Gjk { .. })), "{what}");
        assert!(e.steps[e.gjk_steps..].iter().all(|s| matches!(s, Step::Epa { .. })), "{what}");
        let last_gjk = match &e.steps[e.gjk_steps - 1] {
            Step::Gjk { closest, bounds, .. } => (*closest, *bounds),
            _ => unreachable!(),
        };
        if e.result.status == Status::Intersecting {
            overlapping += 1;
            // The contact's depth, and EPA's last estimate near it (the
            // cores' depth: the contact's less the radii).
            let depth = e.penetration.map_or(0.0, |p| p.length());
            let radii = bodies.iter().map(|b| gjk_shapes::Shape::radius(&*b.kind.shape())).sum::<f32>();
            if let Some(Step::Epa { foot, polygon, .. }) = e.steps.last() {
                assert!(
                    (foot.length() + radii - depth).abs() < 1e-3 * (1.0 + depth),
                    "{what}: {foot} vs {depth}"
                );
                // Every polygon is convex and holds the origin.
                let n = polygon.len();
                assert!(n >= 3, "{what}");
                for i in 0..n {
                    let (p, q) = (polygon[i], polygon[(i + 1) % n]);
                    assert!((q - p).perp_dot(-p) >= -1e-5, "{what}: origin outside EPA's polygon");
                }
            } else {
                // The cores only touch or are apart: the radii overlap.
                assert!(radii > 0.0, "{what}: an overlap of sharp cores without EPA");
            }
        } else {
            apart += 1;
            assert_eq!(e.steps.len(), e.gjk_steps, "{what}: EPA on a pair apart");
            // GJK's last closest point is the cores' distance: the query's
            // plus the radii.
            let radii = bodies.iter().map(|b| gjk_shapes::Shape::radius(&*b.kind.shape())).sum::<f32>();
            let core = last_gjk.0.length();
            assert!(
                (core - (e.result.distance + radii)).abs() < 1e-4 * (1.0 + core),
                "{what}: {core} vs {:?}",
                e.result
            );
            assert!(last_gjk.1.0 <= last_gjk.1.1 + 1e-5, "{what}");
        }
    }
    assert!(apart > 20 && overlapping > 20, "{apart} apart, {overlapping} overlapping");
}

/// The shaded region is the one whose barycentric signs the origin has:
/// the origin satisfies each of its half-planes.
#[test]
fn explain_shades_the_origins_region() {
    let mut checked = 0;
    for bodies in pairs() {
        for step in explain(&bodies).steps {
            if let Step::Gjk { simplex, .. } = step {
                let (planes, code) = origin_region(&simplex);
                assert!(planes.iter().all(|&(n, c)| 0.0 >= c - 1e-4 * (1.0 + n.length())), "{simplex:?}");
                assert!(code != 0, "{simplex:?}");
                checked += 1;
            }
        }
    }
    assert!(checked >= pairs().len(), "{checked} steps");
    // A triangle around the origin: region 111; beyond a vertex: that bit.
    let tri = [Vec2::new(-1.0, -1.0), Vec2::new(2.0, -1.0), Vec2::new(0.0, 2.0)];
    assert_eq!(origin_region(&tri).1, 0b111);
    let far = tri.map(|p| p + Vec2::new(0.0, 5.0));
    assert_eq!(origin_region(&far).1 & 0b001, 0, "the apex is the far vertex");
    assert_eq!(hull(&[Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::ONE, Vec2::splat(0.5)]).len(), 4);
}
