import FuzzDriver
import GLESGlass

#if canImport(Glibc)
  import Glibc
#endif

// libFuzzer target: scene files. For each input:
// - `Scene(json:)` reads and validates it, or throws a GlassError;
// - a scene it reads, written back (`scene.json`) and read again, is the same
//   scene (the format's promise), and validates again;
// - with a transition (SceneTransitionCheck.swift): `validate()` and `frame(at:)`
//   run the same checks, so no moment of a scene that validates is refused; every
//   moment validates, keeps each position's kind, and draws a text from one state
//   at a time, chosen by the curve's progress, never narrower than in both; time 0
//   and before is the first state exactly, the settle time and after the second;
//   two inputs in three render a moment (the time from the input's length) below,
//   and one in four with a small canvas renders the whole animation
//   (`AnimationRenderer`, a few frames): once both states are checked every frame
//   renders, and its ends are the states' own renders, byte for byte;
// - `Renderer.prepare` (validate, fit images, lower, compile, size checks) with a
//   small procedural image for every image the scene names, and a pixel limit of
//   `prepareMaxPixels`, returns a render of the scene's pixel size or throws a
//   GlassError;
// - a prepared render of at most `renderMaxPixels` and `renderMaxBytes` runs on
//   the CPU backend; rendered again by the same renderer from the scene (its
//   pooled images and fitted copies reused; one input in four), it gives the same
//   pixels.
// - a scene with a view tree is laid out, and masks of its views, layers and a
//   rectangle from the input's bytes cover what they name (SceneMaskCheck.swift).
// Anything else (a crash, a trap, a sanitizer report, another error type) is a
// finding. The structure-aware mutator is in SceneMutator.swift.
//
// FUZZ_SCENE_REACH=1 prints one line per input saying how far it got (`reach:
// ...`), to count what a corpus reaches:
//   FUZZ_SCENE_REACH=1 .build-asan/release/fuzz-scene -runs=0 Fuzz/corpus/scene 2>&1 | grep '^reach:'

/// Canvases over this many pixels are refused by `prepare`'s own check (cheaply).
let prepareMaxPixels = 512 * 512

/// Prepared renders up to this size run on the CPU, which keeps executions fast.
let renderMaxPixels = 256 * 256

/// ... and up to this many bytes of intermediate images.
let renderMaxBytes = 64 << 20

/// Whole animations are rendered for canvases up to this size.
let animationMaxPixels = 160 * 120

/// True when FUZZ_SCENE_REACH is set: each input prints how far it got.
let reachReport = getenv("FUZZ_SCENE_REACH") != nil

/// How far an input got, printed with FUZZ_SCENE_REACH.
struct Reach {
  var read = false
  var states = 0
  var textInStates = false
  var transition = false
  var moments = 0
  var prepared = false
  var rendered = false
  var animated = false
  var views = false
  var masks = 0

  var line: String {
    func flag(_ b: Bool) -> Int { b ? 1 : 0 }
    return "reach: read=\(flag(read)) states=\(states) text-in-states=\(flag(textInStates)) "
      + "transition=\(flag(transition)) moments=\(moments) prepared=\(flag(prepared)) rendered=\(flag(rendered)) "
      + "animated=\(flag(animated)) views=\(flag(views)) masks=\(masks)"
  }
}

/// A small image for a path, its size and look fixed by the path: 1x1 to 7x5 pixels,
/// opaque or not, 8 or 16 bits, so fitting, tiling and alpha paths all run.
func image(for path: String) -> RGBAImage {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
  let width = Int(hash % 7) + 1
  let height = Int((hash >> 8) % 5) + 1
  let opaque = (hash >> 16) & 1 == 0
  let image = RGBAImage(width: width, height: height) { x, y in
    let v = UInt8(truncatingIfNeeded: (x * 73 + y * 151) ^ Int(hash >> 24))
    return SIMD4(v, 255 &- v, UInt8(truncatingIfNeeded: x * 40), opaque ? 255 : UInt8(truncatingIfNeeded: y * 60 + 20))
  }
  return (hash >> 17) & 1 == 0 ? image : image.converted(to: .sixteen)
}

/// A procedural image for every image the scene names: its layers' and every state's.
func images(for scene: Scene) -> [String: RGBAImage] {
  var decoded: [String: RGBAImage] = [:]
  var scenes = [scene]
  for state in scene.states {
    if let s = try? scene.state(state.name) { scenes.append(s) }
  }
  for s in scenes {
    for (_, path) in s.imageReferences { decoded[path] = image(for: path) }
  }
  return decoded
}

