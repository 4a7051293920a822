//! Contact and penetration against analytic oracles: sphere–sphere,
//! sphere–box, box–box (separating axes in f64), 2D polygons (separating
//! axes over edge normals); touching and nearly touching gaps; deep
//! penetration; the regression cases. No expectation comes from this code.
#![allow(clippy::excessive_precision)]

use gjk_core::{Status, SupportMap};
use gjk_epa::{ContactStatus, EpaStatus, contact};
use gjk_shapes::glam::{DMat3, DQuat, DVec2, DVec3, Vec3};
use gjk_shapes::{Ball, Capsule, ConvexHull, ConvexPolygon, Cuboid, Pose, Rounded, distance};
use gjk_testkit::*;

fn pose3(rng: &mut Rng, reach: f64) -> Pose<DVec3> {
    Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, reach))
}

/// Moving B by `depth · normal` must leave the shapes just touching: an
/// independent check of any reported penetration.
fn check_resolves<A, B>(a: &A, pa: &Pose<DVec3>, b: &B, pb: &Pose<DVec3>, depth: f64, n: DVec3, ctx: &str)
where
    A: gjk_shapes::Shape<DVec3>,
    B: gjk_shapes::Shape<DVec3>,
{
    let moved = Pose::new(pb.rotation, pb.translation + n * depth);
    let r = distance(a, pa, b, &moved);
    assert!(
        r.distance < 1e-7 * (1.0 + depth),
        "{ctx}: still {} apart/overlapping after resolution",
        r.distance
    );
    let further = Pose::new(pb.rotation, pb.translation + n * (depth + 1e-6));
    assert!(distance(a, pa, b, &further).distance > 0.0, "{ctx}: moving past the depth does not separate");
}

#[test]
fn sphere_sphere_penetration() {
    let mut rng = Rng::new(300);
    for i in 0..3000 {
        let (r1, r2) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
        let p1 = pose3(&mut rng, 2.0);
        let c = rng.unit3() * rng.range(0.01, (r1 + r2) * 0.999);
        let p2 = Pose::new(rng.quat(), p1.translation + c);
        let k = contact(&Ball::new(r1).unwrap(), &p1, &Ball::new(r2).unwrap(), &p2);
        let ctx = format!("#{i}");
        assert_eq!(k.status, ContactStatus::Penetrating, "{ctx}");
        assert!((k.depth - (r1 + r2 - c.length())).abs() < 1e-12, "{ctx}");
        assert!((k.normal - c.normalize()).length() < 1e-12, "{ctx}");
        assert!((k.point_a - (p1.translation + c.normalize() * r1)).length() < 1e-12, "{ctx}");
        assert!((k.point_b - (p2.translation - c.normalize() * r2)).length() < 1e-12, "{ctx}");
        assert!(((k.point_a - k.point_b) - k.normal * k.depth).length() < 1e-12, "{ctx}");
        assert_eq!(k.epa_iterations, 0, "round shapes need no EPA");
    }
}

#[test]
fn sphere_box_penetration() {
    let mut rng = Rng::new(301);
    for i in 0..3000 {
        let half = DVec3::new(rng.range(0.2, 2.0), rng.range(0.2, 2.0), rng.range(0.2, 2.0));
        let rad = rng.range(0.05, 1.0);
        let pb = pose3(&mut rng, 3.0);
        // Sphere centre somewhere in or near the box.
        let local = DVec3::new(rng.range(-1.3, 1.3), rng.range(-1.3, 1.3), rng.range(-1.3, 1.3)) * half;
        let ps = Pose::from_translation(pb.transform_point(local));
        let k = contact(&Ball::new(rad).unwrap(), &ps, &Cuboid::new(half).unwrap(), &pb);
        let outside = (local.abs() - half).max(DVec3::ZERO);
        let ctx = format!("#{i}");
        let (oracle_depth, oracle_n) = if outside.length() > 0.0 {
            // Centre outside: depth r − distance, normal from centre to box.
            let closest = local.clamp(-half, half);
            (rad - outside.length(), pb.transform_vector((closest - local).normalize()))
        } else {
            // Centre inside: leave through the nearest face.
            let gaps = half - local.abs();
            let k = if gaps.x <= gaps.y && gaps.x <= gaps.z {
                0
            } else if gaps.y <= gaps.z {
                1
            } else {
                2
            };
            let mut face = DVec3::ZERO;
            face[k] = local[k].signum();
            (gaps[k] + rad, pb.transform_vector(-face))
        };
        if oracle_depth > 1e-6 {
            assert_eq!(k.status, ContactStatus::Penetrating, "{ctx}");
            assert!((k.depth - oracle_depth).abs() < 1e-9, "{ctx}: {} vs {oracle_depth}", k.depth);
            let inside = outside.length() == 0.0;
            let gaps = half - local.abs();
            let mut sorted = [gaps.x, gaps.y, gaps.z];
            sorted.sort_by(f64::total_cmp);
            if !inside || sorted[1] - sorted[0] > 1e-6 {
                assert!(
                    (k.normal - oracle_n).length() < 1e-6,
                    "{ctx}: normal {:?} vs {oracle_n:?}",
                    k.normal
                );
            }
            check_resolves(
                &Ball::new(rad).unwrap(),
                &ps,
                &Cuboid::new(half).unwrap(),
                &pb,
                k.depth,
                k.normal,
                &ctx,
            );
        } else if oracle_depth < -1e-6 {
            assert_eq!(k.status, ContactStatus::Separated, "{ctx}");
            assert!((k.distance + oracle_depth).abs() < 1e-9, "{ctx}");
        }
    }
}

