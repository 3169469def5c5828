// Shared by every primitive; the GLSL mirror of GLESGlass/Math. The backend puts
// `#version 300 es` and the variant's #defines before this file.
precision highp float;
precision highp int;
// A fragment shader's samplers are lowp unless declared otherwise, and so is what
// a lookup returns: Mesa then computed with the texels at binary16 precision, not
// in float as the CPU kernels do (llvmpipe's downsample and upsample passes were
// up to a few binary16 steps off the CPU's, most of them low).
precision highp sampler2D;

// Math/Reflect.swift reflectIndex: -i-1 below 0, 2n-1-i above n-1, period 2n.
int reflectIndex(int i, int n) {
  int period = 2 * n;
  int m = i - period * int(floor(float(i) / float(period)));
  if (m < 0) m += period;
  if (m >= period) m -= period;
  return m < n ? m : period - 1 - m;
}

#ifdef SOURCE_CANVAS
// Math/Reflect.swift MirrorCanvas: the image at u_imageOrigin inside a canvas of
// u_canvasSize, each canvas pixel a mirrored copy of an image pixel, and the canvas
// itself mirrored outside its edges.
uniform vec2 u_canvasSize;
uniform vec2 u_imageOrigin;
uniform vec2 u_imageSize;

// MirrorCanvas.imageColumn / imageRow for whole pixels.
ivec2 canvasToImage(ivec2 c) {
  ivec2 canvas = ivec2(u_canvasSize);
  ivec2 image = ivec2(u_imageSize);
  ivec2 origin = ivec2(u_imageOrigin);
  return ivec2(reflectIndex(reflectIndex(c.x, canvas.x) - origin.x, image.x),
               reflectIndex(reflectIndex(c.y, canvas.y) - origin.y, image.y));
}

// A position folded by the mirror rule into [0, n] (period 2n, continuous: the
// mirror of position x across 0 is -x, so pixel -i-1 shows pixel i), then kept
// half a pixel inside, where both taps of a bilinear read are the edge pixel.
vec2 foldMirrored(vec2 p, vec2 n) {
  p = mod(p, 2.0 * n);
  return clamp(min(p, 2.0 * n - p), vec2(0.5), n - 0.5);
}

// A canvas position (pixel centres at +0.5) -> normalised image texture coordinate,
// for bilinear taps. The canvas edge is mirrored here, continuously; within half a
// pixel of it both taps are the edge pixel. CANVAS_INSIDE: the backend knows every
// tap lies within half a pixel of the canvas, so the clamp alone is exact. The
// image's own mirroring is folded here too, the same way: a bilinear tap at the
// folded position reads the same texels with the same weights as MIRRORED_REPEAT
// would, and never leaves the texture's first copy. softpipe (Mesa 22.3) filters
// a mirrored copy wrongly at texel centres (it reads the neighbour texel), which is
// where a tap clamped to the canvas's edge pixel lands.
vec2 canvasToImageCoord(vec2 s) {
#ifdef CANVAS_INSIDE
  vec2 p = clamp(s, vec2(0.5), u_canvasSize - 0.5);
#else
  vec2 p = foldMirrored(s, u_canvasSize);
#endif
  return foldMirrored(p - u_imageOrigin, u_imageSize) / u_imageSize;
}
#endif

