//! Contact manifolds of polytope pairs in shallow contact, against the
//! brute-force oracle of `gjk_bench::manifolds` (docs/reliability.md,
//! *Contact manifolds*).
//!
//! Before the face test of `polytope_manifold`, every contact was clipped
//! on the face most aligned with its normal, edge-to-edge ones included:
//! 697 of 2 000 random box pairs (`gjk-bench manifolds`) came back with a
//! normal along which the boxes overlap by up to 1 795 times the allowed
//! slack over the least overlap; 17 face contacts on B's face were
//! clipped on A's face instead, up to 11° off (the alignment bias of 0.98
//! was a cosine); and the 318 pairs apart beyond the speculative distance
//! still got a point.
use gjk_bench::manifolds::{CHECKS, KINDS, KINDS_2D, manifold_tally};

/// Every set, in `f64` and `f32`, at scales 1e-6, 1 and 1e6: no check
/// fails (on cylinders and cones, a manifold that is the contact's own
/// single point is EPA's, whose accuracy on a curved surface is its
/// tolerance: `gjk-bench curved-contacts` checks those; the points of
/// every clipped manifold are checked to rounding). Guards that the sets hold what they are for: face contacts,
/// multi-point manifolds, single points (edge contacts) and pairs apart
/// beyond the speculative distance.
#[test]
fn manifolds_pass_the_oracle() {
    for (kind, name) in KINDS.iter().enumerate() {
        for f32_ in [false, true] {
            for k in [1e-6, 1.0, 1e6] {
                let t = manifold_tally(3, kind, f32_, k, 1000, 4300 + kind as u64);
                let what = format!("{name}, f32 {f32_}, scale {k}");
                let wrong: Vec<String> =
                    CHECKS.iter().zip(t.wrong).map(|(c, w)| format!("{c} {w}")).collect();
                assert!(t.first_wrong.is_none(), "{what}: {wrong:?}; first: {:?}", t.first_wrong);
                // Lines side by side have no faces.
                let faces = KINDS[kind] == "lines side by side" || t.face > 50;
                assert!(faces && t.multi > 50 && t.empty > 30, "{what}: {t:?}");
                if kind != 1 {
                    // Edge contacts: single points.
                    assert!(t.single > 100, "{what}: {t:?}");
                }
                // Only the sets with cylinders and cones leave a single
                // point to EPA's tolerance; their clipped manifolds are
                // checked whole.
                let curved = matches!(KINDS[kind], "cylinders and cones" | "lines side by side");
                assert!(curved || t.inherited == 0, "{what}: {t:?}");
            }
        }
    }
}

/// The 2D sets (`polygon_manifold`), as [`manifolds_pass_the_oracle`].
/// In 2D the least push between polygons is always an edge's normal (the
/// edges of `A − B` are the polygons' edges), so single points come from
/// clipping, from vertex–vertex gaps apart, or from round caps and discs.
#[test]
fn polygon_manifolds_pass_the_oracle() {
    for (kind, name) in KINDS_2D.iter().enumerate() {
        for f32_ in [false, true] {
            for k in [1e-6, 1.0, 1e6] {
                let t = manifold_tally(2, kind, f32_, k, 1000, 4320 + kind as u64);
                let what = format!("{name}, f32 {f32_}, scale {k}");
                let wrong: Vec<String> =
                    CHECKS.iter().zip(t.wrong).map(|(c, w)| format!("{c} {w}")).collect();
                assert!(t.first_wrong.is_none(), "{what}: {wrong:?}; first: {:?}", t.first_wrong);
                assert!(t.face > 50 && t.multi > 50 && t.single > 100 && t.empty > 30, "{what}: {t:?}");
            }
        }
    }
}

/// A box resting flat on another, turned at random: where the contact
/// region has more than four corners, the manifold's four points span the
/// largest area any four of them do (`gjk_bench::manifolds::reduction_ratio`).
/// The greedy reduction alone kept 74 % of it at worst here (66 % over the
/// example's 9 893 regions, under 90 % in 803 of them).
#[test]
fn the_reduction_keeps_the_largest_quadrilateral() {
    let mut rng = gjk_testkit::Rng::new(4400);
    let (mut n, mut worst) = (0, f64::INFINITY);
    for _ in 0..4000 {
        if let Some(r) = gjk_bench::manifolds::reduction_ratio(&mut rng) {
            n += 1;
            worst = worst.min(r);
        }
    }
    assert!(n > 1000, "{n} regions of more than four corners");
    assert!(worst > 1.0 - 1e-9, "the reduction kept {worst} of the largest area");
}
