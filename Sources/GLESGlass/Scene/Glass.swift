/// SwiftUI's `Glass`: a variant, an optional tint, and whether it reacts to touch.
public struct Glass: Hashable, Sendable {
  /// The glass variants of SwiftUI.
  public enum Variant: String, Hashable, Sendable, CaseIterable {
    /// Frosted, lifted, for most controls.
    case regular
    /// More transparent, barely frosted, for glass over media.
    case clear
    /// No glass at all: the content renders as if the glass were not there.
    case identity
  }

  /// The variant.
  public var variant: Variant
  /// A tint colour mixed into the glass, if any.
  public var tint: Color?
  /// True for `interactive()` glass, which can be shown pressed.
  public var isInteractive: Bool
  /// With `isInteractive`: render the pressed state (a glow and a slight growth).
  public var isPressed: Bool
  /// With `isPressed`: where the touch is, in points from the frame's top-leading
  /// corner (the centre when nil).
  public var touchPoint: PointOffset?

  /// Makes glass.
  public init(
    _ variant: Variant, tint: Color? = nil, isInteractive: Bool = false, isPressed: Bool = false,
    touchPoint: PointOffset? = nil
  ) {
    self.variant = variant
    self.tint = tint
    self.isInteractive = isInteractive
    self.isPressed = isPressed
    self.touchPoint = touchPoint
  }

  /// `Glass.regular`.
  public static let regular = Glass(.regular)
  /// `Glass.clear`.
  public static let clear = Glass(.clear)
  /// `Glass.identity`.
  public static let identity = Glass(.identity)

  /// `.tint(_:)`.
  public func tint(_ color: Color?) -> Glass {
    var copy = self
    copy.tint = color
    return copy
  }

  /// `.interactive(_:)`; `pressed` shows the pressed state, touched at `touchPoint`
  /// (points from the frame's top-leading corner; the centre when nil).
  public func interactive(_ isEnabled: Bool = true, pressed: Bool = false, touchPoint: PointOffset? = nil) -> Glass {
    var copy = self
    copy.isInteractive = isEnabled
    copy.isPressed = isEnabled && pressed
    copy.touchPoint = isEnabled ? touchPoint : nil
    return copy
  }
}

/// The SwiftUI materials, thinnest to thickest, and the bar material.
public enum Material: String, Hashable, Sendable, CaseIterable {
  /// `.ultraThinMaterial`.
  case ultraThin
  /// `.thinMaterial`.
  case thin
  /// `.regularMaterial`.
  case regular
  /// `.thickMaterial`.
  case thick
  /// `.ultraThickMaterial`.
  case ultraThick
  /// `.bar`: the material of toolbars and tab bars.
  case bar

  /// `.ultraThinMaterial`.
  public static let ultraThinMaterial = Material.ultraThin
  /// `.thinMaterial`.
  public static let thinMaterial = Material.thin
  /// `.regularMaterial`.
  public static let regularMaterial = Material.regular
  /// `.thickMaterial`.
  public static let thickMaterial = Material.thick
  /// `.ultraThickMaterial`.
  public static let ultraThickMaterial = Material.ultraThick
}
