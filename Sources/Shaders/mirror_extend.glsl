// Primitive MirrorExtend (Backends/CPU/CPUKernels.swift mirrorExtend): copies each
// canvas pixel from its mirrored image pixel, untouched: the sigma-0 extension.
// Sources are encoded sRGB: RGBA8 (read as v / 255) or RGBA16UI. The backend
// defines RAW_OUTPUT, and RAW_OUTPUT_SRGB16 for a 16-bit output.
#ifdef SOURCE_UINT
uniform highp usampler2D u_source;
#else
uniform sampler2D u_source;
#endif
uniform ivec2 u_offset;  // canvas pixel = output pixel + offset

#ifdef RAW_OUTPUT_SRGB16
out uvec4 fragColor;
#else
out vec4 fragColor;
#endif

void main() {
  ivec2 image = canvasToImage(ivec2(gl_FragCoord.xy) + u_offset);
#if defined(SOURCE_UINT) && defined(RAW_OUTPUT_SRGB16)
  fragColor = texelFetch(u_source, image, 0);
#elif defined(SOURCE_UINT)
  // 16 -> 8 bits: round(v * 255 / 65535), as PNG's scale_16.
  uvec4 v = texelFetch(u_source, image, 0);
  fragColor = vec4((v * 255u + 32895u) >> 16) / 255.0;
#elif defined(RAW_OUTPUT_SRGB16)
  fragColor = uvec4(floor(texelFetch(u_source, image, 0) * 255.0 + 0.5)) * 257u;
#else
  fragColor = texelFetch(u_source, image, 0);
#endif
}