/// Box pairs against an independent separating-axis oracle, twice: as
/// `Cuboid`s (the box separating-axis test settles them, no EPA) and as
/// hulls of their corners (GJK and EPA).
#[test]
fn box_box_penetration_against_sat() {
    let mut rng = Rng::new(302);
    let mut checked = 0;
    for i in 0..3000 {
        let ha = DVec3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5));
        let hb = DVec3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5));
        let (pa, pb) = (pose3(&mut rng, 1.5), pose3(&mut rng, 1.5));
        let (ra, rb) = (DMat3::from_quat(pa.rotation), DMat3::from_quat(pb.rotation));
        let (sat, axis) = box_box_sat(ha, ra, pa.translation, hb, rb, pb.translation);
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let hull = |h: DVec3| ConvexHull::new(&box_corners(h, DMat3::IDENTITY, DVec3::ZERO)).unwrap();
        let (ha_, hb_) = (hull(ha), hull(hb));
        let by_sat = contact(&a, &pa, &b, &pb);
        let by_epa = contact(&ha_, &pa, &hb_, &pb);
        for (k, epa) in [(by_sat, false), (by_epa, true)] {
            let ctx = format!("#{i} ({})", if epa { "hulls, EPA" } else { "boxes, SAT" });
            if sat > 1e-6 {
                checked += 1;
                assert_eq!(k.status, ContactStatus::Penetrating, "{ctx}");
                let expect = if epa { Some(EpaStatus::Converged) } else { None };
                assert_eq!(k.epa_status, expect, "{ctx}");
                assert!((k.depth - sat).abs() < 1e-8, "{ctx}: depth {} vs SAT {sat}", k.depth);
                // The normal is a minimum-overlap axis: its overlap equals the depth.
                let ov = |n: DVec3| {
                    let pa_: f64 = (0..3).map(|j| (ra.col(j).dot(n) * ha[j]).abs()).sum();
                    let pb_: f64 = (0..3).map(|j| (rb.col(j).dot(n) * hb[j]).abs()).sum();
                    pa_ + pb_ - (pb.translation - pa.translation).dot(n)
                };
                assert!(
                    (ov(k.normal) - sat).abs() < 1e-8,
                    "{ctx}: overlap along normal {} vs {sat} (SAT axis {axis:?})",
                    ov(k.normal)
                );
                assert!(((k.point_a - k.point_b) - k.normal * k.depth).length() < 1e-8, "{ctx}");
                check_resolves(&a, &pa, &b, &pb, k.depth, k.normal, &ctx);
            } else if sat < -1e-6 {
                assert_eq!(k.status, ContactStatus::Separated, "{ctx}");
            }
        }
        // Rounded: the same through the cores plus the radii.
        if i % 3 == 0 {
            let r = rng.range(0.0, 0.2);
            let (a, b) = (Rounded::new(a, r).unwrap(), Rounded::new(b, r).unwrap());
            let (ha_, hb_) = (Rounded::new(ha_, r).unwrap(), Rounded::new(hb_, r).unwrap());
            let (k, e) = (contact(&a, &pa, &b, &pb), contact(&ha_, &pa, &hb_, &pb));
            assert_eq!(k.status, e.status, "#{i} rounded by {r}");
            if k.status == ContactStatus::Penetrating {
                // Cores overlapping: their depth plus the radii (apart,
                // the separation only bounds the cores' distance).
                if sat > 1e-6 {
                    let want = sat + 2.0 * r;
                    assert!((k.depth - want).abs() < 1e-8, "#{i} rounded: {} vs {want}", k.depth);
                }
                assert!((k.depth - e.depth).abs() < 1e-8, "#{i} rounded: {} vs EPA {}", k.depth, e.depth);
                assert!(((k.point_a - k.point_b) - k.normal * k.depth).length() < 1e-8, "#{i} rounded");
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}

/// Face-to-face boxes at gaps from −1e-3 to +1e-3 of their size (and
/// exactly zero): separated beyond the band, touching within it,
/// penetrating beyond it on the other side.
#[test]
fn touching_and_nearly_touching() {
    let mut rng = Rng::new(303);
    for size in [1e-3, 1.0, 1e3] {
        for rel in [-1e-3, -1e-6, -1e-9, -1e-12, 0.0, 1e-12, 1e-9, 1e-6, 1e-3] {
            for _ in 0..20 {
                let q = rng.quat();
                let h = DVec3::splat(size * 0.5);
                let c = Cuboid::new(h).unwrap();
                let pa = Pose::new(q, rng.unit3() * size);
                let side = DVec3::new(rng.range(-0.4, 0.4), 1.0 + rel, rng.range(-0.4, 0.4)) * size;
                let pb = Pose::new(q, pa.translation + q * side);
                let k = contact(&c, &pa, &c, &pb);
                let gap = rel * size;
                let ctx = format!("size {size} rel {rel}: {k:?}");
                // Touching only within a band of 1e-10 of the size; outside
                // it the sign of the gap decides, and the measure is exact.
                match k.status {
                    ContactStatus::Touching => {
                        assert!(gap.abs() <= 1e-10 * size, "{ctx}");
                        assert_eq!(k.depth, 0.0);
                    }
                    ContactStatus::Separated => {
                        assert!(gap > 0.0 && (k.distance - gap).abs() < 1e-9 * size, "{ctx}");
                    }
                    ContactStatus::Penetrating => {
                        assert!(gap < 0.0 && (k.depth + gap).abs() < 1e-9 * size, "{ctx}");
                    }
                    _ => panic!("{ctx}"),
                }
                if rel == 0.0 {
                    assert_eq!(k.status, ContactStatus::Touching, "{ctx}");
                }
                assert!((k.normal - q * DVec3::Y).length() < 1e-6, "{ctx}");
            }
        }
    }
}

/// One shape deep inside the other.
#[test]
fn deep_penetration() {
    let mut rng = Rng::new(304);
    for i in 0..500 {
        let big = DVec3::new(rng.range(2.0, 4.0), rng.range(2.0, 4.0), rng.range(2.0, 4.0));
        let small = DVec3::splat(rng.range(0.1, 0.5));
        let pa = pose3(&mut rng, 2.0);
        let local = DVec3::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)) * big;
        let pb = Pose::new(rng.quat(), pa.transform_point(local));
        let (ra, rb) = (DMat3::from_quat(pa.rotation), DMat3::from_quat(pb.rotation));
        let (sat, _) = box_box_sat(big, ra, pa.translation, small, rb, pb.translation);
        let k = contact(&Cuboid::new(big).unwrap(), &pa, &Cuboid::new(small).unwrap(), &pb);
        assert_eq!(k.status, ContactStatus::Penetrating, "#{i}");
        assert!((k.depth - sat).abs() < 1e-8, "#{i}: {} vs {sat}", k.depth);
        // A sphere inside a box: leaves through the nearest face.
        let rad = rng.range(0.05, 0.3);
        let s = contact(
            &Cuboid::new(big).unwrap(),
            &pa,
            &Ball::new(rad).unwrap(),
            &Pose::from_translation(pb.translation),
        );
        let gaps = big - local.abs();
        assert!((s.depth - (gaps.min_element() + rad)).abs() < 1e-9, "#{i} sphere");
    }
}

