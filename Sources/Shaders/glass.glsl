// Primitive GlassComposite (Backends/CPU/CPUKernels+Scene.swift glassPixel): a
// group of glass shapes blended into one body, and its shadow, over the canvas,
// from up to four backdrop images (the canvas behind the glass, frosted) that
// start at canvas pixel u_backdropOrigin. Math/GlassProfile.swift has the formulas:
//
//   d, n, look = the members' distances, normals and appearance folded by a
//                smooth minimum of radius u_blendRadius (GlassProfile)
//   pull  = refraction * (1 - sqrt(1 - x^2)),  x = clamp(1 + d / bevelWidth, 0, 1)
//   body  = backdrop(p - n * pull)             each backdrop weighted by look
//   body  = lighten, saturate (in gamut), face transfer, tint, dim; + glint toward the face's
//           hue, + glow toward white
//   out   = body * coverage + black * shadow * (1 - coverage)
//           + (grey, 1) * (1 - shadow) * contour * ring                  (blended over)
uniform sampler2D u_source0;  // premultiplied linear, read with texelFetch
uniform sampler2D u_source1;
uniform sampler2D u_source2;
uniform sampler2D u_source3;
uniform ivec2 u_backdropOrigin;
uniform int u_count;
uniform float u_blendRadius;
// Per member (GlassMember, GlassMemberLook). MAX_MEMBERS is 1 for a single
// shape (its own program: no loops, constant indices; llvmpipe runs the
// looping program about twice as slowly for one shape) and
// GlassComposite.maximumMembers for a blended group.
uniform vec4 u_shape[MAX_MEMBERS];    // kind, corner exponent
uniform vec4 u_box[MAX_MEMBERS];      // centre xy, half size zw (pixels)
uniform vec4 u_radii[MAX_MEMBERS];    // corner extents (pixels)
uniform vec4 u_bend[MAX_MEMBERS];     // bevelWidth, refraction, dispersion, rimWidth
uniform vec4 u_adjust[MAX_MEMBERS];   // saturation, lightening, dimming, contour opacity
uniform vec4 u_tint[MAX_MEMBERS];     // linear rgb, strength
uniform vec4 u_rim[MAX_MEMBERS];      // lit glint opacity, opposite glint opacity, light direction xy
uniform vec4 u_sources[MAX_MEMBERS];  // weight of each backdrop image
uniform vec4 u_glow[MAX_MEMBERS];     // opacity, sigma (pixels), centre xy (pixels)
uniform vec4 u_edge[MAX_MEMBERS];     // contour width (pixels), contour grey, face amount, unused
uniform vec4 u_face[MAX_MEMBERS];     // emission, transmittance, lift, chroma gain
uniform vec4 u_shadow[MAX_MEMBERS];   // opacity, sigma (pixels), offset xy (pixels)

// CPUKernels.backdrop: bilinear from four texels, clamped to the image, in float.
vec4 backdropOf(sampler2D image, vec2 s) {
  ivec2 size = textureSize(image, 0);
  vec2 t = s - vec2(u_backdropOrigin) - 0.5;
  vec2 f0 = floor(t);
  vec2 f = t - f0;
  ivec2 i0 = ivec2(f0);
  ivec2 lo = ivec2(0);
  ivec2 hi = size - 1;
  ivec2 a = clamp(i0, lo, hi);
  ivec2 b = clamp(i0 + 1, lo, hi);
  vec4 c00 = texelFetch(image, ivec2(a.x, a.y), 0);
  vec4 c10 = texelFetch(image, ivec2(b.x, a.y), 0);
  vec4 c01 = texelFetch(image, ivec2(a.x, b.y), 0);
  vec4 c11 = texelFetch(image, ivec2(b.x, b.y), 0);
  vec4 top = c00 + (c10 - c00) * f.x;
  vec4 bottom = c01 + (c11 - c01) * f.x;
  return top + (bottom - top) * f.y;
}

// CPUKernels.backdrop(sources, weights, s): the backdrops, weighted.
vec4 backdrop(vec4 w, vec2 s) {
  if (w.x == 1.0) return backdropOf(u_source0, s);
  vec4 c = vec4(0.0);
  if (w.x > 0.0) c += backdropOf(u_source0, s) * w.x;
  if (w.y > 0.0) c += backdropOf(u_source1, s) * w.y;
  if (w.z > 0.0) c += backdropOf(u_source2, s) * w.z;
  if (w.w > 0.0) c += backdropOf(u_source3, s) * w.w;
  return c;
}

// CPUKernels.gaussianEdge: the fraction of a Gaussian of unit sigma beyond u,
// 0.5 erfc(u / sqrt 2), by Abramowitz and Stegun 7.1.26.
float gaussianEdge(float u) {
  float z = abs(u) * 0.70710678;
  float t = 1.0 / (1.0 + 0.3275911 * z);
  float poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  float tail = 0.5 * poly * exp(-z * z);
  return u >= 0.0 ? tail : 1.0 - tail;
}

