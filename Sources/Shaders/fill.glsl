// Primitive Fill (Backends/CPU/CPUKernels+Scene.swift fill): a paint times the
// anti-aliased coverage of a shape. Paint kind 0 one colour, 1 linear gradient
// (t = projection of p on start -> end), 2 radial (t = (|p - centre| - r0) / (r1 - r0));
// colours are premultiplied linear, interpolated linearly between stops.
uniform int u_paintKind;
uniform int u_stopCount;
uniform vec4 u_colors[MAX_STOPS];
uniform float u_locations[MAX_STOPS];
uniform vec4 u_geometry;   // linear: start xy, end zw; radial: centre xy, r0, r1 (pixels)

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
  emit(paintColor(p) * shapeCoverage(p));
}