/// 2D EPA: polygon pairs against separating axes over all edge normals.
#[test]
fn polygons_2d_against_sat() {
    let mut rng = Rng::new(305);
    let sat2 = |a: &[DVec2], b: &[DVec2]| {
        let mut best = (f64::INFINITY, DVec2::X);
        for poly in [a, b] {
            for i in 0..poly.len() {
                let e = poly[(i + 1) % poly.len()] - poly[i];
                let n = DVec2::new(e.y, -e.x).normalize();
                for n in [n, -n] {
                    // Overlap of the projections along n, oriented A→B.
                    let ov = height2(a, n) + height2(b, -n);
                    if ov < best.0 {
                        best = (ov, n);
                    }
                }
            }
        }
        best
    };
    let mut checked = 0;
    for i in 0..3000 {
        let (na, nb) = (rng.usize(3, 12), rng.usize(3, 12));
        let la = polygon(&mut rng, na);
        let lb = polygon(&mut rng, nb);
        let pa = Pose::from_angle_translation(rng.range(0.0, 6.3), rng.unit2() * rng.range(0.0, 0.5));
        let pb = Pose::from_angle_translation(rng.range(0.0, 6.3), rng.unit2() * rng.range(0.0, 2.5));
        let (a, b) = (ConvexPolygon::new(&la).unwrap(), ConvexPolygon::new(&lb).unwrap());
        let wa: Vec<DVec2> = a.vertices().iter().map(|p| pa.transform_point(*p)).collect();
        let wb: Vec<DVec2> = b.vertices().iter().map(|p| pb.transform_point(*p)).collect();
        let (depth, _) = sat2(&wa, &wb);
        let k = contact(&a, &pa, &b, &pb);
        if depth > 1e-6 {
            checked += 1;
            assert_eq!(k.status, ContactStatus::Penetrating, "#{i}");
            assert!((k.depth - depth).abs() < 1e-9, "#{i}: {} vs {depth}", k.depth);
            let along = height2(&wa, k.normal) + height2(&wb, -k.normal);
            assert!((along - depth).abs() < 1e-9, "#{i}: normal overlap {along}");
        } else if depth < -1e-6 {
            assert_eq!(k.status, ContactStatus::Separated, "#{i}");
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Round shapes whose cores are apart need no EPA; when the cores overlap
/// EPA runs on them and the radii are added.
#[test]
fn round_shapes_use_cores() {
    let cap = Capsule::new(1.0, 0.5).unwrap();
    let ground = Cuboid::new(DVec3::new(10.0, 1.0, 10.0)).unwrap();
    let pg = Pose::from_translation(DVec3::new(0.0, -1.0, 0.0));
    // Lying capsule sunk 0.1 into the ground: only margins overlap.
    let lying = Pose::new(DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2), DVec3::new(0.0, 0.4, 0.0));
    let k = contact(&cap, &lying, &ground, &pg);
    assert_eq!(k.status, ContactStatus::Penetrating);
    assert!((k.depth - 0.1).abs() < 1e-12 && k.epa_iterations == 0);
    assert!((k.normal + DVec3::Y).length() < 1e-12);
    // Its core inside the ground: EPA on the core, plus the radius.
    let sunk = Pose::new(lying.rotation, DVec3::new(0.0, -0.2, 0.0));
    let k = contact(&cap, &sunk, &ground, &pg);
    assert_eq!(k.status, ContactStatus::Penetrating);
    assert!((k.depth - 0.7).abs() < 1e-9, "{}", k.depth);
    assert!(k.epa_iterations > 0);
    // A rounded box resting exactly on the ground: touching.
    let rb = Rounded::new(Cuboid::new(DVec3::splat(0.5)).unwrap(), 0.1).unwrap();
    let k = contact(&rb, &Pose::from_translation(DVec3::new(0.0, 0.6, 0.0)), &ground, &pg);
    assert_eq!(k.status, ContactStatus::Touching);
}

// ------------------------------------------------------------ cases ----

/// fcl #493: tilted kissing boxes; EPA must not fail or report "origin
/// outside", over sizes {0.01 … 1000} and gaps ±1e-15·size.
#[test]
fn fcl_493_kissing_boxes_over_sizes_and_gaps() {
    let q = DQuat::from_mat3(&fcl493_rotation());
    let t1 = DVec3::new(2.0770063995786869349, 0.48468247475641951239, 1.1543291419087275962);
    let t2 = DVec3::new(2.0, 0.0, 1.25);
    let c = Cuboid::new(DVec3::splat(0.25)).unwrap();
    let k = contact(&c, &Pose::new(q, t1), &c, &Pose::new(q, t2));
    assert!(
        matches!(k.status, ContactStatus::Touching | ContactStatus::Penetrating | ContactStatus::Separated),
        "{k:?}"
    );
    assert!(k.signed_distance().abs() < 1e-9, "{k:?}");
    for size in [0.01, 0.25, 0.5, 10.0, 1000.0] {
        for rel_gap in [-1e-15, 0.0, 1e-15] {
            let c = Cuboid::new(DVec3::splat(size * 0.5)).unwrap();
            let pa = Pose::new(q, t1 * size);
            let pb =
                Pose::new(q, t1 * size + q * DVec3::new(0.3 * size, size * (1.0 + rel_gap), -0.2 * size));
            let k = contact(&c, &pa, &c, &pb);
            let ctx = format!("size {size} gap {rel_gap}");
            assert_eq!(k.status, ContactStatus::Touching, "{ctx}: {k:?}");
            assert!(
                k.normal.is_finite() && (k.normal - q * DVec3::Y).length() < 1e-6,
                "{ctx}: {:?}",
                k.normal
            );
            assert!(k.point_a.is_finite() && k.point_b.is_finite());
        }
    }
}

/// libccd #25: cubes of side 2 at z = 0 and 1.9: depth 0.1 along ±z.
#[test]
fn libccd_25_depth() {
    let c = Cuboid::new(DVec3::ONE).unwrap();
    let k = contact(&c, &Pose::IDENTITY, &c, &Pose::from_translation(DVec3::new(0.0, 0.0, 1.9)));
    assert_eq!(k.status, ContactStatus::Penetrating);
    assert!((k.depth - 0.1).abs() < 1e-12, "{}", k.depth);
    assert!((k.normal - DVec3::Z).length() < 1e-12);
    assert!(k.point_a.is_finite() && k.point_b.is_finite());
    let cf = Cuboid::new(Vec3::ONE).unwrap();
    let kf = contact(&cf, &Pose::IDENTITY, &cf, &Pose::from_translation(Vec3::new(0.0, 0.0, 1.9)));
    assert!((kf.depth - 0.1).abs() < 1e-5 && (kf.normal - Vec3::Z).length() < 1e-5);
}

/// parry #315: exactly touching cubes: depth 0, normal ±X, points on x = 1.
#[test]
fn parry_315_touching() {
    let c = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let k = contact(
        &c,
        &Pose::from_translation(DVec3::splat(0.5)),
        &c,
        &Pose::from_translation(DVec3::new(1.5, 0.5, 0.5)),
    );
    assert_eq!(k.status, ContactStatus::Touching);
    assert_eq!(k.depth, 0.0);
    assert!((k.normal - DVec3::X).length() < 1e-12);
    assert!((k.point_a.x - 1.0).abs() < 1e-12 && (k.point_b.x - 1.0).abs() < 1e-12);
}

#[test]
fn bad_input_never_panics() {
    let c = Cuboid::new(DVec3::ONE).unwrap();
    let bad = Pose::from_translation(DVec3::new(f64::NAN, 0.0, 0.0));
    let k = contact(&c, &Pose::IDENTITY, &c, &bad);
    assert_eq!(k.status, ContactStatus::InvalidInput);
    // Never read as contact.
    assert!(k.distance == f64::INFINITY && !k.is_contact(), "{k:?}");
    // Flat and coincident hulls overlapping.
    let flat = ConvexHull::new(&[DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0)]).unwrap();
    for t in [DVec3::ZERO, DVec3::new(0.5, 0.5, 0.0), DVec3::new(0.5, 0.5, 1e-12)] {
        let k = contact(&flat, &Pose::IDENTITY, &flat, &Pose::from_translation(t));
        assert!(k.normal.is_finite() && k.depth.is_finite() && k.point_a.is_finite(), "{t}: {k:?}");
        // Stacked 1e-12 apart: separated by exactly that.
        assert_eq!(k.is_contact(), t.z == 0.0, "{t}: {k:?}");
    }
    let pt = ConvexHull::new(&[DVec3::ONE]).unwrap();
    let k = contact(&pt, &Pose::IDENTITY, &c, &Pose::IDENTITY);
    assert!(k.is_contact() && k.depth.is_finite());
}

/// `contact_within`: `None` exactly for pairs further apart than the
/// prediction (sphere pairs: the analytic distance decides), otherwise the
/// full contact; box and rounded-hull pairs agree with the full query.
#[test]
fn contact_within_prediction() {
    use gjk_core::GjkConfig;
    use gjk_epa::{EpaConfig, contact_with, contact_within};
    let mut rng = Rng::new(9090);
    let (mut none, mut some) = (0, 0);
    for _ in 0..2000 {
        let (ra, rb) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let (pa, pb) = (pose3(&mut rng, 2.0), pose3(&mut rng, 2.0));
        let analytic = (pa.translation - pb.translation).length() - ra - rb;
        let prediction = rng.range(0.0, 0.5);
        // Stay clear of the boundary, where rounding may decide either way.
        if (analytic - prediction).abs() < 1e-9 {
            continue;
        }
        let (ba, bb) = (Ball::new(ra).unwrap(), Ball::new(rb).unwrap());
        match contact_within(&ba, &pa, &bb, &pb, prediction) {
            None => {
                none += 1;
                assert!(analytic > prediction, "cut off at {analytic} (prediction {prediction})");
            }
            Some(c) => {
                some += 1;
                assert!(analytic <= prediction, "kept at {analytic} (prediction {prediction})");
                assert!((c.signed_distance() - analytic).abs() < 1e-9);
            }
        }
    }
    assert!(none > 200 && some > 200, "both outcomes: {none} / {some}");
    for k in 0..500 {
        let a =
            Rounded::new(ConvexHull::new(&polyhedron(&mut rng, 12)).unwrap(), 0.05 * (k % 3) as f64).unwrap();
        let b = Cuboid::new(DVec3::new(0.3, 0.5, 0.7)).unwrap();
        let (pa, pb) = (pose3(&mut rng, 1.0), pose3(&mut rng, 3.0));
        let prediction = rng.range(0.0, 0.5);
        let full = contact(&a, &pa, &b, &pb);
        // The same query through `contact_with`'s early out, which runs
        // GJK whole (`contact_within` stops after the first support call
        // when that proves the pair far): the same answer, to the bit.
        let limited =
            contact_with(&a, &pa, &b, &pb, &GjkConfig::within(prediction), &EpaConfig::default(), None);
        let far = limited.status == ContactStatus::Beyond
            || (limited.status == ContactStatus::Separated && limited.distance > prediction);
        assert_eq!(contact_within(&a, &pa, &b, &pb, prediction), (!far).then_some(limited), "pair {k}");
        match contact_within(&a, &pa, &b, &pb, prediction) {
            None => assert!(full.distance > prediction - 1e-9, "pair {k}: cut off at {}", full.distance),
            Some(c) => {
                assert!(full.distance <= prediction + 1e-9, "pair {k}");
                assert_eq!(c.status, full.status, "pair {k}");
                assert!((c.signed_distance() - full.signed_distance()).abs() < 1e-9, "pair {k}");
            }
        }
    }
}

/// Random hulls brought into touching contact (f64, and the same points
/// rounded to f32), checked by brute force over the vertices: a `Touching`
/// contact's normal must separate the hulls (A reaches past B along it by
/// no more than a tolerance) and its two points must meet. Touching found by
/// GJK carries a verified normal and is kept as it is, at the zero band
/// (~ε of the size); a pair that overlaps by rounding is re-measured along
/// a shifted pair (before EPA, or after it), accurate to ~√ε of the size.
#[test]
fn touching_normals_separate_random_hulls() {
    let mut rng = Rng::new(305);
    // Per route, [GJK-verified, re-measured, EPA] in f64 then f32: count,
    // worst penetration and worst point gap along the normal, relative to
    // the size. The route: GJK's own status on the same pair (the contact
    // runs the same query first), then whether EPA ran.
    let mut worst = [(0usize, 0.0f64, 0.0f64); 6];
    let route = |gjk: Status, epa: Option<EpaStatus>| match (gjk, epa) {
        (_, Some(_)) => 2,
        (Status::Touching, None) => 0,
        _ => 1,
    };
    for i in 0..2000 {
        let (na, nb) = (rng.usize(4, 16), rng.usize(4, 16));
        let a = polyhedron(&mut rng, na);
        let b0 = polyhedron(&mut rng, nb);
        let u = rng.unit3();
        let b: Vec<DVec3> = if i % 2 == 0 {
            // B's lowest vertex along u moved onto A's highest: the plane
            // through it normal to u separates, and the hulls share it.
            let top = *a.iter().max_by(|p, q| p.dot(u).total_cmp(&q.dot(u))).unwrap();
            let low = *b0.iter().min_by(|p, q| p.dot(u).total_cmp(&q.dot(u))).unwrap();
            b0.iter().map(|p| *p + (top - low)).collect()
        } else {
            // B rotated and placed apart, then moved along the closest
            // points until they touch (faces and edges meet, as in the
            // benchmark's touching set); rounding often leaves them
            // overlapping by a hair, which takes the EPA route.
            let r = rng.quat();
            let apart: Vec<DVec3> = b0.iter().map(|p| r * *p + u * 4.0).collect();
            let d = gjk_core::distance(a.as_slice(), apart.as_slice());
            apart.iter().map(|p| *p - d.normal * d.distance).collect()
        };
        let size = a.iter().chain(&b).map(|p| p.abs().max_element()).fold(0.0, f64::max);
        // How far A reaches past B along n (≤ 0: n separates).
        let pen = |a: &[DVec3], b: &[DVec3], n: DVec3| {
            a.iter().map(|p| p.dot(n)).fold(f64::MIN, f64::max)
                - b.iter().map(|p| p.dot(n)).fold(f64::MAX, f64::min)
        };
        let mut note = |slot: usize, pen: f64, gap: f64, n: DVec3, ctx: String| {
            assert!((n.length() - 1.0).abs() < 1e-6, "{ctx}");
            let w = &mut worst[slot];
            *w = (w.0 + 1, w.1.max(pen / size), w.2.max(gap / size));
        };
        let (ha, hb) = (ConvexHull::new(&a).unwrap(), ConvexHull::new(&b).unwrap());
        let k = contact(&ha, &Pose::IDENTITY, &hb, &Pose::IDENTITY);
        if k.status == ContactStatus::Touching {
            let g = distance(&ha, &Pose::IDENTITY, &hb, &Pose::IDENTITY);
            note(
                route(g.status, k.epa_status),
                pen(&a, &b, k.normal),
                (k.point_a - k.point_b).length(),
                k.normal,
                format!("pair {i}: {k:?}"),
            );
        }
        let (a32, b32): (Vec<Vec3>, Vec<Vec3>) =
            (a.iter().map(|p| p.as_vec3()).collect(), b.iter().map(|p| p.as_vec3()).collect());
        let (ha, hb) = (ConvexHull::new(&a32).unwrap(), ConvexHull::new(&b32).unwrap());
        let k = contact(&ha, &Pose::IDENTITY, &hb, &Pose::IDENTITY);
        if k.status == ContactStatus::Touching {
            let (a, b): (Vec<DVec3>, Vec<DVec3>) =
                (a32.iter().map(|p| p.as_dvec3()).collect(), b32.iter().map(|p| p.as_dvec3()).collect());
            let n = k.normal.as_dvec3();
            let gap = (k.point_a - k.point_b).length() as f64;
            let g = distance(&ha, &Pose::IDENTITY, &hb, &Pose::IDENTITY);
            note(3 + route(g.status, k.epa_status), pen(&a, &b, n), gap, n, format!("pair {i} f32: {k:?}"));
        }
    }
    // Verified GJK normals: at the zero band (f32: the f32 rounding of the
    // vertices, which moves the contact). Overlaps by rounding (GJK cannot
    // verify a normal) are re-measured on the pair shifted apart, without
    // EPA: √ε-level in f64; in f32 the re-measured normal is accurate to
    // ~ε·size/shift radians, ~1e-3 of the size (measured 9e-4; it was
    // 2.3e-2 through a stalled EPA before a `Touching` re-measure was
    // accepted, and ~70 % when EPA reported the witness face). The few
    // that still reach EPA (the re-measure found a real overlap) are
    // re-measured after it, as accurately.
    let limits = [1e-13, 1e-6, 1e-6, 1e-4, 3e-3, 3e-3];
    for (slot, (&(count, pen, gap), limit)) in worst.iter().zip(limits).enumerate() {
        // The EPA routes are rare now (2 pairs each); the others common.
        assert!(count > if slot % 3 == 2 { 0 } else { 50 }, "route {slot} exercised: {worst:?}");
        assert!(pen <= limit && gap <= limit, "route {slot}: {worst:?}");
    }
}

/// Signed distance between the convex polygons `a` and `b` (world
/// vertices, counter-clockwise) by brute force: overlapping, minus the
/// smallest overlap of their projections over every edge normal (the
/// separating-axis theorem); apart, the smallest distance over every pair
/// of edges.
fn brute_signed_2d(a: &[DVec2], b: &[DVec2]) -> f64 {
    let mut overlap = f64::INFINITY;
    for poly in [a, b] {
        for i in 0..poly.len() {
            let e = poly[(i + 1) % poly.len()] - poly[i];
            let n = DVec2::new(e.y, -e.x).normalize();
            overlap = overlap.min(height2(a, n) + height2(b, -n)).min(height2(a, -n) + height2(b, n));
        }
    }
    if overlap > 0.0 {
        return -overlap;
    }
    let l = |p: DVec2| p.extend(0.0);
    let mut best = f64::INFINITY;
    for i in 0..a.len() {
        for j in 0..b.len() {
            let (a0, a1) = (l(a[i]), l(a[(i + 1) % a.len()]));
            let (b0, b1) = (l(b[j]), l(b[(j + 1) % b.len()]));
            best = best.min(segment_segment_sq3(a0, a1, b0, b1));
        }
    }
    best.sqrt()
}

/// How far `p` lies outside the convex polygon `poly` (0 inside).
fn outside_2d(poly: &[DVec2], p: DVec2) -> f64 {
    let inside = (0..poly.len()).all(|i| (poly[(i + 1) % poly.len()] - poly[i]).perp_dot(p - poly[i]) >= 0.0);
    if inside {
        return 0.0;
    }
    (0..poly.len())
        .map(|i| {
            let (s, e) = (poly[i], poly[(i + 1) % poly.len()]);
            let t = ((p - s).dot(e - s) / (e - s).length_squared()).clamp(0.0, 1.0);
            (p - (s + (e - s) * t)).length()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Polygon pairs (2D), sharp and rounded, overlapping, touching and apart:
/// the contact's signed distance is the brute-force one (exact: these go
/// through the separating-axis test, or GJK for vertex–vertex gaps), its
/// points lie on the shapes, differ by the signed distance along the
/// normal, swapping the shapes changes nothing but the normal's sign, and
/// `contact_within` reports exactly the pairs within its prediction.
#[test]
fn polygon_contacts_are_exact() {
    let mut rng = Rng::new(0x5a7);
    let (mut overlapping, mut apart, mut touching) = (0, 0, 0);
    for i in 0..4000 {
        let (na, nb) = (rng.usize(3, 12), rng.usize(3, 12));
        let (la, lb) = (polygon(&mut rng, na), polygon(&mut rng, nb));
        let (ra, rb) = if rng.f64() < 0.5 { (0.0, 0.0) } else { (rng.range(0.0, 0.3), rng.range(0.0, 0.3)) };
        let pa = Pose::from_angle_translation(rng.range(0.0, 6.3), rng.unit2() * rng.range(0.0, 0.5));
        let mut pb = Pose::from_angle_translation(rng.range(0.0, 6.3), rng.unit2() * rng.range(0.0, 4.0));
        let (a, b) = (ConvexPolygon::new(&la).unwrap(), ConvexPolygon::new(&lb).unwrap());
        let world = |p: &ConvexPolygon<DVec2>, at: &Pose<DVec2>| -> Vec<DVec2> {
            p.vertices().iter().map(|v| at.transform_point(*v)).collect()
        };
        let wa = world(&a, &pa);
        let mut wb = world(&b, &pb);
        let mut core = brute_signed_2d(&wa, &wb);
        if i % 8 == 0 && core > 0.0 {
            // Moved along the closest points until the cores touch.
            let (_, ca, cb) = brute_closest_2d(&wa, &wb);
            pb = Pose::new(pb.rotation, pb.translation + (ca - cb));
            wb = world(&b, &pb);
            core = brute_signed_2d(&wa, &wb);
        }
        let (ka, kb) = (Rounded::new(&a, ra).unwrap(), Rounded::new(&b, rb).unwrap());
        let k = contact(&ka, &pa, &kb, &pb);
        let gap = core - ra - rb;
        let ctx = format!("#{i}: gap {gap}, got {:?} {} {}", k.status, k.distance, k.depth);
        assert!((k.signed_distance() - gap).abs() < 1e-9, "{ctx}");
        match k.status {
            ContactStatus::Penetrating => overlapping += 1,
            ContactStatus::Separated => apart += 1,
            ContactStatus::Touching => touching += 1,
            s => panic!("{ctx}: status {s:?}"),
        }
        assert!(gap.abs() < 1e-9 || (gap > 0.0) == (k.status == ContactStatus::Separated), "{ctx}");
        assert!((k.normal.length() - 1.0).abs() < 1e-12, "{ctx}: normal {}", k.normal);
        let diff = k.point_b - k.point_a;
        assert!((diff - k.normal * k.signed_distance()).length() < 1e-9, "{ctx}: points {diff:?}");
        assert!(outside_2d(&wa, k.point_a) <= ra + 1e-9, "{ctx}: point_a off A");
        assert!(outside_2d(&wb, k.point_b) <= rb + 1e-9, "{ctx}: point_b off B");
        let s = contact(&kb, &pb, &ka, &pa);
        assert!((s.signed_distance() - gap).abs() < 1e-9, "{ctx}: swapped {}", s.signed_distance());
        // Contact generation with a prediction distance: a contact exactly
        // for the pairs within it, the same contact as without.
        let prediction = rng.range(0.0, 0.5);
        let w = gjk_epa::contact_within(&ka, &pa, &kb, &pb, prediction);
        if gap > prediction + 1e-9 {
            assert!(w.is_none(), "{ctx}: reported beyond the prediction {prediction}");
        } else if gap < prediction - 1e-9 {
            let w = w.unwrap_or_else(|| panic!("{ctx}: missed within the prediction {prediction}"));
            assert!((w.signed_distance() - gap).abs() < 1e-9, "{ctx}: within {}", w.signed_distance());
        }
    }
    assert!(overlapping > 1000 && apart > 1000 && touching > 100, "{overlapping} {apart} {touching}");
}

/// The same in f32: the signed distance within f32 rounding of the f64
/// brute force, statuses consistent, points on the shapes.
#[test]
fn polygon_contacts_f32() {
    use gjk_shapes::glam::Vec2;
    let mut rng = Rng::new(0x5a8);
    for i in 0..2000 {
        let (na, nb) = (rng.usize(3, 24), rng.usize(3, 24));
        let (la, lb) = (polygon(&mut rng, na), polygon(&mut rng, nb));
        let (angle_a, angle_b) = (rng.range(0.0, 6.3), rng.range(0.0, 6.3));
        let (ta, tb) = (rng.unit2() * rng.range(0.0, 0.5), rng.unit2() * rng.range(0.0, 4.0));
        let f = |p: &[DVec2]| -> Vec<Vec2> { p.iter().map(|q| q.as_vec2()).collect() };
        let (a, b) = (ConvexPolygon::new(&f(&la)).unwrap(), ConvexPolygon::new(&f(&lb)).unwrap());
        let pa = Pose::from_angle_translation(angle_a as f32, ta.as_vec2());
        let pb = Pose::from_angle_translation(angle_b as f32, tb.as_vec2());
        // The oracle on the f32 shapes' exact vertices, placed in f64.
        let world = |p: &ConvexPolygon<Vec2>, angle: f64, t: DVec2| -> Vec<DVec2> {
            let at = Pose::from_angle_translation(angle as f32 as f64, t.as_vec2().as_dvec2());
            p.vertices().iter().map(|v| at.transform_point(v.as_dvec2())).collect()
        };
        let (wa, wb) = (world(&a, angle_a, ta), world(&b, angle_b, tb));
        let gap = brute_signed_2d(&wa, &wb);
        let k = contact(&a, &pa, &b, &pb);
        let ctx = format!("#{i}: gap {gap}, got {:?} {}", k.status, k.signed_distance());
        assert!((k.signed_distance() as f64 - gap).abs() < 2e-5, "{ctx}");
        if gap.abs() > 1e-4 {
            assert_eq!(gap > 0.0, k.status == ContactStatus::Separated, "{ctx}");
        }
        assert!(outside_2d(&wa, k.point_a.as_dvec2()) < 2e-5, "{ctx}: point_a off A");
        assert!(outside_2d(&wb, k.point_b.as_dvec2()) < 2e-5, "{ctx}: point_b off B");
    }
}

/// Polygon contacts at the edges of the input range: sizes 1e-6 to 1e6,
/// slivers, identical polygons at one pose, vertex-on-vertex and
/// edge-on-edge contact: finite outputs, and the signed distance of the
/// brute force to a tolerance relative to the size.
#[test]
fn polygon_contacts_degenerate_and_scaled() {
    let mut rng = Rng::new(0x5a9);
    for &scale in &[1e-6, 1e-3, 1.0, 1e3, 1e6] {
        for i in 0..300 {
            let (na, nb) = (rng.usize(3, 10), rng.usize(3, 10));
            let mut la: Vec<DVec2> = polygon(&mut rng, na).iter().map(|p| *p * scale).collect();
            let mut lb: Vec<DVec2> = polygon(&mut rng, nb).iter().map(|p| *p * scale).collect();
            match i % 5 {
                // A sliver: squashed to a thousandth of its height.
                0 => la.iter_mut().for_each(|p| p.y *= 1e-3),
                // The same polygon twice.
                1 => lb = la.clone(),
                _ => {}
            }
            let (a, b) = (ConvexPolygon::new(&la).unwrap(), ConvexPolygon::new(&lb).unwrap());
            let pa =
                Pose::from_angle_translation(rng.range(0.0, 6.3), rng.unit2() * scale * rng.range(0.0, 0.5));
            let mut pb = if i % 5 == 1 {
                pa
            } else {
                Pose::from_angle_translation(rng.range(0.0, 6.3), rng.unit2() * scale * rng.range(0.0, 3.0))
            };
            let world = |p: &ConvexPolygon<DVec2>, at: &Pose<DVec2>| -> Vec<DVec2> {
                p.vertices().iter().map(|v| at.transform_point(*v)).collect()
            };
            let wa = world(&a, &pa);
            if i % 5 == 2 {
                // Vertex on vertex: B moved so that a vertex of B lands on
                // one of A.
                let wb = world(&b, &pb);
                pb = Pose::new(pb.rotation, pb.translation + (wa[0] - wb[0]));
            }
            let wb = world(&b, &pb);
            let gap = brute_signed_2d(&wa, &wb);
            let k = contact(&a, &pa, &b, &pb);
            let ctx = format!("scale {scale} #{i}: gap {gap}, got {:?} {}", k.status, k.signed_distance());
            assert!(k.normal.is_finite() && k.point_a.is_finite() && k.point_b.is_finite(), "{ctx}");
            assert!((k.normal.length() - 1.0).abs() < 1e-9, "{ctx}");
            assert!((k.signed_distance() - gap).abs() < 1e-9 * scale, "{ctx}");
        }
    }
}

/// `contact_within` rejects pairs whose cores' outer balls are apart by
/// more than the prediction and the radii with no support call
/// (`gjk_core::internal::ball_test`): on hulls, boxes and polygons (sharp and
/// rounded) placed around that threshold, its answer is `None` exactly
/// when the full contact is further than the prediction, and the
/// rejected pairs' brute-force distance exceeds it.
#[test]
fn contact_within_rejects_by_outer_balls() {
    use gjk_core::internal::{BallTest, ball_test};
    use gjk_core::{GjkConfig, SupportMap};
    use gjk_epa::contact_within;
    use gjk_shapes::{CoreOf, Placed, Shape};
    let mut rng = Rng::new(9191);
    let mut rejected = 0;
    for k in 0..1500 {
        let round = 0.1 * (k % 3) as f64;
        let n = rng.usize(4, 30);
        let a = Rounded::new(ConvexHull::new(&polyhedron(&mut rng, n)).unwrap(), round).unwrap();
        let b = Cuboid::new(DVec3::new(0.3, 0.5, 0.7)).unwrap();
        let prediction = rng.range(0.0, 0.5);
        let (_, oa) = CoreOf(&a).center_radii().unwrap();
        let (_, ob) = SupportMap::<DVec3>::center_radii(&b).unwrap();
        // B's centre at 0.8–1.4 times the balls' reach plus the margin.
        let reach = (oa + ob + round + prediction) * rng.range(0.8, 1.4);
        let pa = pose3(&mut rng, 2.0);
        let ca = pa.transform_point(a.center().unwrap());
        let pb = Pose::new(rng.quat(), ca + rng.unit3() * reach);
        let full = contact(&a, &pa, &b, &pb);
        let far = full.signed_distance() > prediction;
        if (full.signed_distance() - prediction).abs() < 1e-9 {
            continue;
        }
        let within = contact_within(&a, &pa, &b, &pb, prediction);
        assert_eq!(within.is_none(), far, "pair {k}: {:?} at {}", full.status, full.signed_distance());
        let margin = a.radius() + prediction;
        let verdict = ball_test(
            &CoreOf(Placed::new(&a, &pa)),
            &CoreOf(Placed::new(&b, &pb)),
            margin,
            &GjkConfig::within(prediction),
        );
        if verdict == BallTest::Apart {
            rejected += 1;
            let core_a: Vec<DVec3> = a.shape.vertices().iter().map(|v| pa.transform_point(*v)).collect();
            let corners = box_corners(b.half_extents(), DMat3::from_quat(pb.rotation), pb.translation);
            let gap = brute_distance_3d(&core_a, &corners) - round;
            assert!(gap > prediction, "pair {k}: rejected at brute-force {gap} (prediction {prediction})");
        }
    }
    assert!(rejected > 300, "the outer balls rejected {rejected} pairs");
}

/// 2D boxes (rectangles, the box separating-axis test) against the same
/// rectangles as polygons (the polygon separating-axis test, exact): the
/// same status, depth and normal, sharp and rounded.
#[test]
fn rectangles_match_their_polygons() {
    let mut rng = Rng::new(305);
    let mut penetrating = 0;
    for i in 0..2000 {
        let (ha, hb) = (
            DVec2::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5)),
            DVec2::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5)),
        );
        let pose = |rng: &mut Rng| {
            Pose::from_angle_translation(rng.range(-3.2, 3.2), rng.unit2() * rng.range(0.0, 2.5))
        };
        let (pa, pb) = (pose(&mut rng), pose(&mut rng));
        let poly =
            |h: DVec2| ConvexPolygon::new(&[-h, DVec2::new(h.x, -h.y), h, DVec2::new(-h.x, h.y)]).unwrap();
        let r = if i % 2 == 0 { 0.0 } else { rng.range(0.0, 0.2) };
        let (a, b) = (
            Rounded::new(Cuboid::new(ha).unwrap(), r).unwrap(),
            Rounded::new(Cuboid::new(hb).unwrap(), r).unwrap(),
        );
        let (qa, qb) = (Rounded::new(poly(ha), r).unwrap(), Rounded::new(poly(hb), r).unwrap());
        let (k, e) = (contact(&a, &pa, &b, &pb), contact(&qa, &pa, &qb, &pb));
        let ctx = format!("#{i} (radius {r})");
        assert_eq!(k.status, e.status, "{ctx}: {k:?} vs {e:?}");
        assert!(
            (k.distance - e.distance).abs() < 1e-9 && (k.depth - e.depth).abs() < 1e-9,
            "{ctx}: {k:?} vs {e:?}"
        );
        if k.status == ContactStatus::Penetrating {
            penetrating += 1;
            // The normal is a minimum-overlap axis (ties between two axes of
            // equal overlap may pick either): the cores overlap along it by
            // the depth less the radii.
            let corners = |h: DVec2, p: &Pose<DVec2>| {
                [-h, DVec2::new(h.x, -h.y), h, DVec2::new(-h.x, h.y)].map(|c| p.transform_point(c))
            };
            let (ca, cb) = (corners(ha, &pa), corners(hb, &pb));
            let n = k.normal;
            let overlap = ca.iter().map(|c| n.dot(*c)).fold(f64::MIN, f64::max)
                - cb.iter().map(|c| n.dot(*c)).fold(f64::MAX, f64::min);
            assert!(
                (n.length() - 1.0).abs() < 1e-12 && (overlap + 2.0 * r - k.depth).abs() < 1e-9,
                "{ctx}: {overlap}"
            );
            assert!(((k.point_a - k.point_b) - k.normal * k.depth).length() < 1e-9, "{ctx}");
        }
    }
    assert!(penetrating > 500, "{penetrating}");
}

