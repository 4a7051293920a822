//! Cylinders and cones standing on an upright cylinder's cap or a box's
//! face, tilted by 0 – 0.3 rad or within 1e-6 of upside down, a few zero
//! bands to 0.3 of their size apart or together (`gjk_bench::curved`): how
//! many answers of each query are wrong against the exact gap, by tilt and
//! precision (docs/reliability.md, *Curved caps nearly parallel to a face*).
//!
//! Wrong: outside the zero band, a boolean with the wrong sign, a distance
//! (full or alone) more than 4 bands off the gap, or not `Intersecting` /
//! 0 for an overlap, and a contact more than 4 bands off unless EPA
//! reports a bound (its iteration cap on a curved surface: counted apart).
//!
//! Then cylinders side by side, and capsules beside cylinders (f64), their
//! axes skew by a tilt about their common perpendicular
//! (`gjk_bench::curved::side_pair`): the gap is the axes' distance less
//! the radii.
//!
//! `cargo run --release -p gjk-bench -- curved-caps [PAIRS]`
//! (default 200 000 pairs, f64 and f32 alternately, and as many side by
//! side).
use gjk_bench::curved::{Lower, SIDE_TILTS, TILTS, WRONG, cap_pair, cap_verdict, side_pair, side_verdict};
use gjk_core::Status;
use gjk_epa::EpaStatus;
use gjk_testkit::Rng;

/// Counts of one row: pairs, wrong answers per [`WRONG`], contacts bounded
/// by EPA's cap, and the largest distance error of a `Separated` answer
/// relative to the pair's size (its zero band in units of `256 ε`).
#[derive(Default, Clone, Copy)]
struct Row {
    pairs: usize,
    wrong: [usize; 4],
    bounded: usize,
    worst: f64,
}

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let pairs: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let mut rng = Rng::new(20261127);
    // [lower: cap, face][tilt][f64, f32]
    let mut rows = [[[Row::default(); 2]; TILTS.len()]; 2];
    for case in 0..pairs {
        let pair = cap_pair(&mut rng, case);
        let f32_ = case % 4 >= 2;
        let Some((gap, band, wrong, answers)) = cap_verdict(&pair, f32_) else { continue };
        let lower = usize::from(matches!(pair.lower, Lower::Box(_)));
        let row = &mut rows[lower][pair.tilt][usize::from(f32_)];
        row.pairs += 1;
        for (count, w) in row.wrong.iter_mut().zip(wrong) {
            *count += usize::from(w);
        }
        row.bounded +=
            usize::from(matches!(answers.epa, Some(EpaStatus::IterationLimit | EpaStatus::Stalled)));
        if answers.status == Status::Separated && gap > band {
            // Errors in bands (`band` is 256 ε of twice the size).
            row.worst = row.worst.max((answers.distance - gap).abs() / band);
        }
    }
    println!(
        "| lower | tilt | precision | pairs | wrong {} | {} | {} | {} | EPA bounded | worst distance error (bands) |",
        WRONG[0], WRONG[1], WRONG[2], WRONG[3]
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (lower, by_tilt) in rows.iter().enumerate() {
        for (tilt, by_precision) in by_tilt.iter().enumerate() {
            for (precision, r) in by_precision.iter().enumerate() {
                println!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |",
                    ["cylinder's cap", "box's face"][lower],
                    TILTS[tilt],
                    ["f64", "f32"][precision],
                    r.pairs,
                    r.wrong[0],
                    r.wrong[1],
                    r.wrong[2],
                    r.wrong[3],
                    r.bounded,
                    r.worst
                );
            }
        }
    }
    // [cylinder, capsule][tilt]: pairs, wrong per WRONG.
    let mut sides = [[[0usize; 5]; SIDE_TILTS.len()]; 2];
    let mut rng = Rng::new(20261129);
    for case in 0..pairs {
        let pair = side_pair(&mut rng, case);
        let (_, _, wrong) = side_verdict(&pair);
        let row = &mut sides[usize::from(pair.b.0)][pair.tilt];
        row[0] += 1;
        for (count, w) in row[1..].iter_mut().zip(wrong) {
            *count += usize::from(w);
        }
    }
    println!();
    println!(
        "| side by side | tilt | pairs | wrong {} | {} | {} | {} |",
        WRONG[0], WRONG[1], WRONG[2], WRONG[3]
    );
    println!("|---|---|---|---|---|---|---|");
    for (b, by_tilt) in sides.iter().enumerate() {
        for (tilt, r) in by_tilt.iter().enumerate() {
            println!(
                "| {} | {} | {} | {} | {} | {} | {} |",
                ["cylinder", "capsule"][b],
                SIDE_TILTS[tilt],
                r[0],
                r[1],
                r[2],
                r[3],
                r[4]
            );
        }
    }
}
