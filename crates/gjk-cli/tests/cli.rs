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
    const KEYS: [&str; 12] = [
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
        "epa_iterations",
        "route",
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

/// Two JSON values equal, numbers to 1e-9.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() < 1e-9,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Runs the `gjk` command from the workspace root (the page's paths are
/// relative to it).
fn gjk_at_root(args: &[&str]) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    Command::new(env!("CARGO_BIN_EXE_gjk")).args(args).current_dir(root).output().unwrap()
}

/// Every example of docs/scene-format.md is a file the page names: each
/// scene block is that file, each printed answer (`gjk query`, `gjk trace
/// --json`) is what the command prints for it, and each error line is
/// what it prints for the bad file it names.
#[test]
fn every_page_example_is_the_command_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let page = std::fs::read_to_string(root.join("docs/scene-format.md")).unwrap();
    // The text before each fenced block, and the block.
    let mut blocks = Vec::new();
    let mut rest = page.as_str();
    while let Some(open) = rest.find("```") {
        let lead = &rest[..open];
        let body = &rest[open + 3..];
        let body = &body[body.find('\n').unwrap() + 1..];
        let close = body.find("```").expect("a closed block");
        blocks.push((
            lead.trim_end().rsplit("\n\n").next().unwrap_or("").to_string(),
            body[..close].to_string(),
        ));
        rest = &body[close + 3..];
    }
    let (mut files, mut answers, mut errors) = (0, 0, 0);
    let quoted = |lead: &str, prefix: &str| -> Option<String> {
        let from = lead.find(prefix)? + prefix.len();
        Some(lead[from..from + lead[from..].find('`')?].replace('\n', " "))
    };
    for (lead, body) in &blocks {
        if body.starts_with("error: ") {
            for line in body.lines() {
                let path = line["error: ".len()..].split(':').next().unwrap();
                let out = gjk_at_root(&["query", path]);
                assert_eq!(out.status.code(), Some(2), "{path}");
                assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end(), line, "{path}");
                errors += 1;
            }
        } else if let Some(path) = quoted(lead, "File `") {
            let file: Value =
                serde_json::from_str(&std::fs::read_to_string(root.join(&path)).unwrap()).unwrap();
            let shown: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(file, shown, "the page's {path} is not the file");
            files += 1;
        } else if let Some(command) = quoted(lead, "`gjk ") {
            let args: Vec<&str> = command.split_whitespace().collect();
            let out = gjk_at_root(&args);
            assert!(out.status.success(), "gjk {command}: {}", String::from_utf8_lossy(&out.stderr));
            let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
            let shown: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("gjk {command}: {e}"));
            assert!(
                same(&shown, &printed),
                "gjk {command}: the page shows {shown}, the command prints {printed}"
            );
            answers += 1;
        }
    }
    // Every bad file is on the page.
    let bad = std::fs::read_dir(root.join("docs/examples/errors")).unwrap().count();
    assert_eq!((files, answers, errors), (2, 3, bad), "examples found on the page");
}