/// An ellipse of a caller's own support map (2D): curved, not round.
struct Ellipse {
    centre: DVec2,
    axis: DVec2,
    half: DVec2,
}

impl SupportMap<DVec2> for Ellipse {
    fn support(&self, d: DVec2) -> DVec2 {
        let (u, v) = (self.axis, self.axis.perp());
        let (du, dv) = (d.dot(u) * self.half.x, d.dot(v) * self.half.y);
        let l = du.hypot(dv);
        if l == 0.0 {
            return self.centre + u * self.half.x;
        }
        self.centre + u * (self.half.x * du / l) + v * (self.half.y * dv / l)
    }
    fn center(&self) -> Option<DVec2> {
        Some(self.centre)
    }
}

impl Ellipse {
    /// Its support function in closed form: `c·n + √((a n·u)² + (b n·v)²)`.
    fn height(&self, n: DVec2) -> f64 {
        self.centre.dot(n) + (n.dot(self.axis) * self.half.x).hypot(n.dot(self.axis.perp()) * self.half.y)
    }
}

/// EPA in 2D on curved support maps (docs/reliability.md, *EPA on curved
/// shapes*): two ellipses pushed together along a random normal by 0.3 to
/// 1e-6. Along each answer's normal the separation (the support functions
/// in closed form) must equal its depth to 1e-9 (1e-6 for the rare run at
/// the iteration cap, whose depth is a lower bound). Before EPA's polygon
/// kept its deepest edge where rounding broke its convexity (and its
/// tolerance's floor), 532 of these missed, most of them ended at the cap
/// on an edge whose normal missed the depth by 1e-6 or more.
#[test]
fn ellipses_of_a_callers_support_map() {
    let mut rng = Rng::new(3);
    let (mut runs, mut capped, mut failures) = (0, 0, Vec::new());
    for case in 0..20_000 {
        let a = Ellipse {
            centre: DVec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)),
            axis: rng.unit2(),
            half: DVec2::new(rng.range(0.3, 3.0), rng.range(0.3, 3.0)),
        };
        let push = [0.3, 1e-2, 1e-4, 1e-6][case % 4];
        let n = rng.unit2();
        let mut b = Ellipse {
            centre: DVec2::ZERO,
            axis: rng.unit2(),
            half: DVec2::new(rng.range(0.3, 3.0), rng.range(0.3, 3.0)),
        };
        // B's point along −n placed `push` inside A's point along n.
        b.centre = a.support(n) - b.support(-n) - n * push;
        let g = gjk_core::distance(&a, &b);
        if g.status != Status::Intersecting {
            continue;
        }
        runs += 1;
        let e = gjk_epa::penetration(&a, &b, &g.simplex, &gjk_epa::EpaConfig::default());
        let excess = (a.height(e.normal) + b.height(-e.normal) - e.depth).abs();
        // A run at the cap reports a lower bound: looser, and rare.
        capped += usize::from(e.status == EpaStatus::IterationLimit);
        let allowed = if e.status == EpaStatus::IterationLimit { 1e-6 } else { 1e-9 };
        if excess > allowed || e.status == EpaStatus::Indeterminate {
            failures.push(format!("case {case}: {:?} depth {} excess {excess:e}", e.status, e.depth));
        }
    }
    assert!(runs > 15_000, "{runs} EPA runs");
    assert!(
        failures.is_empty(),
        "{} of {runs}:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    assert!(capped * 1000 <= runs, "{capped} of {runs} at the cap");
}

