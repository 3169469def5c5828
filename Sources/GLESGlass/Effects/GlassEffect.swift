import Foundation

/// `glassEffect(_:in:)` and materials: a group of shapes that render as one glass
/// body over frosted copies of the backdrop, in one `Primitive.glass` pass. Its
/// parameters are the pass's (`GlassComposite`, in pixels); `member(...)` turns a
/// layer's optics, in points, into a member. The formulas are in
/// `Math/GlassProfile.swift`, mirrored by `glass.glsl`.
///
///     backdrop -> frost (GaussianBlurEffect, one per distinct frost)
///              -> glass: blended field, lens, tint, glint, contour, shadow   -> over the canvas
public struct GlassEffect: Effect, Hashable {
  /// The group, in pixels.
  public typealias Parameters = GlassComposite

  /// The optical parameters of a glass layer, in points (`GlassOptics`).
  public static var parameterTable: [ParameterSpec] { GlassOptics.parameterTable }

  /// The group.
  public var parameters: GlassComposite
  /// The side of the cells its pass is cut into, pixels (`cells`).
  var cellPixels = Self.cellPixels
  /// Whether the parts of its pass that only the shadow reaches are passes of
  /// their own (`shadowSplit`); off, tests render the pass whole to compare.
  var splitsShadow = true

  /// The glass of a group.
  public init(_ parameters: GlassComposite) {
    self.parameters = parameters
  }

  /// Throws `invalidParameter` for a group the pass cannot take: no member, more
  /// than `GlassComposite.maximumMembers`, a backdrop index beyond
  /// `GlassComposite.maximumSources`, or a length that is not a finite,
  /// non-negative number.
  public func validate() throws {
    let members = parameters.members
    guard !members.isEmpty && members.count <= GlassComposite.maximumMembers else {
      throw GlassError(
        .invalidParameter,
        "a glass body has \(members.count) shapes; give it 1 to \(GlassComposite.maximumMembers)")
    }
    for (i, m) in members.enumerated() {
      guard (0..<GlassComposite.maximumSources).contains(m.source) else {
        throw GlassError(
          .invalidParameter,
          "glass shape \(i) reads backdrop \(m.source); a body reads at most \(GlassComposite.maximumSources)")
      }
      let lengths: [(String, Float)] = [
        ("bevelWidth", m.bevelWidth), ("refraction", m.refraction), ("rimWidth", m.rimWidth),
        ("contourWidth", m.contourWidth), ("shadowSigma", m.shadowSigma), ("glowSigma", m.glowSigma),
      ]
      for (name, value) in lengths where !(value.isFinite && value >= 0) {
        throw GlassError(
          .invalidParameter, "glass shape \(i) has \(name) \(value); give a finite length of 0 or more pixels")
      }
    }
    guard parameters.blendRadius.isFinite && parameters.blendRadius >= 0 else {
      throw GlassError(
        .invalidParameter, "the blend radius is \(parameters.blendRadius); give a finite radius of 0 or more pixels")
    }
  }

  /// The deepest pull of any member's lens, red's with dispersion, plus the two
  /// pixels of its bilinear taps and anti-aliased edge.
  public func inputMarginPixels(for inputSize: PixelSize) -> Int {
    let reach = parameters.members.map { Self.reach($0) }.max() ?? 0
    return Int(reach.rounded(.up))
  }

