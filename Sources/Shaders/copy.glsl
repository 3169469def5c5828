// Primitive Copy (Backends/CPU/CPUKernels+Scene.swift copy): the input pixel at
// output pixel + u_offset, mirrored at the input's edges (reflectIndex), through the
// output stage: a copy of part of the canvas, or the canvas encoded for output.
// COPY_INSIDE: the backend knows every pixel read lies inside the input.
uniform sampler2D u_source;   // read with texelFetch
uniform ivec2 u_offset;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy) + u_offset;
#ifndef COPY_INSIDE
  ivec2 size = textureSize(u_source, 0);
  p = ivec2(reflectIndex(p.x, size.x), reflectIndex(p.y, size.y));
#endif
  emit(texelFetch(u_source, p, 0));
}
