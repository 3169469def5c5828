import Foundation

/// SwiftUI's `EnvironmentValues`: the appearance, the accessibility settings,
/// the layout direction and the text size a scene is rendered in. The scene
/// file's `environment`, `Scene.environment(_:_:)` in Swift and the command
/// line's `--environment colorScheme=dark,dynamicTypeSize=accessibility3` all
/// set these; a variant of a scene is the same scene with other values.
///
/// They are inputs of layout and lowering (`Scene.laidOut`), never global
/// state:
/// - `colorScheme` and `accessibilityIncreaseContrast` pick each adaptive
///   colour's value (`Color.label`, `.red`, a scene's `{"dark": …}`) from
///   Apple's tables (docs/scene-format.md, "Environment");
/// - `dynamicTypeSize` sizes every font that has a text style
///   (`Font.TextStyle`) from Apple's Dynamic Type table, before layout;
/// - `accessibilityReduceMotion` takes the bounce out of transitions: no value
///   overshoots its end (`TimingCurve.withoutOvershoot`);
/// - `accessibilityReduceTransparency` makes glass frostier and materials
///   nearly opaque, so that less of what is behind shows through
///   (`GlassOptics.reducedTransparency`, `MaterialStyle.of(_:in:)`);
/// - `colorScheme`, `glassAppearance`, `accessibilityIncreaseContrast`,
///   `accessibilityShowBorders` and `adaptiveGlass` decide how glass looks
///   (`GlassLook`): dark or light, clear or tinted, with a border;
/// - `layoutDirection` `.rightToLeft` mirrors the view tree's layout (leading
///   and trailing swap) and aligns text to the right.
public struct EnvironmentValues: Hashable, Sendable {
  /// Light or dark appearance.
  public var colorScheme: ColorScheme = .light
  /// Increase Contrast: adaptive colours take their increased-contrast values.
  public var accessibilityIncreaseContrast = false
  /// Which way layout runs.
  public var layoutDirection: LayoutDirection = .leftToRight
  /// The text size people chose.
  public var dynamicTypeSize: DynamicTypeSize = .large
  /// Reduce Motion: transitions run without overshoot (`TimingCurve.withoutOvershoot`).
  public var accessibilityReduceMotion = false
  /// Reduce Transparency: glass is frostier (`GlassOptics.reducedTransparency`)
  /// and materials nearly opaque (`MaterialStyle.of(_:in:)`).
  public var accessibilityReduceTransparency = false
  /// Show Borders (SwiftUI's `accessibilityShowBorders`, iOS 26.1): interactive
  /// glass, such as buttons, gets a clearly visible border, black or white
  /// against its backdrop, as Increase Contrast gives all glass (`GlassLook`).
  public var accessibilityShowBorders = false
  /// iOS 26.1's Liquid Glass setting (Settings, Display & Brightness): `clear`,
  /// the default look, or `tinted`, more opaque with more contrast (`GlassLook`).
  public var glassAppearance: GlassAppearance = .clear
  /// Whether small glass flips between its light and dark look with what is
  /// behind it (`GlassLook.decide`); off, all glass takes the colour scheme's.
  public var adaptiveGlass = true

  /// The default environment: light, standard contrast, left to right, the
  /// large (default) text size.
  public init() {}

  /// SwiftUI's `colorSchemeContrast`, which Increase Contrast sets.
  public var colorSchemeContrast: ColorSchemeContrast {
    accessibilityIncreaseContrast ? .increased : .standard
  }

  /// True when nothing differs from the default.
  public var isDefault: Bool { self == EnvironmentValues() }
}

/// SwiftUI's `ColorScheme`.
public enum ColorScheme: String, Hashable, Sendable, CaseIterable {
  case light, dark
}

/// iOS 26.1's choice of Liquid Glass look: `clear` (the default) or `tinted`.
/// Not `Glass.Variant.clear`, which is a kind of glass: this setting changes
/// how regular glass looks.
public enum GlassAppearance: String, Hashable, Sendable, CaseIterable {
  case clear, tinted
}

