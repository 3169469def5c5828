import Foundation

/// Every optical parameter of glass, resolved: the variant's defaults with a
/// layer's overrides applied. Lengths in points; the table `parameterTable`
/// declares each one once (name, unit, range, defaults per variant) and drives
/// validation, scene files and the documentation.
public struct GlassOptics: Hashable, Sendable {
  /// Width of the bevel band inside the edge where the backdrop is bent, in points.
  public var bevelWidth: Double
  /// How far the backdrop is pulled inward at the rim, in points.
  public var refraction: Double
  /// Standard deviation of the backdrop blur, in points.
  public var frost: Double
  /// Relative spread of red and blue displacement (0: none).
  public var dispersion: Double
  /// Saturation of the backdrop seen through the glass (1: unchanged).
  public var saturation: Double
  /// Light added to the body: the share of the headroom of its brightest channel.
  public var lightening: Double
  /// Darkening of the glass body, tint included.
  public var dimming: Double
  /// How strongly a tint colour replaces the backdrop's colour.
  public var tintIntensity: Double
  /// Width of the specular glint inside the edge, in points.
  public var rimWidth: Double
  /// Brightness of the glint on the walls that face the light.
  public var rimOpacity: Double
  /// Brightness of the glint on the walls that face away from the light.
  public var oppositeRimOpacity: Double
  /// Direction the light comes from, in degrees: 0 from the leading side, 90 from
  /// the top, 45 from the top-leading corner.
  public var lightAngle: Double
  /// Opacity of the dark contour just outside the edge.
  public var contourOpacity: Double
  /// Width of the dark contour just outside the edge, in points.
  public var contourWidth: Double
  /// Opacity of the black shadow under the glass.
  public var shadowOpacity: Double
  /// Blur radius of the shadow, in points (a Gaussian of sigma radius / 2).
  public var shadowRadius: Double
  /// Horizontal offset of the shadow, in points.
  public var shadowOffsetX: Double
  /// Vertical offset of the shadow, in points.
  public var shadowOffsetY: Double
  /// Opacity of the pressed glow of interactive glass.
  public var glowOpacity: Double
  /// Radius of the pressed glow, in points (a Gaussian of sigma radius / 2).
  public var glowRadius: Double
  /// Size of pressed interactive glass relative to rest.
  public var pressedScale: Double
  /// The face transfer of dark, tinted and Increase Contrast glass
  /// (`GlassProfile.faceTransfer`): emission, transmittance, lift and chroma
  /// gain. Set by `applying(_:variant:shortSide:)`, not by a scene's overrides.
  public var face = SIMD4<Double>(0, 1, 0, 1)
  /// How much of the face transfer replaces the body (0: none, light glass).
  public var faceAmount = 0.0
  /// Grey of the contour, linear: 0 black, 1 white (an Increase Contrast border
  /// over a dark backdrop).
  public var contourGray = 0.0

  /// One row of the table: the spec, the defaults, and the property.
  struct Entry: Sendable {
    let spec: ParameterSpec
    let regular: Double
    let clear: Double
    let keyPath: WritableKeyPath<GlassOptics, Double> & Sendable
  }

  private static func entry(
    _ name: String, _ unit: String, _ range: ClosedRange<Double>, regular: Double, clear: Double,
    _ keyPath: WritableKeyPath<GlassOptics, Double> & Sendable, _ summary: String
  ) -> Entry {
    Entry(
      spec: ParameterSpec(
        name: name, unit: unit, minimum: range.lowerBound, maximum: range.upperBound, defaultValue: regular,
        summary: summary), regular: regular, clear: clear, keyPath: keyPath)
  }

