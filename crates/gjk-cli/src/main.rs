//! `gjk query FILE` · `gjk trace FILE [--json] [--svg OUT]`
use gjk_cli::{Scene, SceneSpace, Trace, parse_scene, query, trace, trace_json, trace_svg, trace_text};
use gjk_core::glam::{DVec2, DVec3, Vec2, Vec3};
use std::process::ExitCode;

/// `gjk --help`.
const HELP: &str = "gjk: GJK queries on the pair of shapes of a scene file (docs/scene-format.md)

usage:
  gjk query FILE               run the scene's query; print the answer as JSON
  gjk trace FILE [--json] [--svg OUT]
                               show the query's route and every GJK iteration;
                               --json as JSON, --svg draws a 2D scene
  gjk help | --help | -h       this text (also: gjk query --help, gjk trace --help)
";

/// `gjk query --help`.
const QUERY_HELP: &str = "usage: gjk query FILE

Runs the scene's query (distance, intersects, contact, cast or manifold) on its
pair and prints the answer as JSON. Errors name the field at fault and exit 2.
";

/// `gjk trace --help`.
const TRACE_HELP: &str = "usage: gjk trace FILE [--json] [--svg OUT]

Runs the scene's query as `gjk query` does and shows what it did: the route
that settled the pair (a pair fast path, GJK on the cores, EPA), every GJK
iteration on the same supports as the query (direction, support point,
simplex, closest point, bounds; world frame) and the answer. --json prints
it as JSON; --svg OUT also draws a 2D scene as SVG (3D scenes are refused).
Casts are refused: they run many GJK queries.
";

/// The one line of a usage error.
const USAGE: &str = "usage: gjk query FILE | gjk trace FILE [--json] [--svg OUT] (gjk --help for more)";

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
    json: bool,
    svg: Option<&str>,
    svg_fn: impl Fn(&Scene, &Trace<V>) -> Result<String, String>,
) -> Result<(), String> {
    let t = trace::<V>(scene).map_err(|e| e.to_string())?;
    // The picture first: a failure to write it leaves no half output.
    if let Some(out) = svg {
        let picture = svg_fn(scene, &t)?;
        std::fs::write(out, picture).map_err(|e| format!("{out}: {e}"))?;
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&trace_json(&t)).map_err(|e| e.to_string())?);
    } else {
        print!("{}", trace_text(&t));
    }
    Ok(())
}

/// The SVG of a 2D trace.
fn picture<V: SceneSpace + gjk_core::internal::Vector2>(
    scene: &Scene,
    t: &Trace<V>,
) -> Result<String, String> {
    trace_svg(scene, t).map_err(|e| e.to_string())
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
            let (mut json, mut svg) = (false, None);
            let mut rest = rest.iter();
            while let Some(flag) = rest.next() {
                match flag.as_str() {
                    "--json" if !json => json = true,
                    "--svg" if svg.is_none() => svg = Some(rest.next().ok_or(USAGE)?.as_str()),
                    _ => return Err(USAGE.to_string()),
                }
            }
            let scene = load(file)?;
            // Exit before any output: a 3D scene has no picture.
            if svg.is_some() && scene.dim == 3 {
                return Err(format!("{file}: --svg draws 2D scenes only (trace it without --svg)"));
            }
            let no_svg = |_: &Scene| Err("--svg draws 2D scenes only".to_string());
            let run = match (scene.dim, scene.f64) {
                (3, true) => run_trace::<DVec3>(&scene, json, svg, |s, _| no_svg(s)),
                (3, false) => run_trace::<Vec3>(&scene, json, svg, |s, _| no_svg(s)),
                (2, true) => run_trace::<DVec2>(&scene, json, svg, picture),
                _ => run_trace::<Vec2>(&scene, json, svg, picture),
            };
            run.map_err(|e| format!("{file}: {e}"))
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
