//! The `gjk` command on every regression case of `shared/cases/README.md`
//! (scene files in `tests/cases/`), compared with the expectations stated
//! there; and malformed files, each of which must name its problem.
#![allow(clippy::excessive_precision)]

use std::path::{Path, PathBuf};
use std::process::Command;

use gjk_core::glam::{DMat3, DQuat, DVec3};
use serde_json::Value;

fn case(name: &str) -> PathBuf {
    // The run-time variable first: CI's shared target directory can hold a
    // test binary built in another checkout, whose compile-time path may be gone.
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), PathBuf::from);
    dir.join("tests/cases").join(name)
}

/// Runs `gjk query` on a file; the parsed JSON answer.
fn query(path: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_gjk")).arg("query").arg(path).output().expect("run gjk");
    assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

/// A file in the system's temporary directory, named after this process
/// and `tag`, removed when dropped (also when an assertion fails).
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Self {
        Self(std::env::temp_dir().join(format!("gjk-cli-{}-{tag}", std::process::id())))
    }

    /// A scratch file holding `text`.
    fn with(tag: &str, text: &str) -> Self {
        let s = Self::new(tag);
        std::fs::write(&s.0, text).unwrap();
        s
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Absent when the test failed before writing it.
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Writes a modified copy of a case to a temporary file.
fn variant(name: &str, tag: &str, edit: impl Fn(&mut Value)) -> Scratch {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(case(name)).unwrap()).unwrap();
    edit(&mut v);
    Scratch::with(&format!("{tag}.json"), &v.to_string())
}

fn vec3(v: &Value) -> DVec3 {
    let a = v.as_array().expect("a vector");
    DVec3::new(a[0].as_f64().unwrap(), a[1].as_f64().unwrap(), a[2].as_f64().unwrap())
}

fn num(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

#[test]
fn case_1_single_header_c_touching_aabbs() {
    let r = query(&case("1_single_header_c_touching_aabbs.json"));
    assert_eq!(r["intersecting"], Value::Bool(true), "{r}");
}

#[test]
fn case_2_box2d_short_edge() {
    let r = query(&case("2_box2d_short_edge.json"));
    assert_eq!(r["status"], "separated");
    assert!((num(&r["distance"]) - 0.005).abs() < 1e-6, "{r}");
    let n = r["normal"].as_array().unwrap();
    assert!((num(&n[0]).hypot(num(&n[1])) - 1.0).abs() < 1e-6);
}

#[test]
fn case_3_fcl_493_over_sizes_and_gaps() {
    let r = query(&case("3_fcl_493_tilted_kissing_boxes.json"));
    assert!(num(&r["distance"]).abs() < 1e-9 && num(&r["depth"]).abs() < 1e-9, "{r}");
    assert_ne!(r["status"], "indeterminate");
    let base: Value =
        serde_json::from_str(&std::fs::read_to_string(case("3_fcl_493_tilted_kissing_boxes.json")).unwrap())
            .unwrap();
    let q = base["a"]["pose"]["rotation"].as_array().unwrap().iter().map(num).collect::<Vec<_>>();
    let q = DQuat::from_xyzw(q[0], q[1], q[2], q[3]);
    let t1 = vec3(&base["a"]["pose"]["translation"]);
    for size in [0.01, 0.25, 0.5, 10.0, 1000.0] {
        for gap in [-1e-15, 0.0, 1e-15] {
            let p = variant("3_fcl_493_tilted_kissing_boxes.json", &format!("493-{size}-{gap}"), |v| {
                let h = size * 0.5;
                let tb =
                    t1 * size + DMat3::from_quat(q) * DVec3::new(0.3 * size, size * (1.0 + gap), -0.2 * size);
                v["a"]["half_extents"] = serde_json::json!([h, h, h]);
                v["b"]["half_extents"] = serde_json::json!([h, h, h]);
                v["a"]["pose"]["translation"] = serde_json::json!((t1 * size).to_array());
                v["b"]["pose"]["translation"] = serde_json::json!(tb.to_array());
            });
            let r = query(&p);
            assert_eq!(r["status"], "touching", "size {size} gap {gap}: {r}");
            assert!((vec3(&r["normal"]) - q * DVec3::Y).length() < 1e-6, "size {size}: {r}");
        }
    }
}

#[test]
fn case_4_libccd_25_depth() {
    let r = query(&case("4_libccd_25_cubes.json"));
    assert_eq!(r["status"], "penetrating");
    assert!((num(&r["depth"]) - 0.1).abs() < 1e-9, "{r}");
    assert!((vec3(&r["normal"]).z.abs() - 1.0).abs() < 1e-9);
}

#[test]
fn case_5_fcl_293_finite_consistent_witnesses() {
    let r = query(&case("5_fcl_293_separated_boxes.json"));
    let (pa, pb, d) = (vec3(&r["point_a"]), vec3(&r["point_b"]), num(&r["distance"]));
    assert!(pa.is_finite() && pb.is_finite());
    assert!(((pb - pa).length() - d).abs() < 1e-12);
    let qb = DQuat::from_xyzw(0.340674, 0.155066, 0.638138, 0.672811).normalize();
    let oracle = gjk_testkit::brute_distance_3d(
        &gjk_testkit::box_corners(
            DVec3::new(1.375, 3.0, 0.025),
            DMat3::IDENTITY,
            DVec3::new(1.625, 0.0, 0.5),
        ),
        &gjk_testkit::box_corners(
            DVec3::new(0.212, 0.075, 0.0843),
            DMat3::from_quat(qb),
            DVec3::new(0.192074, -0.277870, 0.273546),
        ),
    );
    assert!((d - oracle).abs() < 1e-9, "{d} vs {oracle}");
}

#[test]
fn case_6_bullet_2579_small_sphere() {
    let centre = DVec3::new(0.019576, -1.03115, 0.398155);
    for z in ["0.3925", "0.3975", "0.4025"] {
        let r = query(&case(&format!("6_bullet_2579_sphere_vs_cube_z{z}.json")));
        let c = DVec3::new(0.0275, -1.0275, z.parse().unwrap());
        let oracle = ((centre - c).abs() - DVec3::splat(0.0025)).max(DVec3::ZERO).length() - 0.01;
        assert_eq!(r["intersecting"], Value::Bool(oracle <= 0.0), "z {z}: {r}");
    }
}

#[test]
fn case_7_dolfinx_3653_converges() {
    let r = query(&case("7_dolfinx_3653_point_vs_hull.json"));
    let hull = [
        DVec3::new(46.0659, 38.6251, 16.3637),
        DVec3::new(44.2764, 42.3867, 18.239),
        DVec3::new(50.0397, 38.4649, 19.9843),
        DVec3::new(47.1963, 40.4563, 19.1057),
        DVec3::new(48.0266, 38.5593, 18.2475),
        DVec3::new(45.1735, 40.495, 17.3336),
        DVec3::new(48.0415, 40.4456, 18.1963),
    ];
    let oracle = gjk_testkit::brute_distance_3d(&[DVec3::new(44.2919, 39.7508, 18.8208)], &hull);
    assert!((num(&r["distance"]) - oracle).abs() < 1e-9, "{r} vs {oracle}");
    assert!(r["iterations"].as_u64().unwrap() < 16);
}

#[test]
fn case_8_parry_315_touching() {
    let r = query(&case("8_parry_315_touching_cubes.json"));
    assert_eq!(r["status"], "touching");
    assert_eq!(num(&r["distance"]), 0.0);
    assert!((vec3(&r["point_a"]).x - 1.0).abs() < 1e-12 && (vec3(&r["point_b"]).x - 1.0).abs() < 1e-12);
    assert!((vec3(&r["normal"]).x.abs() - 1.0).abs() < 1e-12);
}

#[test]
fn case_9_parry_70_all_heights_overlap() {
    for name in ["9_parry_70_capsule_vs_big_cuboid.json", "9_parry_70_ball_vs_big_cuboid.json"] {
        for k in 0..200 {
            let y = -0.5 + k as f64 / 200.0;
            let p = variant(name, &format!("70-{k}"), |v| {
                v["a"]["pose"]["translation"] = serde_json::json!([0.0, y, 0.0])
            });
            let r = query(&p);
            assert_eq!(r["intersecting"], Value::Bool(true), "{name} k={k}: {r}");
        }
    }
}

/// Malformed files: a clear message naming the field, exit code 2, no panic.
#[test]
fn malformed_files_name_the_problem() {
    let cases: [(&str, &str); 24] = [
        ("{", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        (r#"{"dim": 4}"#, "dim"),
        (r#"{"dim": 3, "b": {"shape": "sphere", "radius": 1}, "query": "distance"}"#, "a: missing"),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": "big"}, "b": {"shape": "sphere", "radius": 1}, "query": "distance"}"#,
            "a.radius: expected a number",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": -1}, "b": {"shape": "sphere", "radius": 1}, "query": "distance"}"#,
            "a.radius: must be ≥ 0",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "hull", "points": []}, "b": {"shape": "sphere", "radius": 1}, "query": "distance"}"#,
            "a.points: needs at least one point",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "blob"}, "b": {"shape": "sphere", "radius": 1}, "query": "distance"}"#,
            "a.shape: unknown shape 'blob'",
        ),
        (
            r#"{"dim": 2, "a": {"shape": "circle", "radius": 1, "pose": {"translation": [1, 2, 3]}}, "b": {"shape": "circle", "radius": 1}, "query": "distance"}"#,
            "a.pose.translation: expected 2 numbers",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "cuboid", "half_extents": [1, 0, 1]}, "query": "distance"}"#,
            "b.half_extents[1]: must be > 0",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": 1e999}, "b": {"shape": "sphere", "radius": 1}, "query": "distance"}"#,
            "not valid JSON",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "query": "cast"}"#,
            "motion: missing",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "segment", "a": [0, 0, 0], "b": [1, 0, 0]}, "b": {"shape": "sphere", "radius": 1}, "query": "manifold"}"#,
            "a: a manifold needs a shape with faces",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "query": "manifold", "speculative": "some"}"#,
            "speculative: expected a number",
        ),
        (
            r#"{"dim": 2, "a": {"shape": "circle", "radius": 1}, "b": {"shape": "circle", "radius": 1}, "query": "cast", "motion": [1, 0], "spin": [1, 2]}"#,
            "spin: expected a number",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "query": "cast", "motion": [1, 0, 0], "spin": 3}"#,
            "spin: expected an array of 3 numbers",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "query": "cast", "motion": [1, 0, 0], "directional": 1}"#,
            "directional: expected true or false",
        ),
        // Read strictly: a key the format does not have is an error, not
        // a field left at its default.
        (
            r#"{"dim": 2, "a": {"shape": "circle", "radius": 1, "centre": [3, 0]}, "b": {"shape": "circle", "radius": 1}, "query": "distance"}"#,
            "a.centre: unknown key (a circle takes shape, pose, radius)",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": 1, "pose": {"position": [1, 0, 0]}}, "b": {"shape": "sphere", "radius": 1}, "query": "distance"}"#,
            "a.pose.position: unknown key (a pose takes translation, rotation)",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "query": "distance", "tolerance": 1e-9}"#,
            "tolerance: unknown key (a scene takes dim, precision",
        ),
        // JSON has no NaN or Infinity: said so, with where.
        (
            "{\"dim\": 3,\n \"a\": {\"shape\": \"sphere\", \"radius\": NaN}}",
            "line 2 column 37: NaN is not a JSON number",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "cuboid", "half_extents": [1, -Infinity, 1]}}"#,
            "Infinity is not a JSON number (JSON has no NaN or Infinity; coordinates must be finite)",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "capsule", "half_height": -0.5, "radius": 1}, "b": {"shape": "sphere", "radius": 1}, "query": "distance"}"#,
            "a.half_height: must be ≥ 0",
        ),
        (
            r#"{"dim": 3, "a": {"shape": "cylinder", "half_height": 1, "radius": 0}, "b": {"shape": "sphere", "radius": 1}, "query": "distance"}"#,
            "a.radius: must be > 0",
        ),
    ];
    for (i, (text, expect)) in cases.iter().enumerate() {
        let p = Scratch::with(&format!("bad-{i}.json"), text);
        let out = Command::new(env!("CARGO_BIN_EXE_gjk")).arg("query").arg(&*p).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text}: {err}");
        assert!(err.contains(expect), "{text}: '{err}' does not mention '{expect}'");
        assert!(!err.contains("panicked"), "{text}: {err}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_gjk")).args(["query", "/no/such/file.json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Every query's output has every key of docs/scene-format.md, `null`
/// where it does not apply: no normal for a distance or boolean query on
/// overlapping shapes, no depth for a contact apart, no points or normal
/// on a cast's miss.
#[test]
fn every_query_has_every_key() {
    const KEYS: [&str; 10] = [
        "distance",
        "point_a",
        "point_b",
        "normal",
        "intersecting",
        "depth",
        "toi",
        "iterations",
        "status",
        "manifold",
    ];
    let scene = |query: &str, x: f64, extra: &str| {
        format!(
            r#"{{"dim": 3, "a": {{"shape": "cuboid", "half_extents": [1, 1, 1]}},
            "b": {{"shape": "cuboid", "half_extents": [1, 1, 1], "pose": {{"translation": [{x}, 0, 0]}}}},
            "query": "{query}"{extra}}}"#
        )
    };
    let run = |name: &str, text: String| query(&Scratch::with(name, &text));
    for (k, q) in ["distance", "intersects", "contact", "manifold"].iter().enumerate() {
        for (x, apart) in [(1.5, false), (3.0, true)] {
            let r = run(&format!("keys-{k}-{x}.json"), scene(q, x, ""));
            let obj = r.as_object().unwrap();
            assert_eq!(obj.len(), KEYS.len(), "{q} at {x}: {r}");
            assert!(KEYS.iter().all(|key| obj.contains_key(*key)), "{q} at {x}: {r}");
            let contact = *q == "contact" || *q == "manifold";
            // A normal where it means something: apart, or EPA's.
            assert_eq!(r["normal"].is_null(), !apart && !contact, "{q} at {x}: {r}");
            assert_eq!(r["depth"].is_null(), apart || !contact, "{q} at {x}: {r}");
            assert_eq!(r["manifold"].is_null(), *q != "manifold", "{q} at {x}: {r}");
            assert!(r["toi"].is_null(), "{q} at {x}: {r}");
        }
    }
    for (motion, hit) in [("[10, 0, 0]", true), ("[0, 10, 0]", false)] {
        let r =
            run(&format!("keys-cast-{hit}.json"), scene("cast", 5.0, &format!(r#", "motion": {motion}"#)));
        assert_eq!(r.as_object().unwrap().len(), KEYS.len(), "{r}");
        assert_eq!(r["status"], if hit { "hit" } else { "miss" }, "{r}");
        for key in ["point_a", "point_b", "normal", "toi"] {
            assert_eq!(r[key].is_null(), !hit, "{key}: {r}");
        }
        assert!(r["distance"].is_null() && r["depth"].is_null() && r["manifold"].is_null(), "{r}");
    }
}

/// The output example of docs/scene-format.md is what `gjk query` prints
/// for the file it names (numbers to 1e-9).
#[test]
fn the_page_example_is_the_command_output() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/scene-format.md")).unwrap();
    let marker = "Example (`crates/gjk-cli/tests/cases/4_libccd_25_cubes.json`";
    let from = page.find(marker).expect("the example") + marker.len();
    let block = &page[from..];
    let start = block.find("```json").expect("its JSON") + "```json".len();
    let end = start + block[start..].find("```").expect("its end");
    let shown: Value = serde_json::from_str(&block[start..end]).expect("the page's JSON");
    let printed = query(&case("4_libccd_25_cubes.json"));
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() < 1e-9,
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
            }
            _ => a == b,
        }
    }
    assert!(same(&shown, &printed), "the page shows {shown}, the command prints {printed}");
}

