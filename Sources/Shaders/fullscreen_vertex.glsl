// The vertex stage of every primitive: one triangle that covers the viewport.
// Passes restrict it with the scissor to the pixels they write.
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