  /// The table: every parameter once, with its unit, range and the defaults of
  /// `regular` and `clear`.
  static let entries: [Entry] = [
    entry(
      "bevelWidth", "pt", 0...200, regular: 20, clear: 20, \.bevelWidth,
      "Width of the bevel band inside the edge, where the backdrop is bent (at most half the shorter side)"),
    entry(
      "refraction", "pt", 0...200, regular: 60, clear: 60, \.refraction,
      "How far the backdrop is pulled inward at the rim (at most half the shorter side); beyond bevelWidth, content at the rim looks mirrored"
    ),
    entry(
      "frost", "pt", 0...50, regular: 7, clear: 0.35, \.frost,
      "Standard deviation of the blur of the backdrop before it is bent (sigma)"),
    entry(
      "dispersion", "1", 0...1, regular: 0, clear: 0.06, \.dispersion,
      "Red is displaced by 1 + dispersion, blue by 1 - dispersion, times the refraction"),
    entry(
      "saturation", "1", 0...4, regular: 1.5, clear: 1.15, \.saturation,
      "Saturation of the backdrop through the glass; 1 leaves it unchanged"),
    entry(
      "lightening", "1", 0...1, regular: 0.3, clear: 0.12, \.lightening,
      "Light added to the glass body: this share of the headroom of its brightest channel, so it grows milky and keeps its colour"
    ),
    entry(
      "dimming", "1", 0...1, regular: 0.1, clear: 0, \.dimming,
      "Darkening of the glass body, tint included: a grey veil that keeps light content legible"),
    entry(
      "tintIntensity", "1", 0...1, regular: 0.85, clear: 0.7, \.tintIntensity,
      "With a tint: how much of the tint colour replaces the backdrop's colour"),
    entry(
      "rimWidth", "pt", 0...20, regular: 1.5, clear: 1.5, \.rimWidth,
      "Width of the specular glint inside the edge: it fades to nothing this deep, so it is about half as wide at half height"
    ),
    entry(
      "rimOpacity", "1", 0...1, regular: 0.85, clear: 0.95, \.rimOpacity,
      "Brightness of the glint where the wall faces the light; it takes the hue of the glass face"),
    entry(
      "oppositeRimOpacity", "1", 0...1, regular: 0.45, clear: 0.5, \.oppositeRimOpacity,
      "Brightness of the glint where the wall faces away from the light"),
    entry(
      "lightAngle", "deg", -360...360, regular: 90, clear: 90, \.lightAngle,
      "Where the light comes from: 0 leading, 90 top, 45 top-leading; the glint fades with the cosine"),
    entry(
      "contourOpacity", "1", 0...1, regular: 0.3, clear: 0.3, \.contourOpacity,
      "Opacity of the dark contour just outside the edge, which makes the silhouette crisp (0: none)"),
    entry(
      "contourWidth", "pt", 0...10, regular: 0.75, clear: 0.75, \.contourWidth,
      "Width of the dark contour just outside the edge"),
    entry(
      "shadowOpacity", "1", 0...1, regular: 0.35, clear: 0.25, \.shadowOpacity,
      "Opacity of the black shadow under the glass"),
    entry(
      "shadowRadius", "pt", 0...200, regular: 24, clear: 24, \.shadowRadius,
      "Blur radius of the shadow (a Gaussian of sigma radius / 2)"),
    entry("shadowOffsetX", "pt", -500...500, regular: 0, clear: 0, \.shadowOffsetX, "Horizontal offset of the shadow"),
    entry("shadowOffsetY", "pt", -500...500, regular: 4, clear: 4, \.shadowOffsetY, "Vertical offset of the shadow"),
    entry(
      "glowOpacity", "1", 0...1, regular: 0.35, clear: 0.35, \.glowOpacity,
      "Interactive glass, pressed: opacity of the white glow around the touch"),
    entry(
      "glowRadius", "pt", 0...500, regular: 40, clear: 40, \.glowRadius,
      "Interactive glass, pressed: radius of the glow (a Gaussian of sigma radius / 2)"),
    entry(
      "pressedScale", "1", 1...1.5, regular: 1.04, clear: 1.04, \.pressedScale,
      "Interactive glass, pressed: size relative to rest, about the centre"),
  ]

  /// A parameter's value by its name in the table.
  public subscript(name: String) -> Double? {
    Self.entries.first { $0.spec.name == name }.map { self[keyPath: $0.keyPath] }
  }

  /// Every parameter's spec (the default shown is that of `regular`).
  public static var parameterTable: [ParameterSpec] { entries.map(\.spec) }

