//! EPA for `Vec3` runs in `Vec3A` (`Vector::Lanes`): its answers are those
//! of the same shapes given as `Vec3A`, to the bit on x86 (glam's `Vec3A`
//! rounds each operation as `Vec3` does) and to rounding elsewhere.

use gjk_core::glam::{DVec3, Vec3, Vec3A};
use gjk_core::{GjkConfig, Status, distance_with};
use gjk_epa::{EpaConfig, Penetration, penetration};
use gjk_testkit::*;

fn numbers<V: gjk_core::Vector<Scalar = f32>>(p: &Penetration<V>, xyz: impl Fn(V) -> [f32; 3]) -> Vec<f32> {
    let mut out = vec![p.depth, p.iterations as f32];
    for v in [p.normal, p.point_a, p.point_b] {
        out.extend(xyz(v));
    }
    out
}

#[test]
fn vec3_penetration_answers_as_vec3a() {
    let mut rng = Rng::new(7080);
    let (gjk, epa) = (GjkConfig::default(), EpaConfig::default());
    let mut overlapping = 0;
    for i in 0..2000 {
        let s = [1e-3, 1.0, 1e3][i % 3];
        let (na, nb) = (rng.usize(4, 40), rng.usize(4, 40));
        let a: Vec<Vec3> = polyhedron(&mut rng, na).iter().map(|p| (*p * s).as_vec3()).collect();
        let at = rng.unit3() * s * rng.range(0.0, 1.9);
        let b: Vec<Vec3> = polyhedron(&mut rng, nb).iter().map(|p| (*p * s + at).as_vec3()).collect();
        let g = distance_with(&a[..], &b[..], &gjk, None, &mut ());
        if g.status != Status::Intersecting {
            continue;
        }
        overlapping += 1;
        let (aa, ba): (Vec<Vec3A>, Vec<Vec3A>) =
            (a.iter().map(|p| Vec3A::from(*p)).collect(), b.iter().map(|p| Vec3A::from(*p)).collect());
        let p3 = penetration(&a[..], &b[..], &g.simplex, &epa);
        let pa = penetration(&aa[..], &ba[..], &g.simplex.convert(Vec3A::from), &epa);
        assert_eq!(p3.status, pa.status, "pair {i}");
        let (x, y) = (numbers(&p3, |v| v.to_array()), numbers(&pa, |v| v.to_array()));
        if cfg!(any(target_arch = "x86", target_arch = "x86_64")) {
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&x), bits(&y), "pair {i}");
        } else {
            for (p, q) in x.iter().zip(&y) {
                assert!((p - q).abs() <= 1e-4 * (1.0 + p.abs()), "pair {i}: {p} vs {q}");
            }
        }
        // And EPA's own answer is an answer: the depth within a few per
        // cent of the brute-force penetration along its normal.
        let n = p3.normal.as_dvec3();
        let reach = |pts: &[Vec3], d: DVec3| pts.iter().map(|p| p.as_dvec3().dot(d)).fold(f64::MIN, f64::max);
        let along = reach(&a, n) + reach(&b, -n);
        assert!(
            (along - p3.depth as f64).abs() <= 1e-3 * s + 1e-3 * along,
            "pair {i}: {along} vs {}",
            p3.depth
        );
    }
    assert!(overlapping > 500, "{overlapping} overlapping pairs");
}
