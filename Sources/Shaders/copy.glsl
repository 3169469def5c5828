// Primitive Copy (Backends/CPU/CPUKernels+Scene.swift copy): the input pixel at
// output pixel + u_offset, mirrored at the input's edges (reflectIndex), through the
// output stage: a copy of part of the canvas, or the canvas encoded for output.
// COPY_INSIDE: the backend knows every pixel read lies inside the input.
uniform sampler2D u_source;   // read with texelFetch
uniform ivec2 u_offset;

void main() {
  ivec2 size = textureSize(u_source, 0);
  ivec2 p = ivec2(gl_FragCoord.xy) + u_offset;
#ifndef COPY_INSIDE
  p = ivec2(reflectIndex(p.x, size.x), reflectIndex(p.y, size.y));
#endif
#ifdef SOURCE_SRGB_RAW
  // A NEAREST tap at the texel centre through a sampler that skips the sRGB
  // decode (texelFetch ignores sampler state): the raw code, decoded exactly.
  vec4 c = texture(u_source, (vec2(p) + 0.5) / vec2(size));
  c.rgb = vec3(decodeSRGB(c.r), decodeSRGB(c.g), decodeSRGB(c.b));
#else
  vec4 c = texelFetch(u_source, p, 0);
#endif
  emit(c);
}
