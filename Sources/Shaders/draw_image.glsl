// Primitive DrawImage (Backends/CPU/CPUKernels+Scene.swift drawImage): an image
// placed 1:1 at u_origin, times the coverage of its clip shape and an opacity;
// transparent outside the image.
uniform sampler2D u_source;   // premultiplied linear, read with texelFetch
uniform ivec2 u_origin;       // target pixel of the image's top-left pixel
uniform float u_opacity;

void main() {
  ivec2 i = ivec2(gl_FragCoord.xy) - u_origin;
  ivec2 size = textureSize(u_source, 0);
  vec4 c = vec4(0.0);
  if (i.x >= 0 && i.y >= 0 && i.x < size.x && i.y < size.y) c = texelFetch(u_source, i, 0);
  emit(c * (shapeCoverage(gl_FragCoord.xy) * u_opacity));
}
