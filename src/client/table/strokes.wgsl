// A stroke's colour as it is: no light, no shadow and no tone mapping, like Bevy's gizmo
// lines (client/strokes.rs).
#import bevy_pbr::forward_io::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> color: vec4<f32>;

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    return color;
}
