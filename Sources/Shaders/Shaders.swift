// The GLSL files beside this one are embedded into `ShaderSource` at build time by
// the EmbedShaders plugin: one file per primitive, plus `common.glsl`, the GLSL
// mirror of GLESGlass/Math.