// GlassProfile.lighten: the same light added to every channel, up to white.
vec3 lighten(vec3 c, float a, float amount) {
  float top = max(c.r, max(c.g, c.b));
  return c + vec3(max(a - top, 0.0) * amount);
}

// GlassProfile.saturate: hue and luminance kept, held a tenth inside 0 ... a
// (GlassProfile.gamutShare 0.9).
vec3 saturateColor(vec3 c, float a, float s) {
  float lum = dot(c, vec3(0.2126, 0.7152, 0.0722));
  vec3 e = c - vec3(lum);
  float f = s;
  if (s > 1.0) {
    float high = max(e.x, max(e.y, e.z));
    float low = min(e.x, min(e.y, e.z));
    if (high > 1e-6) f = min(f, 0.9 * (a - lum) / high);
    if (low < -1e-6) f = min(f, 0.9 * lum / -low);
    f = max(f, 1.0);
  }
  return max(vec3(lum) + e * f, vec3(0.0));
}

// GlassProfile.decodeSRGB.
float decodeSRGB(float s) {
  return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
}

// GlassProfile.faceTransfer, in the sRGB encoding of the unpremultiplied colour.
vec3 faceTransfer(vec3 c, float a, vec4 face, float amount) {
  if (!(amount > 0.0 && a > 0.0)) return c;
  vec3 s = vec3(encodeSRGB(c.r / a), encodeSRGB(c.g / a), encodeSRGB(c.b / a));
  float y = dot(s, vec3(0.2126, 0.7152, 0.0722));
  float l = face.x + face.y * (y + face.z * y * (1.0 - y));
  vec3 o = clamp(vec3(l) + (s - vec3(y)) * face.w, 0.0, 1.0);
  vec3 t = vec3(decodeSRGB(o.r), decodeSRGB(o.g), decodeSRGB(o.b)) * a;
  return c + (t - c) * amount;
}

// GlassProfile.glintColor: the face's hue at full brightness, opaque.
vec4 glintColor(vec4 c) {
  float e = 0.02 * c.a + 1e-6;
  float top = max(c.r, max(c.g, c.b));
  return vec4((c.rgb + vec3(e)) / (top + e), 1.0);
}

// GlassProfile.glint.
float glint(float depth, float width, float lit, float litOpacity, float oppositeOpacity) {
  float band = clamp(1.0 - depth / width, 0.0, 1.0);
  float toward = max(lit, 0.0);
  float away = max(-lit, 0.0);
  return band * (litOpacity * toward + oppositeOpacity * away);
}

float memberDistance(int i, vec2 p) { return shapeDistanceOf(int(u_shape[i].x), u_box[i], u_radii[i], u_shape[i].y, p); }

vec2 memberNormal(int i, vec2 p) { return shapeNormalOf(int(u_shape[i].x), u_box[i], u_radii[i], u_shape[i].y, p); }

// GlassProfile.blendRadius.
float blendRadius(float k, vec2 a, vec2 b) {
  float t = clamp((0.5 - (a.x * b.x + a.y * b.y)) / 1.5, 0.0, 1.0);
  return k * t * t * (3.0 - 2.0 * t);
}

// GlassProfile.smoothMin: the distance, and the weight of a.
vec2 smoothMin(float a, float b, float k) {
  if (k <= 1e-4) return a <= b ? vec2(a, 1.0) : vec2(b, 0.0);
  float h = max(k - abs(a - b), 0.0) / k;
  float w = clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
  return vec2(min(a, b) - k * h * h * 0.25, w);
}

// GlassProfile.blendNormal.
vec2 blendNormal(vec2 a, vec2 b, float w) {
  vec2 n = b + (a - b) * w;
  float len = sqrt(n.x * n.x + n.y * n.y);
  return len > 1e-6 ? n / len : n;
}

// CPUKernels.glassShadow: the group's one shadow, the blended field of the
// members that cast one, each at its offset, folded as the body is.
float shadowAt(vec2 p, float k) {
#if MAX_MEMBERS == 1
  if (u_shadow[0].x <= 0.0) return 0.0;
  return u_shadow[0].x * gaussianEdge(memberDistance(0, p - u_shadow[0].zw) / u_shadow[0].y);
#else
  float sd = 0.0;
  vec2 sn = vec2(0.0);
  int first = 0;
  bool haveShadowNormal = false;
  vec2 look = vec2(0.0);  // opacity, sigma
  bool any = false;
  for (int i = 0; i < u_count; i++) {
    if (u_shadow[i].x <= 0.0) continue;
    vec2 q = p - u_shadow[i].zw;
    float si = memberDistance(i, q);
    if (!any) {
      sd = si;
      first = i;
      look = u_shadow[i].xy;
      any = true;
    } else if (si < sd + k) {
      if (!haveShadowNormal) {
        sn = memberNormal(first, p - u_shadow[first].zw);
        haveShadowNormal = true;
      }
      vec2 ni = memberNormal(i, q);
      vec2 m = smoothMin(sd, si, blendRadius(k, sn, ni));
      sd = m.x;
      if (m.y <= 0.0) {
        sn = ni;
        look = u_shadow[i].xy;
      } else if (m.y < 1.0) {
        sn = blendNormal(sn, ni, m.y);
        look = u_shadow[i].xy + (look - u_shadow[i].xy) * m.y;
      }
    }
  }
  return any ? look.x * gaussianEdge(sd / look.y) : 0.0;
#endif
}

