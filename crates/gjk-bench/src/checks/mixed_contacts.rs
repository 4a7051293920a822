//! Random pairs of cylinders, cones, capsules, balls and boxes, placed at
//! random so that they overlap from barely to deeply, at scales 1e-6, 1
//! and 1e6 (f64 and f32 alternately): how many penetrating contacts have
//! a normal that does not prove their depth (docs/reliability.md, *EPA on
//! curved shapes*). The check needs no depth oracle: along a contact's
//! normal `n`, the separation `h_A(n) + h_B(−n) − (c_B − c_A)·n` (the
//! shapes' support functions in closed form) must equal the depth.
//! Counted off where they differ by more than 1e-6 of the scene's size
//! in f64, 1e-3 in f32; by EPA's end.
//!
//! `cargo run --release -p gjk-bench -- mixed-contacts [PAIRS]`
//! (default 100 000 pairs per scale).
use gjk_bench::curved::{pose_f32, pose_f64};
use gjk_core::glam::{DVec3, Vec3};
use gjk_epa::{Contact, ContactStatus, EpaStatus, contact};
use gjk_shapes::{Ball, Capsule, Cone, Cuboid, Cylinder, Pose, Shape};
use gjk_testkit::{Revolved, Rng, revolved_height};

/// A shape of the mix: its kind (cylinder, cone, capsule, ball, box), half
/// height and radius, and a box's half extents.
#[derive(Clone, Copy, Debug)]
struct Mixed {
    kind: usize,
    h: f64,
    r: f64,
    half: DVec3,
}

impl Mixed {
    fn random(rng: &mut Rng, k: f64) -> Self {
        let kind = rng.usize(0, 4);
        let (h, r) = (rng.range(0.1, 3.0) * k, rng.range(0.1, 2.0) * k);
        let half = DVec3::new(rng.range(0.1, 3.0), rng.range(0.1, 3.0), rng.range(0.1, 3.0)) * k;
        Self { kind, h, r, half }
    }

    /// The sizes as `f32` reads them.
    fn rounded(self) -> Self {
        let f = |x: f64| f64::from(x as f32);
        Self { h: f(self.h), r: f(self.r), half: self.half.as_vec3().as_dvec3(), ..self }
    }

    /// The support function in its own frame, in closed form.
    fn height(&self, n: DVec3) -> f64 {
        match self.kind {
            0 => revolved_height(Revolved::Cylinder, self.h, self.r, n),
            1 => revolved_height(Revolved::Cone, self.h, self.r, n),
            2 => self.h * n.y.abs() + self.r * n.length(),
            3 => self.r * n.length(),
            _ => self.half.dot(n.abs()),
        }
    }

    fn shape64(&self) -> Box<dyn Shape<DVec3>> {
        match self.kind {
            0 => Box::new(Cylinder::new(self.h, self.r).unwrap()),
            1 => Box::new(Cone::new(self.h, self.r).unwrap()),
            2 => Box::new(Capsule::new(self.h, self.r).unwrap()),
            3 => Box::new(Ball::new(self.r).unwrap()),
            _ => Box::new(Cuboid::new(self.half).unwrap()),
        }
    }

    fn shape32(&self) -> Box<dyn Shape<Vec3>> {
        let (h, r) = (self.h as f32, self.r as f32);
        match self.kind {
            0 => Box::new(Cylinder::new(h, r).unwrap()),
            1 => Box::new(Cone::new(h, r).unwrap()),
            2 => Box::new(Capsule::new(h, r).unwrap()),
            3 => Box::new(Ball::new(r).unwrap()),
            _ => Box::new(Cuboid::new(self.half.as_vec3()).unwrap()),
        }
    }
}

/// EPA's end: not run, converged (or touching), stalled, at the cap.
fn end<V: gjk_core::Vector>(c: &Contact<V>) -> usize {
    match c.epa_status {
        None => 0,
        Some(EpaStatus::Converged | EpaStatus::Touching) => 1,
        Some(EpaStatus::Stalled) => 2,
        Some(_) => 3,
    }
}

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let pairs: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    println!(
        "| scale | precision | penetrating | off: EPA not run | converged | stalled | at the cap | worst (of the size) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for k in [1e-6, 1.0, 1e6] {
        let mut rng = Rng::new(5);
        // [f64, f32]: penetrating, off by EPA's end, worst.
        let mut rows = [(0usize, [0usize; 4], 0f64); 2];
        for case in 0..pairs {
            let (a, b) = (Mixed::random(&mut rng, k), Mixed::random(&mut rng, k));
            let at = DVec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)) * k;
            let pa = Pose::new(rng.quat(), at);
            let pb = Pose::new(rng.quat(), at + rng.unit3() * rng.range(0.0, 4.0) * k);
            let f32_ = case % 2 == 1;
            // The answer, and the poses and sizes the query read.
            let (status, depth, normal, epa, pa, pb, a, b) = if f32_ {
                let (qa, qb) = (pose_f32(&pa), pose_f32(&pb));
                let c = contact(&*a.shape32(), &qa, &*b.shape32(), &qb);
                let n = c.normal.as_dvec3();
                (
                    c.status,
                    f64::from(c.depth),
                    n,
                    end(&c),
                    pose_f64(&qa),
                    pose_f64(&qb),
                    a.rounded(),
                    b.rounded(),
                )
            } else {
                let c = contact(&*a.shape64(), &pa, &*b.shape64(), &pb);
                (c.status, c.depth, c.normal, end(&c), pa, pb, a, b)
            };
            if status != ContactStatus::Penetrating {
                continue;
            }
            let n = normal.normalize();
            let separation = a.height(pa.rotation.conjugate() * n) + b.height(pb.rotation.conjugate() * -n)
                - (pb.translation - pa.translation).dot(n);
            let off = (separation - depth).abs() / (6.0 * k);
            let row = &mut rows[usize::from(f32_)];
            row.0 += 1;
            row.1[epa] += usize::from(off > if f32_ { 1e-3 } else { 1e-6 });
            row.2 = row.2.max(off);
        }
        for (p, (n, off, worst)) in rows.iter().enumerate() {
            println!(
                "| {k:e} | {} | {n} | {} | {} | {} | {} | {worst:.1e} |",
                ["f64", "f32"][p],
                off[0],
                off[1],
                off[2],
                off[3]
            );
        }
    }
}
