/// One parameter of an effect, declared once: its name, unit, range and default.
/// The table drives validation, the command-line help and the documentation.
public struct ParameterSpec: Sendable, Equatable {
  /// The name, as on the command line (`--NAME`) and in scene files.
  public var name: String
  /// The unit, such as `px`.
  public var unit: String
  /// The smallest allowed value.
  public var minimum: Double
  /// The largest allowed value.
  public var maximum: Double
  /// The default, or nil when the parameter must be given.
  public var defaultValue: Double?
  /// One line on what it does.
  public var summary: String

  /// The help line: summary, unit and range (a command line prints the default).
  public var help: String {
    "\(summary) (\(unit), \(Self.format(minimum))...\(Self.format(maximum)))"
  }

  /// Throws `invalidParameter` unless `value` is a finite number in range.
  public func check(_ value: Double) throws {
    guard value.isFinite else {
      throw GlassError(
        .invalidParameter,
        "--\(name) must be a number, not \(value); give a value in \(unit) from \(Self.format(minimum)) to \(Self.format(maximum))"
      )
    }
    guard value >= minimum, value <= maximum else {
      throw GlassError(
        .invalidParameter,
        "--\(name) is \(Self.format(value)) \(unit), out of range; give a value from \(Self.format(minimum)) to \(Self.format(maximum))"
      )
    }
  }

  /// A number the shortest way that reads back the same: whole numbers without `.0`.
  public static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
