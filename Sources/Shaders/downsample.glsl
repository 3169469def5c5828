// Primitive Downsample (Backends/CPU/CPUKernels.swift downsample): halves the
// resolution with the binomial filter [1 3 3 1] / 8 on each axis, read as four
// bilinear taps at +-0.75 texel from the centre of each 2x2 block.
uniform sampler2D u_source;
uniform vec2 u_scale;   // source position = output pixel centre * scale + offset
uniform vec2 u_offset;

void main() {
  vec2 c = gl_FragCoord.xy * u_scale + u_offset;
  // The two tap positions of each axis; the mapping works axis by axis.
#ifdef SOURCE_CANVAS
  vec2 a = canvasToImageCoord(c - 0.75);
  vec2 b = canvasToImageCoord(c + 0.75);
#else
  vec2 inverseSize = 1.0 / vec2(textureSize(u_source, 0));
  vec2 a = (c - 0.75) * inverseSize;
  vec2 b = (c + 0.75) * inverseSize;
#endif
  vec4 top = texture(u_source, a) + texture(u_source, vec2(b.x, a.y));
  vec4 bottom = texture(u_source, vec2(a.x, b.y)) + texture(u_source, b);
  emit(0.25 * (top + bottom));
}
