import Foundation

/// How glass looks in an environment, decided once per glass layer or
/// container (`decide`): light or dark, clear or tinted (iOS 26.1's setting),
/// with or without Increase Contrast, and the colour of its Increase Contrast
/// border. `GlassOptics.applying(_:variant:shortSide:isInteractive:)` turns it
/// into optics.
///
/// **Dark and tinted glass** take the colour model whynotmake-it's
/// flutter_liquid_glass fitted to Apple's captures of iOS 26
/// (`liquid_glass_color_model.dart`, `GlassColorParameters.ios27Dark`): in the
/// sRGB encoding, the face is an emission of 32/255 plus a share of the
/// backdrop's luminance lifted in the mid-tones (lift 1, or 1.13 tinted) plus
/// its chroma times 1.02 (0.572 tinted) (`GlassProfile.faceTransfer`). The share
/// (transmittance) is 0.597 for glass whose shorter side is up to 75 pt and 0.447
/// from 105 pt (0.295 and 0.195 tinted), blended by a smoothstep between. The
/// dark contour grows with the opacity the tinted setting adds (times
/// 1 + 0.95 × the fall in transmittance). Light regular glass keeps this
/// renderer's fitted model (lightening and saturation); tinted, the headroom its
/// lightening leaves is cut by the ratio of the port's tinted and clear
/// transmittance (0.286 / 0.592), its saturation by the ratio of their chroma
/// gains (0.751 / 1.17, not below 1), and its contour grows by the same rule.
/// The `clear` variant looks the same in light and dark, as the port measured.
///
/// **Increase Contrast** makes glass mostly white (light) or mostly black
/// (dark): the face keeps a tenth of the backdrop's luminance and a fifth of its
/// chroma over an emission of 0.9 (light) or 0.04 (dark), and an opaque border of
/// at least 1 pt lies outside the edge, black over a light backdrop and white
/// over a dark one (a backdrop luminance under `ContentStyle.threshold`), so
/// that it stands at least 3:1 from the backdrop on either side of the
/// threshold (WCAG 2: black against luminance 0.179 is 4.58:1, white 4.58:1).
///
/// **Show Borders** (`accessibilityShowBorders`, which Apple describes as
/// drawing interactive controls such as buttons with clearly visible edges)
/// gives interactive glass the same border, its face unchanged.
///
/// **Adaptive glass.** Apple's guidance: small glass, such as bars and buttons,
/// flips between light and dark with what is behind it, and its glyphs with it;
/// large glass, such as menus and sidebars, adapts without flipping. Here glass
/// is small when the shorter side of its layer's (a container's: its members'
/// union's) frame is at most `smallGlassSide` points, two 44-point touch
/// targets: a bar, a button, a slider, a toolbar, a tab bar. Small glass takes
/// the look whose glyph (black on light glass, white on dark) has the greater
/// WCAG contrast against the face that look gives over the backdrop's estimated
/// luminance (`SceneLowering.backdropLuminance`, the estimate the automatic
/// content colour uses); large glass, and all glass with `adaptiveGlass` off,
/// takes the colour scheme's.
public struct GlassLook: Hashable, Sendable {
  /// Light or dark glass.
  public var colorScheme: ColorScheme = .light
  /// iOS 26.1's tinted setting.
  public var isTinted = false
  /// Increase Contrast.
  public var increasesContrast = false
  /// Show Borders: interactive glass has the border Increase Contrast gives.
  public var showsBorders = false
  /// With Increase Contrast or Show Borders: the border is white (over a dark
  /// backdrop).
  public var hasLightBorder = false

  /// The light, clear look with standard contrast (glass as it was before
  /// environments).
  public init(
    colorScheme: ColorScheme = .light, isTinted: Bool = false, increasesContrast: Bool = false,
    showsBorders: Bool = false, hasLightBorder: Bool = false
  ) {
    self.colorScheme = colorScheme
    self.isTinted = isTinted
    self.increasesContrast = increasesContrast
    self.showsBorders = showsBorders
    self.hasLightBorder = hasLightBorder
  }

  /// The look `environment` sets before the backdrop is seen: its colour
  /// scheme, the tinted setting, Increase Contrast and Show Borders.
  public init(_ environment: EnvironmentValues) {
    self.init(
      colorScheme: environment.colorScheme, isTinted: environment.glassAppearance == .tinted,
      increasesContrast: environment.accessibilityIncreaseContrast,
      showsBorders: environment.accessibilityShowBorders)
  }

  /// The largest shorter side of small glass, in points.
  public static let smallGlassSide = 88.0

  /// The glyph colour on glass of this look: white on dark glass, black on light.
  public var glyphColor: Color { colorScheme == .dark ? .white : .black }

