//! `cargo run -p demo [-- --screenshot PATH --frames N]`
use bevy::prelude::*;

fn main() -> AppExit {
    match demo::parse_args(std::env::args().skip(1)) {
        Ok(args) => match demo::app(&args) {
            Ok(mut app) => app.run(),
            Err(msg) => {
                eprintln!("{msg}");
                AppExit::from_code(2)
            }
        },
        Err(msg) => {
            eprintln!("{msg}");
            AppExit::from_code(2)
        }
    }
}
