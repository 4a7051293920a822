//! Cylinders and cones standing on a flat cap or face, nearly parallel to
//! it (docs/reliability.md, *Curved caps nearly parallel to a face*;
//! pairs and oracle in `gjk_bench::curved`).
//!
//! A cap tilted by `t` on a face makes `A − B` a face whose heights vary by
//! `r·t` along its rim: GJK's support points land on the rim at angles set
//! by rounding, and its steps there gain less than an ulp of `|v|²`. Before
//! the fixes named below, a third of the f64 pairs on a cap tilted 1e-9
//! ended unproven (`gjk-bench curved-caps`): distances `Separated` up to
//! 16 000 zero bands too far, and overlaps (27 and 1 900 bands below)
//! called apart by the boolean test.
use gjk_bench::curved::{CapPair, Lower, WRONG, cap_gap, cap_pair, cap_verdict, pose};
use gjk_core::glam::DVec3;
use gjk_testkit::{Revolved, Rng};

/// The wrong answers' names.
fn names(wrong: [bool; 4]) -> Vec<&'static str> {
    WRONG.iter().zip(wrong).filter(|(_, w)| *w).map(|(n, _)| *n).collect()
}

/// The exact inputs of the three failures found (f64), each with the fix
/// it needs.
#[test]
fn caps_nearly_parallel_exact_inputs() {
    // 1. A cone's base tilted 1e-9 on a cylinder's cap, 1.28 apart: GJK's
    //    segment stalled (its next support point's gain below an ulp of
    //    |v|²) and returned `Separated` 8.5e-10 too long; `distance_value`
    //    likewise. Needs the refinement on the facet the new point makes
    //    (`GjkSolver::refine_facet`).
    let stall = CapPair {
        lower: Lower::Cylinder(0.15908056073637056, 4.93601412683348),
        upper: (Revolved::Cone, 0.6802175018557305, 0.7537133018255847),
        pose_a: pose(
            [-0.9026241837558621, 0.12842084289939532, -0.40618786398622114, 0.06155557780074783],
            [-5.597178292078747, 0.10653230044808897, -9.658484317843667],
        ),
        pose_b: pose(
            [0.4830451584776011, 0.05016975607494431, -0.8639365560981936, -0.13328164721342073],
            [-5.43618446140343, -2.134309719625224, -9.647295698839244],
        ),
        tilt: 1,
    };
    // 2. A cylinder's cap tilted 1e-9 on another's, overlapping by 7.4e-10
    //    (1 900 zero bands): the boolean test stalled 9 bands from the
    //    origin and answered `false`. Needs the search's escapes and
    //    refinements, which the boolean test shares with the solver.
    let boolean = CapPair {
        lower: Lower::Cylinder(3.389636903635609, 2.962251811798754),
        upper: (Revolved::Cylinder, 0.10614157946571258, 0.7863346836184917),
        pose_a: pose(
            [-0.13900403178125173, 0.016382479300253164, -0.14855412397475617, 0.9789490108124255],
            [0.35400703150294865, -4.359458633590687, -5.842785606183245],
        ),
        pose_b: pose(
            [0.20293797654903062, 0.6537612777083199, 0.014374499969645502, -0.7288386263048856],
            [1.5635789337436958, -1.200349322491964, -6.752036203583024],
        ),
        tilt: 1,
    };
    // 3. A cylinder upside down (its cap within 1e-6 of parallel) on a large
    //    box's face, overlapping by 8.8e-10 (27 bands): the distance said
    //    `Separated` at 7.8e-10 and the boolean test `false`. Needs more
    //    refinements (`MAX_REFINES` 2 → 8).
    let budget = CapPair {
        lower: Lower::Box(DVec3::new(185.91161386210575, 18.591161386210576, 185.91161386210575)),
        upper: (Revolved::Cylinder, 6.734300713672014, 9.295580693105288),
        pose_a: pose(
            [0.08511870240436206, 0.1169759465492584, 0.8861990640947728, -0.44013935659907943],
            [6.903376795925156, 8.941365986897216, 7.550448549748402],
        ),
        pose_b: pose(
            [-0.41147930905367514, 0.7312940810372567, 0.19516880407803358, 0.5077429302071419],
            [34.775598435624396, 4.5641417765967365, 11.068170045172526],
        ),
        tilt: 4,
    };
    let mut failures = Vec::new();
    for (i, (pair, built)) in
        [(stall, 1.2789675907623383), (boolean, -7.4064e-10), (budget, -8.8137e-10)].iter().enumerate()
    {
        let g = cap_gap(pair, &pair.pose_a, &pair.pose_b).expect("the lowest point lies over the top");
        // The oracle, against the gap each pair was built with.
        assert!((g - built).abs() <= 1e-13 * built.abs().max(1.0), "case {i}: oracle gap {g:e}");
        let (_, band, wrong, answers) = cap_verdict(pair, false).expect("an oracle gap");
        assert!(g.abs() > 20.0 * band, "case {i}: gap {g:e} within 20 bands ({band:e})");
        if wrong.contains(&true) {
            failures.push(format!("case {i} (gap {g:e}): {:?} {answers:?}", names(wrong)));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// 12 000 seeded pairs ([`cap_pair`]), f64 and f32 alternately: every
/// answer outside the zero band right.
#[test]
fn caps_nearly_parallel_sweep() {
    let mut rng = Rng::new(20261127);
    let (mut checked, mut failures) = (0usize, Vec::new());
    for case in 0..12_000 {
        let pair = cap_pair(&mut rng, case);
        let f32_ = case % 4 >= 2;
        let Some((gap, _, wrong, answers)) = cap_verdict(&pair, f32_) else { continue };
        checked += 1;
        if wrong.contains(&true) {
            failures
                .push(format!("case {case} f32 {f32_} gap {gap:e} {pair:?}: {:?} {answers:?}", names(wrong)));
        }
    }
    assert!(checked > 10_000, "{checked} pairs checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

/// 10 000 seeded pairs side by side ([`gjk_bench::curved::side_pair`]):
/// every cylinder pair right (before the fixes: 212 of 100 000 distances
/// and 8 booleans wrong, `gjk-bench curved-caps`; this test: 10 pairs);
/// capsules beside cylinders, whose segment nearly parallel to the curved
/// side still leaves GJK a few bands off now and then (3 of 100 000, before
/// and after), at most one in 1 000.
#[test]
fn cylinders_side_by_side_sweep() {
    let mut rng = Rng::new(20261129);
    let (mut capsules, mut capsules_wrong, mut failures) = (0usize, 0usize, Vec::new());
    for case in 0..10_000 {
        let pair = gjk_bench::curved::side_pair(&mut rng, case);
        let (gap, _, wrong) = gjk_bench::curved::side_verdict(&pair);
        if pair.b.0 {
            capsules += 1;
            capsules_wrong += usize::from(wrong.contains(&true));
        } else if wrong.contains(&true) {
            failures.push(format!("case {case} gap {gap:e} {:?}: {pair:?}", names(wrong)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    assert!(capsules_wrong * 1_000 <= capsules, "{capsules_wrong} of {capsules} capsule pairs wrong");
}
