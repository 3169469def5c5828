// Shared by every primitive; the GLSL mirror of GLESGlass/Math. The backend puts
// `#version 300 es` and the variant's #defines before this file.
precision highp float;
precision highp int;

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

// A canvas position (pixel centres at +0.5) -> normalised image texture coordinate,
// for bilinear taps on a MIRRORED_REPEAT texture. The canvas edge is mirrored here,
// continuously; within half a pixel of it both taps are the edge pixel, hence the
// clamp. The image's own mirroring is the texture's MIRRORED_REPEAT, which applies
// reflectIndex to each texel of the tap. CANVAS_INSIDE: the backend knows every
// tap lies within half a pixel of the canvas, so the clamp alone is exact.
vec2 canvasToImageCoord(vec2 s) {
#ifdef CANVAS_INSIDE
  vec2 p = s;
#else
  vec2 p = mod(s, 2.0 * u_canvasSize);
  p = min(p, 2.0 * u_canvasSize - p);
#endif
  p = clamp(p, vec2(0.5), u_canvasSize - 0.5);
  return (p - u_imageOrigin) / u_imageSize;
}
#endif

// Math/SRGB.swift SRGB.encode.
float encodeSRGB(float l) {
  l = clamp(l, 0.0, 1.0);
  return l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

// Premultiplied linear -> straight sRGB-encoded, as OutputEncoding.encode does.
vec4 encodeStraightSRGB(vec4 p) {
  float a = clamp(p.a, 0.0, 1.0);
  vec3 c = a > 0.0 ? clamp(p.rgb / a, 0.0, 1.0) : vec3(0.0);
  return vec4(encodeSRGB(c.r), encodeSRGB(c.g), encodeSRGB(c.b), a);
}

// The output stage, by the format of the image a pass writes (ImageFormat).
// RAW_OUTPUT: the primitive writes its own output (MirrorExtend).
#if defined(RAW_OUTPUT)
#elif defined(OUTPUT_LINEAR_HALF)
out vec4 fragColor;
void emit(vec4 premultiplied) { fragColor = premultiplied; }
#elif defined(OUTPUT_SRGB8)
out vec4 fragColor;
void emit(vec4 premultiplied) { fragColor = encodeStraightSRGB(premultiplied); }
#elif defined(OUTPUT_SRGB16)
out uvec4 fragColor;
void emit(vec4 premultiplied) { fragColor = uvec4(floor(encodeStraightSRGB(premultiplied) * 65535.0 + 0.5)); }
#endif
