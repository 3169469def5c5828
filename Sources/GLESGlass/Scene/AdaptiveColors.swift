/// Colours that change with the environment: the system colours, the label,
/// background, fill and separator colours, and a scene's own
/// `Color(light:dark:)`. A colour's components are its light,
/// standard-contrast value; `resolved(in:)` gives the value for an environment.
///
/// Sources (docs/scene-format.md, "Environment", lists them):
/// - the system colours and grays: Apple's Human Interface Guidelines, Color,
///   "Specifications" (June 2025, iOS 26): default light, default dark,
///   increased contrast light, increased contrast dark;
/// - the label, background, fill and separator colours: UIKit's dynamic colours
///   (`UIColor.label`, `.systemBackground`, …), whose values Flutter's
///   `CupertinoColors` copies: light and dark, at base elevation, standard and
///   increased contrast.
extension Color {
  /// A colour's components alone: red, green and blue sRGB-encoded, and opacity.
  struct Components: Hashable, Sendable {
    var red, green, blue, opacity: Double

    init(_ c: Color) { (red, green, blue, opacity) = (c.red, c.green, c.blue, c.opacity) }

    var color: Color { Color(red: red, green: green, blue: blue, opacity: opacity) }

    func opacity(_ factor: Double) -> Components {
      var copy = self
      copy.opacity *= factor
      return copy
    }
  }

  /// A colour's values in the other appearances.
  struct Appearances: Hashable, Sendable {
    /// Dark appearance, standard contrast (nil: the light value).
    var dark: Components?
    /// Light appearance with Increase Contrast (nil: the light value).
    var increasedContrast: Components?
    /// Dark appearance with Increase Contrast (nil: the dark value).
    var darkIncreasedContrast: Components?
  }

  /// A colour with a value per appearance (SwiftUI builds these from an asset
  /// catalogue's colour set). Each argument gives its value in its own
  /// appearance (`Color(light: .red, dark: .indigo)` is red's light value and
  /// indigo's dark one); the increased-contrast values default to those of
  /// `light` and `dark` with Increase Contrast.
  public init(light: Color, dark: Color, increasedContrastLight: Color? = nil, increasedContrastDark: Color? = nil) {
    self = light.resolved(colorScheme: .light, increasedContrast: false)
    appearances = Appearances(
      dark: Components(dark.resolved(colorScheme: .dark, increasedContrast: false)),
      increasedContrast: Components(
        (increasedContrastLight ?? light).resolved(colorScheme: .light, increasedContrast: true)),
      darkIncreasedContrast: Components(
        (increasedContrastDark ?? dark).resolved(colorScheme: .dark, increasedContrast: true)))
  }

  /// The value in `environment`: its colour scheme and contrast.
  public func resolved(in environment: EnvironmentValues) -> Color {
    resolved(colorScheme: environment.colorScheme, increasedContrast: environment.accessibilityIncreaseContrast)
  }

  /// The value for a colour scheme and contrast.
  public func resolved(colorScheme: ColorScheme, increasedContrast: Bool) -> Color {
    guard let appearances else { return self }
    let value: Components? =
      switch (colorScheme, increasedContrast) {
      case (.light, false): nil
      case (.dark, false): appearances.dark
      case (.light, true): appearances.increasedContrast
      case (.dark, true): appearances.darkIncreasedContrast ?? appearances.dark
      }
    return value?.color ?? plain
  }

  /// True when the colour differs between environments.
  public var isAdaptive: Bool { appearances != nil }

  /// The components alone, the same in every environment.
  var plain: Color {
    var copy = self
    copy.appearances = nil
    return copy
  }

  /// A colour from 8-bit sRGB components and an 8-bit alpha.
  static func rgb(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) -> Color {
    Color(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, opacity: Double(a) / 255)
  }

  /// A system colour from its four published values.
  static func adaptive(_ light: Color, _ dark: Color, _ lightContrast: Color, _ darkContrast: Color) -> Color {
    Color(light: light, dark: dark, increasedContrastLight: lightContrast, increasedContrastDark: darkContrast)
  }

  // MARK: System colours (HIG, Color, Specifications)

