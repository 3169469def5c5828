// Primitive Fill (Backends/CPU/CPUKernels+Scene.swift fill): a paint times the
// anti-aliased coverage of a shape, and with MASK times a mask's alpha. Paint kind 0 one colour, 1 linear gradient
// (t = projection of p on start -> end), 2 radial (t = (|p - centre| - r0) / (r1 - r0));
// colours are premultiplied linear, interpolated linearly between stops.
uniform int u_paintKind;
uniform int u_stopCount;
uniform vec4 u_colors[MAX_STOPS];
uniform float u_locations[MAX_STOPS];
uniform vec4 u_geometry;   // linear: start xy, end zw; radial: centre xy, r0, r1 (pixels)
#ifdef MASK
uniform sampler2D u_mask;  // coverage in alpha, read with texelFetch
uniform ivec2 u_maskOrigin;

// CPUKernels.fill: the mask's alpha at p, 0 outside the mask.
float maskCoverage(vec2 p) {
  ivec2 i = ivec2(floor(p)) - u_maskOrigin;
  ivec2 size = textureSize(u_mask, 0);
  if (i.x < 0 || i.y < 0 || i.x >= size.x || i.y >= size.y) return 0.0;
  return texelFetch(u_mask, i, 0).a;
}
#endif

// Paint.parameter.
float paintParameter(vec2 p) {
  if (u_paintKind == 1) {
    vec2 d = u_geometry.zw - u_geometry.xy;
    float len2 = dot(d, d);
    return len2 > 0.0 ? dot(p - u_geometry.xy, d) / len2 : 0.0;
  }
  float span = u_geometry.w - u_geometry.z;
  float r = length(p - u_geometry.xy) - u_geometry.z;
  return span > 0.0 ? r / span : (r >= 0.0 ? 1.0 : 0.0);
}

// Paint.color.
vec4 paintColor(vec2 p) {
  if (u_paintKind == 0) return u_colors[0];
  float t = clamp(paintParameter(p), 0.0, 1.0);
  vec4 c = u_colors[0];
  if (t <= u_locations[0]) return c;
  for (int i = 1; i < MAX_STOPS; i++) {
    if (i >= u_stopCount) break;
    float l0 = u_locations[i - 1];
    float l1 = u_locations[i];
    if (t <= l1) {
      float f = l1 > l0 ? (t - l0) / (l1 - l0) : 1.0;
      return u_colors[i - 1] + (u_colors[i] - u_colors[i - 1]) * f;
    }
    c = u_colors[i];
  }
  return c;
}

void main() {
  vec2 p = gl_FragCoord.xy;
#ifdef MASK
  emit(paintColor(p) * (shapeCoverage(p) * maskCoverage(p)));
#else
  emit(paintColor(p) * shapeCoverage(p));
#endif
}