/// `gjk trace` runs the query itself: for every shape kind against every
/// other, apart, touching and overlapping, in 2D and 3D, f32 and f64, for
/// distance and contact, its answer is `gjk query`'s and its iteration
/// list is as long as the answer's `iterations`, with GJK's last bounds
/// bracketing the cores' distance.
#[test]
fn trace_follows_the_query() {
    let shapes3 = [
        r#"{"shape": "sphere", "radius": 0.5}"#,
        r#"{"shape": "capsule", "half_height": 0.5, "radius": 0.3}"#,
        r#"{"shape": "cuboid", "half_extents": [0.5, 0.4, 0.3]}"#,
        r#"{"shape": "cylinder", "half_height": 0.5, "radius": 0.4}"#,
        r#"{"shape": "cone", "half_height": 0.5, "radius": 0.4}"#,
        r#"{"shape": "segment", "a": [-0.5, 0, 0], "b": [0.5, 0.2, 0]}"#,
        r#"{"shape": "triangle", "a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0.2]}"#,
        r#"{"shape": "hull", "points": [[0.5, 0, 0], [-0.5, 0.1, 0], [0, 0.6, 0], [0, 0, 0.7], [0.1, -0.4, -0.3]]}"#,
        r#"{"shape": "point"}"#,
    ];
    let shapes2 = [
        r#"{"shape": "circle", "radius": 0.5}"#,
        r#"{"shape": "capsule", "half_height": 0.5, "radius": 0.3}"#,
        r#"{"shape": "rectangle", "half_extents": [0.5, 0.3]}"#,
        r#"{"shape": "segment", "a": [-0.5, 0], "b": [0.5, 0.2]}"#,
        r#"{"shape": "triangle", "a": [0, 0], "b": [1, 0], "c": [0, 1]}"#,
        r#"{"shape": "polygon", "points": [[0.5, 0], [0.2, 0.5], [-0.4, 0.3], [-0.3, -0.4], [0.3, -0.5]]}"#,
        r#"{"shape": "point"}"#,
    ];
    let mut runs = 0;
    for (dim, shapes) in [(3, &shapes3[..]), (2, &shapes2[..])] {
        for (i, a) in shapes.iter().enumerate() {
            for (j, b) in shapes.iter().enumerate() {
                for (k, gap) in [2.5, 1.0, 0.6, 0.2, 0.0].into_iter().enumerate() {
                    let (query, precision) =
                        (["distance", "contact"][(i + j + k) % 2], ["f64", "f32"][(i + k) % 2]);
                    let pose = if dim == 3 {
                        format!(r#"{{"translation": [{gap}, 0.3, -0.2], "rotation": [0.1, 0.2, 0.3, 0.9]}}"#)
                    } else {
                        format!(r#"{{"translation": [{gap}, 0.3], "rotation": 0.7}}"#)
                    };
                    let b = format!("{}, \"pose\": {pose}}}", &b[..b.len() - 1]);
                    let text = format!(
                        r#"{{"dim": {dim}, "precision": "{precision}", "a": {a}, "b": {b}, "query": "{query}"}}"#
                    );
                    let scene = gjk_cli::parse_scene(&text).unwrap();
                    let answer = gjk_cli::query(&scene).unwrap();
                    let (route, iterations, result) = match (dim, scene.f64) {
                        (3, true) => traced::<gjk_core::glam::DVec3>(&scene),
                        (3, false) => traced::<gjk_core::glam::Vec3>(&scene),
                        (2, true) => traced::<gjk_core::glam::DVec2>(&scene),
                        _ => traced::<gjk_core::glam::Vec2>(&scene),
                    };
                    assert_eq!(result, answer, "{text}");
                    assert_eq!(Some(iterations as u64), answer["iterations"].as_u64(), "{text}: {answer}");
                    if !route.ran_gjk() {
                        assert_eq!(iterations, 0, "{text}: {route:?}");
                    }
                    runs += 1;
                }
            }
        }
    }
    assert_eq!(runs, 5 * (81 + 49));
}

/// The route, the number of iterations and the answer of a trace; the
/// last iteration's bounds bracket its closest point's length.
fn traced<V: gjk_cli::SceneSpace>(scene: &gjk_cli::Scene) -> (gjk_cli::Route, usize, Value) {
    use gjk_core::Real;
    let t = gjk_cli::trace::<V>(scene).unwrap();
    if let Some(last) = t.iterations.last() {
        let (lo, hi) = (last.lower_bound.to_f64(), last.upper_bound.to_f64());
        assert!(lo <= hi * (1.0 + 1e-5) + 1e-12, "bounds [{lo}, {hi}]");
    }
    (t.route, t.iterations.len(), t.answer)
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

/// Runs `gjk` with `args`; exit code, stdout, stderr.
fn gjk(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gjk")).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// `gjk trace` shows the route, every iteration and the result; a 3D scene
/// with `--svg` is refused before any output; a cast is refused.
#[test]
fn trace_text_json_and_refusals() {
    let svg = Scratch::new("trace.svg");
    let short_edge = case("2_box2d_short_edge.json");
    let (code, text, err) = gjk(&["trace", short_edge.to_str().unwrap(), "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.starts_with("route: GJK on the cores\n") && text.contains("iteration 1:"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("result: separated"), "{text}");
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let (code, out, _) = gjk(&["trace", short_edge.to_str().unwrap(), "--json"]);
    assert_eq!(code, Some(0));
    let t: Value = serde_json::from_str(&out).unwrap();
    assert!(same(&t["result"], &query(&short_edge)), "{t}");
    assert_eq!(t["iterations"].as_array().unwrap().len() as u64, t["result"]["iterations"].as_u64().unwrap());
    // 3D scenes trace as text; --svg is refused with a message, before
    // any output.
    let cubes = case("4_libccd_25_cubes.json");
    let (code, out, err) = gjk(&["trace", cubes.to_str().unwrap(), "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("2D scenes only") && out.is_empty(), "{err}{out}");
    // A contact trace prints EPA's normal; a distance query on an overlap
    // prints none (GJK's last search direction is no normal); a separated
    // pair's normal is printed.
    let last = |path: &Path| {
        let (code, out, err) = gjk(&["trace", path.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{err}");
        out.lines().last().unwrap_or_default().to_string()
    };
    let contact = last(&cubes);
    assert!(
        contact.starts_with("result: penetrating") && contact.contains("normal [0.0, 0.0, 1.0]"),
        "{contact}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let overlap = last(&root.join("docs/images/overlap.json"));
    assert!(overlap.starts_with("result: intersecting") && overlap.contains("normal none"), "{overlap}");
    let apart = last(&case("5_fcl_293_separated_boxes.json"));
    assert!(apart.starts_with("result: separated") && apart.contains("normal ["), "{apart}");
    let cast = Scratch::with(
        "trace-cast.json",
        r#"{"dim": 2, "a": {"shape": "circle", "radius": 1}, "b": {"shape": "circle", "radius": 1,
            "pose": {"translation": [5, 0]}}, "query": "cast", "motion": [10, 0]}"#,
    );
    let (code, out, err) = gjk(&["trace", cast.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("a cast runs many") && out.is_empty(), "{err}");
}

/// The numbers of an SVG attribute list (`x="…"`, `points="…"`).
fn attribute_numbers(element: &str, name: &str) -> Vec<f64> {
    let key = format!(" {name}=\"");
    element
        .find(&key)
        .map(|at| {
            let v = &element[at + key.len()..];
            v[..v.find('"').unwrap()].split([',', ' ']).filter_map(|x| x.parse().ok()).collect()
        })
        .unwrap_or_default()
}

/// The trace pictures keep everything inside the frame: every label and
/// every point drawn outside a clipped view lies within the picture; each
/// has a legend and a scale bar; small final simplices (a 0.005 gap beside
/// a 1-wide difference) get a zoomed inset, large ones do not.
#[test]
fn trace_pictures_stay_in_frame() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scenes = [
        (case("2_box2d_short_edge.json"), true),
        (root.join("docs/images/separated.json"), false),
        (root.join("docs/images/overlap.json"), false),
        (root.join("docs/examples/circle-by-box.json"), false),
    ];
    for (path, inset) in scenes {
        let svg = Scratch::new("frame.svg");
        let (code, _, err) = gjk(&["trace", path.to_str().unwrap(), "--svg", svg.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{err}");
        let picture = std::fs::read_to_string(&svg).unwrap();
        let (w, h) = {
            let head = &picture[..picture.find('>').unwrap()];
            (attribute_numbers(head, "width")[0], attribute_numbers(head, "height")[0])
        };
        // Outside the clipped views (`<g clip-path>` … `</g>`), everything
        // must fit; text is checked with a generous glyph width.
        let mut depth = 0;
        for element in picture.split('<').skip(1) {
            if element.starts_with("g clip-path") {
                depth += 1;
            } else if element.starts_with("/g") && depth > 0 {
                depth -= 1;
            }
            if depth > 0 || element.starts_with("/") {
                continue;
            }
            let xs: Vec<f64> =
                ["x", "x1", "x2", "cx"].iter().flat_map(|k| attribute_numbers(element, k)).collect();
            let ys: Vec<f64> =
                ["y", "y1", "y2", "cy"].iter().flat_map(|k| attribute_numbers(element, k)).collect();
            let pts = attribute_numbers(element, "points");
            for x in xs.iter().chain(pts.iter().step_by(2)) {
                assert!((0.0..=w).contains(x), "{}: {element}", path.display());
            }
            for y in ys.iter().chain(pts.iter().skip(1).step_by(2)) {
                assert!((0.0..=h).contains(y), "{}: {element}", path.display());
            }
            if element.starts_with("text") && !element.contains("text-anchor=\"end\"") {
                let label = &element[element.find('>').unwrap() + 1..];
                // A sans-serif glyph averages about 0.55 em; 12 px text, 6.6 px.
                let right = xs[0] + 6.6 * label.chars().count() as f64;
                assert!(right <= w, "{}: label past the frame: {element}", path.display());
            }
        }
        for needed in ["final simplex", "origin", "closest point", "A − B of the cores"] {
            assert!(picture.contains(needed), "{}: no {needed}", path.display());
        }
        assert!(picture.contains("stroke-width=\"3\""), "{}: no scale bar", path.display());
        assert_eq!(picture.contains("zoom ×"), inset, "{}", path.display());
    }
}

/// A cast scene: a unit sphere moving 10 units towards a box 5 units away
/// meets it at t = (5 − 1 − 1) / 10, on the box's face whose outward
/// normal faces it.
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
    assert!((vec3(&r["normal"]) + DVec3::X).length() < 1e-9, "{r}");
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
        // The floor's outward normal, facing the plank.
        assert!(num(&r["normal"][1]) > 0.999, "{r}");
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