/// SwiftUI's `ColorSchemeContrast`.
public enum ColorSchemeContrast: String, Hashable, Sendable, CaseIterable {
  case standard, increased
}

/// SwiftUI's `LayoutDirection`.
public enum LayoutDirection: String, Hashable, Sendable, CaseIterable {
  case leftToRight, rightToLeft
}

/// SwiftUI's `DynamicTypeSize`, from `xSmall` to `accessibility5`; `large` is
/// the default.
public enum DynamicTypeSize: String, Hashable, Sendable, CaseIterable, Comparable {
  case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
  case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

  /// True for the five accessibility sizes.
  public var isAccessibilitySize: Bool { self >= .accessibility1 }

  /// Its place among the sizes, from 0 (`xSmall`) to 11 (`accessibility5`).
  public var index: Int {
    switch self {
    case .xSmall: 0
    case .small: 1
    case .medium: 2
    case .large: 3
    case .xLarge: 4
    case .xxLarge: 5
    case .xxxLarge: 6
    case .accessibility1: 7
    case .accessibility2: 8
    case .accessibility3: 9
    case .accessibility4: 10
    case .accessibility5: 11
    }
  }

  /// Orders by size.
  public static func < (a: DynamicTypeSize, b: DynamicTypeSize) -> Bool { a.index < b.index }
}

extension Font {
  /// SwiftUI's `Font.TextStyle`: a role whose size follows Dynamic Type.
  public enum TextStyle: String, Hashable, Sendable, CaseIterable {
    case largeTitle, title, title2, title3, headline, body, callout, subheadline, footnote, caption, caption2