/// Boxes apart within a physics step's prediction, the case a box resting
/// on another makes every step: face over face (a random yaw and offset),
/// and random placements (edge over edge, corner over face, corner over
/// corner), plain and rounded, at three scales. The box test settles the
/// pair (no GJK iteration) where its axis's witnesses realise the
/// separation; every answer, settled or not, is checked against the brute
/// force over the corners' vertex, edge and face pairs: the status, the
/// distance (or a rounded pair's depth, the radii less the cores' gap), the
/// points on the boxes' surfaces and the normal joining them. The same
/// boxes as hulls of their corners (GJK) give the same answer.
#[test]
fn separated_boxes_settled_by_their_axes() {
    let mut rng = Rng::new(3_051);
    let (mut settled, mut by_gjk, mut rounded_deep) = (0, 0, 0);
    for i in 0..3_000 {
        let scale = [1e-3, 1.0, 1e3][i % 3];
        let half =
            |rng: &mut Rng| DVec3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5)) * scale;
        let (ha, hb) = (half(&mut rng), half(&mut rng));
        let pa = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 2.0) * scale);
        let gap = rng.range(1e-6, 0.3) * scale;
        let pb = if i % 2 == 0 {
            // B over A's +y face, turned about it, its centre over the face.
            let yaw = DQuat::from_rotation_y(rng.range(-3.2, 3.2));
            let over = DVec3::new(rng.range(-ha.x, ha.x), ha.y + hb.y + gap, rng.range(-ha.z, ha.z));
            Pose::new(pa.rotation * yaw, pa.translation + pa.rotation * over)
        } else {
            // A random placement, moved apart along the centres' line
            // until the boxes are a little more than `gap` apart.
            let q = rng.quat();
            let dir = rng.unit3();
            let mut t = 0.0;
            loop {
                let pb = Pose::new(q, pa.translation + dir * t);
                let corners_b = box_corners(hb, DMat3::from_quat(q), pb.translation);
                let corners_a = box_corners(ha, DMat3::from_quat(pa.rotation), pa.translation);
                if !sat_disjoint_3d(&corners_a, &corners_b) {
                    t += 0.05 * scale;
                    continue;
                }
                break Pose::new(q, pb.translation + dir * gap);
            }
        };
        let ca = box_corners(ha, DMat3::from_quat(pa.rotation), pa.translation);
        let cb = box_corners(hb, DMat3::from_quat(pb.rotation), pb.translation);
        let (want, _, _) = brute_closest_3d(&ca, &cb);
        let r = if i % 4 == 1 { rng.range(0.0, 0.2) * scale } else { 0.0 };
        let (a, b) = (
            Rounded::new(Cuboid::new(ha).unwrap(), r).unwrap(),
            Rounded::new(Cuboid::new(hb).unwrap(), r).unwrap(),
        );
        let k = contact(&a, &pa, &b, &pb);
        let ctx = format!("#{i} scale {scale} r {r}: brute {want}, {k:?}");
        let signed = want - 2.0 * r;
        let tol = 1e-9 * scale;
        if signed > tol {
            assert_eq!(k.status, ContactStatus::Separated, "{ctx}");
            assert!((k.distance - signed).abs() < tol, "{ctx}");
        } else if signed < -tol {
            rounded_deep += 1;
            assert_eq!(k.status, ContactStatus::Penetrating, "{ctx}");
            assert!((k.depth + signed).abs() < tol, "{ctx}");
        } else {
            continue;
        }
        if k.gjk_iterations == 0 {
            settled += 1;
        } else {
            by_gjk += 1;
        }
        // The points: on the surfaces (the cores' boxes grown by `r`),
        // joined along the normal by the signed distance.
        let off_core = |p: DVec3, pose: &Pose<DVec3>, h: DVec3| {
            let l = pose.inverse_transform_point(p);
            (l - l.clamp(-h, h)).length()
        };
        assert!((off_core(k.point_a, &pa, ha) - r).abs() < tol, "{ctx}: A's point off its surface");
        assert!((off_core(k.point_b, &pb, hb) - r).abs() < tol, "{ctx}: B's point off its surface");
        assert!((k.normal.length() - 1.0).abs() < 1e-12, "{ctx}");
        assert!(((k.point_b - k.point_a) - k.normal * k.signed_distance()).length() < tol, "{ctx}");
        // The same boxes as hulls (GJK and EPA): the same answer.
        let hull = |h: DVec3| ConvexHull::new(&box_corners(h, DMat3::IDENTITY, DVec3::ZERO)).unwrap();
        let (ha_, hb_) = (Rounded::new(hull(ha), r).unwrap(), Rounded::new(hull(hb), r).unwrap());
        let g = contact(&ha_, &pa, &hb_, &pb);
        assert_eq!(g.status, k.status, "{ctx}: hulls {g:?}");
        assert!((g.signed_distance() - k.signed_distance()).abs() < tol, "{ctx}: hulls {g:?}");
    }
    // Both ways are exercised: face over face is settled by the box test,
    // vertex and edge regions by GJK; and rounded pairs whose cores are
    // apart by less than their radii.
    assert!(settled > 1_500 && by_gjk > 200 && rounded_deep > 100, "{settled} / {by_gjk} / {rounded_deep}");
}

