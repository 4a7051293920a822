//! Cylinders crossed or parallel, and cylinders and cones sunk into a box,
//! overlapping by an exact depth along an exact normal
//! (`gjk_bench::curved::contact_pair`): how many contacts are wrong, by
//! set, depth and precision (docs/reliability.md, *EPA on curved
//! shapes*).
//!
//! Wrong (`gjk_bench::curved::contact_verdict`): not `Penetrating` deeper
//! than 4 zero bands, a depth more than 4 bands off, or a normal along
//! which the separation (the shapes' support functions in closed form)
//! differs from the depth by more than 4 bands. Also the worst angle of a
//! normal from the exact one.
//!
//! Then a cylinder against a long cone, nearly parallel
//! (`gjk_bench::curved::cone_pair`), whose depth has no closed form: how
//! far the separation along each contact's normal lies from its depth,
//! relative to the pair's size, by EPA's status.
//!
//! Last, balls deep in cylinders (`gjk_bench::curved::ball_in_cylinder`,
//! f64), whose depth is exact: contacts by EPA's end, and the worst depth
//! error.
//!
//! `cargo run --release -p gjk-bench -- curved-contacts [PAIRS]`
//! (default 400 000 pairs, f64 and f32 alternately, as many cones, and a
//! twentieth as many balls).
use gjk_bench::curved::{
    CONE_TILTS, CONTACT_DEPTHS, CONTACT_KINDS, cone_excess, cone_pair, contact_pair, contact_verdict,
};
use gjk_epa::EpaStatus;
use gjk_testkit::Rng;

/// Counts of one row.
#[derive(Default, Clone, Copy)]
struct Row {
    pairs: usize,
    wrong: [usize; 3],
    unproven: usize,
    epa_runs: usize,
    epa_iterations: u64,
    worst_depth: f64,
    worst_normal: f64,
    worst_angle: f64,
}

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let pairs: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(400_000);
    let mut rng = Rng::new(20261127);
    // [kind][depth][f64, f32]
    let mut rows = [[[Row::default(); 2]; CONTACT_DEPTHS.len()]; CONTACT_KINDS.len()];
    for case in 0..pairs {
        let pair = contact_pair(&mut rng, case);
        // f32 on every other round of the sets.
        let f32_ = (case / (CONTACT_KINDS.len() * CONTACT_DEPTHS.len())) % 2 == 1;
        let (band, got, wrong) = contact_verdict(&pair, f32_);
        let row = &mut rows[pair.kind][pair.depth_kind][usize::from(f32_)];
        row.pairs += 1;
        for (count, w) in row.wrong.iter_mut().zip(wrong) {
            *count += usize::from(w);
        }
        if let Some(e) = got.epa {
            row.epa_runs += 1;
            row.epa_iterations += u64::from(got.epa_iterations);
            row.unproven += usize::from(!matches!(e, EpaStatus::Converged | EpaStatus::Touching));
        }
        row.worst_depth = row.worst_depth.max((got.depth - pair.depth).abs() / band);
        if got.status == gjk_epa::ContactStatus::Penetrating {
            let (pa, pb) = if f32_ {
                let f = |p| gjk_bench::curved::pose_f64(&gjk_bench::curved::pose_f32(p));
                (f(&pair.pose_a), f(&pair.pose_b))
            } else {
                (pair.pose_a, pair.pose_b)
            };
            let excess = gjk_bench::curved::contact_separation(&pair, &pa, &pb, got.normal) - got.depth;
            row.worst_normal = row.worst_normal.max(excess.abs() / band);
            // `atan2` of the cross and dot products: `acos` of the dot
            // product alone resolves no angle below 2e-8.
            let n = got.normal.normalize();
            let angle = n.cross(pair.normal).length().atan2(n.dot(pair.normal));
            row.worst_angle = row.worst_angle.max(angle);
        }
    }
    println!(
        "| set | depth (of the smaller radius) | precision | pairs | wrong status | depth | normal | EPA unproven | mean EPA steps | worst depth error (bands) | worst normal's excess (bands) | worst normal's angle (rad) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (k, kind) in CONTACT_KINDS.iter().enumerate() {
        for (d, depth) in CONTACT_DEPTHS.iter().enumerate() {
            for (p, precision) in ["f64", "f32"].iter().enumerate() {
                let r = rows[k][d][p];
                let steps = if r.epa_runs > 0 { r.epa_iterations as f64 / r.epa_runs as f64 } else { 0.0 };
                println!(
                    "| {kind} | {depth:e} | {precision} | {} | {} | {} | {} | {} | {steps:.1} | {:.2} | {:.2} | {:.1e} |",
                    r.pairs,
                    r.wrong[0],
                    r.wrong[1],
                    r.wrong[2],
                    r.unproven,
                    r.worst_depth,
                    r.worst_normal,
                    r.worst_angle
                );
            }
        }
    }
    cones(pairs);
    balls(pairs / 20);
}

