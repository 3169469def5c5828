/// One parameter of an effect, declared once: its name, unit, range and default.
/// The table drives validation, the command-line help and the documentation.
public struct ParameterSpec: Sendable, Equatable {
  /// The name, as in scene files (and a command line's option for it).
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

  /// Throws `invalidParameter` unless `value` is a finite number in range:
  /// `NAME is …` (`problem(with:)`).
  public func check(_ value: Double) throws {
    if let problem = problem(with: value) { throw GlassError(.invalidParameter, "\(name) \(problem)") }
  }

  /// What is wrong with `value`, after the parameter's name (`is -3 px, out of
  /// range; give a value from 0 to 65536`); nil when it is a finite number in
  /// range. A front end names the parameter its own way (an option, a field).
  public func problem(with value: Double) -> String? {
    guard value.isFinite else {
      return "must be a number, not \(value); give a value in \(unit) from \(Self.format(minimum)) to "
        + Self.format(maximum)
    }
    guard value >= minimum, value <= maximum else {
      return "is \(Self.format(value)) \(unit), out of range; give a value from \(Self.format(minimum)) to "
        + Self.format(maximum)
    }
    return nil
  }

  /// A number the shortest way that reads back the same: whole numbers without `.0`.
  public static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
