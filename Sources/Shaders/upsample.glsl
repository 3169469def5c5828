// Primitive Upsample (Backends/CPU/CPUKernels.swift upsample): doubles the
// resolution; each output pixel is one bilinear tap, which lands a quarter texel
// from a source centre, so the weights are 3/4 and 1/4 on each axis.
uniform sampler2D u_source;
uniform vec2 u_scale;   // source position = output pixel centre * scale + offset
uniform vec2 u_offset;

void main() {
  vec2 p = gl_FragCoord.xy * u_scale + u_offset;
  emit(texture(u_source, p / vec2(textureSize(u_source, 0))));
}
