/// Something about a laid-out view tree that is likely a mistake, though it
/// renders: a view off the canvas, siblings in a stack drawn over one another,
/// text cut short, a frame with no finite size. `glass-gpu layout` and
/// `validate` print them; they never stop a render.
public struct LayoutWarning: Hashable, Sendable, CustomStringConvertible {
  /// The JSON path of the view (`body.children[1]`).
  public var path: String
  /// What is wrong, and what would fix it.
  public var message: String

  /// Makes a warning.
  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// `path: message`.
  public var description: String { "\(path): \(message)" }
}

extension ViewLayout {
  /// The kinds of view that draw nothing themselves: containers, spacers and
  /// layout modifiers (what they hold draws), and absolute layers (drawn at
  /// their own frames).
  static let drawsNothing: Set<String> = [
    "vstack", "hstack", "zstack", "group", "glassEffectContainer", "spacer", "padding", "frame", "fixedSize",
    "layoutPriority", "offset", "aspectRatio", "overlay", "background", "layers",
  ]

  /// The warnings about `views` (parents before children, as laid out) on a
  /// canvas of `canvas` points, with the paths of the texts drawn cut short:
  /// - a frame that is not finite (SwiftUI lays a view out at infinity where it
  ///   is offered infinity and takes it, or is placed after one that did);
  /// - a view that draws and lies wholly or partly off the canvas;
  /// - two children of an `HStack` or a `VStack` whose drawings overlap (a view
  ///   larger than its frame, an offset, a negative padding);
  /// - text cut short with "…".
  static func warnings(_ views: [ResolvedView], canvas: PointSize, truncated: [String]) -> [LayoutWarning] {
    var warnings: [LayoutWarning] = []
    let canvasRect = PointRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
    func text(_ r: PointRect) -> String {
      "\(ParameterSpec.format(r.x)), \(ParameterSpec.format(r.y)) to \(ParameterSpec.format(r.maxX)), "
        + "\(ParameterSpec.format(r.maxY))"
    }
    for view in views {
      let frame = view.frame
      let values = [("x", frame.x), ("y", frame.y), ("width", frame.width), ("height", frame.height)]
      let infinite = values.filter { !$0.1.isFinite }.map(\.0)
      if !infinite.isEmpty {
        warnings.append(
          LayoutWarning(
            path: view.path,
            message: "the \(view.kind)'s frame has no finite \(infinite.joined(separator: " or ")) (it takes the "
              + "infinity it is offered, or follows one that did); give it a frame or a maximum size"))
        continue
      }
      guard !drawsNothing.contains(view.kind), frame.width > 0, frame.height > 0 else { continue }
      if frame.meeting(canvasRect) == nil {
        warnings.append(
          LayoutWarning(
            path: view.path,
            message: "the \(view.kind) lies wholly off the canvas (\(text(frame)) pt; the canvas is "
              + "\(ParameterSpec.format(canvas.width)) × \(ParameterSpec.format(canvas.height)) pt): it is not seen"))
      } else if frame.x < -1e-9 || frame.y < -1e-9 || frame.maxX > canvas.width + 1e-9
        || frame.maxY > canvas.height + 1e-9
      {
        warnings.append(
          LayoutWarning(
            path: view.path,
            message: "the \(view.kind) lies partly off the canvas (\(text(frame)) pt; the canvas is "
              + "\(ParameterSpec.format(canvas.width)) × \(ParameterSpec.format(canvas.height)) pt): it is cut off"))
      }
    }
    warnings += overlaps(views)
    for path in truncated {
      warnings.append(
        LayoutWarning(
          path: path,
          message: "the text is cut short with \"…\" (its lineLimit leaves lines out); give it more room or more lines")
      )
    }
    return warnings
  }

  /// Children of a stack whose drawings overlap: each child's drawing is the
  /// union of the frames of the views in it that draw.
  static func overlaps(_ views: [ResolvedView]) -> [LayoutWarning] {
    // Each view's end: the index after its last descendant (views come
    // parents first, each subtree contiguous).
    var end = Array(views.indices.map { $0 + 1 })
    var open: [Int] = []
    for index in views.indices {
      while let last = open.last, views[last].depth >= views[index].depth {
        end[last] = index
        open.removeLast()
      }
      open.append(index)
    }
    for index in open { end[index] = views.count }
    func drawing(_ index: Int) -> PointRect? {
      var union: PointRect?
      for view in views[index..<end[index]]
      where !drawsNothing.contains(view.kind) && view.frame.width > 0 && view.frame.height > 0 {
        union = union.map { $0.union(view.frame) } ?? view.frame
      }
      return union
    }
    /// The view as written: a child's outermost node is its last modifier
    /// (`body.children[1].modifiers[0]`), part of the view at `body.children[1]`.
    func written(_ path: String) -> String {
      guard path.hasSuffix("]"), let open = path.range(of: ".modifiers[", options: .backwards),
        path[open.upperBound...].dropLast().allSatisfy(\.isNumber)
      else { return path }
      return String(path[..<open.lowerBound])
    }
    var warnings: [LayoutWarning] = []
    for (index, stack) in views.enumerated() where stack.kind == "hstack" || stack.kind == "vstack" {
      var children: [Int] = []
      var child = index + 1
      while child < end[index] {
        children.append(child)
        child = end[child]
      }
      guard children.count > 1 else { continue }
      let drawings = children.map(drawing)
      for j in children.indices {
        guard let b = drawings[j] else { continue }
        for i in 0..<j {
          guard let a = drawings[i], let meet = a.meeting(b), meet.width > 1e-6, meet.height > 1e-6 else {
            continue
          }
          warnings.append(
            LayoutWarning(
              path: written(views[children[j]].path),
              message: "it draws over \(written(views[children[i]].path)), before it in the \(stack.kind) at "
                + "\(written(stack.path)), "
                + "on \(ParameterSpec.format(meet.width)) × \(ParameterSpec.format(meet.height)) pt (a view larger "
                + "than its frame, an offset or a negative padding)"))
          break
        }
      }
    }
    return warnings
  }
}

extension PointRect {
  /// Where this rectangle and `other` overlap, or nil where they share no area.
  fileprivate func meeting(_ other: PointRect) -> PointRect? {
    let left = max(x, other.x)
    let top = max(y, other.y)
    let right = min(maxX, other.maxX)
    let bottom = min(maxY, other.maxY)
    guard right > left, bottom > top else { return nil }
    return PointRect(x: left, y: top, width: right - left, height: bottom - top)
  }
}
