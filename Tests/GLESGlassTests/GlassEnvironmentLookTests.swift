import Foundation
import GlassTestSupport
import Testing

@testable import GLESGlass

/// Glass in its environments (`GlassLook`): adaptive small glass measured over
/// 200 backdrops, tinted against clear, the Increase Contrast border, dark glass
/// beside the colour model it takes its values from, and dark and Reduce
/// Transparency materials. Every ratio is computed here from rendered pixels by
/// WCAG 2's definitions, not by the audit.
@Suite("Glass in its environments")
struct GlassEnvironmentLookTests {
  /// WCAG 2's relative luminance of 8-bit sRGB channels.
  static func luminance(_ p: SIMD4<Int>) -> Double {
    func channel(_ c: Int) -> Double {
      let s = Double(c) / 255
      return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * channel(p.x) + 0.7152 * channel(p.y) + 0.0722 * channel(p.z)
  }

  static func contrast(_ a: Double, _ b: Double) -> Double { (max(a, b) + 0.05) / (min(a, b) + 0.05) }

  /// A backdrop for the button, 160 x 100 pixels: a window of one of two
  /// photos, its light scaled by an exposure (so that each is seen light and
  /// dark), or a two-colour gradient; `index` picks it, deterministically.
  static func backdrop(_ index: Int, photos: [RGBAImage]) -> RGBAImage {
    var random = SplitMix(state: UInt64(index) &* 7919 &+ 17)
    let width = 160
    let height = 100
    if index % 3 == 2 {
      // A gradient between two random colours, each of random lightness.
      let a = SIMD3((0..<3).map { _ in random.uniform(0, 1) })
      let b = SIMD3((0..<3).map { _ in random.uniform(0, 1) })
      let k = SIMD3(repeating: random.uniform(0.1, 1))
      let vertical = random.uniform(0, 1) < 0.5
      return RGBAImage(width: width, height: height) { x, y in
        let t = vertical ? Double(y) / Double(height - 1) : Double(x) / Double(width - 1)
        let c = (a + (b - a) * t) * k
        return SIMD4(UInt8(c.x * 255), UInt8(c.y * 255), UInt8(c.z * 255), 255)
      }
    }
    let photo = photos[index % 3]
    let x0 = Int(random.uniform(0, Double(photo.width - width)))
    let y0 = Int(random.uniform(0, Double(photo.height - height)))
    // Exposure in linear light: from a twentieth (night) to one and a half.
    let exposure = exp(random.uniform(log(0.05), log(1.5)))
    return RGBAImage(width: width, height: height) { x, y in
      let p = photo.pixel16(x: x0 + x, y: y0 + y)
      func expose(_ c: UInt16) -> UInt8 {
        UInt8((SRGB.encode(min(SRGB.decode(Double(c) / 65535) * exposure, 1)) * 255).rounded())
      }
      return SIMD4(expose(p.x), expose(p.y), expose(p.z), 255)
    }
  }

  /// A small glass button (a 100 x 44 pt capsule) with a label in the automatic
  /// content colour, over the backdrop, at scale 1; without the label when
  /// `label` is false.
  static func button(label: Bool) throws -> Scene {
    let content = label ? #", "content": {"text": "Done", "font": {"size": 20, "weight": "semibold"}}"# : ""
    let json = """
      {"version": 1, "size": {"width": 160, "height": 100}, "scale": 1, "background": {"image": "bg"},
       "layers": [{"type": "glass", "shape": {"type": "capsule"},
                   "frame": {"x": 30, "y": 28, "width": 100, "height": 44}\(content)}]}
      """
    return try Scene(json: Array(json.utf8))
  }

  /// The WCAG ratio of the label against its own glass, from the pixels: the
  /// label's pixels are those the label changes by at least half of the most
  /// it changes any; its colour is black or white (the automatic colour),
  /// whichever way those pixels moved; the glass behind is their mean luminance
  /// rendered without the label.
  static func labelContrast(with: RGBAImage, without: RGBAImage) -> Double {
    var changes: [(Int, Int, Int)] = []
    for y in 28..<72 {
      for x in 30..<130 {
        let a = with.rgba8(x, y)
        let b = without.rgba8(x, y)
        changes.append((x, y, max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))))
      }
    }
    let most = changes.map(\.2).max() ?? 0
    let label = changes.filter { $0.2 * 2 >= most && most > 0 }
    var behind = 0.0
    var moved = 0.0
    for (x, y, _) in label {
      let b = luminance(without.rgba8(x, y))
      behind += b
      moved += luminance(with.rgba8(x, y)) - b
    }
    behind /= Double(max(label.count, 1))
    return contrast(moved < 0 ? 0 : 1, behind)
  }

  @Test(
    "adaptive glass: over 200 photos and gradients, light and dark, a small button's label meets 4.5:1 on its glass in 99 %, in both schemes"
  )
  func adaptiveGlassOver200Backdrops() throws {
    let photos = [
      ProceduralImages.landscape(width: 480, height: 240), ProceduralPhotos.flowers(width: 480, height: 240),
      ProceduralImages.landscape(width: 320, height: 400),
    ]
    let withLabel = try Self.button(label: true)
    let withoutLabel = try Self.button(label: false)
    var passes: [String: Int] = [:]
    var darkGlass = 0
    var worst: [String: Double] = [:]
    for index in 0..<200 {
      let images = ["bg": Self.backdrop(index, photos: photos)]
      for scheme in [ColorScheme.light, .dark] {
        for adaptive in [true, false] {
          var env = EnvironmentValues()
          env.colorScheme = scheme
          env.adaptiveGlass = adaptive
          let with = try TestBackend.cpu.render(withLabel.environment(env), images: images)
          let without = try TestBackend.cpu.render(withoutLabel.environment(env), images: images)
          let ratio = Self.labelContrast(with: with, without: without)
          let key = "\(scheme.rawValue), adaptivity \(adaptive ? "on" : "off")"
          if ratio >= 4.5 { passes[key, default: 0] += 1 }
          worst[key] = min(worst[key] ?? .infinity, ratio)
          if adaptive && scheme == .light {
            // Which look the button took, by the renderer's own decision.
            let laid = try withLabel.environment(env).laidOut(images: SceneImages(images))
            let lowering = SceneLowering(
              scene: laid, images: SceneImages(images), depth: .eight, caches: RenderCaches())
            if try lowering.glassLook(at: 0).colorScheme == .dark { darkGlass += 1 }
          }
        }
      }
    }
    print("adaptive glass, labels at 4.5:1 or more of 200: \(passes.sorted { $0.key < $1.key }); worst \(worst)")
    print("adaptive glass, light scheme: \(darkGlass) of 200 buttons took the dark look")
    #expect((passes["light, adaptivity on"] ?? 0) >= 198)
    #expect((passes["dark, adaptivity on"] ?? 0) >= 198)
    // Off, dark glass keeps a white label over light backdrops, where it fails.
    #expect((passes["dark, adaptivity off"] ?? 0) < 190)
    // The backdrops are light and dark: some buttons flip, most do not.
    #expect(darkGlass >= 10 && darkGlass <= 190)
  }

  /// The transmittance of regular glass's body: how much of a change from a
  /// black to a white backdrop shows through it, in 8-bit sRGB steps over 255,
  /// at the centre of a 200 x 200 pt glass (far inside its bevel), in `env`.
  static func transmittance(_ env: EnvironmentValues) throws -> (black: Int, white: Int, share: Double) {
    func centre(_ background: String) throws -> Int {
      let json = """
        {"version": 1, "size": {"width": 260, "height": 260}, "scale": 1, "background": "\(background)",
         "layers": [{"type": "glass", "shape": {"type": "rect"}, "frame": {"x": 30, "y": 30, "width": 200, "height": 200}}]}
        """
      let image = try TestBackend.cpu.render(try Scene(json: Array(json.utf8)).environment(env))
      return image.rgba8(130, 130).y
    }
    let black = try centre("#000000")
    let white = try centre("#FFFFFF")
    return (black, white, Double(white - black) / 255)
  }

  @Test("tinted glass lets through at most 0.6 of the backdrop clear glass lets through, light and dark")
  func tintedIsMoreOpaque() throws {
    for scheme in [ColorScheme.light, .dark] {
      var env = EnvironmentValues()
      env.colorScheme = scheme
      let clear = try Self.transmittance(env)
      env.glassAppearance = .tinted
      let tinted = try Self.transmittance(env)
      print(
        "transmittance, \(scheme): clear \(clear.share) (black \(clear.black), white \(clear.white)), "
          + "tinted \(tinted.share) (black \(tinted.black), white \(tinted.white))")
      #expect(tinted.share <= 0.6 * clear.share && tinted.share > 0, "\(scheme): \(clear) against \(tinted)")
    }
  }

  @Test("dark glass equals flutter_liquid_glass's fitted dark model over greys, within 1/255, at both sizes")
  func darkGlassBesideTheColourModel() throws {
    // The port's model in the sRGB encoding (GlassColorParameters.ios27Dark):
    // 32/255 + t * (y + y (1 - y)), t 0.597 up to 75 pt and 0.447 from 105 pt.
    for (side, t) in [(44.0, 0.597), (200.0, 0.447)] {
      for level in stride(from: 0, through: 255, by: 15) {
        let hex = String(format: "#%02X%02X%02X", level, level, level)
        let json = """
          {"version": 1, "size": {"width": 260, "height": 260}, "scale": 1, "background": "\(hex)",
           "environment": {"colorScheme": "dark", "adaptiveGlass": false},
           "layers": [{"type": "glass", "shape": {"type": "rect"},
                       "frame": {"x": 30, "y": 30, "width": 200, "height": \(side)}}]}
          """
        let image = try TestBackend.cpu.render(try Scene(json: Array(json.utf8)))
        let got = image.rgba8(130, 30 + Int(side / 2)).y
        let y = Double(level) / 255
        let expected = Int((min(32.0 / 255 + t * (y + y * (1 - y)), 1) * 255).rounded())
        #expect(abs(got - expected) <= 1, "side \(side), grey \(level): \(got) against the model's \(expected)")
      }
    }
  }

  @Test(
    "Increase Contrast: over 60 backdrops the glass's border stands at least 3:1 from the backdrop; without it, it does not"
  )
  func increaseContrastBorder() throws {
    var random = SplitMix(state: 23)
    var failures: [String] = []
    var plainBelow = 0
    var ratios: [Double] = []
    for i in 0..<60 {
      // Uniform backdrops of every lightness, and gentle gradients.
      let level = random.uniform(0, 1)
      let hue = SIMD3((0..<3).map { _ in random.uniform(0.6, 1) })
      let a = hue * level
      let b = hue * min(level * random.uniform(0.8, 1.25), 1)
      let background =
        i % 2 == 0
        ? "\"\(Self.hex(a))\""
        : #"{"linearGradient": {"colors": ["\#(Self.hex(a))", "\#(Self.hex(b))"], "startPoint": "top", "endPoint": "bottom"}}"#
      let json = """
        {"version": 1, "size": {"width": 200, "height": 120}, "scale": 2, "background": \(background),
         "layers": [{"type": "glass", "shape": {"type": "capsule"}, "frame": {"x": 40, "y": 38, "width": 120, "height": 44}}]}
        """
      let scene = try Scene(json: Array(json.utf8))
      let backdrop = try TestBackend.cpu.render(Scene(json: Array(json.utf8)).removingLayers())
      for increase in [true, false] {
        let image = try TestBackend.cpu.render(scene.environment(\.accessibilityIncreaseContrast, increase))
        // The border: the pixels half a point outside the flat top edge (y = 38 pt).
        var worst = Double.infinity
        for x in stride(from: 120, to: 280, by: 8) {
          let border = Self.luminance(image.rgba8(x, 75))
          let behind = Self.luminance(backdrop.rgba8(x, 75))
          worst = min(worst, Self.contrast(border, behind))
        }
        if increase {
          ratios.append(worst)
          if worst < 3 { failures.append("backdrop \(i) (\(background)): \(worst)") }
        } else if worst < 3 {
          plainBelow += 1
        }
      }
    }
    print(
      "Increase Contrast border against the backdrop: least \(ratios.min() ?? 0), median \(ratios.sorted()[30]); "
        + "without it \(plainBelow) of 60 below 3:1")
    #expect(failures.isEmpty, "\(failures)")
    #expect(plainBelow > 30)
  }

  @Test("Show Borders: interactive glass gets a border 3:1 from its backdrop; other glass is left exactly as it is")
  func showBorders() throws {
    var random = SplitMix(state: 29)
    for i in 0..<20 {
      let level = random.uniform(0, 1)
      let color = Self.hex(SIMD3(repeating: level) * SIMD3(1, random.uniform(0.6, 1), random.uniform(0.6, 1)))
      func scene(interactive: Bool) throws -> Scene {
        let json = """
          {"version": 1, "size": {"width": 200, "height": 120}, "scale": 2, "background": "\(color)",
           "layers": [{"type": "glass", "glass": {"variant": "regular", "interactive": \(interactive)},
                       "shape": {"type": "capsule"}, "frame": {"x": 40, "y": 38, "width": 120, "height": 44}}]}
          """
        return try Scene(json: Array(json.utf8))
      }
      let button = try scene(interactive: true)
      let bordered = try TestBackend.cpu.render(button.environment(\.accessibilityShowBorders, true))
      let backdrop = try TestBackend.cpu.render(button.removingLayers())
      let ratio =
        (120..<280).map { x in
          Self.contrast(Self.luminance(bordered.rgba8(x, 75)), Self.luminance(backdrop.rgba8(x, 75)))
        }.min() ?? 0
      #expect(ratio >= 3, "backdrop \(i) \(color): the border is \(ratio):1")
      let plain = try scene(interactive: false)
      let a = try TestBackend.cpu.render(plain)
      let b = try TestBackend.cpu.render(plain.environment(\.accessibilityShowBorders, true))
      #expect(try ImageComparison(a, b).maxDifference == 0, "backdrop \(i): glass that is not interactive changed")
    }
  }

  /// The high-pass energy of the luminance in `rect` (8-bit steps squared):
  /// the mean square of each pixel less the mean of the (2r + 1)² pixels
  /// around it, the detail finer than about 2r pixels that a blur takes out.
  static func highPassEnergy(_ image: RGBAImage, _ rect: PixelRect, radius r: Int) -> Double {
    let w = image.width
    var lum = [Double](repeating: 0, count: w * image.height)
    for y in 0..<image.height {
      for x in 0..<w {
        let p = image.rgba8(x, y)
        lum[y * w + x] = 0.2126 * Double(p.x) + 0.7152 * Double(p.y) + 0.0722 * Double(p.z)
      }
    }
    // A summed-area table: the sum of the window is four reads.
    var table = [Double](repeating: 0, count: (w + 1) * (image.height + 1))
    for y in 0..<image.height {
      var row = 0.0
      for x in 0..<w {
        row += lum[y * w + x]
        table[(y + 1) * (w + 1) + x + 1] = table[y * (w + 1) + x + 1] + row
      }
    }
    func windowSum(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Double {
      table[y1 * (w + 1) + x1] - table[y0 * (w + 1) + x1] - table[y1 * (w + 1) + x0] + table[y0 * (w + 1) + x0]
    }
    var sum = 0.0
    for y in rect.y..<rect.maxY {
      for x in rect.x..<rect.maxX {
        let local = windowSum(x - r, y - r, x + r + 1, y + r + 1)
        let d = lum[y * w + x] - local / Double((2 * r + 1) * (2 * r + 1))
        sum += d * d
      }
    }
    return sum / Double(rect.pixelCount)
  }

  @Test(
    "Reduce Transparency: regular glass over a photo passes under a tenth of the detail finer than 32 pt it passes by default"
  )
  func reduceTransparencyHighPass() throws {
    let photo = ProceduralPhotos.flowers(width: 480, height: 300)
    let json = """
      {"version": 1, "size": {"width": 240, "height": 150}, "scale": 2, "background": {"image": "photo"},
       "layers": [{"type": "glass", "shape": {"type": "roundedRect", "cornerRadius": 20},
                   "frame": {"x": 10, "y": 10, "width": 220, "height": 130}}]}
      """
    let scene = try Scene(json: Array(json.utf8))
    // The body: every pixel of each window lies inside the 20 pt bevel.
    let body = PixelRect(x: 100, y: 100, width: 280, height: 100)
    let backdrop = try TestBackend.cpu.render(scene.removingLayers(), images: ["photo": photo])
    let plain = try TestBackend.cpu.render(scene, images: ["photo": photo])
    let reduced = try TestBackend.cpu.render(
      scene.environment(\.accessibilityReduceTransparency, true), images: ["photo": photo])
    // Detail finer than about 32 pt (a 65 x 65 px window at scale 2).
    let energies = [backdrop, plain, reduced].map { Self.highPassEnergy($0, body, radius: 32) }
    print(
      "high-pass energy in the body: backdrop \(energies[0]), regular glass \(energies[1]), "
        + "Reduce Transparency \(energies[2]); factor \(energies[1] / max(energies[2], 1e-9))")
    #expect(energies[0] > 2 * energies[1] && energies[2] * 10 < energies[1], "\(energies)")
  }

  static func hex(_ c: SIMD3<Double>) -> String {
    String(
      format: "#%02X%02X%02X", Int((min(max(c.x, 0), 1) * 255).rounded()), Int((min(max(c.y, 0), 1) * 255).rounded()),
      Int((min(max(c.z, 0), 1) * 255).rounded()))
  }

  @Test("materials: dark is darker than light over the same photo; Reduce Transparency hides most of its detail")
  func materials() throws {
    let photo = ProceduralImages.landscape(width: 240, height: 160)
    let json = """
      {"version": 1, "size": {"width": 240, "height": 160}, "scale": 1, "background": {"image": "photo"},
       "layers": [{"type": "material", "material": "thin", "shape": {"type": "rect"},
                   "frame": {"x": 20, "y": 20, "width": 200, "height": 120}}]}
      """
    let scene = try Scene(json: Array(json.utf8))
    let rect = PixelRect(x: 40, y: 40, width: 160, height: 80)
    func mean(_ image: RGBAImage) -> Double {
      var sum = 0.0
      for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { sum += Self.luminance(image.rgba8(x, y)) } }
      return sum / Double(rect.pixelCount)
    }
    let light = try TestBackend.cpu.render(scene, images: ["photo": photo])
    let dark = try TestBackend.cpu.render(scene.environment(\.colorScheme, .dark), images: ["photo": photo])
    let reduced = try TestBackend.cpu.render(
      scene.environment(\.accessibilityReduceTransparency, true), images: ["photo": photo])
    let plainDetail = EnvironmentTests.detailEnergy(light, rect)
    let reducedDetail = EnvironmentTests.detailEnergy(reduced, rect)
    print(
      "thin material: luminance light \(mean(light)), dark \(mean(dark)); detail \(plainDetail), Reduce Transparency \(reducedDetail)"
    )
    #expect(mean(dark) * 3 < mean(light))
    #expect(reducedDetail * 10 < plainDetail)
  }
}

extension Scene {
  /// The scene without its layers: its backdrop alone.
  func removingLayers() -> Scene {
    var copy = self
    copy.layers = []
    return copy
  }
}