/// `gjk --help`, `gjk help`, `gjk -h` and each command's `--help` print
/// usage to stdout and exit 0; a usage error is one line on stderr and
/// exit 2.
#[test]
fn help_and_usage() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_gjk")).args(args).output().unwrap();
    for args in [&["--help"][..], &["help"], &["-h"]] {
        let out = run(args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(text.contains("gjk query FILE") && text.contains("gjk trace FILE"), "{args:?}: {text}");
        assert!(out.stderr.is_empty(), "{args:?}");
    }
    for (args, says) in
        [(["query", "--help"], "usage: gjk query FILE"), (["trace", "--help"], "usage: gjk trace FILE")]
    {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).starts_with(says), "{args:?}");
    }
    for args in [&[][..], &["frob"], &["query"], &["trace", "x.json", "--png", "y"]] {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("usage:") && out.stdout.is_empty(), "{args:?}: {err}");
    }
}

/// `gjk trace` lists every iteration; `--svg` draws 2D scenes.
#[test]
fn trace_text_and_svg() {
    let svg = Scratch::new("trace.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_gjk"))
        .args(["trace", case("2_box2d_short_edge.json").to_str().unwrap(), "--svg", svg.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("iteration 1:") && text.contains("result: separated"), "{text}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("<polygon") && picture.contains("origin"));
    // 3D scenes trace as text; --svg is refused with a message, before
    // any output.
    let out = Command::new(env!("CARGO_BIN_EXE_gjk"))
        .args(["trace", case("4_libccd_25_cubes.json").to_str().unwrap(), "--svg", svg.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2D scenes only"));
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    // An overlap's result prints no normal (GJK's last search direction is
    // none); a separated pair's does.
    let trace = |name: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_gjk"))
            .args(["trace", case(name).to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}");
        String::from_utf8_lossy(&out.stdout).lines().last().unwrap_or_default().to_string()
    };
    let overlap = trace("4_libccd_25_cubes.json");
    assert!(overlap.starts_with("result: intersecting") && overlap.contains("normal none"), "{overlap}");
    let apart = trace("5_fcl_293_separated_boxes.json");
    assert!(apart.starts_with("result: separated") && apart.contains("normal ["), "{apart}");
}

/// A cast scene: a unit sphere moving 10 units towards a box 5 units away
/// meets it at t = (5 − 1 − 1) / 10.
#[test]
fn cast_scene() {
    let p = Scratch::with(
        "cast.json",
        r#"{"dim": 3, "a": {"shape": "sphere", "radius": 1}, "b": {"shape": "cuboid", "half_extents": [1, 1, 1],
            "pose": {"translation": [5, 0, 0]}}, "query": "cast", "motion": [10, 0, 0]}"#,
    );
    let r = query(&p);
    assert_eq!(r["status"], "hit");
    assert!((num(&r["toi"]) - 0.3).abs() < 1e-9, "{r}");
    assert!((vec3(&r["normal"]) - DVec3::X).length() < 1e-9);
    assert!((vec3(&r["point_a"]) - DVec3::new(4.0, 0.0, 0.0)).length() < 1e-9, "{r}");
}

/// A cast with `"spin"` turns A as it moves (the nonlinear cast): a
/// 4 × 0.2 plank spinning in place 1.5 above a floor reaches it when its
/// end has come down, `2 sin θ + 0.1 cos θ = 1.5`, in 2D and 3D; without
/// the spin the same cast misses.
#[test]
fn spinning_cast_scenes() {
    let plank2 = r#"{"dim": 2, "a": {"shape": "rectangle", "half_extents": [2, 0.1], "pose": {"translation": [0, 1.5]}},
        "b": {"shape": "rectangle", "half_extents": [10, 0.5], "pose": {"translation": [0, -0.5]}},
        "query": "cast", "motion": [0, 0], "spin": 1.0}"#;
    let plank3 = r#"{"dim": 3, "a": {"shape": "cuboid", "half_extents": [2, 0.1, 0.1], "pose": {"translation": [0, 1.5, 0]}},
        "b": {"shape": "cuboid", "half_extents": [10, 0.5, 10], "pose": {"translation": [0, -0.5, 0]}},
        "query": "cast", "motion": [0, 0, 0], "spin": [0, 0, 1.0]}"#;
    for (name, text) in [("plank2.json", plank2), ("plank3.json", plank3)] {
        let r = query(&Scratch::with(name, text));
        assert_eq!(r["status"], "hit", "{r}");
        let theta = num(&r["toi"]);
        assert!((2.0 * theta.sin() + 0.1 * theta.cos() - 1.5).abs() < 1e-3, "{r}");
        assert!(num(&r["normal"][1]) < -0.999, "{r}");
        let still = query(&Scratch::with(
            &format!("still-{name}"),
            &text.replace(r#", "spin": 1.0"#, "").replace(r#", "spin": [0, 0, 1.0]"#, ""),
        ));
        assert_eq!(still["status"], "miss", "{still}");
    }
}