  /// SwiftUI's `red`: adapts to the appearance and contrast.
  public static let red = adaptive(.rgb(255, 56, 60), .rgb(255, 66, 69), .rgb(233, 21, 45), .rgb(255, 97, 101))
  /// `orange`.
  public static let orange = adaptive(.rgb(255, 141, 40), .rgb(255, 146, 48), .rgb(197, 83, 0), .rgb(255, 160, 86))
  /// `yellow`.
  public static let yellow = adaptive(.rgb(255, 204, 0), .rgb(255, 214, 0), .rgb(161, 106, 0), .rgb(254, 223, 67))
  /// `green`.
  public static let green = adaptive(.rgb(52, 199, 89), .rgb(48, 209, 88), .rgb(0, 137, 50), .rgb(74, 217, 104))
  /// `mint`.
  public static let mint = adaptive(.rgb(0, 200, 179), .rgb(0, 218, 195), .rgb(0, 133, 117), .rgb(84, 223, 203))
  /// `teal`.
  public static let teal = adaptive(.rgb(0, 195, 208), .rgb(0, 210, 224), .rgb(0, 129, 152), .rgb(59, 221, 236))
  /// `cyan`.
  public static let cyan = adaptive(.rgb(0, 192, 232), .rgb(60, 211, 254), .rgb(0, 126, 174), .rgb(109, 217, 255))
  /// `blue`.
  public static let blue = adaptive(.rgb(0, 136, 255), .rgb(0, 145, 255), .rgb(30, 110, 244), .rgb(92, 184, 255))
  /// `indigo`.
  public static let indigo = adaptive(.rgb(97, 85, 245), .rgb(109, 124, 255), .rgb(86, 74, 222), .rgb(167, 170, 255))
  /// `purple`.
  public static let purple = adaptive(.rgb(203, 48, 224), .rgb(219, 52, 242), .rgb(176, 47, 194), .rgb(234, 141, 255))
  /// `pink`.
  public static let pink = adaptive(.rgb(255, 45, 85), .rgb(255, 55, 95), .rgb(231, 18, 77), .rgb(255, 138, 196))
  /// `brown`.
  public static let brown = adaptive(.rgb(172, 127, 94), .rgb(183, 138, 102), .rgb(149, 109, 81), .rgb(219, 166, 121))
  /// `gray` (UIKit's `systemGray`).
  public static let gray = adaptive(.rgb(142, 142, 147), .rgb(142, 142, 147), .rgb(108, 108, 112), .rgb(174, 174, 178))
  /// UIKit's `systemGray2`.
  public static let systemGray2 = adaptive(
    .rgb(174, 174, 178), .rgb(99, 99, 102), .rgb(142, 142, 147), .rgb(124, 124, 128))
  /// UIKit's `systemGray3`.
  public static let systemGray3 = adaptive(.rgb(199, 199, 204), .rgb(72, 72, 74), .rgb(174, 174, 178), .rgb(84, 84, 86))
  /// UIKit's `systemGray4`.
  public static let systemGray4 = adaptive(.rgb(209, 209, 214), .rgb(58, 58, 60), .rgb(188, 188, 192), .rgb(68, 68, 70))
  /// UIKit's `systemGray5`.
  public static let systemGray5 = adaptive(.rgb(229, 229, 234), .rgb(44, 44, 46), .rgb(216, 216, 220), .rgb(54, 54, 56))
  /// UIKit's `systemGray6`.
  public static let systemGray6 = adaptive(.rgb(242, 242, 247), .rgb(28, 28, 30), .rgb(235, 235, 240), .rgb(36, 36, 38))

  // MARK: Label, background, fill and separator colours (UIKit)

