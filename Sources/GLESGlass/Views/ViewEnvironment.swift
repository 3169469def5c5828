extension ViewLayout {
  /// What a view inherits from the modifiers around it.
  struct Environment {
    var font = Font.body
    var fontWeight: FontWeight?
    var foregroundStyle: Fill?
    var lineLimit: Int?
    var alignment = TextAlignment.leading
    var buttonStyle: ButtonStyle?
    var tint: Color?
    var textFieldStyle = TextFieldStyle.plain
    var containerShape: ContainerShape?

    /// The environment with `modifier` applied, when it is an environment modifier.
    func applying(_ modifier: ViewModifierNode) -> Environment {
      var env = self
      switch modifier {
      case .font(let font):
        env.font = font
        env.fontWeight = nil
      case .fontWeight(let weight): env.fontWeight = weight
      case .foregroundStyle(let fill): env.foregroundStyle = fill
      case .lineLimit(let limit): env.lineLimit = limit
      case .multilineTextAlignment(let alignment): env.alignment = alignment
      case .buttonStyle(let style): env.buttonStyle = style
      case .tint(let color): env.tint = color
      case .textFieldStyle(let style): env.textFieldStyle = style
      case .containerShape(let shape): env.containerShape = shape
      default: break
      }
      return env
    }

    /// `text` with the fields it did not write taken from here.
    func resolve(_ text: TextContent, explicit: TextFields) -> TextContent {
      var text = text
      if !explicit.contains(.font) {
        let weight = explicit.contains(.weight) ? text.font.weight : nil
        text.font = font
        if let weight = weight ?? fontWeight { text.font.weight = weight }
      }
      if !explicit.contains(.foregroundStyle) { text.foregroundStyle = foregroundStyle }
      if !explicit.contains(.lineLimit) { text.lineLimit = lineLimit }
      if !explicit.contains(.alignment) { text.alignment = alignment }
      return text
    }
  }
}
