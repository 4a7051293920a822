//! `gjk query FILE` · `gjk trace FILE [--svg OUT]`
use gjk_cli::{Scene, SceneSpace, parse_scene, query, trace, trace_svg, trace_text};
use gjk_core::glam::{DVec2, DVec3, Vec2, Vec3};
use std::process::ExitCode;

/// `gjk --help`.
const HELP: &str = "gjk: GJK queries on the pair of shapes of a scene file (docs/scene-format.md)

usage:
  gjk query FILE               run the scene's query; print the answer as JSON
  gjk trace FILE [--svg OUT]   print every GJK iteration; --svg draws a 2D scene
  gjk help | --help | -h       this text (also: gjk query --help, gjk trace --help)
";

/// `gjk query --help`.
const QUERY_HELP: &str = "usage: gjk query FILE

Runs the scene's query (distance, intersects, contact, cast or manifold) on its
pair and prints the answer as JSON. Errors name the field at fault and exit 2.
";

/// `gjk trace --help`.
const TRACE_HELP: &str = "usage: gjk trace FILE [--svg OUT]

Prints every GJK iteration of the scene's pair (direction, support point,
simplex, bounds) and the result; --svg OUT also draws a 2D scene as SVG.
";

/// The one line of a usage error.
const USAGE: &str = "usage: gjk query FILE | gjk trace FILE [--svg OUT] (gjk --help for more)";

/// Whether `arg` asks for help.
fn is_help(arg: &str) -> bool {
    matches!(arg, "--help" | "-h" | "help")
}

fn load(path: &str) -> Result<Scene, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    parse_scene(&text).map_err(|e| format!("{path}: {e}"))
}

fn run_trace<V: SceneSpace>(
    scene: &Scene,
    svg: Option<&str>,
    svg_fn: impl Fn(&Scene, &[gjk_core::Iteration<V>], &gjk_core::DistanceResult<V>) -> Result<String, String>,
) -> Result<(), String> {
    let (log, r) = trace::<V>(scene).map_err(|e| e.to_string())?;
    print!("{}", trace_text(&log, &r));
    if let Some(out) = svg {
        let picture = svg_fn(scene, &log, &r)?;
        std::fs::write(out, picture).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(())
}

fn main_inner(args: &[String]) -> Result<(), String> {
    match args {
        [h] if is_help(h) => {
            print!("{HELP}");
            Ok(())
        }
        [cmd, h] if cmd == "query" && is_help(h) => {
            print!("{QUERY_HELP}");
            Ok(())
        }
        [cmd, h, ..] if cmd == "trace" && is_help(h) => {
            print!("{TRACE_HELP}");
            Ok(())
        }
        [cmd, file] if cmd == "query" => {
            let scene = load(file)?;
            let out = query(&scene).map_err(|e| format!("{file}: {e}"))?;
            println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
            Ok(())
        }
        [cmd, file, rest @ ..] if cmd == "trace" => {
            let svg = match rest {
                [] => None,
                [flag, out] if flag == "--svg" => Some(out.as_str()),
                _ => return Err(USAGE.to_string()),
            };
            let scene = load(file)?;
            // Exit before any output: a 3D scene has no picture.
            if svg.is_some() && scene.dim == 3 {
                return Err(format!("{file}: --svg draws 2D scenes only (trace it without --svg)"));
            }
            let no_svg = |_: &Scene| Err("--svg draws 2D scenes only".to_string());
            match (scene.dim, scene.f64) {
                (3, true) => run_trace::<DVec3>(&scene, svg, |s, _, _| no_svg(s)),
                (3, false) => run_trace::<Vec3>(&scene, svg, |s, _, _| no_svg(s)),
                (2, true) => {
                    run_trace::<DVec2>(&scene, svg, |s, l, r| trace_svg(s, l, r).map_err(|e| e.to_string()))
                }
                _ => run_trace::<Vec2>(&scene, svg, |s, l, r| trace_svg(s, l, r).map_err(|e| e.to_string())),
            }
        }
        _ => Err(USAGE.to_string()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match main_inner(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
