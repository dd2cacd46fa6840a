//! `duplicate_registration` must stay silent: a test that registers a key,
//! does something to the registry that may free it (completes the work
//! keyed by it, cancels it, clears the table), then registers the key again
//! and asserts that this succeeds. It is the test of that reuse. (Back to
//! back, with nothing between, it is reported: `bad_tests_asserted_success`.)

use std::collections::HashMap;

#[derive(Debug)]
pub struct Taken;

#[derive(Default)]
pub struct Jobs {
    running: HashMap<&'static str, u32>,
}

impl Jobs {
    /// A key is refused while its job runs.
    pub fn register_job(&mut self, key: &'static str, id: u32) -> Result<(), Taken> {
        if self.running.contains_key(key) {
            return Err(Taken);
        }
        self.running.insert(key, id);
        Ok(())
    }

    /// Runs the jobs to completion: their keys are free again.
    pub fn finish_all(&mut self) -> usize {
        let done = self.running.len();
        self.running.retain(|_, id| *id == 0);
        done
    }

    pub fn cancel(&mut self, key: &'static str) -> Option<u32> {
        self.running.remove(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_free_once_its_job_finished() {
        let mut jobs = Jobs::default();
        jobs.register_job("resize", 1).unwrap();
        assert_eq!(jobs.finish_all(), 1);
        jobs.register_job("resize", 2).unwrap();
    }

    #[test]
    fn a_cancelled_key_is_free() {
        let mut jobs = Jobs::default();
        jobs.register_job("encode", 1).unwrap();
        jobs.cancel("encode");
        jobs.register_job("encode", 2).unwrap();
    }
}