/// Capsules and balls against boxes, either way round, the pairs a
/// physics scene makes most after box pairs: lying on a face (the axis
/// in the face's plane, at a random yaw), standing on it, and at random;
/// cores apart by more or less than the radius, or crossing the box; at
/// three scales. Every answer is checked against the brute force
/// over the box's corners and the core's ends (the distance over vertex,
/// edge and face pairs; a crossing core's depth over the planes of their
/// Minkowski difference): the status and the signed distance (the radius
/// less the cores' gap, or plus their depth), the points on the surfaces
/// for pairs whose cores are apart, and, for overlaps, moving B out by
/// the depth along the normal makes them touch. The box test settles most
/// (no GJK iteration: `box_cores`, a box and a segment or point; a point
/// core, in closed form, always); the others run GJK as before.
#[test]
fn capsules_and_balls_on_boxes_against_brute_force() {
    let mut rng = Rng::new(3_052);
    let (mut settled, mut by_gjk, mut crossing) = (0, 0, 0);
    for i in 0..3_000 {
        let scale = [1e-3, 1.0, 1e3][i % 3];
        let hb = DVec3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5)) * scale;
        let pbox = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 2.0) * scale);
        let hh = if i % 5 == 0 { 0.0 } else { rng.range(0.05, 1.0) * scale };
        let r = rng.range(0.02, 0.3) * scale;
        let ball = i % 7 == 3;
        let hh = if ball { 0.0 } else { hh };
        // The core's height over the face: its ends' lowest point `gap`
        // above it (negative: through it).
        let gap = rng.range(-1.5, 1.5) * r;
        let (dir, lift) = match i % 3 {
            0 => {
                let t = rng.range(-3.2, 3.2);
                (DVec3::new(t.cos(), 0.0, t.sin()), 0.0)
            }
            1 => (DVec3::Y, hh),
            _ => {
                let d = rng.unit3();
                (d, hh * d.y.abs())
            }
        };
        let local = DVec3::new(rng.range(-1.2, 1.2) * hb.x, hb.y + lift + gap, rng.range(-1.2, 1.2) * hb.z);
        let rot = pbox.rotation * DQuat::from_rotation_arc(DVec3::Y, dir);
        let pcap = Pose::new(rot, pbox.translation + pbox.rotation * local);
        let ends = [pcap.transform_point(DVec3::Y * -hh), pcap.transform_point(DVec3::Y * hh)];
        let corners = box_corners(hb, DMat3::from_quat(pbox.rotation), pbox.translation);
        let ends: &[DVec3] = if hh == 0.0 { &ends[..1] } else { &ends };
        // The cores' signed gap, by brute force.
        let core_gap = if sat_disjoint_3d(&corners, ends) {
            brute_closest_3d(&corners, ends).0
        } else {
            -brute_depth_3d(&corners, ends)
        };
        let signed = core_gap - r;
        let tol = 1e-9 * scale;
        if signed.abs() < tol {
            continue;
        }
        let cuboid = Cuboid::new(hb).unwrap();
        let round: Box<dyn gjk_shapes::Shape<DVec3>> =
            if ball { Box::new(Ball::new(r).unwrap()) } else { Box::new(Capsule::new(hh, r).unwrap()) };
        // Either way round: the box as A or as B.
        let swap = i % 2 == 1;
        let k = if swap {
            contact(round.as_ref(), &pcap, &cuboid, &pbox)
        } else {
            contact(&cuboid, &pbox, round.as_ref(), &pcap)
        };
        let ctx = format!("#{i} scale {scale} hh {hh} r {r} swap {swap}: brute {signed}, {k:?}");
        if signed > 0.0 {
            assert_eq!(k.status, ContactStatus::Separated, "{ctx}");
            assert!((k.distance - signed).abs() < tol, "{ctx}");
        } else {
            assert_eq!(k.status, ContactStatus::Penetrating, "{ctx}");
            assert!((k.depth + signed).abs() < tol, "{ctx}");
        }
        crossing += usize::from(core_gap < 0.0);
        if hh == 0.0 {
            // A point core (a ball, or a capsule of no length) against a
            // box is settled in closed form in every region.
            assert_eq!(k.gjk_iterations, 0, "{ctx}: a ball ran GJK");
        }
        if k.gjk_iterations == 0 {
            settled += 1;
        } else {
            by_gjk += 1;
        }
        assert!((k.normal.length() - 1.0).abs() < 1e-12, "{ctx}");
        assert!(((k.point_b - k.point_a) - k.normal * k.signed_distance()).length() < tol, "{ctx}");
        let (p_box, p_round) = if swap { (k.point_b, k.point_a) } else { (k.point_a, k.point_b) };
        if core_gap > 0.0 {
            // On the surfaces: the box's boundary, the core grown by `r`.
            let l = pbox.inverse_transform_point(p_box);
            let out = (l.abs() - hb).max_element();
            assert!(out.abs() < tol, "{ctx}: the box's point {out} off its surface");
            let c = pcap.inverse_transform_point(p_round);
            let off = (c - DVec3::new(0.0, c.y.clamp(-hh, hh), 0.0)).length();
            assert!((off - r).abs() < tol, "{ctx}: the round point {off} from its core");
        } else {
            // Moving B out by the depth along the normal: touching.
            let moved = |p: &Pose<DVec3>| Pose::new(p.rotation, p.translation + k.normal * k.depth);
            let d = if swap {
                distance(&cuboid, &moved(&pbox), round.as_ref(), &pcap)
            } else {
                distance(&cuboid, &pbox, round.as_ref(), &moved(&pcap))
            }
            .distance;
            assert!(d < 1e-7 * scale, "{ctx}: {d} apart when moved out");
        }
    }
    assert!(settled > 1_200 && by_gjk > 100 && crossing > 100, "{settled} / {by_gjk} / {crossing}");
}