  /// The defaults of `regular` and `clear`, by parameter name.
  public static func defaults(_ name: String) -> (regular: Double, clear: Double)? {
    entries.first { $0.spec.name == name }.map { ($0.regular, $0.clear) }
  }

  private init() {
    bevelWidth = 0
    refraction = 0
    frost = 0
    dispersion = 0
    saturation = 1
    lightening = 0
    dimming = 0
    tintIntensity = 0
    rimWidth = 0
    rimOpacity = 0
    oppositeRimOpacity = 0
    lightAngle = 0
    contourOpacity = 0
    contourWidth = 0
    shadowOpacity = 0
    shadowRadius = 0
    shadowOffsetX = 0
    shadowOffsetY = 0
    glowOpacity = 0
    glowRadius = 0
    pressedScale = 1
  }

  /// The optics of a variant with `overrides` applied (`identity` takes the
  /// regular values, which it never uses).
  public init(_ variant: Glass.Variant, overrides: Overrides = Overrides()) {
    self.init()
    for entry in Self.entries {
      self[keyPath: entry.keyPath] =
        overrides.values[entry.spec.name] ?? (variant == .clear ? entry.clear : entry.regular)
    }
  }

  /// Replacements for some optical parameters, by name (`bevelWidth`, `frost`, ...).
  public struct Overrides: Hashable, Sendable {
    /// The values, by parameter name.
    public var values: [String: Double]

    /// Makes overrides; the names must be those of `GlassOptics.parameterTable`.
    public init(_ values: [String: Double] = [:]) {
      self.values = values
    }

    /// The override of one parameter.
    public subscript(name: String) -> Double? {
      get { values[name] }
      set { values[name] = newValue }
    }

    /// True when nothing is overridden.
    public var isEmpty: Bool { values.isEmpty }
  }
}

/// The look of each material, declared once: the blur, saturation and the tint it
/// lays over the blurred backdrop. Thicker means more blur and more opacity.
public struct MaterialStyle: Hashable, Sendable {
  /// Standard deviation of the backdrop blur, in points.
  public var blur: Double
  /// Saturation of the blurred backdrop (1: unchanged).
  public var saturation: Double
  /// Opacity of the tint laid over it.
  public var opacity: Double
  /// The tint colour.
  public var tint: Color

  /// The style of a material in `environment`: dark, the tint is a near-black
  /// grey (28, 28, 30 in sRGB, the dark secondary system background) at the same
  /// opacities; with Reduce Transparency the tint hides 85 % of what it let
  /// through (ultra-thin's 0.22 becomes 0.88), so the backdrop shows as a faint
  /// wash of colour. Apple publishes neither the materials' values nor Reduce
  /// Transparency's; these are this renderer's.
  public static func of(_ material: Material, in environment: EnvironmentValues) -> MaterialStyle {
    var style = of(material)
    if environment.colorScheme == .dark {
      style.tint = Color(red: 28.0 / 255, green: 28.0 / 255, blue: 30.0 / 255)
    }
    if environment.accessibilityReduceTransparency {
      style.opacity = 1 - (1 - style.opacity) * 0.15
    }
    return style
  }

  /// The style of each material (light appearance).
  public static func of(_ material: Material) -> MaterialStyle {
    let tint = Color(red: 0.97, green: 0.97, blue: 0.98)
    switch material {
    case .ultraThin: return MaterialStyle(blur: 8, saturation: 1.8, opacity: 0.22, tint: tint)
    case .thin: return MaterialStyle(blur: 12, saturation: 1.8, opacity: 0.36, tint: tint)
    case .regular: return MaterialStyle(blur: 16, saturation: 1.8, opacity: 0.5, tint: tint)
    case .thick: return MaterialStyle(blur: 22, saturation: 1.8, opacity: 0.64, tint: tint)
    case .ultraThick: return MaterialStyle(blur: 30, saturation: 1.8, opacity: 0.78, tint: tint)
    case .bar:
      return MaterialStyle(blur: 16, saturation: 1.8, opacity: 0.7, tint: Color(red: 0.98, green: 0.98, blue: 0.98))
    }
  }
}
