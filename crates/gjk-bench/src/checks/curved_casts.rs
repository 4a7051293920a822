//! Rays tangent to cylinders and cones, on their sides or caps, moved
//! 1.5 – 100 zero bands outwards or inwards along the tangent point's normal
//! (`gjk_bench::curved::tangent_ray`): how many casts call the wrong
//! verdict (beyond 1.5 bands), end at the iteration cap, or hit at a point
//! further than 4 bands from the shape (docs/reliability.md, *Casts
//! grazing curved shapes*). The truth is exact: outwards the ray lies in a
//! plane that far outside the tangent plane, inwards it runs through an
//! interior point, and the hit point's distance to the solid is computed
//! in the plane of its axis (`gjk_testkit::revolved_distance`).
//!
//! Then shape casts: the pairs of `gjk-bench curved-caps` that lie apart,
//! the upper shape dropped onto the lower one by twice its gap (f64), so
//! that it lands at fraction 0.5 (`gjk_bench::curved::drop_verdict`).
//!
//! Last, the pairs side by side of `gjk-bench curved-caps` (cylinders, and
//! capsules beside cylinders) that lie apart, B cast towards A along the
//! axes' common perpendicular by twice its gap (f64), landing at fraction
//! 0.5 (`gjk_bench::curved::side_cast_verdict`).
//!
//! `cargo run --release -p gjk-bench -- curved-casts [RAYS]`
//! (default 200 000 rays, f64 and f32 alternately, and as many pairs of
//! each kind).
use gjk_bench::curved::{
    RAY_BANDS, RAY_PARTS, SIDE_TILTS, TILTS, cap_pair, drop_verdict, side_cast_verdict, side_pair,
    tangent_ray, tangent_ray_verdict,
};
use gjk_core::CastStatus;
use gjk_testkit::{Revolved, Rng};

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let rays: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let mut rng = Rng::new(20261128);
    // [cylinder, cone][part][bands][f64, f32]: rays, wrong verdict, cap, hit off.
    let mut rows = [[[[[0usize; 4]; 2]; RAY_BANDS.len()]; RAY_PARTS.len()]; 2];
    for case in 0..rays {
        let f32_ = case % 4 >= 2;
        let Some(ray) = tangent_ray(&mut rng, case, f32_) else { continue };
        let (wrong, _) = tangent_ray_verdict(&ray, f32_);
        let kind = usize::from(ray.shape.0 == Revolved::Cone);
        let row = &mut rows[kind][ray.part][ray.bands][usize::from(f32_)];
        row[0] += 1;
        for (count, w) in row[1..].iter_mut().zip(wrong) {
            *count += usize::from(w);
        }
    }
    println!("| shape | part | bands | f64: rays, wrong verdict, at the cap, hit off | f32: the same |");
    println!("|---|---|---|---|---|");
    for (kind, by_part) in rows.iter().enumerate() {
        for (part, by_bands) in by_part.iter().enumerate() {
            for (bands, [a, b]) in by_bands.iter().enumerate() {
                println!(
                    "| {} | {} | {:+} | {}, {}, {}, {} | {}, {}, {}, {} |",
                    ["cylinder", "cone"][kind],
                    RAY_PARTS[part],
                    RAY_BANDS[bands],
                    a[0],
                    a[1],
                    a[2],
                    a[3],
                    b[0],
                    b[1],
                    b[2],
                    b[3]
                );
            }
        }
    }
    // [tilt]: pairs, wrong, at the cap.
    let mut drops = [[0usize; 3]; TILTS.len()];
    let mut rng = Rng::new(20261127);
    for case in 0..rays {
        let pair = cap_pair(&mut rng, case);
        let Some((wrong, status)) = drop_verdict(&pair) else { continue };
        let row = &mut drops[pair.tilt];
        row[0] += 1;
        row[1] += usize::from(wrong);
        row[2] += usize::from(status == Some(CastStatus::IterationLimit));
    }
    println!();
    println!("| dropped: tilt | pairs | wrong | at the cap |");
    println!("|---|---|---|---|");
    for (tilt, [n, wrong, cap]) in drops.iter().enumerate() {
        println!("| {} | {n} | {wrong} | {cap} |", TILTS[tilt]);
    }
    // [tilt][cylinder, capsule]: casts, not hits, more than 4 bands off;
    // the worst error of a hit (bands).
    let mut sides = [[([0usize; 3], 0f64); 2]; SIDE_TILTS.len()];
    let mut rng = Rng::new(20261129);
    for case in 0..rays {
        let pair = side_pair(&mut rng, case);
        let Some((status, error)) = side_cast_verdict(&pair) else { continue };
        let (row, worst) = &mut sides[pair.tilt][usize::from(pair.b.0)];
        row[0] += 1;
        row[1] += usize::from(status != Some(CastStatus::Hit));
        if status == Some(CastStatus::Hit) {
            row[2] += usize::from(error > 4.0);
            *worst = worst.max(error);
        }
    }
    println!();
    println!("| side by side: tilt | B | casts | not a hit | more than 4 bands off | worst error (bands) |");
    println!("|---|---|---|---|---|---|");
    for (tilt, kinds) in sides.iter().enumerate() {
        for (b, ([n, miss, off], worst)) in kinds.iter().enumerate() {
            let b = ["cylinder", "capsule"][b];
            println!("| {} | {b} | {n} | {miss} | {off} | {worst:.2} |", SIDE_TILTS[tilt]);
        }
    }
}