/// Capsules and balls against each other (their cores' closest points in
/// closed form, `closest_on_segments`): lying side by side (parallel, or
/// turned by a hair), crossing, and at random, at three scales. Against
/// the brute force over the cores' ends (every point–segment and segment
/// pair): the status and the signed distance, the points on the surfaces
/// and the normal joining them. Cores apart beyond the shallow band are
/// settled without GJK; nearer (and crossing), GJK and EPA as before.
#[test]
fn capsule_and_ball_pairs_in_closed_form() {
    let mut rng = Rng::new(3_053);
    let (mut settled, mut by_gjk) = (0, 0);
    for i in 0..3_000 {
        let scale = [1e-3, 1.0, 1e3][i % 3];
        let h = |rng: &mut Rng| if rng.usize(0, 5) == 0 { 0.0 } else { rng.range(0.05, 1.5) * scale };
        let (ha, hb) = (h(&mut rng), h(&mut rng));
        let (ra, rb) = (rng.range(0.02, 0.6) * scale, rng.range(0.02, 0.6) * scale);
        let gap = rng.range(-0.5, 0.5) * (ra + rb);
        let pa = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 2.0) * scale);
        let across = pa.rotation * DQuat::from_rotation_y(rng.range(0.0, 6.3)) * DVec3::X;
        let (rot_b, at) = match i % 3 {
            0 => {
                // Turned by a hair about the line between them (skew) or
                // across it (in one plane, drifting apart along them).
                let hair = [0.0, 1e-9, 1e-6, 1e-3][rng.usize(0, 3)] * rng.range(-1.0, 1.0);
                let about = if rng.usize(0, 1) == 0 { across } else { across.cross(pa.rotation * DVec3::Y) };
                let slide = pa.rotation * DVec3::Y * rng.range(-1.0, 1.0) * (ha + hb);
                (DQuat::from_axis_angle(about, hair) * pa.rotation, slide + across * (ra + rb + gap))
            }
            1 => (
                DQuat::from_axis_angle(across, std::f64::consts::FRAC_PI_2) * pa.rotation,
                across * (ra + rb + gap),
            ),
            _ => (rng.quat(), rng.unit3() * rng.range(0.0, 2.0) * scale),
        };
        let pb = Pose::new(rot_b, pa.translation + at);
        let ends =
            |p: &Pose<DVec3>, h: f64| [p.transform_point(-DVec3::Y * h), p.transform_point(DVec3::Y * h)];
        let (ea, eb) = (ends(&pa, ha), ends(&pb, hb));
        let core_gap = brute_closest_3d(&ea, &eb).0;
        let signed = core_gap - ra - rb;
        let tol = 1e-9 * scale;
        if signed.abs() < tol || core_gap < 1e-6 * scale {
            // At contact, or cores crossing (EPA's depth: not this test's).
            continue;
        }
        let shape = |h: f64, r: f64| -> Box<dyn gjk_shapes::Shape<DVec3>> {
            if h == 0.0 { Box::new(Ball::new(r).unwrap()) } else { Box::new(Capsule::new(h, r).unwrap()) }
        };
        let (a, b) = (shape(ha, ra), shape(hb, rb));
        let k = contact(a.as_ref(), &pa, b.as_ref(), &pb);
        let ctx = format!("#{i} scale {scale} h {ha} {hb} r {ra} {rb}: brute {signed}, {k:?}");
        if signed > 0.0 {
            assert_eq!(k.status, ContactStatus::Separated, "{ctx}");
        } else {
            assert_eq!(k.status, ContactStatus::Penetrating, "{ctx}");
        }
        assert!((k.signed_distance() - signed).abs() < tol, "{ctx}");
        // On the surfaces (each core grown by its radius), joined along the
        // normal by the signed distance.
        let off = |p: DVec3, pose: &Pose<DVec3>, h: f64| {
            let c = pose.inverse_transform_point(p);
            (c - DVec3::new(0.0, c.y.clamp(-h, h), 0.0)).length()
        };
        assert!((off(k.point_a, &pa, ha) - ra).abs() < tol, "{ctx}: A's point off its surface");
        assert!((off(k.point_b, &pb, hb) - rb).abs() < tol, "{ctx}: B's point off its surface");
        assert!(((k.point_b - k.point_a) - k.normal * k.signed_distance()).length() < tol, "{ctx}");
        // The normal proves the answer: along it the shapes' extents
        // (centre, half the core along it, the radius) overlap by exactly
        // the depth (or leave the distance). Among nearly parallel pairs a
        // rounding apart in distance, a normal tilted by their angle fails
        // this by the angle times the length.
        let height = |p: &Pose<DVec3>, h: f64, r: f64, n: DVec3| {
            p.translation.dot(n) + h * (p.rotation * DVec3::Y).dot(n).abs() + r
        };
        let overlap = height(&pa, ha, ra, k.normal) + height(&pb, hb, rb, -k.normal);
        assert!(
            (overlap + k.signed_distance()).abs() < 1e-12 * scale,
            "{ctx}: overlap {overlap:e} along the normal"
        );
        if k.gjk_iterations == 0 {
            settled += 1;
        } else {
            by_gjk += 1;
        }
    }
    assert!(settled > 2_000, "{settled} settled, {by_gjk} by GJK");
}

