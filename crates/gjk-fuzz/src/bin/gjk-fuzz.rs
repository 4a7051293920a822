//! `cargo run --release -p gjk-fuzz -- [N [FIRST]] [FILE...]`: runs N seeded
//! random inputs (default 100 000; seeds from FIRST, default 0), or the
//! given input files, through every query,
//! and prints the seeds whose answers fail. `--explain SEED` runs that one
//! input and prints the warm and cold answers that differ. `--extreme`
//! also prints the seeds whose extreme pairs differ (shapes that mix
//! scales or are flat: docs/reliability.md).
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--explain") {
        gjk_fuzz::EXPLAIN.store(true, std::sync::atomic::Ordering::Relaxed);
        let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
        println!("{:?}", gjk_fuzz::fuzz_one(&gjk_fuzz::random_input(seed, 256)));
        return;
    }
    let mut total = gjk_fuzz::Outcome::default();
    let extreme = args.iter().any(|a| a == "--extreme");
    let files: Vec<&String> =
        args.iter().filter(|a| a.parse::<u64>().is_err() && *a != "--extreme").collect();
    if files.is_empty() {
        let mut numbers = args.iter().filter_map(|a| a.parse::<u64>().ok());
        let n = numbers.next().unwrap_or(100_000);
        let first = numbers.next().unwrap_or(0);
        for seed in first..first.saturating_add(n) {
            let o = gjk_fuzz::fuzz_one(&gjk_fuzz::random_input(seed, 256));
            if o.non_finite > 0 || o.disagreeing > 0 || (extreme && o.disagreeing_extreme > 0) {
                // The failing inputs by seed, to replay (`random_input`).
                eprintln!("seed {seed}: {o:?}");
            }
            total.add(o);
        }
    } else {
        for f in files {
            let data = std::fs::read(f).unwrap_or_else(|e| panic!("{f}: {e}"));
            total.add(gjk_fuzz::fuzz_one(&data));
        }
    }
    println!("{total:?}");
    if total.non_finite > 0 || total.disagreeing > 0 {
        std::process::exit(1);
    }
}
