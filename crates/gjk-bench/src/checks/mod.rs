//! Reliability checks against oracles, one subcommand each
//! (docs/reliability.md says what each covers and its latest result).

pub mod curved_caps;
pub mod curved_casts;
pub mod curved_contacts;
pub mod directional_casts;
pub mod grazing_casts;
pub mod manifolds;
pub mod mixed_contacts;
pub mod near_contact;
pub mod nonlinear_casts;
pub mod touching_contact;

/// A check's subcommand name, what it checks, and its entry point.
pub type Check = (&'static str, &'static str, fn(&[String]));

/// Every check.
pub const CHECKS: [Check; 10] = [
    ("near-contact", "[SETS] [--list]: pairs a few bands from contact, every library", near_contact::run),
    ("grazing-casts", "[CASTS]: grazing rays and shape casts in f32", grazing_casts::run),
    ("curved-caps", "[PAIRS]: cylinders and cones on caps and faces, every query", curved_caps::run),
    ("curved-casts", "[RAYS]: rays tangent to cylinders and cones", curved_casts::run),
    ("curved-contacts", "[PAIRS]: contacts of curved shapes at exact depths", curved_contacts::run),
    ("manifolds", "[PAIRS]: contact manifolds against brute force", manifolds::run),
    ("mixed-contacts", "[PAIRS]: curved overlaps whose normal must prove the depth", mixed_contacts::run),
    ("touching-contact", "[SEEDS]: touching f32 pairs in contact, ours and parry's", touching_contact::run),
    ("nonlinear-casts", "[PAIRS] [SPIN]: turning casts, ours and parry's", nonlinear_casts::run),
    ("directional-casts", "[PAIRS] [SPIN]: casts from contact, ours and parry's", directional_casts::run),
];
