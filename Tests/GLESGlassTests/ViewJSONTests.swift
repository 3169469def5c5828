import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// A scene file of 200 x 100 points at scale 1 whose `body` is `body` (JSON),
/// with `extra` members after it.
private func viewScene(_ body: String, extra: String = "") -> String {
  ##"{"version": 1, "size": {"width": 200, "height": 100}, "scale": 1, "body": \##(body)\##(extra)}"##
}

/// The body of a scene file made of `body`.
private func readBody(_ body: String) throws -> ViewNode? {
  try Scene(json: Array(viewScene(body).utf8)).body
}

private let red = Color(red: 1, green: 0, blue: 0, opacity: 1)
private let green = Color(red: 0, green: 1, blue: 0, opacity: 1)
private let blue = Color(red: 0, green: 0, blue: 1, opacity: 1)

/// One view or modifier as written and the model it must read as.
struct ViewExample: Sendable, CustomTestStringConvertible {
  var json: String
  var view: ViewNode
  var testDescription: String { json.count > 70 ? String(json.prefix(70)) + "…" : json }
}

@Suite("Views in the scene file: reading")
struct ViewJSONReadingTests {
  static func text(_ string: String) -> ViewNode { ViewNode(.text(TextContent(string), explicit: [])) }

  static let types: [ViewExample] = [
    ViewExample(
      json: ##"{"type": "vstack", "alignment": "leading", "spacing": 12, "children": [{"type": "spacer"}]}"##,
      view: ViewNode(.vstack(alignment: .leading, spacing: 12, [ViewNode(.spacer(minLength: nil))]))),
    ViewExample(
      json: ##"{"type": "vstack", "children": []}"##, view: ViewNode(.vstack(alignment: .center, spacing: nil, []))),
    ViewExample(json: ##"{"type": "spacer", "minLength": 0}"##, view: ViewNode(.spacer(minLength: 0))),
    ViewExample(
      json: ##"{"type": "hstack", "alignment": "bottom", "children": [{"type": "spacer", "minLength": 4}]}"##,
      view: ViewNode(.hstack(alignment: .bottom, spacing: nil, [ViewNode(.spacer(minLength: 4))]))),
    ViewExample(
      json: ##"{"type": "zstack", "alignment": "topTrailing", "children": []}"##,
      view: ViewNode(.zstack(alignment: Alignment(horizontal: .trailing, vertical: .top), []))),
    ViewExample(
      json: ##"{"type": "group", "children": [{"type": "text", "text": "a"}]}"##, view: ViewNode(.group([text("a")]))),
    ViewExample(
      json: ##"{"type": "glassEffectContainer", "spacing": 40, "children": []}"##,
      view: ViewNode(.glassEffectContainer(spacing: 40, []))),
    ViewExample(
      json: ##"{"type": "glassEffectContainer", "children": []}"##,
      view: ViewNode(.glassEffectContainer(spacing: 0, []))),
    ViewExample(
      json:
        ##"{"type": "text", "text": "Hi", "font": "title", "fontWeight": "bold", "foregroundStyle": "#0000FF", "lineLimit": 2, "multilineTextAlignment": "center"}"##,
      view: ViewNode(
        .text(
          TextContent(
            "Hi", font: Font.title.weight(.bold), foregroundStyle: .color(blue), lineLimit: 2, alignment: .center),
          explicit: [.font, .weight, .foregroundStyle, .lineLimit, .alignment]))),
    ViewExample(
      json: ##"{"type": "text", "text": "Hi", "foregroundStyle": null, "lineLimit": null}"##,
      view: ViewNode(.text(TextContent("Hi"), explicit: [.foregroundStyle, .lineLimit]))),
    ViewExample(
      json: ##"{"type": "text", "text": "Hi", "fontWeight": "heavy"}"##,
      view: ViewNode(.text(TextContent("Hi", font: Font.body.weight(.heavy)), explicit: [.weight]))),
    ViewExample(
      json: ##"{"type": "label", "title": "Star", "systemImage": "star.fill"}"##,
      view: ViewNode(.text(TextContent("Star", systemImage: "star.fill"), explicit: []))),
    ViewExample(
      json: ##"{"type": "image", "image": "photo.png", "scale": 2, "resizable": true}"##,
      view: ViewNode(.image(ImageSource(path: "photo.png", scale: 2, isResizable: true)))),
    ViewExample(
      json: ##"{"type": "image", "image": "photo.png"}"##, view: ViewNode(.image(ImageSource(path: "photo.png")))),
    ViewExample(
      json: ##"{"type": "image", "systemName": "star.fill", "font": {"size": 36}}"##,
      view: ViewNode(.text(TextContent("", systemImage: "star.fill", font: Font(size: 36)), explicit: [.font]))),
    ViewExample(
      json: ##"{"type": "color", "color": "#00FF00"}"##, view: ViewNode(.shape(.rect, style: .fill(.color(green))))),
    ViewExample(json: ##"{"type": "rectangle"}"##, view: ViewNode(.shape(.rect, style: nil))),
    ViewExample(
      json: ##"{"type": "roundedRectangle", "cornerRadius": 12, "style": "continuous", "material": "thin"}"##,
      view: ViewNode(.shape(.roundedRect(cornerRadius: 12, style: .continuous), style: .material(.thin)))),
    ViewExample(
      json: ##"{"type": "unevenRoundedRectangle", "topLeading": 4, "bottomTrailing": 8, "fill": "#FF0000"}"##,
      view: ViewNode(
        .shape(
          .unevenRoundedRect(
            CornerRadii(topLeading: 4, topTrailing: 0, bottomTrailing: 8, bottomLeading: 0), style: .circular),
          style: .fill(.color(red))))),
    ViewExample(
      json: ##"{"type": "capsule", "fill": "#0000FF"}"##, view: ViewNode(.shape(.capsule, style: .fill(.color(blue))))),
    ViewExample(
      json: ##"{"type": "circle", "material": "ultraThick"}"##,
      view: ViewNode(.shape(.circle, style: .material(.ultraThick)))),
    ViewExample(json: ##"{"type": "ellipse"}"##, view: ViewNode(.shape(.ellipse, style: nil))),
    ViewExample(
      json:
        ##"{"type": "concentricRectangle", "corners": {"topLeading": 6}, "isUniform": true, "modifiers": [{"containerShape": {"frame": {"width": 100, "height": 50}, "cornerRadius": 20}}]}"##,
      view: ViewNode(
        .shape(
          .concentric(
            ConcentricCorners(
              topLeading: .fixed(6), topTrailing: .concentric, bottomTrailing: .concentric, bottomLeading: .concentric),
            isUniform: true), style: nil),
        modifiers: [
          .containerShape(ContainerShape(frame: PointRect(x: 0, y: 0, width: 100, height: 50), cornerRadius: 20))
        ])),
    ViewExample(json: ##"{"type": "button", "title": "Sign In"}"##, view: ViewNode(.button(label: text("Sign In")))),
    ViewExample(
      json: ##"{"type": "button", "title": "Add", "systemImage": "plus"}"##,
      view: ViewNode(.button(label: ViewNode(.text(TextContent("Add", systemImage: "plus"), explicit: []))))),
    ViewExample(
      json: ##"{"type": "button", "label": {"type": "image", "systemName": "plus"}}"##,
      view: ViewNode(.button(label: ViewNode(.text(TextContent("", systemImage: "plus"), explicit: []))))),
    ViewExample(
      json: ##"{"type": "textField", "placeholder": "Name"}"##,
      view: ViewNode(.textField(TextFieldContent(placeholder: "Name")))),
    ViewExample(
      json: ##"{"type": "secureField", "placeholder": "Password", "text": "hunter2"}"##,
      view: ViewNode(.textField(TextFieldContent(placeholder: "Password", text: "hunter2", isSecure: true)))),
    ViewExample(
      json:
        ##"{"type": "layers", "layers": [{"type": "shape", "frame": {"x": 1, "y": 2, "width": 3, "height": 4}, "fill": "#FF0000"}]}"##,
      view: ViewNode(
        .layers([.shape(ShapeLayer(shape: .rect, frame: PointRect(x: 1, y: 2, width: 3, height: 4), fill: .color(red)))]
        )
      )),
  ]

  @Test("each view type reads as its model", arguments: types)
  func readsType(_ example: ViewExample) throws {
    #expect(try readBody(example.json) == example.view)
  }

  @Test("the examples cover every view type")
  func everyType() throws {
    let written = try Set(
      Self.types.compactMap { example -> String? in
        if case .string(let type)? = try JSONValue.parse(Array(example.json.utf8)).member("type") { return type }
        return nil
      })
    #expect(written == Set(SceneFormat.TypeName.allCases.map(\.rawValue)))
  }

  static let base = ##"{"type": "color", "color": "#FF0000", "modifiers": [MODIFIER]}"##

  static let modifiers: [(json: String, modifier: ViewModifierNode)] = [
    (##"{"padding": 8}"##, .padding(EdgeInsets(all: 8))),
    (##"{"padding": {}}"##, .padding(EdgeInsets(all: 16))),
    (##"{"padding": {"edges": "horizontal", "length": 10}}"##, .padding(EdgeInsets(leading: 10, trailing: 10))),
    (##"{"padding": {"edges": ["top", "trailing"]}}"##, .padding(EdgeInsets(top: 16, trailing: 16))),
    (
      ##"{"padding": {"top": 1, "leading": 2, "bottom": 3, "trailing": -4}}"##,
      .padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: -4))
    ),
    (
      ##"{"frame": {"width": 80, "height": 80, "alignment": "bottomLeading"}}"##,
      .frame(width: 80, height: 80, alignment: Alignment(horizontal: .leading, vertical: .bottom))
    ),
    (##"{"frame": {"width": 80}}"##, .frame(width: 80, height: nil, alignment: .center)),
    (##"{"frame": {}}"##, .frame(width: nil, height: nil, alignment: .center)),
    (
      ##"{"frame": {"minWidth": 10, "idealWidth": 20, "maxWidth": "infinity", "maxHeight": 50, "alignment": "top"}}"##,
      .flexibleFrame(
        FlexibleFrame(
          minWidth: 10, idealWidth: 20, maxWidth: .infinity, maxHeight: 50,
          alignment: Alignment(horizontal: .center, vertical: .top)))
    ),
    (##"{"frame": {"minWidth": null}}"##, .flexibleFrame(FlexibleFrame())),
    (##"{"frame": {"x": 10, "y": -5, "width": 30}}"##, .position(x: 10, y: -5, width: 30, height: nil)),
    (##"{"fixedSize": true}"##, .fixedSize(horizontal: true, vertical: true)),
    (##"{"fixedSize": {"vertical": true}}"##, .fixedSize(horizontal: false, vertical: true)),
    (##"{"layoutPriority": -2.5}"##, .layoutPriority(-2.5)),
    (##"{"offset": {"x": 3}}"##, .offset(x: 3, y: 0)),
    (##"{"aspectRatio": {"ratio": 1.5, "contentMode": "fill"}}"##, .aspectRatio(1.5, contentMode: .fill)),
    (##"{"aspectRatio": {}}"##, .aspectRatio(nil, contentMode: .fit)),
    (##"{"scaledToFit": true}"##, .aspectRatio(nil, contentMode: .fit)),
    (##"{"scaledToFill": true}"##, .aspectRatio(nil, contentMode: .fill)),
    (
      ##"{"overlay": {"content": {"type": "text", "text": "x"}, "alignment": "bottom"}}"##,
      .overlay(text("x"), alignment: Alignment(horizontal: .center, vertical: .bottom))
    ),
    (##"{"background": {"content": {"type": "text", "text": "x"}}}"##, .background(text("x"), alignment: .center)),
    (
      ##"{"background": {"fill": "#FF0000", "in": "capsule"}}"##,
      .background(ViewNode(.shape(.capsule, style: .fill(.color(red)))), alignment: .center)
    ),
    (
      ##"{"background": {"material": "regular"}}"##,
      .background(ViewNode(.shape(.rect, style: .material(.regular))), alignment: .center)
    ),
    (##"{"ignoresSafeArea": true}"##, .ignoresSafeArea(.all)),
    (##"{"ignoresSafeArea": {"edges": "top"}}"##, .ignoresSafeArea(.top)),
    (##"{"ignoresSafeArea": {"edges": ["bottom", "leading"]}}"##, .ignoresSafeArea([.bottom, .leading])),
    (##"{"glassEffect": true}"##, .glassEffect(Glass(.regular), shape: .capsule, optics: GlassOptics.Overrides())),
    (
      ##"{"glassEffect": {"glass": {"variant": "clear", "tint": "#0000FF", "interactive": true}, "in": {"type": "roundedRect", "cornerRadius": 8}, "optics": {"bevelWidth": 10}}}"##,
      .glassEffect(
        Glass(.clear, tint: blue, isInteractive: true), shape: .roundedRect(cornerRadius: 8, style: .circular),
        optics: GlassOptics.Overrides(["bevelWidth": 10]))
    ),
    (##"{"glassEffect": {"glass": "identity"}}"##, .glassEffect(Glass(.identity), shape: .capsule, optics: .init())),
    (##"{"glassEffectID": "pencil"}"##, .glassEffectID("pencil")),
    (##"{"glassEffectID": {"id": "pencil", "in": "tools"}}"##, .glassEffectID("tools.pencil")),
    (##"{"glassEffectUnion": "u"}"##, .glassEffectUnion("u")),
    (##"{"glassEffectTransition": "materialize"}"##, .glassEffectTransition(.materialize)),
    (##"{"clipShape": "circle"}"##, .clipShape(.circle)),
    (
      ##"{"containerShape": {"frame": {"width": 10, "height": 10}, "cornerRadius": 4}}"##,
      .containerShape(ContainerShape(frame: PointRect(x: 0, y: 0, width: 10, height: 10), cornerRadius: 4))
    ),
    (##"{"backgroundExtensionEffect": true}"##, .backgroundExtensionEffect(BackgroundExtension())),
    (
      ##"{"backgroundExtensionEffect": {"leading": 10, "sigma": 4}}"##,
      .backgroundExtensionEffect(BackgroundExtension(leading: 10, sigma: 4))
    ),
    (##"{"font": {"size": 36}}"##, .font(Font(size: 36))),
    (##"{"font": "headline"}"##, .font(.headline)),
    (##"{"fontWeight": "semibold"}"##, .fontWeight(.semibold)),
    (##"{"foregroundStyle": "#FFFFFF"}"##, .foregroundStyle(.color(Color(red: 1, green: 1, blue: 1)))),
    (##"{"lineLimit": 3}"##, .lineLimit(3)),
    (##"{"lineLimit": null}"##, .lineLimit(nil)),
    (##"{"multilineTextAlignment": "trailing"}"##, .multilineTextAlignment(.trailing)),
    (##"{"buttonStyle": "glassProminent"}"##, .buttonStyle(.glassProminent)),
    (##"{"tint": "#FF0000"}"##, .tint(red)),
    (##"{"textFieldStyle": "roundedBorder"}"##, .textFieldStyle(.roundedBorder)),
  ]

  static var modifierExamples: [ViewExample] {
    modifiers.map {
      ViewExample(
        json: base.replacingOccurrences(of: "MODIFIER", with: $0.json),
        view: ViewNode(.shape(.rect, style: .fill(.color(red))), modifiers: [$0.modifier]))
    }
  }

  @Test("each modifier, in each of its forms, reads as its model", arguments: modifierExamples)
  func readsModifier(_ example: ViewExample) throws {
    #expect(try readBody(example.json) == example.view)
  }

  @Test("the examples cover every modifier")
  func everyModifier() throws {
    let written = try Set(
      Self.modifiers.compactMap { example -> String? in
        if case .object(let members) = try JSONValue.parse(Array(example.json.utf8)) { return members.first?.key }
        return nil
      })
    #expect(written == Set(SceneFormat.ModifierName.allCases.map(\.rawValue)))
  }

  @Test("modifiers stay in the order written, innermost first")
  func order() throws {
    let view = try readBody(
      ##"{"type": "text", "text": "a", "modifiers": [{"padding": 4}, {"background": {"fill": "#FF0000"}}, {"padding": 2}]}"##
    )
    #expect(
      view?.modifiers == [
        .padding(EdgeInsets(all: 4)),
        .background(ViewNode(.shape(.rect, style: .fill(.color(red)))), alignment: .center),
        .padding(EdgeInsets(all: 2)),
      ])
  }

  @Test("the safe area, state bodies, and a scene that is its first state")
  func sceneLevel() throws {
    let json = #"""
      {"version": 1, "size": {"width": 390, "height": 844},
       "safeAreaInsets": {"top": 47, "bottom": 34},
       "states": {
         "a": {"body": {"type": "color", "color": "#FF0000"}},
         "b": {"layers": [], "body": {"type": "spacer"}},
         "c": {"layers": []}}}
      """#
    let scene = try Scene(json: Array(json.utf8))
    #expect(scene.safeAreaInsets == EdgeInsets(top: 47, bottom: 34))
    #expect(
      scene.states.map(\.body) == [
        ViewNode(.shape(.rect, style: .fill(.color(red)))), ViewNode(.spacer(minLength: nil)), nil,
      ])
    #expect(scene.body == scene.states[0].body && scene.layers.isEmpty)
    // A top-level body keeps its own, and the first state is not copied.
    let own = try Scene(
      json: Array(
        ##"{"version": 1, "size": {"width": 4, "height": 4}, "body": {"type": "spacer"}, "states": {"a": {"body": {"type": "rectangle"}}}}"##
          .utf8))
    #expect(own.body == ViewNode(.spacer(minLength: nil)))
  }

  @Test("a tree as deep as the limit reads; one view deeper is refused where it passes it")
  func depth() throws {
    func nested(_ levels: Int) -> String {
      var json = ##"{"type": "spacer"}"##
      for _ in 0..<levels { json = ##"{"type": "vstack", "children": [\##(json)]}"## }
      return json
    }
    #expect(try readBody(nested(ViewNode.maximumDepth - 1)) != nil)
    do {
      _ = try readBody(nested(ViewNode.maximumDepth))
      Issue.record("a tree of \(ViewNode.maximumDepth + 1) levels was read")
    } catch let error as GlassError {
      #expect(error.jsonPath == "body" + String(repeating: ".children[0]", count: ViewNode.maximumDepth))
      #expect(error.message.contains("deeper than \(ViewNode.maximumDepth)"))
    }
    // Overlays count as levels too, and take four levels of JSON each.
    var overlays = ##"{"type": "spacer"}"##
    for _ in 0..<ViewNode.maximumDepth {
      overlays = ##"{"type": "color", "color": "#FF0000", "modifiers": [{"overlay": {"content": \##(overlays)}}]}"##
    }
    do {
      _ = try readBody(overlays)
      Issue.record("a tree of \(ViewNode.maximumDepth + 1) overlays was read")
    } catch let error as GlassError {
      #expect(
        error.jsonPath == "body" + String(repeating: ".modifiers[0].overlay.content", count: ViewNode.maximumDepth))
    }
  }
}

/// One bad view file: the scene, the JSON path its error must name, and words
/// of the fix.
struct BadView: Sendable, CustomTestStringConvertible {
  var name: String
  var scene: String
  var path: String
  var mentions: [String]
  var testDescription: String { name }

  init(_ name: String, body: String, path: String, _ mentions: [String]) {
    self.init(name, scene: viewScene(body), path: path, mentions)
  }

  init(_ name: String, scene: String, path: String, _ mentions: [String]) {
    self.name = name
    self.scene = scene
    self.path = path
    self.mentions = mentions
  }
}

@Suite("Views in the scene file: bad input")
struct ViewJSONBadInputTests {
  static func modified(_ modifier: String) -> String {
    ##"{"type": "color", "color": "#FF0000", "modifiers": [\##(modifier)]}"##
  }

  static let bad: [BadView] = [
    BadView(
      "negative spacing", body: ##"{"type": "vstack", "spacing": -4, "children": []}"##, path: "body.spacing",
      ["negative", "from 0 to"]),
    BadView(
      "negative spacing deep in the tree",
      body:
        ##"{"type": "zstack", "children": [{"type": "color", "color": "#FF0000"}, {"type": "hstack", "spacing": -1, "children": []}]}"##,
      path: "body.children[1].spacing", ["negative"]),
    BadView(
      "infinity where a finite number goes", body: modified(##"{"frame": {"minWidth": "infinity"}}"##),
      path: "body.modifiers[0].frame.minWidth", ["finite", "maxWidth"]),
    BadView(
      "infinite offset", body: modified(##"{"offset": {"x": "infinity"}}"##), path: "body.modifiers[0].offset.x",
      ["finite"]),
    BadView(
      "unknown view type", body: ##"{"type": "vstak", "children": []}"##, path: "body.type",
      ["unknown view type", "vstack, hstack"]),
    BadView("view without a type", body: ##"{"children": []}"##, path: "body", ["missing the field \"type\""]),
    BadView(
      "unknown field of a view", body: ##"{"type": "text", "text": "a", "colour": "red"}"##, path: "body.colour",
      ["unknown field", "\"foregroundStyle\""]),
    BadView(
      "a modifier with no key", body: modified("{}"), path: "body.modifiers[0]", ["empty modifier"]),
    BadView(
      "a modifier with two keys", body: modified(##"{"padding": 4, "offset": {"x": 1}}"##), path: "body.modifiers[0]",
      ["two modifiers"]),
    BadView(
      "unknown modifier", body: modified(##"{"padd": 4}"##), path: "body.modifiers[0].padd",
      ["unknown modifier", "padding"]),
    BadView(
      "a button with a title and a label", body: ##"{"type": "button", "title": "OK", "label": {"type": "spacer"}}"##,
      path: "body.label", ["two bodies", "not both"]),
    BadView(
      "an image of a file and a symbol", body: ##"{"type": "image", "image": "a.png", "systemName": "plus"}"##,
      path: "body.systemName", ["not both"]),
    BadView(
      "a button with no label", body: ##"{"type": "button"}"##, path: "body", ["\"title\"", "\"label\""]),
    BadView(
      "frames mixed", body: modified(##"{"frame": {"width": 10, "minWidth": 5}}"##),
      path: "body.modifiers[0].frame.minWidth", ["does not go with \"width\""]),
    BadView(
      "negative frame width", body: modified(##"{"frame": {"width": -10}}"##), path: "body.modifiers[0].frame.width",
      ["negative"]),
    BadView(
      "overlay without its view", body: modified(##"{"overlay": {"alignment": "top"}}"##),
      path: "body.modifiers[0].overlay", ["missing the field \"content\""]),
    BadView(
      "background with a fill and a material",
      body: modified(##"{"background": {"fill": "#FF0000", "material": "thin"}}"##),
      path: "body.modifiers[0].background.material", ["does not go with \"fill\""]),
    BadView(
      "colour out of range",
      body: ##"{"type": "hstack", "children": [{"type": "color", "color": {"red": 2, "green": 0, "blue": 0}}]}"##,
      path: "body.children[0].color.red", ["from 0 to 1"]),
    BadView(
      "unknown icon", body: ##"{"type": "label", "title": "a", "systemImage": "nope"}"##, path: "body.systemImage",
      ["unknown systemImage", "star.fill"]),
    BadView(
      "line limit of zero", body: ##"{"type": "text", "text": "a", "lineLimit": 0}"##, path: "body.lineLimit",
      ["whole number", "null"]),
    BadView(
      "concentric rectangle outside a container shape", body: ##"{"type": "concentricRectangle"}"##, path: "body",
      ["container shape"]),
    BadView(
      "optics out of range", body: modified(##"{"glassEffect": {"optics": {"bevelWidth": 500}}}"##),
      path: "body.modifiers[0].glassEffect.optics.bevelWidth", ["out of range"]),
    BadView(
      "scaledToFit false", body: modified(##"{"scaledToFit": false}"##), path: "body.modifiers[0].scaledToFit",
      ["true"]),
    BadView(
      "a modifier value of the wrong kind", body: modified(##"{"padding": "lots"}"##),
      path: "body.modifiers[0].padding",
      ["expected a number"]),
    BadView(
      "a state with neither layers nor body",
      scene: ##"{"version": 1, "size": {"width": 4, "height": 4}, "states": {"a": {}}}"##, path: "states.a",
      ["\"layers\", a \"body\""]),
    BadView(
      "a bad view in a state",
      scene:
        ##"{"version": 1, "size": {"width": 4, "height": 4}, "states": {"a": {"body": {"type": "circle", "fill": 3}}}}"##,
      path: "states.a.body.fill", ["expected a string"]),
    BadView(
      "safe area larger than the canvas",
      scene: viewScene(##"{"type": "spacer"}"##, extra: ##", "safeAreaInsets": {"top": 500}"##),
      path: "safeAreaInsets.top", ["at most the canvas"]),
    BadView(
      "negative safe area",
      scene: viewScene(##"{"type": "spacer"}"##, extra: ##", "safeAreaInsets": {"leading": -1}"##),
      path: "safeAreaInsets.leading", ["negative"]),
    BadView(
      "a layer of a layers view",
      body:
        ##"{"type": "layers", "layers": [{"type": "shape", "frame": {"width": -1, "height": 1}, "fill": "#FF0000"}]}"##,
      path: "body.layers[0].frame.width", ["negative"]),
  ]

  @Test("bad view input: the error names the JSON path and the fix", arguments: bad)
  func library(_ bad: BadView) {
    do {
      _ = try Scene(json: Array(bad.scene.utf8))
      Issue.record("\(bad.name) was accepted")
    } catch let error as GlassError {
      #expect(error.code == .invalidScene)
      #expect(error.jsonPath == bad.path, "\(error)")
      for word in bad.mentions { #expect(error.message.contains(word), "\(error) does not mention \(word)") }
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test("bad view input: render and validate exit 1 with one line naming the path, and write nothing", arguments: bad)
  func cli(_ bad: BadView) throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("scene.json").path
    try Data(bad.scene.utf8).write(to: URL(fileURLWithPath: scene))
    for command in [
      ["render", scene, "-o", folder.appendingPathComponent("out.png").path, "--backend", "cpu"], ["validate", scene],
    ] {
      let before = files(in: folder)
      expectRefused(try runCLI(command), mentioning: [bad.path + ":"] + bad.mentions, leaving: folder, as: before)
    }
  }

  @Test("a number too large for a double is refused by the parser, at its line and column")
  func overflow() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("scene.json").path
    try Data(viewScene(##"{"type": "vstack", "spacing": 1e999, "children": []}"##).utf8).write(
      to: URL(fileURLWithPath: scene))
    let before = files(in: folder)
    expectRefused(
      try runCLI(["render", scene, "-o", folder.appendingPathComponent("out.png").path, "--backend", "cpu"]),
      mentioning: ["scene.json:1:", "must be JSON"], leaving: folder, as: before)
  }
}

// MARK: - Round trip

@Suite("Views in the scene file: writing")
struct ViewJSONRoundTripTests {
  /// The names of the content and modifier cases a tree holds (an exhaustive
  /// switch: a case added to the model fails to compile here until it is named).
  static func kinds(_ node: ViewNode) -> Set<String> {
    var kinds: Set<String> = []
    switch node.content {
    case .vstack(_, _, let c): kinds.insert("vstack"); for v in c { kinds.formUnion(Self.kinds(v)) }
    case .hstack(_, _, let c): kinds.insert("hstack"); for v in c { kinds.formUnion(Self.kinds(v)) }
    case .zstack(_, let c): kinds.insert("zstack"); for v in c { kinds.formUnion(Self.kinds(v)) }
    case .group(let c): kinds.insert("group"); for v in c { kinds.formUnion(Self.kinds(v)) }
    case .glassEffectContainer(_, let c):
      kinds.insert("glassEffectContainer"); for v in c { kinds.formUnion(Self.kinds(v)) }
    case .spacer: kinds.insert("spacer")
    case .text: kinds.insert("text")
    case .image: kinds.insert("image")
    case .shape: kinds.insert("shape")
    case .button(let label): kinds.insert("button"); kinds.formUnion(Self.kinds(label))
    case .textField: kinds.insert("textField")
    case .layers: kinds.insert("layers")
    }
    for modifier in node.modifiers {
      switch modifier {
      case .padding: kinds.insert("padding")
      case .frame: kinds.insert("frame")
      case .flexibleFrame: kinds.insert("flexibleFrame")
      case .position: kinds.insert("position")
      case .fixedSize: kinds.insert("fixedSize")
      case .layoutPriority: kinds.insert("layoutPriority")
      case .offset: kinds.insert("offset")
      case .aspectRatio: kinds.insert("aspectRatio")
      case .overlay(let v, _): kinds.insert("overlay"); kinds.formUnion(Self.kinds(v))
      case .background(let v, _): kinds.insert("background"); kinds.formUnion(Self.kinds(v))
      case .ignoresSafeArea: kinds.insert("ignoresSafeArea")
      case .glassEffect: kinds.insert("glassEffect")
      case .glassEffectID: kinds.insert("glassEffectID")
      case .glassEffectUnion: kinds.insert("glassEffectUnion")
      case .glassEffectTransition: kinds.insert("glassEffectTransition")
      case .clipShape: kinds.insert("clipShape")
      case .containerShape: kinds.insert("containerShape")
      case .backgroundExtensionEffect: kinds.insert("backgroundExtensionEffect")
      case .font: kinds.insert("font")
      case .fontWeight: kinds.insert("fontWeight")
      case .foregroundStyle: kinds.insert("foregroundStyle")
      case .lineLimit: kinds.insert("lineLimit")
      case .multilineTextAlignment: kinds.insert("multilineTextAlignment")
      case .buttonStyle: kinds.insert("buttonStyle")
      case .tint: kinds.insert("tint")
      case .textFieldStyle: kinds.insert("textFieldStyle")
      }
    }
    return kinds
  }

  static let allKinds: Set<String> = [
    "vstack", "hstack", "zstack", "group", "glassEffectContainer", "spacer", "text", "image", "shape", "button",
    "textField", "layers", "padding", "frame", "flexibleFrame", "position", "fixedSize", "layoutPriority", "offset",
    "aspectRatio", "overlay", "background", "ignoresSafeArea", "glassEffect", "glassEffectID", "glassEffectUnion",
    "glassEffectTransition", "clipShape", "containerShape", "backgroundExtensionEffect", "font", "fontWeight",
    "foregroundStyle", "lineLimit", "multilineTextAlignment", "buttonStyle", "tint", "textFieldStyle",
  ]

  /// A tree with every kind of view and modifier, in the forms that are easy to get wrong.
  static var everything: ViewNode {
    let container = ContainerShape(frame: PointRect(x: 0, y: 0, width: 300, height: 200), cornerRadius: 30)
    let title = ViewNode(
      .text(
        TextContent(
          "Sign in — \"now\"\nplease", font: Font(size: 22, weight: .semibold, source: .family("DejaVu Sans")),
          foregroundStyle: .linearGradient(
            Gradient(stops: [.init(color: red, location: 0), .init(color: blue, location: 0.75)]), startPoint: .top,
            endPoint: UnitPoint(x: 0.25, y: 1)), lineLimit: 2, alignment: .center),
        explicit: [.font, .foregroundStyle, .lineLimit, .alignment]),
      modifiers: [.fixedSize(horizontal: false, vertical: true), .layoutPriority(1)])
    let fields = ViewNode(
      .hstack(
        alignment: .top, spacing: nil,
        [
          ViewNode(.textField(TextFieldContent(placeholder: "Email", text: "a@b.c"))),
          ViewNode(.textField(TextFieldContent(placeholder: "Password", isSecure: true))),
          ViewNode(.spacer(minLength: 0)),
          ViewNode(.button(label: ViewNode(.text(TextContent("Go", systemImage: "checkmark"), explicit: [])))),
          ViewNode(
            .button(label: ViewNode(.text(TextContent("Styled"), explicit: [.weight]))),
            modifiers: [.buttonStyle(.glassProminent), .tint(Color(red: 0.2, green: 0.4, blue: 0.6, opacity: 0.5))]),
        ]), modifiers: [.textFieldStyle(.roundedBorder), .frame(width: 240, height: nil, alignment: .leading)])
    let badges = ViewNode(
      .glassEffectContainer(
        spacing: 12,
        [
          ViewNode(
            .text(TextContent("", systemImage: "star.fill"), explicit: [.font]),
            modifiers: [
              .frame(width: 80, height: 80, alignment: .center), .font(Font(size: 36)),
              .glassEffect(
                Glass(.clear, tint: green, isInteractive: true, isPressed: true, touchPoint: PointOffset(x: 4, y: 5)),
                shape: .roundedRect(cornerRadius: 12, style: .continuous), optics: GlassOptics.Overrides(["frost": 3])),
              .glassEffectID("badges.star"), .glassEffectUnion("u"), .glassEffectTransition(.identity),
            ]),
          ViewNode(
            .shape(.concentric(ConcentricCorners(.concentric(minimum: 8)), isUniform: false), style: .material(.thick)),
            modifiers: [.containerShape(container), .offset(x: -3, y: 2.5)]),
          ViewNode(
            .shape(
              .unevenRoundedRect(
                CornerRadii(topLeading: 1, topTrailing: 2, bottomTrailing: 3, bottomLeading: 4), style: .continuous),
              style: nil), modifiers: [.glassEffect(Glass(.regular), shape: .capsule, optics: GlassOptics.Overrides())]),
        ]), modifiers: [.padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))])
    let photo = ViewNode(
      .image(ImageSource(path: "images/photo.png", scale: 3, isResizable: true)),
      modifiers: [
        .aspectRatio(1.5, contentMode: .fill), .aspectRatio(nil, contentMode: .fit),
        .aspectRatio(nil, contentMode: .fill),
        .clipShape(.roundedRect(cornerRadius: 8, style: .circular)),
        .backgroundExtensionEffect(BackgroundExtension(leading: 4, trailing: 5, top: 6, bottom: 7, sigma: 3)),
        .flexibleFrame(FlexibleFrame(minWidth: 0, maxWidth: .infinity, alignment: .topLeading)),
        .flexibleFrame(FlexibleFrame()), .ignoresSafeArea([.top, .leading]), .ignoresSafeArea(.all),
      ])
    return ViewNode(
      .zstack(
        alignment: .bottomTrailing,
        [
          ViewNode(
            .shape(
              .rect,
              style: .fill(
                .radialGradient(
                  Gradient(stops: [.init(color: red, location: 0)]), center: .center, startRadius: 0, endRadius: 40))),
            modifiers: [.ignoresSafeArea(.all)]),
          photo,
          ViewNode(
            .vstack(
              alignment: .trailing, spacing: 12,
              [
                title, fields, badges,
                ViewNode(
                  .group([ViewNode(.spacer(minLength: nil)), ViewNode(.shape(.ellipse, style: .fill(.color(blue))))]),
                  modifiers: [.foregroundStyle(.color(red))]),
                ViewNode(
                  .layers([
                    .shape(
                      ShapeLayer(shape: .circle, frame: PointRect(x: 1, y: 2, width: 3, height: 4), fill: .color(green))
                    ),
                    .text(TextLayer(TextContent("abs"), frame: PointRect(x: 0, y: 0, width: 40, height: 20))),
                  ])),
              ]),
            modifiers: [
              .padding(EdgeInsets(all: 16)),
              .background(ViewNode(.shape(.capsule, style: .material(.regular))), alignment: .center),
              .background(ViewNode(.shape(.circle, style: nil)), alignment: .center),
              .background(
                ViewNode(.shape(.rect, style: .fill(.color(red))), modifiers: [.padding(EdgeInsets(all: -2))]),
                alignment: .center),
              .overlay(ViewNode(.text(TextContent("!"), explicit: [])), alignment: .topTrailing),
              .position(x: 10, y: 20, width: nil, height: 50), .fontWeight(.light), .lineLimit(nil), .lineLimit(4),
              .multilineTextAlignment(.trailing), .buttonStyle(.glass),
              .font(Font(size: 12, source: .file("fonts/a.ttf"))),
            ]),
        ]))
  }

  @Test("a tree with every view and modifier reads back as written")
  func everything() throws {
    var scene = Scene(size: PointSize(width: 390, height: 844))
    scene.body = Self.everything
    #expect(Self.kinds(Self.everything) == Self.allKinds)
    scene.safeAreaInsets = EdgeInsets(top: 47, leading: 0, bottom: 34, trailing: 1.5)
    scene.states = [
      SceneState("collapsed", layers: [], body: ViewNode(.spacer(minLength: 3))),
      SceneState("expanded", layers: [], body: Self.everything),
    ]
    let read = try Scene(json: Array(scene.json.utf8))
    #expect(read == scene)
    #expect(read.json == scene.json)
  }

  @Test("scenes built with the Swift View API write and read back as themselves")
  func swiftScenes() throws {
    let scenes = [
      Scene(width: 390, height: 300, scale: 2) { Color.blue.ignoresSafeArea().showsBadges() },
      Scene(width: 360, height: 420, scale: 1) {
        ZStack {
          LinearGradient(colors: [.orange, .pink], startPoint: .top, endPoint: .bottom)
          VStack(alignment: .leading, spacing: 12) {
            Text("Welcome back").font(.largeTitle).fontWeight(.bold)
            HStack {
              TextField("Email", text: .constant(""))
              SecureField("Password", text: .constant("secret"))
              Button("Sign In") {}.buttonStyle(.glassProminent)
            }
            .textFieldStyle(.roundedBorder)
            Spacer(minLength: 0)
          }
          .padding()
          .frame(maxWidth: .infinity, alignment: .topLeading)
          .background(.regular, in: .rect(cornerRadius: 20))
        }
      },
    ]
    for scene in scenes {
      #expect(scene.body != nil)
      #expect(try Scene(json: Array(scene.json.utf8)) == scene, "\(scene.json)")
    }
  }

  @Test("300 random trees read back as written")
  func random() throws {
    var generator = RandomViews(seed: 22)
    for index in 0..<300 {
      var scene = Scene(size: PointSize(width: 400, height: 300), scale: 1 + index % 3)
      scene.body = generator.view(depth: 0)
      if index % 4 == 0 {
        scene.safeAreaInsets = EdgeInsets(
          top: generator.points(50), leading: 0, bottom: generator.points(30), trailing: 2)
      }
      if index % 5 == 0 { scene.states = [SceneState("a", layers: [], body: generator.view(depth: 0))] }
      let text = scene.json
      let read = try Scene(json: Array(text.utf8))
      #expect(read == scene, "tree \(index):\n\(text)")
      if read != scene { break }
    }
  }
}

/// Random view trees in the form the reader makes (a text's fields that are not
/// `explicit` at their defaults), within the reader's ranges.
struct RandomViews {
  var random: SplitMix

  init(seed: UInt64) { random = SplitMix(state: seed) }

  mutating func int(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
  mutating func bool() -> Bool { int(2) == 0 }
  mutating func points(_ most: Double) -> Double { (random.uniform(0, most) * 4).rounded() / 4 }
  mutating func pick<T>(_ values: [T]) -> T { values[int(values.count)] }
  mutating func maybe<T>(_ make: (inout RandomViews) -> T) -> T? { bool() ? make(&self) : nil }

  mutating func color() -> Color {
    Color(
      red: random.uniform(0, 1), green: random.uniform(0, 1), blue: random.uniform(0, 1), opacity: random.uniform(0, 1))
  }

  mutating func fill() -> Fill {
    if int(4) > 0 { return .color(color()) }
    return .linearGradient(
      Gradient(stops: [.init(color: color(), location: 0), .init(color: color(), location: random.uniform(0, 1))]),
      startPoint: .top, endPoint: .bottomTrailing)
  }

  mutating func shape() -> Shape {
    switch int(6) {
    case 0: return .rect
    case 1: return .capsule
    case 2: return .circle
    case 3: return .ellipse
    case 4: return .roundedRect(cornerRadius: points(40), style: pick(RoundedCornerStyle.allCases))
    default:
      return .unevenRoundedRect(
        CornerRadii(topLeading: points(9), topTrailing: points(9), bottomTrailing: points(9), bottomLeading: points(9)),
        style: .circular)
    }
  }

  mutating func alignment() -> Alignment {
    Alignment(horizontal: pick(HorizontalAlignment.allCases), vertical: pick(VerticalAlignment.allCases))
  }

  mutating func text() -> ViewContent {
    let strings = ["Hello", "", "Grüße, 世界", "two\nlines", "quote \" and \\ slash", "tab\tstop"]
    var content = TextContent(pick(strings), systemImage: maybe { $0.pick(SystemImage.systemNames.map(\.systemName)) })
    var explicit: TextFields = []
    if bool() {
      content.font = Font(size: points(60) + 1, weight: pick(FontWeight.allCases))
      explicit.insert(.font)
    }
    if bool() {
      content.font.weight = pick(FontWeight.allCases)
      explicit.insert(.weight)
    }
    if bool() {
      content.foregroundStyle = maybe { $0.fill() }
      explicit.insert(.foregroundStyle)
    }
    if bool() {
      content.lineLimit = maybe { 1 + $0.int(5) }
      explicit.insert(.lineLimit)
    }
    if bool() {
      content.alignment = pick(TextAlignment.allCases)
      explicit.insert(.alignment)
    }
    return .text(content, explicit: explicit)
  }

  mutating func children(_ depth: Int) -> [ViewNode] {
    (0..<int(4)).map { _ in view(depth: depth + 1) }
  }

  mutating func view(depth: Int) -> ViewNode {
    let content: ViewContent
    switch depth < 4 ? int(12) : 4 + int(8) {
    case 0:
      content = .vstack(
        alignment: pick(HorizontalAlignment.allCases), spacing: maybe { $0.points(30) }, children(depth))
    case 1:
      content = .hstack(alignment: pick(VerticalAlignment.allCases), spacing: maybe { $0.points(30) }, children(depth))
    case 2: content = .zstack(alignment: alignment(), children(depth))
    case 3: content = bool() ? .group(children(depth)) : .glassEffectContainer(spacing: points(40), children(depth))
    case 4: content = .spacer(minLength: maybe { $0.points(20) })
    case 5, 6: content = text()
    case 7: content = .image(ImageSource(path: "i\(int(3)).png", scale: pick([0.5, 1, 2, 3]), isResizable: bool()))
    case 8:
      let styles: [ShapeStyle?] = [nil, .fill(fill()), .material(pick(Material.allCases))]
      content = .shape(shape(), style: pick(styles))
    case 9:
      content = .button(
        label: depth < 4 && bool() ? view(depth: depth + 1) : ViewNode(.text(TextContent("OK"), explicit: [])))
    case 10: content = .textField(TextFieldContent(placeholder: "Name", text: pick(["", "Ann"]), isSecure: bool()))
    default:
      content = .layers([
        .shape(
          ShapeLayer(
            shape: shape(), frame: PointRect(x: points(100), y: points(100), width: points(50), height: points(50)),
            fill: fill()))
      ])
    }
    var node = ViewNode(content)
    for _ in 0..<int(4) { node.modifiers.append(modifier(depth)) }
    return node
  }

  mutating func modifier(_ depth: Int) -> ViewModifierNode {
    switch int(depth < 4 ? 22 : 20) {
    case 0:
      return .padding(
        pick([EdgeInsets(all: points(20)), EdgeInsets(top: points(9), leading: 0, bottom: -points(3), trailing: 1)]))
    case 1: return .frame(width: maybe { $0.points(200) }, height: maybe { $0.points(200) }, alignment: alignment())
    case 2:
      return .flexibleFrame(
        FlexibleFrame(
          minWidth: maybe { $0.points(10) }, idealWidth: nil,
          maxWidth: maybe { $0.bool() ? .infinity : 20 + $0.points(100) },
          minHeight: nil, idealHeight: maybe { $0.points(10) }, maxHeight: maybe { _ in .infinity },
          alignment: alignment()))
    case 3: return .position(x: points(300) - 50, y: points(200), width: maybe { $0.points(80) }, height: nil)
    case 4: return .fixedSize(horizontal: bool(), vertical: bool())
    case 5: return .layoutPriority(Double(int(7)) - 3)
    case 6: return .offset(x: points(40) - 20, y: points(10))
    case 7: return .aspectRatio(maybe { 0.25 + $0.points(4) }, contentMode: pick([ContentMode.fit, .fill]))
    case 8: return .ignoresSafeArea(pick([.all, .top, .horizontal, [.bottom, .trailing], []]))
    case 9:
      return .glassEffect(
        pick([Glass(.regular), Glass(.clear, tint: color()), Glass(.identity, isInteractive: true)]), shape: shape(),
        optics: pick([GlassOptics.Overrides(), GlassOptics.Overrides(["bevelWidth": points(40)])]))
    case 10: return pick([.glassEffectID("id\(int(9))"), .glassEffectUnion("u\(int(3))")])
    case 11: return .glassEffectTransition(pick(GlassEffectTransition.allCases))
    case 12: return .clipShape(shape())
    case 13:
      return .backgroundExtensionEffect(BackgroundExtension(leading: points(20), top: points(5), sigma: points(8)))
    case 14: return .font(Font(size: 1 + points(40), weight: pick(FontWeight.allCases)))
    case 15: return .fontWeight(pick(FontWeight.allCases))
    case 16: return .foregroundStyle(fill())
    case 17:
      return pick([.lineLimit(nil), .lineLimit(1 + int(3)), .multilineTextAlignment(pick(TextAlignment.allCases))])
    case 18: return pick([.buttonStyle(pick(ButtonStyle.allCases)), .tint(color())])
    case 19: return .textFieldStyle(pick(TextFieldStyle.allCases))
    case 20: return .overlay(view(depth: depth + 1), alignment: alignment())
    default:
      return bool()
        ? .background(view(depth: depth + 1), alignment: alignment())
        : .background(ViewNode(.shape(shape(), style: .fill(fill()))), alignment: .center)
    }
  }
}

// MARK: - One description

@Suite("View format: the schema and the tables come from the table")
struct SceneFormatDocsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let update = ProcessInfo.processInfo.environment["GLASS_UPDATE_DOCS"] == "1"
  static let regenerate = "regenerate with GLASS_UPDATE_DOCS=1 swift test --filter SceneFormatDocs"

  @Test("docs/scene.schema.json holds the view definitions SceneFormat generates")
  func schema() throws {
    let url = Self.root.appendingPathComponent("docs/scene.schema.json")
    let text = try String(contentsOf: url, encoding: .utf8)
    let expected = SceneFormat.updatedSchema(try JSONValue.parse(Array(text.utf8))).indentedText() + "\n"
    if Self.update && text != expected { try expected.write(to: url, atomically: true, encoding: .utf8) }
    let same = Self.update || text == expected
    #expect(same, "docs/scene.schema.json differs from SceneFormat's schema; \(Self.regenerate)")
  }

  static let begin = "<!-- SceneFormat tables: generated from Sources/GLESGlass/Scene/SceneFormat.swift -->"
  static let end = "<!-- end of SceneFormat tables -->"

  @Test("docs/scene-format.md's tables of view types and modifiers are SceneFormat's")
  func tables() throws {
    let url = Self.root.appendingPathComponent("docs/scene-format.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    guard let start = text.range(of: Self.begin),
      let stop = text.range(of: Self.end, range: start.upperBound..<text.endIndex)
    else {
      Issue.record("docs/scene-format.md lacks the markers \(Self.begin) … \(Self.end)")
      return
    }
    let current = String(text[start.upperBound..<stop.lowerBound])
    let expected = "\n" + SceneFormat.markdownTables
    if Self.update && current != expected {
      try (String(text[..<start.upperBound]) + expected + String(text[stop.lowerBound...])).write(
        to: url, atomically: true, encoding: .utf8)
    }
    let same = Self.update || current == expected
    #expect(same, "docs/scene-format.md's view tables differ from SceneFormat's; \(Self.regenerate)")
  }

  /// The marker before a generated table of a layer or an object (`image layer`, `glass object`).
  static func blockBegin(_ name: String) -> String {
    "<!-- SceneFormat table: \(name); generated from Sources/GLESGlass/Scene/LayerFormat.swift -->"
  }
  static let blockEnd = "<!-- end of SceneFormat table -->"

  @Test("docs/scene-format.md's tables of layers and their objects are SceneFormat's")
  func layerTables() throws {
    let url = Self.root.appendingPathComponent("docs/scene-format.md")
    var text = try String(contentsOf: url, encoding: .utf8)
    var stale: [String] = []
    for block in SceneFormat.markdownBlocks {
      guard let start = text.range(of: Self.blockBegin(block.name)),
        let stop = text.range(of: Self.blockEnd, range: start.upperBound..<text.endIndex)
      else {
        Issue.record("docs/scene-format.md lacks the markers \(Self.blockBegin(block.name)) … \(Self.blockEnd)")
        continue
      }
      if String(text[start.upperBound..<stop.lowerBound]) != block.text {
        stale.append(block.name)
        text = String(text[..<start.upperBound]) + block.text + String(text[stop.lowerBound...])
      }
    }
    if Self.update && !stale.isEmpty { try text.write(to: url, atomically: true, encoding: .utf8) }
    #expect(
      Self.update || stale.isEmpty,
      "docs/scene-format.md's tables of \(stale.joined(separator: ", ")) differ from SceneFormat's; \(Self.regenerate)")
  }

  /// Layers the reader refuses, each for a rule of the table: the generated
  /// schema must refuse every one of them too, and accept the same layers made
  /// valid (so a refusal is the rule's, not a typo's).
  static let refusedLayers: [(bad: String, good: String)] = [
    (
      #"{"type": "shape", "fill": "red", "frame": {"x": 0, "y": 0, "width": -1, "height": 10}}"#,
      #"{"type": "shape", "fill": "red", "frame": {"x": 0, "y": 0, "width": 1, "height": 10}}"#
    ),
    (
      #"{"type": "image", "source": "a.png", "frame": {"width": 10, "height": 10}, "opacity": 1}"#,
      #"{"type": "image", "source": "a.png", "frame": {"width": 10, "height": 10}}"#
    ),
    (#"{"type": "text", "font": "body", "frame": {"x": 0, "y": 0}}"#, #"{"type": "text", "text": "a", "frame": {}}"#),
    (
      #"{"type": "glass", "shape": {"type": "concentricRectangle"}, "frame": {"width": 10, "height": 10}}"#,
      #"{"type": "glass", "shape": {"type": "concentricRectangle"}, "frame": {"width": 10, "height": 10}, "containerShape": {"frame": {"width": 20, "height": 20}, "cornerRadius": 8}}"#
    ),
    (
      #"{"type": "text", "text": "a", "font": {"family": "Inter", "file": "a.ttf"}, "frame": {}}"#,
      #"{"type": "text", "text": "a", "font": {"family": "Inter"}, "frame": {}}"#
    ),
    (
      #"{"type": "material", "material": "regular", "frame": {"x": 0, "y": 0}}"#,
      #"{"type": "material", "material": "regular", "frame": {"x": 0, "y": 0}, "content": {"text": "a"}}"#
    ),
    (
      #"{"type": "shape", "fill": {"linearGradient": {"colors": ["red"], "stops": [{"color": "red", "location": 0}]}}, "frame": {"width": 1, "height": 1}}"#,
      #"{"type": "shape", "fill": {"linearGradient": {"colors": ["red"]}}, "frame": {"width": 1, "height": 1}}"#
    ),
    (
      #"{"type": "glassContainer", "spacing": 20000, "glass": []}"#,
      #"{"type": "glassContainer", "spacing": 20, "glass": []}"#
    ),
    (
      #"{"type": "button", "buttonStyle": "glass", "frame": {}}"#,
      #"{"type": "button", "title": "OK", "buttonStyle": "glass", "frame": {}}"#
    ),
    (
      #"{"type": "shape", "shape": {"type": "roundedRect"}, "fill": "red", "frame": {"width": 1, "height": 1}}"#,
      #"{"type": "shape", "shape": {"type": "roundedRect", "cornerRadius": 4}, "fill": "red", "frame": {"width": 1, "height": 1}}"#
    ),
  ]

  @Test(
    "the generated schema refuses the layers the reader refuses, and accepts them made valid",
    .enabled(if: PythonTools.jsonschema.isAvailable, PythonTools.jsonschema.skipReason))
  func schemaRefusesWhatTheReaderRefuses() throws {
    guard let python = PythonTools.jsonschema.require() else { return }
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = { (layer: String) in
      #"{"version": 1, "size": {"width": 100, "height": 100}, "scale": 3, "layers": [\#(layer)]}"#
    }
    // At scale 3 an inset is at most 65536 / 3 points: the schema's rule for scales.
    let extensionAt = { (inset: Int) in
      #"{"type": "image", "source": "a.png", "frame": {"width": 10, "height": 10}, "backgroundExtensionEffect": {"leading": \#(inset)}}"#
    }
    let cases = Self.refusedLayers + [(extensionAt(30_000), extensionAt(20_000))]
    var files: [String: [String]] = ["bad": [], "good": []]
    for (index, (bad, good)) in cases.enumerated() {
      #expect(throws: GlassError.self, "the reader takes \(bad)") { _ = try Scene(json: Array(scene(bad).utf8)) }
      _ = try Scene(json: Array(scene(good).utf8))
      for (kind, json) in [("bad", bad), ("good", good)] {
        let path = folder.appendingPathComponent("\(kind)-\(index).json").path
        try scene(json).write(toFile: path, atomically: true, encoding: .utf8)
        files[kind, default: []].append(path)
      }
    }
    // One run of the checker for each kind; it names each file that does not match.
    for (kind, paths) in files {
      let result = try TestProcess.run(
        URL(fileURLWithPath: python), [Self.root.appendingPathComponent("scripts/check-schema.py").path] + paths)
      #expect(!result.stdout.contains("not installed"), "\(python): \(result.stdout)")
      for (index, path) in paths.enumerated() {
        let named = result.stdout.contains(path + ":")
        #expect(
          named == (kind == "bad"),
          "the schema \(kind == "bad" ? "takes" : "refuses") \(kind == "bad" ? cases[index].bad : cases[index].good)")
      }
    }
  }

  @Test("the documentation's example of a body reads and lays out")
  func documentedExample() throws {
    let text = try String(contentsOf: Self.root.appendingPathComponent("docs/scene-format.md"), encoding: .utf8)
    guard let section = text.range(of: "## Views (`body`)"),
      let start = text.range(of: "```json\n", range: section.upperBound..<text.endIndex),
      let end = text.range(of: "```", range: start.upperBound..<text.endIndex)
    else {
      Issue.record("docs/scene-format.md has no example under ## Views (`body`)")
      return
    }
    let scene = try Scene(json: Array(text[start.upperBound..<end.lowerBound].utf8))
    let views = try scene.resolvedViews(images: SceneImages([:]))
    // Two 80-point frames 40 apart, centred on the 390-point canvas: x = (390 - 200) / 2.
    #expect(views.filter { $0.kind == "frame" }.map(\.frame.x) == [95, 215])
  }

  @Test(
    "the JSON Schema accepts every view example and the every-view scene (scripts/check-schema.py)",
    .enabled(if: PythonTools.jsonschema.isAvailable, PythonTools.jsonschema.skipReason))
  func schemaAcceptsExamples() throws {
    guard let python = PythonTools.jsonschema.require() else { return }
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    var scene = Scene(size: PointSize(width: 390, height: 844))
    scene.body = ViewJSONRoundTripTests.everything
    scene.safeAreaInsets = EdgeInsets(top: 47, bottom: 34)
    let scenes =
      (ViewJSONReadingTests.types + ViewJSONReadingTests.modifierExamples).map { viewScene($0.json) } + [scene.json]
    for (index, json) in scenes.enumerated() {
      let path = folder.appendingPathComponent("view-\(index).json").path
      try json.write(toFile: path, atomically: true, encoding: .utf8)
      paths.append(path)
    }
    let result = try TestProcess.run(
      URL(fileURLWithPath: python), [Self.root.appendingPathComponent("scripts/check-schema.py").path] + paths)
    #expect(!result.stdout.contains("not installed"), "\(python): \(result.stdout)")
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}

// MARK: - End to end

@Suite("Views in the scene file: rendered")
struct ViewJSONRenderTests {
  /// `VStack { Color.red; Color.blue }.padding(10)` on 100 x 80 points at scale 1:
  /// the padding proposes 80 x 60 to the stack, which keeps 8 points between its
  /// two views and gives the equally flexible colours 26 points each:
  /// red (10, 10, 80, 26), blue (10, 44, 80, 26), white elsewhere.
  @Test("a vstack of two colours with padding renders where the frames worked out by hand say")
  func vstackOfColours() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("scene.json").path
    let json = #"""
      {"version": 1, "size": {"width": 100, "height": 80}, "scale": 1, "background": "#FFFFFF",
       "body": {"type": "vstack", "children": [{"type": "color", "color": "#FF0000"}, {"type": "color", "color": "#0000FF"}],
                "modifiers": [{"padding": 10}]}}
      """#
    try json.write(toFile: scene, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out.png").path
    let result = try runCLI(["render", scene, "-o", out, "--backend", "cpu"])
    #expect(result.status == 0, "\(result.stderr)")
    let image = try PNGCodec.read(path: out).image
    #expect(image.size == PixelSize(width: 100, height: 80))
    func expected(_ x: Int, _ y: Int) -> String {
      guard (10..<90).contains(x) else { return "white" }
      if (10..<36).contains(y) { return "red" }
      if (44..<70).contains(y) { return "blue" }
      return "white"
    }
    func seen(_ x: Int, _ y: Int) -> String {
      let p = image.pixel16(x: x, y: y) / 257
      switch (p.x, p.y, p.z) {
      case (255, 255, 255): return "white"
      case (255, 0, 0): return "red"
      case (0, 0, 255): return "blue"
      default: return "\(p)"
      }
    }
    var wrong: [String] = []
    for y in 0..<80 {
      for x in 0..<100 where seen(x, y) != expected(x, y) {
        wrong.append("(\(x), \(y)): \(seen(x, y)), not \(expected(x, y))")
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) pixels differ, first: \(wrong.prefix(8))")
  }
}