    /// The size in points at each Dynamic Type size, `DynamicTypeSize.allCases`
    /// order (xSmall … accessibility5): Apple's table, Human Interface
    /// Guidelines, Typography, "iOS, iPadOS Dynamic Type sizes" (the same
    /// values UIKit's `preferredFont(forTextStyle:)` returns).
    public var sizes: [Double] {
      switch self {
      case .largeTitle: [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]
      case .title: [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58]
      case .title2: [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
      case .title3: [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55]
      case .headline: [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
      case .body: [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
      case .callout: [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
      case .subheadline: [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]
      case .footnote: [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]
      case .caption: [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]
      case .caption2: [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 41]
      }
    }

    /// The size in points at `size`.
    public func size(at size: DynamicTypeSize) -> Double {
      sizes[size.index]
    }

    /// The weight of the style (semibold for `headline`, else regular).
    public var weight: FontWeight { self == .headline ? .semibold : .regular }
  }

  /// The font at `size`: a font with a text style (`relativeTo`) takes the
  /// style's size there, scaled by how its own size relates to the style's
  /// default (a text style itself takes Apple's value exactly); a fixed font
  /// is returned as it is.
  public func scaled(to size: DynamicTypeSize) -> Font {
    guard let style = relativeTo, size != .large else { return self }
    var copy = self
    let large = style.size(at: .large)
    copy.size = self.size == large ? style.size(at: size) : self.size * style.size(at: size) / large
    return copy
  }
}

extension EnvironmentValues {
  /// The settings by the names the scene file and `--environment` use, with
  /// their values' names, in the order the format documents them.
  public static let settingNames: [(name: String, values: [String])] = [
    ("colorScheme", ColorScheme.allCases.map(\.rawValue)),
    ("accessibilityIncreaseContrast", ["false", "true"]),
    ("layoutDirection", LayoutDirection.allCases.map(\.rawValue)),
    ("dynamicTypeSize", DynamicTypeSize.allCases.map(\.rawValue)),
    ("accessibilityReduceMotion", ["false", "true"]),
    ("accessibilityReduceTransparency", ["false", "true"]),
    ("accessibilityShowBorders", ["false", "true"]),
    ("glassAppearance", GlassAppearance.allCases.map(\.rawValue)),
    ("adaptiveGlass", ["true", "false"]),
  ]

  /// Sets the setting `name` to the value named `value`; throws naming both
  /// and what they may be.
  public mutating func set(_ name: String, to value: String) throws {
    func pick<T>(_ table: [String: T]) throws -> T {
      if let found = table[value] { return found }
      let names = Self.settingNames.first { $0.name == name }?.values ?? []
      throw GlassError(
        .invalidParameter,
        "\(name) cannot be \"\(value)\"; it is one of \(names.joined(separator: ", "))")
    }
    switch name {
    case "colorScheme":
      colorScheme = try pick(Dictionary(uniqueKeysWithValues: ColorScheme.allCases.map { ($0.rawValue, $0) }))
    case "accessibilityIncreaseContrast": accessibilityIncreaseContrast = try pick(["false": false, "true": true])
    case "accessibilityReduceMotion": accessibilityReduceMotion = try pick(["false": false, "true": true])
    case "accessibilityReduceTransparency":
      accessibilityReduceTransparency = try pick(["false": false, "true": true])
    case "accessibilityShowBorders": accessibilityShowBorders = try pick(["false": false, "true": true])
    case "glassAppearance":
      glassAppearance = try pick(
        Dictionary(uniqueKeysWithValues: GlassAppearance.allCases.map { ($0.rawValue, $0) }))
    case "adaptiveGlass": adaptiveGlass = try pick(["false": false, "true": true])
    case "layoutDirection":
      layoutDirection = try pick(Dictionary(uniqueKeysWithValues: LayoutDirection.allCases.map { ($0.rawValue, $0) }))
    case "dynamicTypeSize":
      dynamicTypeSize = try pick(
        Dictionary(uniqueKeysWithValues: DynamicTypeSize.allCases.map { ($0.rawValue, $0) }))
    default:
      throw GlassError(
        .invalidParameter,
        "there is no environment setting \"\(name)\"; the settings are \(Self.settingNames.map(\.name).joined(separator: ", "))"
      )
    }
  }

  /// The value of the setting `name`, by the name its value has (nil: no such setting).
  public func value(of name: String) -> String? {
    switch name {
    case "colorScheme": colorScheme.rawValue
    case "accessibilityIncreaseContrast": String(accessibilityIncreaseContrast)
    case "accessibilityReduceMotion": String(accessibilityReduceMotion)
    case "accessibilityReduceTransparency": String(accessibilityReduceTransparency)
    case "accessibilityShowBorders": String(accessibilityShowBorders)
    case "glassAppearance": glassAppearance.rawValue
    case "adaptiveGlass": String(adaptiveGlass)
    case "layoutDirection": layoutDirection.rawValue
    case "dynamicTypeSize": dynamicTypeSize.rawValue
    default: nil
    }
  }

  /// This environment with the settings of `text` applied: comma-separated
  /// `name=value` pairs (`colorScheme=dark,dynamicTypeSize=accessibility3`),
  /// as `--environment` takes them. Throws naming the pair at fault.
  public func applying(settings text: String) throws -> EnvironmentValues {
    var env = self
    for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty else {
        throw GlassError(
          .invalidParameter,
          "\"\(pair)\" is not a setting; write name=value pairs separated by commas, such as colorScheme=dark,layoutDirection=rightToLeft"
        )
      }
      try env.set(String(parts[0]), to: String(parts[1]))
    }
    return env
  }

  /// The settings that differ from the default, as `applying(settings:)` reads them.
  public var settings: String {
    let base = EnvironmentValues()
    return Self.settingNames.compactMap { setting in
      let value = value(of: setting.name)
      return value == base.value(of: setting.name) ? nil : "\(setting.name)=\(value ?? "")"
    }.joined(separator: ",")
  }
}

/// A named set of environment settings applied over a scene's own: one cell of
/// a variant matrix (`glass-gpu goldens --environments light,dark,dark+rtl`).
///
/// A name is words joined by `+`, each a preset or a `setting=value` pair:
/// `light`, `dark`, `increaseContrast`, `reduceMotion`, `reduceTransparency`, `rtl`
/// (`layoutDirection=rightToLeft`),
/// `ltr`, `tinted` and `clear` (`glassAppearance`), `showBorders`, a Dynamic Type size (`xSmall` … `accessibility5`), or `default`
/// (nothing). Later words win. The name is kept as written: it names the
/// variant's reference (`NAME.VARIANT.png`) and its test case.
public struct EnvironmentVariant: Hashable, Sendable {
  /// The name as written (`dark+increaseContrast`).
  public let name: String
  /// The settings, in order, as `EnvironmentValues.set(_:to:)` takes them.
  public let settings: [(name: String, value: String)]

  /// The presets and the settings they stand for.
  public static let presets: [(word: String, setting: (name: String, value: String)?)] =
    [
      ("default", nil), ("light", ("colorScheme", "light")), ("dark", ("colorScheme", "dark")),
      ("increaseContrast", ("accessibilityIncreaseContrast", "true")),
      ("reduceMotion", ("accessibilityReduceMotion", "true")),
      ("reduceTransparency", ("accessibilityReduceTransparency", "true")),
      ("rtl", ("layoutDirection", "rightToLeft")), ("ltr", ("layoutDirection", "leftToRight")),
      ("showBorders", ("accessibilityShowBorders", "true")), ("tinted", ("glassAppearance", "tinted")),
      ("clear", ("glassAppearance", "clear")),
    ] + DynamicTypeSize.allCases.map { ($0.rawValue, ("dynamicTypeSize", $0.rawValue)) }

  /// Reads a variant's name; throws naming the word at fault and the words there are.
  public init(_ name: String) throws {
    var settings: [(String, String)] = []
    var check = EnvironmentValues()
    guard !name.isEmpty else {
      throw GlassError(.invalidParameter, "a variant's name is empty; write words such as dark+rtl")
    }
    for word in name.split(separator: "+", omittingEmptySubsequences: false).map(String.init) {
      if let preset = Self.presets.first(where: { $0.word == word }) {
        if let setting = preset.setting { settings.append(setting) }
        continue
      }
      let pair = word.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2 else {
        throw GlassError(
          .invalidParameter,
          "\"\(word)\" in the variant \"\(name)\" is not a preset (\(Self.presets.map(\.word).joined(separator: ", "))) "
            + "or a setting=value pair")
      }
      try check.set(pair[0], to: pair[1])
      settings.append((pair[0], pair[1]))
    }
    self.name = name
    self.settings = settings
  }

  /// A comma-separated list of variants (`light,dark,dark+increaseContrast`);
  /// a name given twice is an error (two variants would write one reference).
  public static func list(_ text: String) throws -> [EnvironmentVariant] {
    let variants = try text.split(separator: ",", omittingEmptySubsequences: false).map { try Self(String($0)) }
    var seen = Set<String>()
    for variant in variants where !seen.insert(variant.name).inserted {
      throw GlassError(.invalidParameter, "the variant \"\(variant.name)\" is given twice; name each variant once")
    }
    return variants
  }

  /// The variants of the environments file at `path`: each line a variant, or
  /// several separated by commas as `list(_:)` reads them; blank lines and `#`
  /// comments are skipped (`ListFile`). Throws naming the file and the line at
  /// fault: a bad word, a variant given twice (with the line of its first), or
  /// a file that names none.
  public static func list(contentsOf path: String) throws -> [EnvironmentVariant] {
    var variants: [EnvironmentVariant] = []
    var lines: [String: Int] = [:]
    for line in try ListFile.lines(of: path, what: "the environments file") {
      for name in line.text.split(separator: ",", omittingEmptySubsequences: false) {
        let variant: EnvironmentVariant
        do {
          variant = try Self(name.trimmingCharacters(in: .whitespaces))
        } catch let error as GlassError {
          throw error.located(file: path, line: line.line)
        }
        if let first = lines[variant.name] {
          throw GlassError(
            .invalidParameter,
            "the variant \"\(variant.name)\" is given twice (first on line \(first)); name each variant once",
            at: GlassError.Location(file: path, line: line.line))
        }
        lines[variant.name] = line.line
        variants.append(variant)
      }
    }
    guard !variants.isEmpty else {
      throw GlassError(
        .invalidParameter, "the environments file names no variant; write one a line, such as dark+increaseContrast",
        file: path)
    }
    return variants
  }

  /// `environment` with these settings applied.
  public func applied(to environment: EnvironmentValues) -> EnvironmentValues {
    var env = environment
    // Checked when read.
    for (name, value) in settings { try? env.set(name, to: value) }
    return env
  }

  /// `NAME.VARIANT.png` for `NAME.png`: where this variant's render of a job
  /// that writes `output` goes.
  public func output(for output: String) -> String {
    let ext = (output as NSString).pathExtension
    let base = (output as NSString).deletingPathExtension
    return "\(base).\(name)." + (ext.isEmpty ? "png" : ext)
  }

  /// Variants are the same when their names are.
  public static func == (a: EnvironmentVariant, b: EnvironmentVariant) -> Bool { a.name == b.name }
  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension TimingCurve {
  /// The curve with Reduce Motion on: the same duration, nothing past its end.
  /// A spring with bounce becomes the critically damped spring of its duration
  /// (SwiftUI's `.smooth`: it approaches 1 without crossing it); a spring with
  /// no or negative bounce already does not overshoot. A Bézier's y controls
  /// are clamped to 0…1, so that the curve stays within 0…1 (it lies within the
  /// hull of its control points). A line is left as it is.
  public var withoutOvershoot: TimingCurve {
    switch self {
    case .spring(let duration, let bounce): .spring(duration: duration, bounce: min(bounce, 0))
    case .bezier(let duration, let x1, let y1, let x2, let y2):
      .bezier(duration: duration, x1: x1, y1: min(max(y1, 0), 1), x2: x2, y2: min(max(y2, 0), 1))
    case .linear: self
    }
  }
}

extension SceneTransition {
  /// The transition as it runs in `environment`: with Reduce Motion, its curve
  /// without overshoot.
  public func inEnvironment(_ environment: EnvironmentValues) -> SceneTransition {
    guard environment.accessibilityReduceMotion else { return self }
    var copy = self
    copy.animation = animation.withoutOvershoot
    return copy
  }
}

extension GlassOptics {
  /// Glass with Reduce Transparency on: frosted, so that the backdrop shows
  /// through as light and colour rather than detail. Apple describes the setting
  /// (glass gets frostier and hides more of what is behind it) but publishes no
  /// values; these are this renderer's: the frost is at least
  /// `reducedTransparencyFrost` (three times regular glass's 7 pt), and there is
  /// no dispersion. The body's light is left as it is, so that the automatic
  /// content colour, which does not model it, stays legible. Applied to every
  /// glass layer's optics when the scene is resolved in its environment
  /// (`EnvironmentResolver`), over what the layer overrides; identity glass
  /// draws nothing and is left alone.
  public static func reducedTransparency(_ glass: Glass, overrides: Overrides) -> Overrides {
    guard glass.variant != .identity else { return overrides }
    let optics = GlassOptics(glass.variant, overrides: overrides)
    var reduced = overrides
    reduced["frost"] = max(optics.frost, reducedTransparencyFrost)
    reduced["dispersion"] = 0
    return reduced
  }

  /// The least frost with Reduce Transparency, in points (sigma).
  public static let reducedTransparencyFrost = 21.0
}
