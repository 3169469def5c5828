// Primitive GlassComposite (Backends/CPU/CPUKernels+Scene.swift glass): the glass
// body and its shadow over the canvas, from a backdrop image (the canvas behind the
// glass, already frosted) that starts at canvas pixel u_backdropOrigin.
//
//   depth = -d                 (d: the shape's signed distance)
//   x     = clamp(1 - depth / bevelWidth, 0, 1)
//   pull  = refraction * (1 - sqrt(1 - x^2))        quarter-circle bevel
//   body  = backdrop(p - n * pull)                  n: outward normal
//   body  = saturate, lighten, dim, tint; + rim and glow toward white
//   out   = body * coverage + (1 - coverage) * shadow      (blended over)
uniform sampler2D u_source;   // premultiplied linear, read with texelFetch
uniform ivec2 u_backdropOrigin;
uniform vec4 u_bend;          // bevelWidth, refraction, dispersion, rimWidth (pixels, 1, pixels)
uniform vec4 u_adjust;        // saturation, lightening, dimming, unused
uniform vec4 u_tint;          // linear rgb, strength
uniform vec4 u_rim;           // lit opacity, opposite opacity, light direction xy
uniform vec4 u_shadow;        // opacity, sigma (pixels), offset xy (pixels)
uniform vec4 u_glow;          // opacity, sigma (pixels), centre xy (pixels)

// GlassKernel.backdrop: bilinear from four texels, clamped to the image, in float.
vec4 backdrop(vec2 s) {
  ivec2 size = textureSize(u_source, 0);
  vec2 t = s - vec2(u_backdropOrigin) - 0.5;
  vec2 f0 = floor(t);
  vec2 f = t - f0;
  ivec2 i0 = ivec2(f0);
  ivec2 lo = ivec2(0);
  ivec2 hi = size - 1;
  ivec2 a = clamp(i0, lo, hi);
  ivec2 b = clamp(i0 + 1, lo, hi);
  vec4 c00 = texelFetch(u_source, ivec2(a.x, a.y), 0);
  vec4 c10 = texelFetch(u_source, ivec2(b.x, a.y), 0);
  vec4 c01 = texelFetch(u_source, ivec2(a.x, b.y), 0);
  vec4 c11 = texelFetch(u_source, ivec2(b.x, b.y), 0);
  vec4 top = c00 + (c10 - c00) * f.x;
  vec4 bottom = c01 + (c11 - c01) * f.x;
  return top + (bottom - top) * f.y;
}

// GlassKernel.gaussianEdge: the fraction of a Gaussian of unit sigma beyond u,
// 0.5 erfc(u / sqrt 2), by Abramowitz and Stegun 7.1.26.
float gaussianEdge(float u) {
  float z = abs(u) * 0.70710678;
  float t = 1.0 / (1.0 + 0.3275911 * z);
  float poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  float tail = 0.5 * poly * exp(-z * z);
  return u >= 0.0 ? tail : 1.0 - tail;
}

void main() {
  vec2 p = gl_FragCoord.xy;
  float d = shapeDistance(p);
  float coverage = clamp(0.5 - d, 0.0, 1.0);
  float shadow = 0.0;
  if (u_shadow.x > 0.0 && coverage < 1.0) {
    float sd = shapeDistance(p - u_shadow.zw);
    shadow = u_shadow.x * gaussianEdge(sd / u_shadow.y);
  }
  vec4 body = vec4(0.0);
  if (coverage > 0.0) {
    float depth = -d;
    float bevel = u_bend.x;
    float rimWidth = u_bend.w;
    vec2 n = vec2(0.0);
    if (depth < max(bevel, rimWidth) + 1.0) n = shapeNormal(p);
    float pull = 0.0;
    if (bevel > 0.0) {
      float x = clamp(1.0 - depth / bevel, 0.0, 1.0);
      pull = u_bend.y * (1.0 - sqrt(1.0 - x * x));
    }
    body = backdrop(p - n * pull);
    if (u_bend.z > 0.0 && pull > 0.0) {
      body.r = backdrop(p - n * (pull * (1.0 + u_bend.z))).r;
      body.b = backdrop(p - n * (pull * (1.0 - u_bend.z))).b;
    }
    float lum = dot(body.rgb, vec3(0.2126, 0.7152, 0.0722));
    body.rgb = max(vec3(lum) + (body.rgb - vec3(lum)) * u_adjust.x, vec3(0.0));
    body.rgb = body.rgb + (vec3(body.a) - body.rgb) * u_adjust.y;
    body.rgb = body.rgb * (1.0 - u_adjust.z);
    body.rgb = body.rgb + (u_tint.rgb * body.a - body.rgb) * u_tint.a;
    if (rimWidth > 0.0) {
      float band = clamp(1.0 - depth / rimWidth, 0.0, 1.0);
      float lit = dot(n, u_rim.zw);
      float rim = band * (u_rim.x * max(lit, 0.0) + u_rim.y * max(-lit, 0.0));
      body = body + (vec4(1.0) - body) * rim;
    }
    if (u_glow.x > 0.0) {
      vec2 g = (p - u_glow.zw) / u_glow.y;
      body = body + (vec4(1.0) - body) * (u_glow.x * exp(-0.5 * dot(g, g)));
    }
  }
  emit(body * coverage + vec4(0.0, 0.0, 0.0, shadow) * (1.0 - coverage));
}