/// The batch contact query answers every pair as the single query does,
/// in order, hulls and balls at random poses (apart, touching, deep).
#[test]
fn contact_batch_is_the_single_query_in_order() {
    use gjk_epa::contact_batch;
    use gjk_shapes::PosedPair;
    let mut rng = Rng::new(5601);
    let hulls: Vec<ConvexHull<DVec3>> =
        (0..8).map(|_| ConvexHull::new(&polyhedron(&mut rng, 16)).unwrap()).collect();
    let poses: Vec<Pose<DVec3>> =
        (0..300).map(|_| Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 3.0))).collect();
    let pairs: Vec<_> = (0..300)
        .map(|k| PosedPair {
            a: &hulls[k % 8],
            pose_a: Pose::IDENTITY,
            b: &hulls[(k * 3 + 1) % 8],
            pose_b: poses[k],
        })
        .collect();
    let batch = contact_batch(&pairs);
    assert_eq!(batch.len(), pairs.len());
    let mut kinds = [0usize; 2];
    for (p, c) in pairs.iter().zip(&batch) {
        let one = contact(p.a, &p.pose_a, p.b, &p.pose_b);
        assert_eq!(*c, one);
        kinds[usize::from(one.is_contact())] += 1;
    }
    assert!(kinds[0] > 0 && kinds[1] > 0, "apart and in contact both sampled: {kinds:?}");
}