  /// The look of glass whose frame's shorter side is `shortSide` points, over a
  /// backdrop of linear luminance `backdrop` (called only when the look
  /// depends on it: small glass with adaptivity on, or Increase Contrast), in
  /// `environment`.
  public static func decide(
    shortSide: Double, variant: Glass.Variant, environment: EnvironmentValues, backdrop: () throws -> Double
  ) rethrows -> GlassLook {
    var look = GlassLook(environment)
    let adapts = environment.adaptiveGlass && shortSide <= smallGlassSide && variant != .identity
    guard adapts || look.increasesContrast || look.showsBorders else { return look }
    let y = try backdrop()
    look.hasLightBorder = y < ContentStyle.threshold
    if adapts {
      func glyphContrast(_ scheme: ColorScheme) -> Double {
        var l = look
        l.colorScheme = scheme
        let face = l.faceLuminance(overBackdrop: y, variant: variant, shortSide: shortSide)
        return scheme == .dark ? 1.05 / (face + 0.05) : (face + 0.05) / 0.05
      }
      look.colorScheme = glyphContrast(.dark) > glyphContrast(.light) ? .dark : .light
    }
    return look
  }

  /// The linear luminance of the face of default glass of this look over a grey
  /// backdrop of linear luminance `y`, computed with the body's own formulas
  /// (`GlassProfile`) as both backends apply them.
  public func faceLuminance(overBackdrop y: Double, variant: Glass.Variant, shortSide: Double) -> Double {
    let optics = GlassOptics(variant).applying(self, variant: variant, shortSide: shortSide)
    let c = optics.shade(SIMD4(SIMD3(repeating: Float(y)), 1), glass: Glass(variant))
    return Double(0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z)
  }

  /// flutter_liquid_glass's dark transmittance, clear and tinted, for glass up
  /// to 75 pt and from 105 pt on its shorter side.
  static let darkTransmittance = (small: (clear: 0.597, tinted: 0.295), large: (clear: 0.447, tinted: 0.195))
  static let darkSizes = 75.0...105.0

  /// The dark transmittance at `shortSide` points.
  static func darkTransmittance(shortSide: Double, tinted: Bool) -> Double {
    let t = min(max((shortSide - darkSizes.lowerBound) / (darkSizes.upperBound - darkSizes.lowerBound), 0), 1)
    let mix = t * t * (3 - 2 * t)
    let small = tinted ? darkTransmittance.small.tinted : darkTransmittance.small.clear
    let large = tinted ? darkTransmittance.large.tinted : darkTransmittance.large.clear
    return small + (large - small) * mix
  }
}

extension GlassOptics {
  /// These optics as glass of `variant` looks in `look`, for glass whose shorter
  /// side is `shortSide` points (see `GlassLook`). The light clear look with
  /// standard contrast changes nothing; identity glass draws nothing and is
  /// left alone.
  public func applying(
    _ look: GlassLook, variant: Glass.Variant, shortSide: Double, isInteractive: Bool = false
  ) -> GlassOptics {
    guard variant != .identity else { return self }
    var o = self
    if look.showsBorders && isInteractive && !look.increasesContrast {
      o.contourOpacity = 1
      o.contourWidth = max(o.contourWidth, 1)
      o.contourGray = look.hasLightBorder ? 1 : 0
    }
    if look.increasesContrast {
      let dark = look.colorScheme == .dark
      o.face = SIMD4(dark ? 0.04 : 0.9, 0.1, 0, 0.2)
      o.faceAmount = 1
      o.lightening = 0
      o.saturation = 1
      o.dimming = 0
      o.contourOpacity = 1
      o.contourWidth = max(o.contourWidth, 1)
      o.contourGray = look.hasLightBorder ? 1 : 0
      return o
    }
    guard variant == .regular else { return o }
    let contourGrowth = { (fall: Double) in min(1 + 0.95 * fall, 1 / max(o.contourOpacity, 1e-9)) }
    if look.colorScheme == .dark {
      let t = GlassLook.darkTransmittance(shortSide: shortSide, tinted: look.isTinted)
      o.face = SIMD4(32.0 / 255, t, look.isTinted ? 1.13 : 1, look.isTinted ? 0.572 : 1.02)
      o.faceAmount = 1
      o.lightening = 0
      o.saturation = 1
      o.dimming = 0
      if look.isTinted {
        o.contourOpacity *= contourGrowth(GlassLook.darkTransmittance(shortSide: shortSide, tinted: false) - t)
      }
    } else if look.isTinted {
      o.lightening += (1 - o.lightening) * (1 - 0.286 / 0.592)
      o.saturation = max(1, o.saturation * 0.751 / 1.17)
      o.contourOpacity *= contourGrowth(0.592 - 0.286)
    }
    return o
  }
}

extension GlassOptics {
  /// The body of `glass` with these optics over the backdrop colour `c`
  /// (premultiplied linear), as both backends shade it (`GlassProfile.shade`),
  /// without lens, glint, glow or shadow: what the automatic content colour
  /// and the adaptive look estimate.
  func shade(_ c: SIMD4<Float>, glass: Glass) -> SIMD4<Float> {
    let unit = PointRect(x: 0, y: 0, width: 1, height: 1)
    let member = GlassEffect.member(
      glass, optics: self, shape: Shape.rect.geometry(in: unit, scale: 1), frame: unit, scale: 1)
    return SIMD4(GlassProfile.shade(SIMD3(c.x, c.y, c.z), alpha: c.w, GlassMemberLook(member)), c.w)
  }
}
