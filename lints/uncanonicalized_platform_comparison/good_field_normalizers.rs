//! `uncanonicalized_platform_comparison`: fields normalized where they are
//! made, or compared with what no normalizer gives.

pub struct Job {
    /// Normalized when the job is made.
    pub queue: String,
    /// Normalized in place before use.
    pub lane: String,
    /// As written; only shouted in logs.
    pub owner: String,
    /// As written.
    pub tier: String,
}

pub fn queue_key(raw: &str) -> String {
    raw.trim().to_ascii_lowercase()
}

/// Upper case for the log line: a label, not a key.
pub fn shout(raw: &str) -> String {
    raw.to_uppercase()
}

pub fn new_job(queue: &str, lane: &str, owner: &str, tier: &str) -> Job {
    Job {
        queue: queue_key(queue),
        lane: lane.to_string(),
        owner: owner.to_string(),
        tier: tier.to_string(),
    }
}

pub fn settle(job: &mut Job) {
    job.lane = queue_key(&job.lane);
}

pub fn routes(job: &Job) -> bool {
    // Made by `queue_key` in `new_job`: already normalized.
    let batch = queue_key(&job.queue) == "batch";
    // Assigned its normalized value in `settle`.
    let fast = queue_key(&job.lane) == "fast" || job.lane == "fast";
    batch || fast || job.queue == "batch"
}

pub fn audit(job: &Job) -> bool {
    println!("owner {}", shout(&job.owner));
    // `shout` gives upper case only: "root" is not its spelling.
    job.owner == "root"
}

pub fn premium(job: &Job) -> bool {
    // `queue_key` never gives upper case: this asks for the value as written.
    job.tier == "GOLD" || queue_key(&job.tier) == "gold"
}
