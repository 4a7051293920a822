//! The GJK demo: colliding cuboids (and a capsule, a sphere and a hull)
//! simulated with our own contacts; drag shapes with the mouse and watch
//! closest points, contacts and the GJK simplex live.
//!
//! One plugin per concern: [`physics`] (the simulation, testable with
//! `MinimalPlugins`), [`scene`], [`interaction`], [`overlay`], [`ui`], and
//! [`capture`] for the `--screenshot` mode, [`dump`] for `--dump-state`,
//! [`explain`] for the 2D explain mode.
#![warn(missing_docs)]

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

pub mod capture;
pub mod dump;
pub mod explain;
pub mod interaction;
pub mod overlay;
pub mod physics;
pub mod scene;
pub mod ui;

/// Window size at start (logical pixels).
pub const WINDOW_SIZE: (u32, u32) = (1280, 720);

/// Command-line options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Args {
    /// Render this many frames, save a PNG here, then exit.
    pub screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot.
    pub frames: u32,
    /// Open the pair of this scene file (see `docs/scene-format.md`).
    pub scene: Option<PathBuf>,
    /// Write every body's state here as JSON on exit ([`dump`]).
    pub dump_state: Option<PathBuf>,
    /// Start in the 2D explain mode ([`explain`]).
    pub explain: bool,
}

/// Default frames before a screenshot.
pub const DEFAULT_SCREENSHOT_FRAMES: u32 = 60;

/// Parses `--screenshot PATH` and `--frames N`.
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Args, String> {
    let mut out = Args { frames: DEFAULT_SCREENSHOT_FRAMES, ..Args::default() };
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--screenshot" => out.screenshot = Some(it.next().ok_or("--screenshot needs a PATH")?.into()),
            "--frames" => {
                let n = it.next().ok_or("--frames needs a number")?;
                out.frames = n.parse().map_err(|_| format!("--frames: '{n}' is not a whole number"))?;
            }
            "--scene" => out.scene = Some(it.next().ok_or("--scene needs a FILE")?.into()),
            "--explain" => out.explain = true,
            "--dump-state" => out.dump_state = Some(it.next().ok_or("--dump-state needs a PATH")?.into()),
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    Ok(out)
}

/// Help text.
pub const USAGE: &str =
    "usage: demo [--scene FILE] [--screenshot PATH] [--frames N] [--dump-state PATH] [--explain]";

/// The full application (an error when the scene file is bad).
pub fn app(args: &Args) -> Result<App, String> {
    let pair = match &args.scene {
        None => None,
        Some(path) => Some(scene::load_pair(path)?),
    };
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "gjk — convex collision demo".into(),
            resolution: WindowResolution::new(WINDOW_SIZE.0, WINDOW_SIZE.1),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .add_plugins((
        physics::plugin,
        scene::plugin,
        interaction::plugin,
        overlay::plugin,
        ui::plugin,
        explain::plugin,
    ))
    .add_systems(PostStartup, select_default);
    if let Some(path) = &args.screenshot {
        app.add_plugins(capture::plugin(path.clone(), args.frames));
    }
    if args.explain {
        let mut mode = explain::ExplainMode::default();
        mode.on = true;
        app.insert_resource(mode);
    }
    if let Some(path) = &args.dump_state {
        app.add_plugins(dump::plugin(path.clone()));
    }
    if let Some(pair) = pair {
        // Show the file's pair as it is: no ground, no gravity, paused.
        app.insert_resource(pair).insert_resource(physics::SimSettings {
            gravity: 0.0,
            paused: true,
            ..default()
        });
    }
    Ok(app)
}

/// Selects the sphere (or a scene file's shape A) at start so the overlays
/// have a pair to show.
fn select_default(
    mut selection: ResMut<interaction::Selection>,
    bodies: Query<(Entity, &physics::Body)>,
    pair: Option<Res<scene::ScenePair>>,
) {
    selection.selected = if pair.is_some() {
        bodies.iter().min_by_key(|(e, _)| *e).map(|(e, _)| e)
    } else {
        bodies.iter().find(|(_, b)| matches!(b.collider, physics::Collider::Ball(_))).map(|(e, _)| e)
    };
}