  /// UIKit's `label`: primary text.
  public static let label = adaptive(.rgb(0, 0, 0), .rgb(255, 255, 255), .rgb(0, 0, 0), .rgb(255, 255, 255))
  /// UIKit's `secondaryLabel`.
  public static let secondaryLabel = adaptive(
    .rgb(60, 60, 67, 153), .rgb(235, 235, 245, 153), .rgb(60, 60, 67, 173), .rgb(235, 235, 245, 173))
  /// UIKit's `tertiaryLabel`.
  public static let tertiaryLabel = adaptive(
    .rgb(60, 60, 67, 76), .rgb(235, 235, 245, 76), .rgb(60, 60, 67, 96), .rgb(235, 235, 245, 96))
  /// UIKit's `quaternaryLabel`.
  public static let quaternaryLabel = adaptive(
    .rgb(60, 60, 67, 45), .rgb(235, 235, 245, 40), .rgb(60, 60, 67, 66), .rgb(235, 235, 245, 61))
  /// UIKit's `placeholderText`.
  public static let placeholderText = adaptive(
    .rgb(60, 60, 67, 76), .rgb(235, 235, 245, 76), .rgb(60, 60, 67, 96), .rgb(235, 235, 245, 96))
  /// SwiftUI's `primary`: the label colour.
  public static let primary = label
  /// SwiftUI's `secondary`: the secondary label colour.
  public static let secondary = secondaryLabel
  /// UIKit's `systemBackground`.
  public static let systemBackground = adaptive(
    .rgb(255, 255, 255), .rgb(0, 0, 0), .rgb(255, 255, 255), .rgb(0, 0, 0))
  /// UIKit's `secondarySystemBackground`.
  public static let secondarySystemBackground = adaptive(
    .rgb(242, 242, 247), .rgb(28, 28, 30), .rgb(235, 235, 240), .rgb(36, 36, 38))
  /// UIKit's `tertiarySystemBackground`.
  public static let tertiarySystemBackground = adaptive(
    .rgb(255, 255, 255), .rgb(44, 44, 46), .rgb(255, 255, 255), .rgb(54, 54, 56))
  /// UIKit's `systemGroupedBackground`.
  public static let systemGroupedBackground = adaptive(
    .rgb(242, 242, 247), .rgb(0, 0, 0), .rgb(235, 235, 240), .rgb(0, 0, 0))
  /// UIKit's `secondarySystemGroupedBackground`.
  public static let secondarySystemGroupedBackground = adaptive(
    .rgb(255, 255, 255), .rgb(28, 28, 30), .rgb(255, 255, 255), .rgb(36, 36, 38))
  /// UIKit's `tertiarySystemGroupedBackground`.
  public static let tertiarySystemGroupedBackground = adaptive(
    .rgb(242, 242, 247), .rgb(44, 44, 46), .rgb(235, 235, 240), .rgb(54, 54, 56))
  /// UIKit's `systemFill`.
  public static let systemFill = adaptive(
    .rgb(120, 120, 128, 51), .rgb(120, 120, 128, 91), .rgb(120, 120, 128, 71), .rgb(120, 120, 128, 112))
  /// UIKit's `secondarySystemFill`.
  public static let secondarySystemFill = adaptive(
    .rgb(120, 120, 128, 40), .rgb(120, 120, 128, 81), .rgb(120, 120, 128, 61), .rgb(120, 120, 128, 102))
  /// UIKit's `tertiarySystemFill`.
  public static let tertiarySystemFill = adaptive(
    .rgb(118, 118, 128, 30), .rgb(118, 118, 128, 61), .rgb(118, 118, 128, 51), .rgb(118, 118, 128, 81))
  /// UIKit's `quaternarySystemFill`.
  public static let quaternarySystemFill = adaptive(
    .rgb(116, 116, 128, 20), .rgb(118, 118, 128, 45), .rgb(116, 116, 128, 40), .rgb(118, 118, 128, 66))
  /// UIKit's `separator`.
  public static let separator = adaptive(
    .rgb(60, 60, 67, 73), .rgb(84, 84, 88, 153), .rgb(60, 60, 67, 94), .rgb(84, 84, 88, 173))
  /// UIKit's `opaqueSeparator`.
  public static let opaqueSeparator = adaptive(
    .rgb(198, 198, 200), .rgb(56, 56, 58), .rgb(198, 198, 200), .rgb(56, 56, 58))

  /// Transparent.
  public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
  /// Black, in every appearance.
  public static let black = Color(red: 0, green: 0, blue: 0)
  /// White, in every appearance.
  public static let white = Color(red: 1, green: 1, blue: 1)

  /// The named colours a scene file may use, by name, in the order the format
  /// documents them: fixed, the system colours, then the semantic colours.
  public static let namedColors: [(name: String, color: Color)] = [
    ("clear", .clear), ("black", .black), ("white", .white),
    ("red", .red), ("orange", .orange), ("yellow", .yellow), ("green", .green), ("mint", .mint), ("teal", .teal),
    ("cyan", .cyan), ("blue", .blue), ("indigo", .indigo), ("purple", .purple), ("pink", .pink), ("brown", .brown),
    ("gray", .gray), ("systemGray2", .systemGray2), ("systemGray3", .systemGray3), ("systemGray4", .systemGray4),
    ("systemGray5", .systemGray5), ("systemGray6", .systemGray6),
    ("primary", .primary), ("secondary", .secondary), ("label", .label), ("secondaryLabel", .secondaryLabel),
    ("tertiaryLabel", .tertiaryLabel), ("quaternaryLabel", .quaternaryLabel), ("placeholderText", .placeholderText),
    ("systemBackground", .systemBackground), ("secondarySystemBackground", .secondarySystemBackground),
    ("tertiarySystemBackground", .tertiarySystemBackground), ("systemGroupedBackground", .systemGroupedBackground),
    ("secondarySystemGroupedBackground", .secondarySystemGroupedBackground),
    ("tertiarySystemGroupedBackground", .tertiarySystemGroupedBackground),
    ("systemFill", .systemFill), ("secondarySystemFill", .secondarySystemFill),
    ("tertiarySystemFill", .tertiarySystemFill), ("quaternarySystemFill", .quaternarySystemFill),
    ("separator", .separator), ("opaqueSeparator", .opaqueSeparator),
  ]

  /// `namedColors` by name.
  public static let named = Dictionary(uniqueKeysWithValues: namedColors.map { ($0.name, $0.color) })
}
