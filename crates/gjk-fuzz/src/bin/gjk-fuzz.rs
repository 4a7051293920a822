//! `cargo run --release -p gjk-fuzz -- [N] [FILE...]`: runs N seeded random
//! inputs (default 100 000), or the given input files, through every query.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut total = gjk_fuzz::Outcome::default();
    let files: Vec<&String> = args.iter().filter(|a| a.parse::<u64>().is_err()).collect();
    if files.is_empty() {
        let n: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(100_000);
        for seed in 0..n {
            total.add(gjk_fuzz::fuzz_one(&gjk_fuzz::random_input(seed, 256)));
        }
    } else {
        for f in files {
            let data = std::fs::read(f).unwrap_or_else(|e| panic!("{f}: {e}"));
            total.add(gjk_fuzz::fuzz_one(&data));
        }
    }
    println!("{total:?}");
    if total.non_finite > 0 {
        std::process::exit(1);
    }
}
