//! A session hands out its accelerator through methods and a field of
//! what `info` returns: no type is written where the text is compared.

use crate::accel::{Accelerator, Queue};

pub struct Info {
    pub accelerator: Accelerator,
    pub queue: Queue,
}

pub struct Session {
    info: Info,
}

impl Session {
    pub fn accelerator(&self) -> Accelerator {
        self.info.accelerator
    }

    pub fn info(&self) -> &Info {
        &self.info
    }

    pub fn try_info(&self) -> Option<&Info> {
        Some(&self.info)
    }

    pub fn pair(&self) -> (Accelerator, Queue) {
        (self.info.accelerator, self.info.queue)
    }

    // A tuple element of a call's result.
    pub fn pair_is_gpu(&self) -> bool {
        let (accelerator, _) = self.pair();
        accelerator.to_string() == "gpu" //~ impossible_value_comparison
    }

    // `if let` on an `Option` of a reference, then a field.
    pub fn queue_is_tpu(&self) -> bool {
        if let Some(info) = self.try_info() {
            return info.queue.to_string() == "tpu"; //~ impossible_value_comparison
        }
        false
    }

    // `to_string()` of a method's result: `Display` writes `code`.
    pub fn on_gpu(&self) -> bool {
        self.accelerator().to_string() == "gpu" //~ impossible_value_comparison
    }

    // `format!` with one `{}` writes what `to_string` gives.
    pub fn on_rocm(&self) -> bool {
        format!("{}", self.accelerator()) == "rocm" //~ impossible_value_comparison
    }

    // `.to_string().as_str()` in `matches!`.
    pub fn on_apple(&self) -> bool {
        matches!(self.accelerator().to_string().as_str(), "metal" | "mps") //~ impossible_value_comparison
    }

    // A field of a call's result, held in a `let`.
    pub fn queue_is_host(&self) -> bool {
        let queue = self.info().queue;
        queue.to_string() == "host" //~ impossible_value_comparison
    }

    // Through `?` on an `Option`, then a field.
    pub fn info_is_tpu(&self) -> Option<bool> {
        let info = self.try_info()?;
        Some(info.accelerator.to_string() == "tpu") //~ impossible_value_comparison
    }
}
