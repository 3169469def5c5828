import GLESGlass

// The view tree's layout and the comparison masks, for every scene that reads:
// - `resolvedViews` names every view of the body at a frame with no NaN, or
//   throws a GlassError;
// - a mask by a view's path (`ComparisonMask.path`) covers that view's frame
//   grown by 1 pt, its edges rounded outwards and clipped to the canvas, worked
//   out here from the frame and the scale alone;
// - a mask by a layer's path covers pixels of the canvas, or throws;
// - a rectangle mask made of the input's numbers (any Double: huge, negative,
//   infinite, NaN) is refused by the parser, or gives pixels inside the canvas,
//   or throws a GlassError saying it lies outside.
// Anything else (a trap in the masks' arithmetic, pixels off the canvas) is a
// finding.

/// The pixels `frame` (points at `scale`) touches, clipped to `width` x `height`
/// pixels: the definition, written apart from `ComparisonOptions`.
func expectedPixels(_ frame: PointRect, scale: Double, width: Int, height: Int) -> (Int, Int, Int, Int)? {
  let x0 = frame.x * scale
  let y0 = frame.y * scale
  let x1 = (frame.x + frame.width) * scale
  let y1 = (frame.y + frame.height) * scale
  guard !x0.isNaN, !y0.isNaN, !x1.isNaN, !y1.isNaN else { return nil }
  let left = x0 <= 0 ? 0 : x0 >= Double(width) ? width : Int(x0.rounded(.down))
  let top = y0 <= 0 ? 0 : y0 >= Double(height) ? height : Int(y0.rounded(.down))
  let right = x1 <= 0 ? 0 : x1 >= Double(width) ? width : Int(x1.rounded(.up))
  let bottom = y1 <= 0 ? 0 : y1 >= Double(height) ? height : Int(y1.rounded(.up))
  return (left, top, max(right - left, 0), max(bottom - top, 0))
}

/// Checks the layout of `scene`'s body and masks of its views, layers and
/// rectangles from `bytes`; returns how many masks were checked.
func checkMasks(_ scene: Scene, images: SceneImages, bytes: [UInt8]) -> Int {
  let width = scene.pixelSize.width
  let height = scene.pixelSize.height
  guard width > 0, height > 0, scene.pixelSize.pixelCount <= prepareMaxPixels else { return 0 }
  let scale = Double(scene.scale)
  var checked = 0
  func within(_ r: PixelRect) -> Bool {
    r.x >= 0 && r.y >= 0 && r.width >= 0 && r.height >= 0 && r.x + r.width <= width && r.y + r.height <= height
  }
  // Views: every frame free of NaN; masks of up to four of them by path.
  var views: [ResolvedView] = []
  do {
    views = try scene.resolvedViews(images: images)
  } catch is GlassError {
    views = []
  } catch {
    fatalError("fuzz-scene: resolvedViews threw an error that is not a GlassError: \(error)")
  }
  for view in views {
    let f = view.frame
    if f.x.isNaN || f.y.isNaN || f.width.isNaN || f.height.isNaN {
      fatalError("fuzz-scene: the view \(view.path) (\(view.kind)) is laid out at a frame with NaN: \(f)")
    }
  }
  var seen = Set<String>()
  let firsts = views.filter { seen.insert($0.path).inserted }
  for (i, view) in firsts.enumerated() where i < 4 || i == firsts.count - 1 {
    let grown = PointRect(
      x: view.frame.x - 1, y: view.frame.y - 1, width: view.frame.width + 2, height: view.frame.height + 2)
    do {
      let rects = try ComparisonOptions(masks: [.path(view.path)]).maskedPixels(in: scene, images: images)
      guard rects.count == 1, within(rects[0]) else {
        fatalError("fuzz-scene: the mask \(view.path) gave \(rects) on a \(width)x\(height) canvas")
      }
      if let (x, y, w, h) = expectedPixels(grown, scale: scale, width: width, height: height),
        rects[0] != PixelRect(x: x, y: y, width: w, height: h)
      {
        fatalError(
          "fuzz-scene: the mask \(view.path) covers \(rects[0]); its frame \(view.frame) grown by 1 pt at \(scale)x "
            + "covers \(x),\(y) \(w)x\(h)")
      }
      checked += 1
    } catch is GlassError {
      // A layer a path also names first, or a scene layout refuses: the mask's own error.
    } catch {
      fatalError("fuzz-scene: a view's mask threw an error that is not a GlassError: \(error)")
    }
  }
  // Layers by path, and one past the last.
  for index in [0, scene.layers.count - 1, scene.layers.count] where index >= 0 {
    do {
      let rects = try ComparisonOptions(masks: [.path("layers[\(index)]")]).maskedPixels(in: scene, images: images)
      guard rects.allSatisfy(within) else {
        fatalError("fuzz-scene: the mask layers[\(index)] gave \(rects) on a \(width)x\(height) canvas")
      }
      checked += 1
    } catch is GlassError {
    } catch {
      fatalError("fuzz-scene: a layer's mask threw an error that is not a GlassError: \(error)")
    }
  }
  // A rectangle from the input's last 32 bytes, read as four Doubles (any bits).
  guard bytes.count >= 32 else { return checked }
  var numbers: [Double] = []
  for k in 0..<4 {
    var bits: UInt64 = 0
    for b in 0..<8 { bits |= UInt64(bytes[bytes.count - 32 + k * 8 + b]) << (8 * b) }
    numbers.append(Double(bitPattern: bits))
  }
  let text = numbers.map { "\($0)" }.joined(separator: ",")
  guard let mask = try? ComparisonMask.rect(parsing: text) else { return checked }
  do {
    let rects = try ComparisonOptions(masks: [mask]).maskedPixels(in: scene, images: images)
    guard rects.count == 1, within(rects[0]), rects[0].width > 0, rects[0].height > 0 else {
      fatalError("fuzz-scene: the mask rectangle \(text) gave \(rects) on a \(width)x\(height) canvas")
    }
    checked += 1
  } catch is GlassError {
  } catch {
    fatalError("fuzz-scene: a rectangle mask threw an error that is not a GlassError: \(error)")
  }
  return checked
}