  /// The pass: reads one frosted backdrop per member `source` (`inputs`, all of
  /// one size, the backdrop's top-left at `parameters.backdropOrigin`) and
  /// composites the body over the destination inside its bounds.
  public func lower(_ inputs: [ImageHandle], to destination: EffectDestination, into graph: inout RenderGraph) {
    precondition(
      !inputs.isEmpty && inputs.count <= GlassComposite.maximumSources
        && parameters.members.allSatisfy { $0.source < inputs.count }, "one backdrop per source")
    var composite = parameters
    let shift = destination.origin
    if shift != PixelPoint(x: 0, y: 0) {
      composite = Self.offset(composite, by: shift)
    }
    let bounds = parameters.members.map(Self.writeBounds).reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) {
      $0.union($1)
    }
    guard let rect = destination.rect(bounds, in: graph) else { return }
    let name = destination.name ?? "glass"
    let cells = Self.cells(composite, in: rect, cell: cellPixels, splitsShadow: splitsShadow)
    for cell in cells {
      var part = composite
      part.members = cell.members.map { composite.members[$0] }
      let cellName = cells.count == 1 ? name : "\(name) [\(cell.members.map(String.init).joined(separator: ","))]"
      // A group drawn whole (one member, or cells too large to cut it) sheds the
      // band only its shadow reaches; cells are already sorted by it.
      let pieces = splitsShadow && cells.count == 1 ? Self.shadowSplit(part, cell.rect) : [cell.rect]
      for piece in pieces {
        let shadowOnly = part.showsShadowOnly(in: piece)
        // Blended over, a part that only a shadow could reach, without one, is
        // transparent: no pass.
        if shadowOnly && destination.blend && !part.members.contains(where: { $0.shadowOpacity > 0 }) { continue }
        graph.addPass(
          shadowOnly ? "\(cellName) shadow" : cellName, .glass(part), inputs: inputs, output: destination.image,
          rect: piece, blend: destination.blend)
      }
    }
  }

  /// `rect` cut into the part where the body or its contour can show and the
  /// band around it that only the shadow reaches (up to four strips, each
  /// `showsShadowOnly`), or `rect` alone when there is no such band. Most of a
  /// glass pass with the default shadow is that band (the body of a 176x88 px
  /// capsule is 16k of its 107k pixels), and the band's program computes only the
  /// shadow: on llvmpipe, which runs both sides of every branch, the whole
  /// program costs several times as much there.
  static func shadowSplit(_ composite: GlassComposite, _ rect: PixelRect) -> [PixelRect] {
    let inner = rect.intersection(composite.bodyBounds)
    guard !inner.isEmpty && inner != rect else { return [rect] }
    let strips = [
      PixelRect(x: rect.x, y: rect.y, width: rect.width, height: inner.y - rect.y),
      PixelRect(x: rect.x, y: inner.maxY, width: rect.width, height: rect.maxY - inner.maxY),
      PixelRect(x: rect.x, y: inner.y, width: inner.x - rect.x, height: inner.height),
      PixelRect(x: inner.maxX, y: inner.y, width: rect.maxX - inner.maxX, height: inner.height),
    ]
    return [inner] + strips.filter { !$0.isEmpty }
  }

  /// The side of the cells a group's pass is cut into, in pixels. Measured with
  /// `glass-gpu-bench fluid` on llvmpipe (8 blended capsules, glass alone): 32 px
  /// cells 53.6 ms, 16 px 46.8 ms, 8 px no faster than 16 (more passes).
  static let cellPixels = 16

  /// A group's pass cut into rectangles, each drawn with only the members that
  /// can change its pixels (in paint order): a pixel far from a member renders
  /// the same without it, so most of a group draws one or two members at a time
  /// (and a single member takes the program without loops).
  ///
  /// Why leaving members out changes nothing (`glass.glsl`'s fold, for the body's
  /// distances and again for the shadow's at each member's offset): the fold skips
  /// member j where d_j >= d + k (d: the fold so far, k: the blend radius), and
  /// the fold so far is never above the distance of any member already folded in.
  /// So once a kept member has been folded, a left-out member j with
  /// d_j >= d_i + k for some kept i before it is skipped. Left-out members before the first
  /// kept one fold among themselves to at least their least distance minus k/4
  /// each (the smooth minimum's dip); when that is still k beyond every kept
  /// member, the first kept member takes over whole (weight 0). Over a cell of
  /// half diagonal r, each distance lies within r + 1 px of its value at the
  /// centre (the distances are 1-Lipschitz), plus the spread of a box's corner
  /// radii. Cells with the same members are merged along rows, then runs
  /// down columns; a test renders groups cut and whole and finds them byte-identical.
  /// With `splitsShadow`, cells that only the shadow reaches (`showsShadowOnly`
  /// with their members) are merged only with each other.
  static func cells(
    _ composite: GlassComposite, in rect: PixelRect, cell: Int = cellPixels, splitsShadow: Bool = true
  )
    -> [(rect: PixelRect, members: [Int])]
  {
    let members = composite.members
    guard members.count > 1 else { return [(rect, Array(members.indices))] }
    var merged: [(rect: PixelRect, members: [Int], shadowOnly: Bool)] = []
    for y in stride(from: rect.y, to: rect.maxY, by: cell) {
      var row: [(rect: PixelRect, members: [Int], shadowOnly: Bool)] = []
      for x in stride(from: rect.x, to: rect.maxX, by: cell) {
        let r = PixelRect(x: x, y: y, width: min(cell, rect.maxX - x), height: min(cell, rect.maxY - y))
        let list = kept(composite, around: r)
        var part = composite
        part.members = list.map { members[$0] }
        let shadowOnly = splitsShadow && part.showsShadowOnly(in: r)
        if let last = row.last, last.members == list, last.shadowOnly == shadowOnly, last.rect.maxX == r.x {
          row[row.count - 1].rect.width += r.width
        } else {
          row.append((r, list, shadowOnly))
        }
      }
      // A run with the same columns and members as one ending just above extends it.
      for run in row {
        if let i = merged.firstIndex(where: {
          $0.rect.maxY == y && $0.rect.x == run.rect.x && $0.rect.width == run.rect.width && $0.members == run.members
            && $0.shadowOnly == run.shadowOnly
        }) {
          merged[i].rect.height += run.rect.height
        } else {
          merged.append(run)
        }
      }
    }
    return merged.map { ($0.rect, $0.members) }
  }

  /// The members that can change some pixel of `cell`, in paint order (see `cells`).
  static func kept(_ composite: GlassComposite, around cell: PixelRect) -> [Int] {
    let members = composite.members
    let k = composite.blendRadius
    let cx = Float(cell.x) + Float(cell.width) / 2
    let cy = Float(cell.y) + Float(cell.height) / 2
    let half = 0.5 * Float(cell.width * cell.width + cell.height * cell.height).squareRoot()
    // Each member's distance within the cell lies within `margins[i]` of its value
    // at the centre: the half diagonal (the distances are 1-Lipschitz), a pixel
    // for rounding, and the spread of its corner radii (the distance of a box
    // whose corners differ can step where a quadrant meets the next).
    let margins = members.map { m in
      let r = m.shape.radii
      return half + 1 + (m.shape.kind == .roundedBox ? r.max() - r.min() : 0)
    }
    // The two fields at the centre: the body's, and the shadow's of the members
    // that cast one.
    let fields: [[Float?]] = [
      members.map { Optional($0.shape.distance(cx, cy)) },
      members.map { m in
        m.shadowOpacity > 0 ? m.shape.distance(cx - m.shadowOffset.x, cy - m.shadowOffset.y) : nil
      },
    ]
    var keep = Set<Int>()
    for field in fields {
      if let nearest = field.indices.filter({ field[$0] != nil }).min(by: { (field[$0] ?? 0) < (field[$1] ?? 0) }) {
        keep.insert(nearest)
      }
    }
    while true {
      var next = keep
      for field in fields {
        let folded = members.indices.filter { field[$0] != nil }
        guard let first = folded.first(where: { keep.contains($0) }) else { continue }
        func lower(_ j: Int) -> Float { (field[j] ?? 0) - margins[j] }
        func upper(_ j: Int) -> Float { (field[j] ?? 0) + margins[j] }
        // After the first kept member the fold is at most the least kept
        // distance so far: a member k beyond that is skipped.
        var least = Float.infinity
        for j in folded where j >= first {
          if keep.contains(j) {
            least = min(least, upper(j))
          } else if lower(j) < least + k {
            next.insert(j)
          }
        }
        // Those before the first kept one must fold to k beyond it, after their
        // own dips (a step dips k/4 below the lesser only where the two can be
        // within k of each other).
        let before = folded.filter { $0 < first }
        var low = Float.infinity
        var high = Float.infinity
        for j in before {
          let blends = low.isFinite && lower(j) < high + k && low < upper(j) + k
          low = min(low, lower(j)) - (blends ? k / 4 : 0)
          high = min(high, upper(j))
        }
        // Otherwise the nearest of them is kept too, and the rest are looked at
        // again against it.
        if low < upper(first) + k, let nearest = before.min(by: { lower($0) < lower($1) }) {
          next.insert(nearest)
        }
      }
      if next == keep { return members.indices.filter { keep.contains($0) } }
      keep = next
    }
  }

  // MARK: Blend groups

  /// The blend groups of a container's glass, each a list of indices in paint
  /// order, the groups in the order of their first member: shapes are linked when
  /// their edges come closer than the blend radius plus one pixel (the widest
  /// anti-aliased edge), or overlap; a group is a connected set of links. Shapes
  /// farther apart never change each other's pixels, so each renders in a pass of
  /// its own, exactly as it would alone. Nil as soon as a group would have more
  /// than `maximumMembers` shapes (one pass takes `GlassComposite.maximumMembers`):
  /// the rest is not grouped.
  ///
  /// In O(n log n) for shapes of like sizes, not O(n²): each shape's box, grown
  /// by half the reach on every side, goes into the cells it touches of a grid
  /// whose cells are at least its size (a grid per power of two of sizes, so a
  /// box touches at most four cells of its own grid and of each coarser one);
  /// two shapes can link only when their grown boxes meet, so each shape is
  /// tested only against the shapes in the cells it touches at its own and the
  /// coarser sizes. Links join groups in a union-find (by size, with path
  /// halving), and the grouping stops when one passes `maximumMembers`.
  package static func blendGroups(
    _ shapes: [ShapeGeometry], blendRadius: Float, maximumMembers: Int = .max
  ) -> [[Int]]? {
    let reach = blendRadius > 0 ? Double(blendRadius) + 1 : 0
    // The grown boxes.
    let boxes = shapes.map { shape -> (minX: Double, minY: Double, maxX: Double, maxY: Double) in
      let b = shape.bounds
      return (b.minX - reach / 2, b.minY - reach / 2, b.maxX + reach / 2, b.maxY + reach / 2)
    }
    var parent = Array(shapes.indices)
    var size = Array(repeating: 1, count: shapes.count)
    func root(_ i: Int) -> Int {
      var i = i
      while parent[i] != i {
        parent[i] = parent[parent[i]]
        i = parent[i]
      }
      return i
    }
    /// Joins the groups of `i` and `j`; false when the group passes the limit.
    func join(_ i: Int, _ j: Int) -> Bool {
      var a = root(i)
      var b = root(j)
      guard a != b else { return true }
      if size[a] < size[b] { swap(&a, &b) }
      parent[b] = a
      size[a] += size[b]
      return size[a] <= maximumMembers
    }
    /// Whether shapes `i` and `j` are linked (the definition above).
    func linked(_ i: Int, _ j: Int) -> Bool {
      let a = shapes[i].bounds
      let b = shapes[j].bounds
      // The boxes' gap is at most the shapes' gap.
      let dx = max(a.minX - b.maxX, b.minX - a.maxX, 0)
      let dy = max(a.minY - b.maxY, b.minY - a.maxY, 0)
      let boxGap = (dx * dx + dy * dy).squareRoot()
      guard boxGap < reach || boxGap == 0 else { return false }
      return shapes[i].separation(from: shapes[j]) < reach
    }
    // The finest cell: the smallest box's side, at least a pixel; level k's
    // cells are 2^k times that.
    let sides = boxes.map { max($0.maxX - $0.minX, $0.maxY - $0.minY) }
    let finest = max(1, sides.filter(\.isFinite).min() ?? 1)
    func level(_ side: Double) -> Int {
      guard side.isFinite, side > finest else { return 0 }
      return min(60, Int(log2(side / finest).rounded(.up)))
    }
    let levels = sides.map(level)
    struct Cell: Hashable {
      var level: Int
      var x: Int
      var y: Int
    }
    /// The cells of `level` that box `i` touches (at most four at its own level and coarser).
    func cells(_ i: Int, level: Int) -> [Cell] {
      let side = finest * Double(1 << level)
      func index(_ v: Double) -> Int { Int(max(-1e15, min(1e15, (v / side).rounded(.down)))) }
      let b = boxes[i]
      var found: [Cell] = []
      for y in index(b.minY)...index(b.maxY) {
        for x in index(b.minX)...index(b.maxX) { found.append(Cell(level: level, x: x, y: y)) }
      }
      return found
    }
    var grid: [Cell: [Int]] = [:]
    for i in shapes.indices {
      for cell in cells(i, level: levels[i]) { grid[cell, default: []].append(i) }
    }
    let usedLevels = Array(Set(levels)).sorted()
    // Each pair is tested once: from the shape of the finer level, or the
    // lower index at the same level.
    var tested = Array(repeating: -1, count: shapes.count)
    for i in shapes.indices {
      for l in usedLevels where l >= levels[i] {
        for cell in cells(i, level: l) {
          for j in grid[cell] ?? [] where tested[j] != i && (l > levels[i] || j > i) {
            tested[j] = i
            let a = boxes[i]
            let b = boxes[j]
            guard a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY else { continue }
            guard root(i) != root(j), linked(i, j) else { continue }
            guard join(i, j) else { return nil }
          }
        }
      }
    }
    var groups: [Int: [Int]] = [:]
    var order: [Int] = []
    for i in shapes.indices {
      let r = root(i)
      if groups[r] == nil { order.append(r) }
      groups[r, default: []].append(i)
    }
    return order.compactMap { groups[$0] }
  }

  // MARK: From layers to members

  /// A glass layer's member, in pixels at `scale`: its optics, its tint, its
  /// light, shadow and (pressed) glow. `shape` is its geometry, already scaled
  /// when it is pressed; `frame` and `touch` in points.
  static func member(
    _ glass: Glass, optics: GlassOptics, shape: ShapeGeometry, frame: PointRect, scale: Double
  ) -> GlassMember {
    var g = GlassMember(shape: shape)
    // The lens scales with a small shape: neither the bevel nor the pull reaches
    // past the centre line, so the rim samples no deeper than the middle.
    let half = Double(min(shape.halfSize.x, shape.halfSize.y))
    g.bevelWidth = Float(min(optics.bevelWidth * scale, half))
    g.refraction = Float(min(optics.refraction * scale, half))
    g.dispersion = Float(optics.dispersion)
    g.rimWidth = Float(optics.rimWidth * scale)
    g.saturation = Float(optics.saturation)
    g.lightening = Float(optics.lightening)
    g.dimming = Float(optics.dimming)
    g.face = SIMD4<Float>(optics.face)
    g.faceAmount = Float(optics.faceAmount)
    if let tint = glass.tint {
      let t = tint.premultipliedLinear
      let strength = Float(optics.tintIntensity) * t.w
      g.tint = t.w > 0 ? SIMD4(t.x / t.w, t.y / t.w, t.z / t.w, strength) : .zero
    }
    g.rimOpacity = Float(optics.rimOpacity)
    g.oppositeRimOpacity = Float(optics.oppositeRimOpacity)
    let angle = optics.lightAngle * .pi / 180
    g.light = SIMD2(Float(-cos(angle)), Float(-sin(angle)))
    if optics.contourOpacity > 0 && optics.contourWidth > 0 {
      g.contourOpacity = Float(optics.contourOpacity)
      g.contourWidth = Float(optics.contourWidth * scale)
      g.contourGray = Float(optics.contourGray)
    }
    let shadowSigma = optics.shadowRadius * scale / 2
    if optics.shadowOpacity > 0 && shadowSigma > 0 {
      g.shadowOpacity = Float(optics.shadowOpacity)
      g.shadowSigma = Float(shadowSigma)
      g.shadowOffset = SIMD2(Float(optics.shadowOffsetX * scale), Float(optics.shadowOffsetY * scale))
    }
    if glass.isInteractive && glass.isPressed && optics.glowOpacity > 0 && optics.glowRadius > 0 {
      g.glowOpacity = Float(optics.glowOpacity)
      g.glowSigma = Float(optics.glowRadius * scale / 2)
      let touch = glass.touchPoint ?? PointOffset(x: frame.width / 2, y: frame.height / 2)
      g.glowCenter = SIMD2(Float((frame.x + touch.x) * scale), Float((frame.y + touch.y) * scale))
    }
    return g
  }

  /// A material panel's member: the blurred backdrop saturated and tinted, with
  /// no bevel, rim, shadow or glow.
  static func member(_ style: MaterialStyle, shape: ShapeGeometry) -> GlassMember {
    var member = GlassMember(shape: shape)
    member.saturation = Float(style.saturation)
    let tint = style.tint.premultipliedLinear
    member.tint = SIMD4(tint.x, tint.y, tint.z, Float(style.opacity))
    return member
  }

  /// How far a member's lens pulls, in pixels, plus two for the taps and the edge.
  static func reach(_ member: GlassMember) -> Double {
    Double(member.refraction) * (1 + Double(member.dispersion)) + 2
  }

  /// The pixels a member can change: its shape's with its contour, and its
  /// shadow's out to 4 sigma.
  static func writeBounds(_ member: GlassMember) -> PixelRect {
    var bounds = member.shape.pixelBounds(margin: member.contourOpacity > 0 ? Double(member.contourWidth) : 0)
    if member.shadowOpacity > 0 {
      let shadow = member.shape.offsetBy(member.shadowOffset.x, member.shadowOffset.y)
      bounds = bounds.union(shadow.pixelBounds(margin: 4 * Double(member.shadowSigma)))
    }
    return bounds
  }

  /// The backdrop pixels a member reads: its shape grown by its reach.
  static func readBounds(_ member: GlassMember) -> PixelRect {
    member.shape.pixelBounds(margin: reach(member))
  }

  /// The group moved by `shift` pixels.
  static func offset(_ composite: GlassComposite, by shift: PixelPoint) -> GlassComposite {
    var moved = composite
    let d = SIMD2(Float(shift.x), Float(shift.y))
    for i in moved.members.indices {
      moved.members[i].shape = moved.members[i].shape.offsetBy(d.x, d.y)
      moved.members[i].glowCenter += d
    }
    moved.backdropOrigin = PixelPoint(x: composite.backdropOrigin.x + shift.x, y: composite.backdropOrigin.y + shift.y)
    return moved
  }
}

extension GlassComposite {
  /// Each member's shape bounds grown by the widest contour and by the most the
  /// blend can pull the field below the member's own distance (each fold of the
  /// smooth minimum dips at most a quarter of the blend radius below the lesser
  /// distance), and a pixel for the anti-aliased edge (`pixelBounds`). Outside
  /// all of them a pixel's coverage and contour ring are 0.
  var memberBodyBounds: [PixelRect] {
    let contour = members.map { $0.contourOpacity > 0 ? Double($0.contourWidth) : 0 }.max() ?? 0
    let dip = Double(members.count - 1) * Double(blendRadius) / 4
    return members.map { $0.shape.pixelBounds(margin: contour + dip) }
  }

  /// The pixels where the body or its contour can show: the box around
  /// `memberBodyBounds`.
  var bodyBounds: PixelRect {
    memberBodyBounds.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
  }

  /// True when no pixel of `rect` can show the body or its contour, so that the
  /// pass there is the shadow alone: `glass.glsl` with SHADOW_ONLY and
  /// `CPUKernels.glassShadow`, the same pixels as the whole program.
  func showsShadowOnly(in rect: PixelRect) -> Bool {
    memberBodyBounds.allSatisfy { rect.intersection($0).isEmpty }
  }
}