// Math/SRGB.swift SRGB.encode.
float encodeSRGB(float l) {
  l = clamp(l, 0.0, 1.0);
  return l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

// Premultiplied linear -> straight sRGB-encoded, as OutputEncoding.straight does;
// a pixel whose alpha rounds to code 0 of `codes` is all zero (its colour is noise).
vec4 encodeStraightSRGB(vec4 p, float codes) {
  float a = clamp(p.a, 0.0, 1.0);
  if (floor(a * codes + 0.5) == 0.0) return vec4(0.0);
  vec3 c = a > 0.0 ? clamp(p.rgb / a, 0.0, 1.0) : vec3(0.0);
  return vec4(encodeSRGB(c.r), encodeSRGB(c.g), encodeSRGB(c.b), a);
}

// The output stage, by the format of the image a pass writes (ImageFormat).
// RAW_OUTPUT: the primitive writes its own output (MirrorExtend).
#if defined(RAW_OUTPUT)
#elif defined(OUTPUT_LINEAR_HALF)
// Math/Half.swift Half.round, four lanes: the nearest binary16 value (ties to
// even). A pass writing RGBA16F emits values already rounded so, and the driver's
// own conversion has nothing left to round: llvmpipe's rounds toward zero
// (gallivm lp_build_float_to_half), which left each pass up to a binary16 step
// low against the CPU's Half.round, and the steps added up along a frost pyramid.
vec4 roundToHalf(vec4 x) {
  uvec4 bits = floatBitsToUint(x);
  uvec4 magnitude = bits & 0x7FFFFFFFu;
  uvec4 rounded = (magnitude + 0x0FFFu + ((magnitude >> 13) & 1u)) & 0xFFFFE000u;
  vec4 normal = uintBitsToFloat((bits & 0x80000000u) | rounded);
  // Past 65504: infinity of the sign; NaN stays NaN.
  vec4 huge = mix(uintBitsToFloat((bits & 0x80000000u) | 0x7F800000u), x,
                  greaterThan(magnitude, uvec4(0x7F800000u)));
  // Subnormal binary16: multiples of 2^-24.
  vec4 small = roundEven(x * 16777216.0) * (1.0 / 16777216.0);
  vec4 r = mix(normal, huge, greaterThanEqual(magnitude, uvec4(0x477FF000u)));
  return mix(r, small, lessThan(magnitude, uvec4(0x38800000u)));
}

#ifdef BLEND_OVER
// The pass composites its premultiplied colour over what its target held
// (CPUKernels.Target.store's blend), and the sum is rounded once, as the CPU
// rounds it: not by GL blending, whose sum the driver rounds as it rounds its
// stores. The backend first copies the pass's rect of the target here, an image
// of the target's size.
uniform sampler2D u_destination;  // read with texelFetch
#endif

out vec4 fragColor;
void emit(vec4 premultiplied) {
#ifdef BLEND_OVER
  vec4 below = texelFetch(u_destination, ivec2(gl_FragCoord.xy), 0);
  premultiplied = premultiplied + below * (1.0 - premultiplied.a);
#endif
  fragColor = roundToHalf(premultiplied);
}
#elif defined(OUTPUT_SRGB8)
out vec4 fragColor;
void emit(vec4 premultiplied) { fragColor = encodeStraightSRGB(premultiplied, 255.0); }
#elif defined(OUTPUT_SRGB16)
out uvec4 fragColor;
void emit(vec4 premultiplied) { fragColor = uvec4(floor(encodeStraightSRGB(premultiplied, 65535.0) * 65535.0 + 0.5)); }
#endif

// Math/ShapeGeometry.swift: the signed distance to a shape, in pixels, negative
// inside. Kind 0: a box with a radius (extent) per corner, in the order top-leading,
// top-trailing, bottom-trailing, bottom-leading, and a corner exponent (2 circular,
// 3 continuous). Kind 1: an ellipse. A shape is its kind, its box (centre xy, half
// size zw, pixels), its radii and its exponent.
// ShapeSDF.roundedBox.
float roundedBoxDistance(vec2 p, vec2 b, vec4 r, float n) {
  float radius = p.x < 0.0 ? (p.y < 0.0 ? r.x : r.w) : (p.y < 0.0 ? r.y : r.z);
  float qx = abs(p.x) - b.x + radius;
  float qy = abs(p.y) - b.y + radius;
  float vx = max(qx, 0.0);
  float vy = max(qy, 0.0);
  float outside;
  if (n == 2.0) {
    outside = sqrt(vx * vx + vy * vy);
  } else {
    float m = max(vx, vy);
    outside = 0.0;
    if (m > 0.0) {
      float sx = vx / m;
      float sy = vy / m;
      outside = m * pow(sx * sx * sx + sy * sy * sy, 1.0 / n);
    }
  }
  return min(max(qx, qy), 0.0) + outside - radius;
}

// ShapeSDF.ellipseClosest: the closest point of the ellipse (a != b) to p >= 0, by
// Eberly's bisection on the root of g(s).
vec2 ellipseClosest(float px, float py, float a, float b) {
  bool swapped = a < b;
  float e0 = swapped ? b : a;
  float e1 = swapped ? a : b;
  float y0 = swapped ? py : px;
  float y1 = swapped ? px : py;
  float x0;
  float x1;
  if (y1 > 0.0) {
    if (y0 > 0.0) {
      float z0 = y0 / e0;
      float z1 = y1 / e1;
      float g = z0 * z0 + z1 * z1 - 1.0;
      if (g != 0.0) {
        float r0 = (e0 / e1) * (e0 / e1);
        float n0 = r0 * z0;
        float s0 = z1 - 1.0;
        float s1 = g < 0.0 ? 0.0 : sqrt(n0 * n0 + z1 * z1) - 1.0;
        float s = 0.0;
        for (int i = 0; i < 48; i++) {
          s = (s0 + s1) * 0.5;
          if (s == s0 || s == s1) break;
          float q0 = n0 / (s + r0);
          float q1 = z1 / (s + 1.0);
          float h = q0 * q0 + q1 * q1 - 1.0;
          if (h > 0.0) {
            s0 = s;
          } else if (h < 0.0) {
            s1 = s;
          } else {
            break;
          }
        }
        x0 = r0 * y0 / (s + r0);
        x1 = y1 / (s + 1.0);
      } else {
        x0 = y0;
        x1 = y1;
      }
    } else {
      x0 = 0.0;
      x1 = e1;
    }
  } else {
    float numer = e0 * y0;
    float denom = e0 * e0 - e1 * e1;
    if (numer < denom) {
      float t = numer / denom;
      x0 = e0 * t;
      x1 = e1 * sqrt(max(1.0 - t * t, 0.0));
    } else {
      x0 = e0;
      x1 = 0.0;
    }
  }
  return swapped ? vec2(x1, x0) : vec2(x0, x1);
}

// ShapeSDF.ellipse.
float ellipseDistance(float px, float py, float a, float b) {
  if (a == b) return sqrt(px * px + py * py) - a;
  if (a <= 0.0 || b <= 0.0) return max(px - a, py - b);
  vec2 c = ellipseClosest(px, py, a, b);
  float dx = px - c.x;
  float dy = py - c.y;
  float d = sqrt(dx * dx + dy * dy);
  bool inside = (px / a) * (px / a) + (py / b) * (py / b) < 1.0;
  return inside ? -d : d;
}

// ShapeSDF.roundedBoxNormal.
vec2 roundedBoxNormal(float ax, float ay, vec2 b, float radius, float n) {
  float qx = ax - b.x + radius;
  float qy = ay - b.y + radius;
  if (qx > 0.0 && qy > 0.0) {
    float gx = n == 2.0 ? qx : qx * qx;
    float gy = n == 2.0 ? qy : qy * qy;
    float len = sqrt(gx * gx + gy * gy);
    return vec2(gx / len, gy / len);
  }
  return qx > qy ? vec2(1.0, 0.0) : vec2(0.0, 1.0);
}

// ShapeSDF.ellipseNormal.
vec2 ellipseNormal(float px, float py, float a, float b) {
  if (a == b || a <= 0.0 || b <= 0.0) {
    float len = sqrt(px * px + py * py);
    return len > 1e-6 ? vec2(px / len, py / len) : vec2(0.0, 1.0);
  }
  vec2 c = ellipseClosest(px, py, a, b);
  float nx = c.x / (a * a);
  float ny = c.y / (b * b);
  float len = sqrt(nx * nx + ny * ny);
  return vec2(nx / len, ny / len);
}

// ShapeGeometry.distance at pixel position p (y down).
float shapeDistanceOf(int kind, vec4 box, vec4 radii, float exponent, vec2 p) {
  if (kind == 0) return roundedBoxDistance(p - box.xy, box.zw, radii, exponent);
  return ellipseDistance(abs(p.x - box.x), abs(p.y - box.y), box.z, box.w);
}

// ShapeGeometry.normal.
vec2 shapeNormalOf(int kind, vec4 box, vec4 radii, float exponent, vec2 p) {
  float px = p.x - box.x;
  float py = p.y - box.y;
  vec2 n;
  if (kind == 0) {
    float radius = px < 0.0 ? (py < 0.0 ? radii.x : radii.w) : (py < 0.0 ? radii.y : radii.z);
    n = roundedBoxNormal(abs(px), abs(py), box.zw, radius, exponent);
  } else {
    n = ellipseNormal(abs(px), abs(py), box.z, box.w);
  }
  return vec2(px < 0.0 ? -n.x : n.x, py < 0.0 ? -n.y : n.y);
}

#ifdef SHAPE
// One shape, for the primitives that clip or fill by a shape.
uniform int u_shapeKind;
uniform vec4 u_shapeBox;      // centre xy, half size zw, pixels
uniform vec4 u_shapeRadii;
uniform float u_shapeExponent;

float shapeDistance(vec2 p) { return shapeDistanceOf(u_shapeKind, u_shapeBox, u_shapeRadii, u_shapeExponent, p); }

// ShapeGeometry.coverage.
float shapeCoverage(vec2 p) { return clamp(0.5 - shapeDistance(p), 0.0, 1.0); }
#endif

#ifdef FULL_COVERAGE
// The backend knows the shape covers every pixel of the pass (a rectangle on
// whole pixels around it): ShapeGeometry.coverage is 1 there.
float shapeCoverage(vec2 p) { return 1.0; }
#endif

// Blend: premultiplied source over what the target holds is BLEND_OVER (above),
// set by the backend for passes that blend.
