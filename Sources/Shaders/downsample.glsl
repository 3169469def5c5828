// Primitive Downsample (Backends/CPU/CPUKernels.swift downsample): halves the
// resolution with the binomial filter [1 3 3 1] / 8 on each axis, read as four
// bilinear taps at +-0.75 texel from the centre of each 2x2 block.
uniform sampler2D u_source;
uniform vec2 u_scale;   // source position = output pixel centre * scale + offset
uniform vec2 u_offset;

vec4 tap(vec2 p) {
#ifdef SOURCE_CANVAS
  return texture(u_source, canvasToImageCoord(p));
#else
  return texture(u_source, p / vec2(textureSize(u_source, 0)));
#endif
}

void main() {
  vec2 c = gl_FragCoord.xy * u_scale + u_offset;
  vec4 top = tap(c + vec2(-0.75, -0.75)) + tap(c + vec2(0.75, -0.75));
  vec4 bottom = tap(c + vec2(-0.75, 0.75)) + tap(c + vec2(0.75, 0.75));
  emit(0.25 * (top + bottom));
}
