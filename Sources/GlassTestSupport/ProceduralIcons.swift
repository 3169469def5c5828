import GLESGlass

/// The icons drawn by code, now the library's `SystemImage` (what `systemImage`
/// names show); the tests and the asset writer call them by this name.
public typealias ProceduralIcons = SystemImage