void main() {
  vec2 p = gl_FragCoord.xy;
  float k = u_blendRadius;
#ifdef SHADOW_ONLY
  // GlassComposite.showsShadowOnly: no body or contour reaches this pass's
  // pixels (coverage and ring 0), so the whole program would emit this.
  emit(vec4(0.0, 0.0, 0.0, shadowAt(p, k)));
#else
  // The blended field: distance, normal and appearance (GlassMemberLook).
  float d = memberDistance(0, p);
  vec2 n = vec2(0.0);
  bool haveNormal = false;
  vec4 bend = u_bend[0];
  vec4 adjust = u_adjust[0];
  vec4 tint = u_tint[0];
  vec4 rim = u_rim[0];
  vec4 sources = u_sources[0];
  vec4 glow = u_glow[0];
  vec4 edge = u_edge[0];
  vec4 face = u_face[0];
#if MAX_MEMBERS > 1
  if (u_count > 1) {
    for (int i = 1; i < u_count; i++) {
      float di = memberDistance(i, p);
      if (di >= d + k) continue;
      // The first member's normal, once another one comes within reach.
      if (!haveNormal) {
        n = memberNormal(0, p);
        haveNormal = true;
      }
      vec2 ni = memberNormal(i, p);
      vec2 m = smoothMin(d, di, blendRadius(k, n, ni));
      d = m.x;
      float w = m.y;
      if (w <= 0.0) {
        n = ni;
        bend = u_bend[i];
        adjust = u_adjust[i];
        tint = u_tint[i];
        rim = u_rim[i];
        sources = u_sources[i];
        glow = u_glow[i];
        edge = u_edge[i];
        face = u_face[i];
      } else if (w < 1.0) {
        n = blendNormal(n, ni, w);
        bend = u_bend[i] + (bend - u_bend[i]) * w;
        adjust = u_adjust[i] + (adjust - u_adjust[i]) * w;
        tint = u_tint[i] + (tint - u_tint[i]) * w;
        rim = u_rim[i] + (rim - u_rim[i]) * w;
        sources = u_sources[i] + (sources - u_sources[i]) * w;
        glow = u_glow[i] + (glow - u_glow[i]) * w;
        edge = u_edge[i] + (edge - u_edge[i]) * w;
        face = u_face[i] + (face - u_face[i]) * w;
      }
    }
  }
#endif
  float coverage = clamp(0.5 - d, 0.0, 1.0);
  float shadow = coverage < 1.0 ? shadowAt(p, k) : 0.0;
  vec4 body = vec4(0.0);
  if (coverage > 0.0) {
    float depth = -d;
    float bevel = bend.x;
    float rimWidth = bend.w;
    if (!haveNormal && depth < max(bevel, rimWidth) + 1.0) n = memberNormal(0, p);
    // GlassProfile.pull.
    float pull = 0.0;
    if (bevel > 0.0) {
      float x = clamp(1.0 - depth / bevel, 0.0, 1.0);
      pull = bend.y * (1.0 - sqrt(1.0 - x * x));
    }
    body = backdrop(sources, p - n * pull);
    if (bend.z > 0.0 && pull > 0.0) {
      body.r = backdrop(sources, p - n * (pull * (1.0 + bend.z))).r;
      body.b = backdrop(sources, p - n * (pull * (1.0 - bend.z))).b;
    }
    body.rgb = lighten(body.rgb, body.a, adjust.y);
    body.rgb = saturateColor(body.rgb, body.a, adjust.x);
    body.rgb = faceTransfer(body.rgb, body.a, face, edge.z);
    body.rgb = body.rgb + (tint.rgb * body.a - body.rgb) * tint.a;
    body.rgb = body.rgb * (1.0 - adjust.z);
    if (rimWidth > 0.0) {
      float lit = dot(n, rim.zw);
      float r = glint(depth, rimWidth, lit, rim.x, rim.y);
      body = body + (glintColor(body) - body) * r;
    }
    if (glow.x > 0.0) {
      vec2 g = (p - glow.zw) / glow.y;
      body = body + (vec4(1.0) - body) * (glow.x * exp(-0.5 * dot(g, g)));
    }
  }
  float outside = shadow * (1.0 - coverage);
  float grey = 0.0;
  if (adjust.w > 0.0 && coverage < 1.0) {
    float ring = clamp(0.5 - d + edge.x, 0.0, 1.0) - coverage;
    float contour = (1.0 - shadow) * adjust.w * ring;
    outside += contour;
    grey = edge.y * contour;
  }
  emit(body * coverage + vec4(vec3(grey), outside));
#endif
}
