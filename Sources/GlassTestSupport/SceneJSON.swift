/// The tests' one scene skeleton: the JSON of a scene with its canvas, scale,
/// background and layers, written as a scene file writes them, so that a test
/// states only what it is about.
public enum SceneJSON {
  /// `{"version": 1, "size": {"width": W, "height": H}, "scale": S, "background":
  /// B, "layers": [L]}`, each optional part left out when nil. `background` is a
  /// colour (quoted here) or, starting with `{` or `"`, JSON as it is; `layers` is
  /// the JSON between the brackets.
  public static func scene(
    width: Int, height: Int, scale: Int? = nil, background: String? = nil, layers: String? = nil
  ) -> String {
    var json = #"{"version": 1, "size": {"width": \#(width), "height": \#(height)}"#
    if let scale { json += #", "scale": \#(scale)"# }
    if let background {
      let value = background.hasPrefix("{") || background.hasPrefix("\"") ? background : "\"\(background)\""
      json += #", "background": \#(value)"#
    }
    if let layers { json += #", "layers": [\#(layers)]"# }
    return json + "}"
  }
}