/// The third table: balls deep in cylinders, by the nearest way out.
fn balls(pairs: usize) {
    let mut rng = Rng::new(8);
    // [side, cap][converged or touching, stalled, capped]: count, worst error.
    let mut rows = [[(0usize, 0f64); 3]; 2];
    for _ in 0..pairs {
        let pair = gjk_bench::curved::ball_in_cylinder(&mut rng);
        let got = gjk_bench::curved::ball_in_cylinder_contact(&pair);
        let status = match got.epa {
            Some(EpaStatus::Stalled) => 1,
            Some(EpaStatus::IterationLimit) => 2,
            _ => 0,
        };
        let (count, worst) = &mut rows[usize::from(!pair.side)][status];
        *count += 1;
        *worst = worst.max((got.depth - pair.depth).abs());
    }
    println!();
    println!(
        "| ball in a cylinder, out through | converged: contacts, worst depth error | stalled | capped |"
    );
    println!("|---|---|---|---|");
    for (way, row) in ["side", "cap"].iter().zip(rows) {
        let cell = |(n, w): (usize, f64)| format!("{n}, {w:.1e}");
        println!("| {way} | {} | {} | {} |", cell(row[0]), cell(row[1]), cell(row[2]));
    }
}

/// The second table: cones against cylinders, the normal's proof.
fn cones(pairs: usize) {
    const BOUNDS: [f64; 3] = [1e-9, 1e-6, 1e-3];
    let mut rng = Rng::new(20261128);
    // [f64, f32][EPA status: none, converged or touching, stalled, capped][excess bucket]
    let mut counts = [[[0usize; 4]; 4]; 2];
    let mut worst = [[0f64; 4]; 2];
    for case in 0..pairs {
        let pair = cone_pair(&mut rng, case);
        let f32_ = case % 8 >= 4;
        let (got, excess) = cone_excess(&pair, f32_);
        let Some(excess) = excess else { continue };
        let status = match got.epa {
            None => 0,
            Some(EpaStatus::Converged | EpaStatus::Touching) => 1,
            Some(EpaStatus::Stalled) => 2,
            Some(_) => 3,
        };
        let bucket = BOUNDS.iter().position(|b| excess <= *b).unwrap_or(BOUNDS.len());
        counts[usize::from(f32_)][status][bucket] += 1;
        let w = &mut worst[usize::from(f32_)][status];
        *w = w.max(excess);
    }
    let _ = CONE_TILTS;
    println!();
    println!(
        "| precision | EPA | penetrating | normal's excess ≤ 1e-9 of the size | ≤ 1e-6 | ≤ 1e-3 | more | worst |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (p, precision) in ["f64", "f32"].iter().enumerate() {
        for (e, epa) in ["not run", "converged", "stalled", "capped"].iter().enumerate() {
            let c = counts[p][e];
            let total: usize = c.iter().sum();
            println!(
                "| {precision} | {epa} | {total} | {} | {} | {} | {} | {:.1e} |",
                c[0], c[1], c[2], c[3], worst[p][e]
            );
        }
    }
}
