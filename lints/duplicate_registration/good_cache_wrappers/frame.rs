use crate::shaders::ShaderCache;

pub fn draw(cache: &mut ShaderCache) -> u32 {
    let sky = cache.load("sky");
    let terrain = cache.load("terrain");
    let again = cache.load("sky");
    sky + terrain + again
}
