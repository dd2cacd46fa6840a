//! `impossible_value_comparison`: what a derived `Debug` writes for an enum
//! of unit variants is the variant's name (`Gpu`, not `GPU`), through
//! `format!("{:?}", x)` and `format!("{x:?}")`.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceType {
    Cpu,
    Gpu,
    IntegratedGpu,
    Accelerator,
}

pub struct BackendDevice {
    pub index: usize,
    pub device_type: DeviceType,
}

pub fn list_devices() -> Vec<BackendDevice> {
    Vec::new()
}

// ggml's own names are upper case; the derive writes `Gpu`.
pub fn discrete_gpus() -> Vec<usize> {
    let mut found = Vec::new();
    for dev in list_devices() {
        if format!("{:?}", dev.device_type) == "GPU" { //~ impossible_value_comparison
            found.push(dev.index);
        }
    }
    found
}

pub fn is_integrated(kind: DeviceType) -> bool {
    format!("{kind:?}") == "iGPU" //~ impossible_value_comparison
}

pub fn current() -> DeviceType {
    DeviceType::Cpu
}

// A local whose type only the model knows, captured by the format string.
pub fn on_accelerator() -> bool {
    let kind = current();
    format!("{kind:?}") == "ACCEL" //~ impossible_value_comparison
}
