//! `--screenshot PATH --frames N`: render N frames, save the window as a
//! PNG, then exit (for tests and docs).

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

/// Frames to wait for the file after asking for the screenshot before
/// giving up with an error.
pub const SAVE_TIMEOUT_FRAMES: u32 = 600;

/// The capture plan.
#[derive(Resource, Debug)]
pub struct Capture {
    path: PathBuf,
    frames: u32,
    seen: u32,
    asked: bool,
}

/// A plugin that captures after `frames` frames and exits.
pub fn plugin(path: PathBuf, frames: u32) -> impl Fn(&mut App) {
    move |app: &mut App| {
        let _ = std::fs::remove_file(&path);
        app.insert_resource(Capture { path: path.clone(), frames, seen: 0, asked: false })
            .add_systems(Update, capture);
    }
}

fn capture(mut commands: Commands, mut plan: ResMut<Capture>, mut exit: MessageWriter<AppExit>) {
    plan.seen += 1;
    if !plan.asked && plan.seen >= plan.frames {
        plan.asked = true;
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(plan.path.clone()));
    }
    if plan.asked {
        // The file is written asynchronously; exit once it is complete.
        let done = std::fs::metadata(&plan.path).map(|m| m.len() > 0).unwrap_or(false);
        if done && plan.seen > plan.frames + 2 {
            exit.write(AppExit::Success);
        } else if plan.seen > plan.frames + SAVE_TIMEOUT_FRAMES {
            error!("screenshot was not written to {}", plan.path.display());
            exit.write(AppExit::from_code(1));
        }
    }
}