/// `"directional": true`: a crate resting on a floor slides along it
/// (a miss) where the plain cast stops at the start, and stops at once
/// when pushed into it; spinning about the floor's normal it slides
/// freely, tipping about its centre it stops at once.
#[test]
fn directional_cast_scenes() {
    let scene = |motion: &str, extra: &str| {
        format!(
            r#"{{"dim": 3, "a": {{"shape": "cuboid", "half_extents": [0.5, 0.5, 0.5], "pose": {{"translation": [0, 0.5, 0]}}}},
            "b": {{"shape": "cuboid", "half_extents": [10, 0.5, 10], "pose": {{"translation": [0, -0.5, 0]}}}},
            "query": "cast", "motion": {motion}{extra}}}"#
        )
    };
    let slide = query(&Scratch::with("slide.json", &scene("[2, 0, 0]", r#", "directional": true"#)));
    assert_eq!(slide["status"], "miss", "{slide}");
    let plain = query(&Scratch::with("plain.json", &scene("[2, 0, 0]", "")));
    assert_eq!(plain["status"], "starts_inside", "{plain}");
    let push = query(&Scratch::with("push.json", &scene("[1, -1, 0]", r#", "directional": true"#)));
    assert_eq!(push["status"], "hit", "{push}");
    assert!(num(&push["toi"]) < 1e-3, "{push}");
    // Spinning about the vertical through its centre while sliding: free;
    // turning about a horizontal axis through it: one bottom edge digs in.
    let spin = query(&Scratch::with(
        "spin.json",
        &scene("[1, 0, 0]", r#", "spin": [0, 3, 0], "directional": true"#),
    ));
    assert_eq!(spin["status"], "miss", "{spin}");
    let tip = query(&Scratch::with(
        "tip.json",
        &scene("[0, 0, 0]", r#", "spin": [0, 0, -1], "directional": true"#),
    ));
    assert_eq!(tip["status"], "hit", "{tip}");
    assert!(num(&tip["toi"]) < 1e-3, "{tip}");
}

/// `"query": "manifold"`: the contact and its manifold. A capsule lying
/// 0.01 deep on a floor: both ends of its core; a 2D square: both bottom
/// corners; with the square lifted 0.03 and `speculative` 0.05, the same
/// corners at depth −0.03, and none without it; each point's `id` names
/// its corner, the same at both heights.
#[test]
fn manifold_scenes() {
    let capsule = r#"{"dim": 3, "a": {"shape": "cuboid", "half_extents": [5, 0.5, 5], "pose": {"translation": [0, -0.5, 0]}},
        "b": {"shape": "capsule", "half_height": 0.6, "radius": 0.2,
              "pose": {"translation": [0, 0.19, 0], "rotation": [0, 0, 0.7071067811865476, 0.7071067811865476]}},
        "query": "manifold"}"#;
    let p = Scratch::with("manifold-capsule.json", capsule);
    let r = query(&p);
    assert_eq!(r["status"], "penetrating", "{r}");
    let points = r["manifold"]["points"].as_array().expect("points");
    assert_eq!(points.len(), 2, "{r}");
    let mut xs: Vec<f64> = points.iter().map(|q| num(&q["point_b"][0])).collect();
    xs.sort_by(f64::total_cmp);
    assert!((xs[0] + 0.6).abs() < 1e-9 && (xs[1] - 0.6).abs() < 1e-9, "{xs:?}");
    assert!(points.iter().all(|q| (num(&q["depth"]) - 0.01).abs() < 1e-9), "{r}");
    assert!((vec3(&r["manifold"]["normal"]) - DVec3::Y).length() < 1e-12, "{r}");
    // A cylinder standing on the box, 0.01 deep: four points of its
    // bottom cap's rim.
    let cylinder = r#"{"dim": 3, "a": {"shape": "cuboid", "half_extents": [5, 0.5, 5], "pose": {"translation": [0, -0.5, 0]}},
        "b": {"shape": "cylinder", "half_height": 0.6, "radius": 0.3, "pose": {"translation": [1, 0.59, 2]}},
        "query": "manifold"}"#;
    let p = Scratch::with("manifold-cylinder.json", cylinder);
    let r = query(&p);
    let points = r["manifold"]["points"].as_array().expect("points");
    assert_eq!(points.len(), 4, "{r}");
    for q in points {
        let b = vec3(&q["point_b"]);
        assert!((num(&q["depth"]) - 0.01).abs() < 1e-9, "{r}");
        assert!(
            (b.y + 0.01).abs() < 1e-9 && ((b - DVec3::new(1.0, b.y, 2.0)).length() - 0.3).abs() < 1e-9,
            "{r}"
        );
    }
    let mut corner_ids: Vec<Vec<u64>> = Vec::new();
    for (y, speculative, count, depth) in
        [(0.49, None, 2, 0.01), (0.53, Some(0.05), 2, -0.03), (0.53, None, 0, 0.0)]
    {
        let spec = speculative.map_or(String::new(), |s| format!(r#", "speculative": {s}"#));
        let square = format!(
            r#"{{"dim": 2, "a": {{"shape": "rectangle", "half_extents": [5, 0.5], "pose": {{"translation": [0, -0.5]}}}},
                "b": {{"shape": "rectangle", "half_extents": [0.5, 0.5], "pose": {{"translation": [1, {y}]}}}},
                "query": "manifold"{spec}}}"#
        );
        let p = Scratch::with("manifold-square.json", &square);
        let r = query(&p);
        let points = r["manifold"]["points"].as_array().expect("points");
        assert_eq!(points.len(), count, "y {y}: {r}");
        for q in points {
            assert!((num(&q["depth"]) - depth).abs() < 1e-9, "y {y}: {r}");
            assert!(((num(&q["point_b"][0]) - 1.0).abs() - 0.5).abs() < 1e-9, "y {y}: {r}");
        }
        // Ids by corner, left to right.
        let mut by_x: Vec<(f64, u64)> =
            points.iter().map(|q| (num(&q["point_b"][0]), q["id"].as_u64().expect("id"))).collect();
        by_x.sort_by(|a, b| a.0.total_cmp(&b.0));
        corner_ids.push(by_x.into_iter().map(|(_, id)| id).collect());
    }
    assert_ne!(corner_ids[0][0], corner_ids[0][1], "{corner_ids:?}");
    assert_eq!(corner_ids[0], corner_ids[1], "{corner_ids:?}");
}