/// True when any layer draws text: a text layer (a label), or text content on
/// glass (a button's title), a material or a shape, or in a container.
func hasText(_ layers: [Layer]) -> Bool {
  layers.contains { layer in
    switch layer {
    case .text: true
    case .glass(let g): g.content?.text != nil
    case .shape(let s): s.content?.text != nil
    case .material(let m): m.content?.text != nil
    case .container(let c): c.glass.contains { $0.content?.text != nil }
    case .image: false
    }
  }
}

/// The test function libFuzzer runs on each input.
let fuzzScene: FuzzTest = { data, size in
  var reach = Reach()
  defer {
    // Unbuffered, to standard error, where libFuzzer writes.
    if reachReport { _ = (reach.line + "\n").withCString { write(2, $0, strlen($0)) } }
  }
  let bytes = FuzzDriver.bytes(data, size)
  var scene: Scene
  do {
    scene = try Scene(json: bytes)
  } catch is GlassError {
    return 0
  } catch {
    fatalError("fuzz-scene: Scene(json:) threw an error that is not a GlassError: \(error)")
  }
  reach.read = true
  reach.states = scene.states.count
  reach.textInStates = scene.states.contains { hasText($0.layers) }
  do {
    try scene.validate()
  } catch {
    fatalError("fuzz-scene: a scene Scene(json:) read fails validate(): \(error)")
  }
  // The format's promise: what is read, written back, reads the same.
  let written = scene.json
  do {
    let again = try Scene(json: Array(written.utf8))
    if again != scene {
      fatalError(
        "fuzz-scene: the scene written back reads as another scene\nwritten:\n\(written)\nread back:\n\(again.json)")
    }
  } catch {
    fatalError("fuzz-scene: the scene written back does not read: \(error)\nwritten:\n\(written)")
  }
  let decoded = images(for: scene)
  let images = SceneImages(decoded)
  // The view tree's layout, and masks of its views, layers and a rectangle
  // (SceneMaskCheck.swift).
  if scene.body != nil {
    reach.views = true
    reach.masks = checkMasks(scene, images: images, bytes: bytes)
  }
  // The depth from the input's length, so both are exercised.
  let depth: RGBAImage.Depth = size % 4 == 0 ? .sixteen : .eight
  // A scene with a transition: the promises of its moments; two inputs in three go
  // on to render the moment at a time from the input's length instead of the scene
  // as read, and one in four with a small canvas renders its whole animation.
  if let transition = scene.transition {
    reach.transition = true
    var check = SceneTransitionCheck(scene: scene, transition: transition)
    let moment = check.run(at: Double(size % 45) / 60)
    reach.moments = check.momentsChecked
    if size % 4 == 1 && scene.pixelSize.pixelCount <= animationMaxPixels {
      reach.animated = check.renderAnimation(images: decoded, depth: depth, seed: size)
    }
    if size % 3 != 0 { scene = moment }
  }
  var timings = RenderTimings()
  do {
    let prepared = try Renderer.prepare(scene, images: images, depth: depth, maxPixels: prepareMaxPixels)
    reach.prepared = true
    if prepared.size != scene.pixelSize {
      fatalError("fuzz-scene: prepared a render of \(prepared.size) for a canvas of \(scene.pixelSize)")
    }
    guard prepared.size.pixelCount <= renderMaxPixels && prepared.workingBytes <= renderMaxBytes else { return 0 }
    // A renderer per input: one kept for the whole run holds its backend in an
    // enum whose spare pointer bits hide it from LeakSanitizer, a false leak.
    let renderer = try Renderer(backend: .cpu)
    let output = try renderer.render(prepared, timings: &timings)
    reach.rendered = true
    if output.size != scene.pixelSize || output.depth != depth {
      fatalError("fuzz-scene: rendered \(output.size) at \(output.depth), expected \(scene.pixelSize) at \(depth)")
    }
    // Again, for one input in four at each depth (chosen by its length, so a crash
    // reproduces): a second render costs as much as the first.
    guard size % 8 < 2 else { return 0 }
    let again = try renderer.render(scene, images: images, depth: depth, maxPixels: prepareMaxPixels, timings: &timings)
    if again != output { fatalError("fuzz-scene: the same scene rendered twice by one renderer differs") }
  } catch is GlassError {
    return 0
  } catch {
    fatalError("fuzz-scene: prepare or render threw an error that is not a GlassError: \(error)")
  }
  return 0
}
