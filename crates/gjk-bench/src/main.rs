//! `cargo run --release -p gjk-bench -- compare [--quick] [--json PATH] [--svg PATH]`
use gjk_bench::*;

mod checks;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("compare") => compare(&args[1..]),
        Some(name) if let Some((_, _, run)) = checks::CHECKS.iter().find(|c| c.0 == name) => run(&args[1..]),
        _ => {
            eprintln!("usage: gjk-bench compare [--quick] [--json PATH] [--svg PATH]");
            for (name, what, _) in checks::CHECKS {
                eprintln!("       gjk-bench {name} {what}");
            }
            std::process::exit(2);
        }
    }
}

/// The side-by-side timing of every set against parry.
fn compare(args: &[String]) {
    let quick = args.iter().any(|a| a == "--quick");
    let path_after = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let plan = if quick { Plan::QUICK } else { Plan::FULL };
    let mut rows = Vec::new();
    for (i, &n) in [4usize, 8, 12, 16, 20, 24].iter().enumerate() {
        for (k, kind) in KINDS.iter().chain(&EXTRA_KINDS).enumerate() {
            let set = make_set2(set_seed(1000, i, k), n, *kind, &plan);
            bench_set2(kind.name(), n, &set, &plan, &mut rows);
        }
        eprintln!("2D n={n} done");
    }
    for (i, &n) in [8usize, 16, 32, 64, 256, 1024].iter().enumerate() {
        for (k, kind) in KINDS.iter().chain(&EXTRA_KINDS).enumerate() {
            let set = make_set3(set_seed(2000, i, k), n, *kind, &plan);
            bench_set3(kind.name(), n, &set, &plan, &mut rows);
            if *kind == Kind::Distant && (n == 32 || n == 1024) {
                bench_warm(n, &set, &plan, &mut rows);
                bench_batch(&set, &plan, &mut rows, n);
            }
        }
        eprintln!("3D n={n} done");
    }
    bench_mixed(&plan, &mut rows);
    print!("{}", markdown(&rows));
    if let Some(p) = path_after("--json") {
        std::fs::write(&p, json(&rows)).unwrap_or_else(|e| panic!("writing {p}: {e}"));
    }
    if let Some(p) = path_after("--svg") {
        std::fs::write(&p, svg(&rows)).unwrap_or_else(|e| panic!("writing {p}: {e}"));
    }
}
