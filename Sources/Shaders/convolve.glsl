// Primitive Convolve (Backends/CPU/CPUKernels.swift convolve): a symmetric 1-D
// kernel along u_axis, taps at whole pixels, weights w[0 ... radius]:
//
//   out(p) = w0 f(p) + sum_i w_i (f(p + i axis) + f(p - i axis))
//
// Every tap is read alone by a NEAREST sampler: on llvmpipe a bilinear tap costs
// more than two nearest ones, so pairing taps into bilinear reads is slower.
uniform sampler2D u_source;  // NEAREST, MIRRORED_REPEAT
uniform ivec2 u_offset;      // source pixel = output pixel + offset
uniform ivec2 u_axis;
uniform int u_radius;
uniform float u_weights[MAX_RADIUS + 1];

// The texel of whole pixel p, mirrored at the edges by the sampler: a NEAREST tap at
// a pixel centre is that pixel, and MIRRORED_REPEAT applies reflectIndex.
#ifdef SOURCE_CANVAS
vec4 fetch(vec2 centre) { return texture(u_source, canvasToImageCoord(centre)); }
#else
vec4 fetch(vec2 centre) { return texture(u_source, centre / vec2(textureSize(u_source, 0))); }
#endif

void main() {
  vec2 p = gl_FragCoord.xy + vec2(u_offset);
  vec2 axis = vec2(u_axis);
  vec4 sum = u_weights[0] * fetch(p);
  for (int i = 1; i <= u_radius; i++) {
    vec2 d = float(i) * axis;
    sum += u_weights[i] * (fetch(p + d) + fetch(p - d));
  }
  emit(sum);
}
