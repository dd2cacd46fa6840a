use crate::shaders::ShaderCache;

pub fn draw(cache: &mut ShaderCache) -> u32 {
    let sky = cache.load("sky");
    let terrain = cache.load("terrain");
    let again = cache.load("sky");
    sky + terrain + again
}

pub fn prewarm(cache: &mut ShaderCache) {
    let _ = cache.add_shader("sky", "sky.wgsl");
    let _ = cache.add_shader("sky", "sky_hdr.wgsl"); //~ duplicate_registration
}
