// Primitive Convolve (Backends/CPU/CPUKernels.swift convolve): a symmetric 1-D
// kernel along u_axis, taps at whole pixels, weights w[0 ... radius]:
//
//   out(p) = w0 f(p) + sum_i w_i (f(p + i axis) + f(p - i axis))
uniform sampler2D u_source;
uniform ivec2 u_offset;  // source pixel = output pixel + offset
uniform ivec2 u_axis;
uniform int u_radius;
uniform float u_weights[MAX_RADIUS + 1];

vec4 fetch(ivec2 p) {
#ifdef SOURCE_CANVAS
  return texelFetch(u_source, canvasToImage(p), 0);
#else
  ivec2 size = textureSize(u_source, 0);
  return texelFetch(u_source, ivec2(reflectIndex(p.x, size.x), reflectIndex(p.y, size.y)), 0);
#endif
}

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy) + u_offset;
  vec4 sum = u_weights[0] * fetch(p);
  for (int i = 1; i <= u_radius; i++) {
    sum += u_weights[i] * (fetch(p + i * u_axis) + fetch(p - i * u_axis));
  }
  emit(sum);
}
